"""Schemathesis against a live gunicorn, from /api/openapi.json, all checks,
bounded examples: the OpenAPI document and the server agree (0 failures).

Every operation is fuzzed, the checker's included.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "tests" / "schemathesis" / "schemathesis.toml"
# bounded: its fuzzing phase (about 20 s at 30) is client-bound, as is the coverage phase
# (about 50 s, not bounded by it): the server answered the coverage phase's 866 requests
# in about 5 s of its own; CI's time limit is near
MAX_EXAMPLES = 15

pytestmark = pytest.mark.system


def _st() -> Path:
    st = Path(sys.executable).parent / "st"
    if not st.exists():
        pytest.fail("schemathesis is not installed: `pip install -e '.[test]'`")
    return st


def test_schemathesis_finds_no_failure_against_a_live_server(real_live_server):
    live_server = real_live_server
    command = [
        str(_st()),
        "--config-file",
        str(CONFIG),
        "run",
        f"{live_server.url}/api/openapi.json",
        "--url",
        live_server.url,
        "--checks",
        "all",
        "--max-examples",
        str(MAX_EXAMPLES),
        "--seed",
        "1",
        "--no-color",
    ]
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=300, cwd=ROOT, check=False
    )
    assert result.returncode == 0, result.stdout[-8000:] + result.stderr[-2000:]
