"""Hypothesis profiles: "ci" (what `make test` and CI run) and "dev" (the fast local suite).

Speed targets live in benchmarks/, not in tests: no per-example deadline, which
would fail at random on a loaded machine. A property test states its example
count for CI with ``@settings(max_examples=examples(N))``: N under "ci", a tenth
of it (at least 10) under "dev". Tests without a count get the profile's
default. ``HYPOTHESIS_PROFILE`` chooses; without it, "ci" when ``CI=true``.
"""

from __future__ import annotations

import os

from hypothesis import settings

PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or (
    "ci" if os.environ.get("CI", "").lower() == "true" else "dev"
)

settings.register_profile("dev", deadline=None, max_examples=30)
settings.register_profile("ci", deadline=None, max_examples=100, print_blob=True)
settings.load_profile(PROFILE)


def examples(ci: int) -> int:
    """The example count of a property test: `ci` in CI, a tenth of it (at least 10) in dev."""
    return ci if PROFILE == "ci" else max(10, ci // 10)
