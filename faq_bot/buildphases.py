"""The phases of an index build: wall and CPU seconds of each, announced as they run.

``Phases(report=None)``
    ``with phases.phase("whoosh"): ...`` times one phase: wall seconds and CPU
    seconds (this process's, plus those of child processes that ended inside
    it, e.g. the embedding workers). ``report(name, None)`` is called when a
    phase starts and ``report(name, figures)`` when it ends (the CLI prints
    phase lines or draws its progress bars from these). ``as_json()`` gives
    ``{name: {"seconds": s, "cpu": s}}`` in the order the phases ran; the build
    stores it in its ``meta.json`` and `benchmarks/dense.py` prints it.

Phase names (see `faq_bot.indexbuild`): ``corpus`` (read and split the documents,
cross references), ``vocabulary``, ``morphology`` (HanTa over the distinct
words), ``whoosh`` (the rest of the analyzer and the Whoosh writer),
``commit`` (Whoosh writes its segment), ``impacts``, ``embeddings`` and
``store`` (entry store, offline data, vocabulary). The embedding workers start when
``corpus`` ends and run beside the phases up to ``embeddings``, which is the wait for
what they have left (their CPU seconds land there, when the workers end).
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["PHASES", "Phases", "Report"]

Report = Callable[[str, "dict[str, float] | None"], None]

PHASES = (
    "corpus",
    "vocabulary",
    "morphology",
    "whoosh",
    "commit",
    "impacts",
    "embeddings",
    "store",
)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Phases:
    """Wall and CPU seconds per build phase."""

    def __init__(self, report: Report | None = None):
        self.report = report
        self.figures: dict[str, dict[str, float]] = {}

    @contextmanager
    def phase(self, name: str) -> Iterator[dict[str, float]]:
        """Time the phase `name`; the dict it gives takes more figures of the phase
        (``skipped``: 1.0 for one that had nothing to do, as embedding without an embedder)."""
        if self.report is not None:
            self.report(name, None)
        wall, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
        marks: dict[str, float] = {}
        yield marks
        figures = {
            "seconds": round(time.perf_counter() - wall, 3),
            "cpu": round(time.process_time() - cpu + _children_cpu() - children, 3),
            **marks,
        }
        self.figures[name] = figures
        if self.report is not None:
            self.report(name, figures)

    def as_json(self) -> dict[str, dict[str, float]]:
        return dict(self.figures)
