"""Stopping a real build process the way a supervisor does (SIGTERM), shared by the tests
of `faq-bot index` and of `faq-bot serve`'s first build."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

# as the installed `faq-bot` starts (its console entry)
FAQ_BOT = [sys.executable, "-c", "from faq_bot.launch import run; run()"]


def sigterm_after_corpus_phase(args: list[str], before: str | None = None) -> tuple[int, str]:
    """Run `faq-bot ARGS` with the real embedder in two worker processes, send SIGTERM half a
    second after its corpus phase's line (the workers are at work then), and return its exit
    code and what it wrote to stderr after that line. `before`: text of the one line the
    command writes before the corpus phase's."""
    env = {**os.environ, "FAQ_BOT_DENSE": "1", "FAQ_BOT_EMBED_PROCESSES": "2"}
    with subprocess.Popen(FAQ_BOT + args, stderr=subprocess.PIPE, text=True, env=env) as build:
        assert build.stderr is not None
        if before is not None:
            line = build.stderr.readline()
            assert before in line, line
        first = build.stderr.readline()
        assert first.startswith("Korpus lesen und zerlegen"), first
        time.sleep(0.5)
        build.send_signal(signal.SIGTERM)
        rest = build.stderr.read()
        code = build.wait(timeout=60)
    return code, rest


def no_build_left(index_dir: Path) -> bool:
    """No build folder, finished or half-written, under `index_dir`."""
    builds = index_dir / "builds"
    return not builds.exists() or list(builds.iterdir()) == []


def ctrl_c_twice_after(args: list[str], phase: str) -> tuple[int, str, float]:
    """Run `faq-bot ARGS` with the real embedder in two worker processes and press Ctrl+C
    twice as a terminal does (SIGINT to the whole process group, the workers too) half a
    second after the line of `phase` and again 0.3 s later; its exit code, what it wrote to
    stderr after that line, and the seconds from the first press to its end."""
    env = {**os.environ, "FAQ_BOT_DENSE": "1", "FAQ_BOT_EMBED_PROCESSES": "2"}
    with subprocess.Popen(
        FAQ_BOT + args, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True
    ) as build:
        assert build.stderr is not None
        for line in build.stderr:
            if line.startswith(phase):
                break
        else:
            raise AssertionError(f"no line {phase!r}")
        time.sleep(0.5)
        pressed = time.monotonic()
        os.killpg(build.pid, signal.SIGINT)
        time.sleep(0.3)
        try:
            os.killpg(build.pid, signal.SIGINT)
        except ProcessLookupError:  # already ended after the first
            pass
        try:
            code = build.wait(timeout=60)
        except subprocess.TimeoutExpired:  # the hang this pins: ended, so the test fails
            os.killpg(build.pid, signal.SIGKILL)
            code = build.wait()
        rest = build.stderr.read()
    return code, rest, time.monotonic() - pressed
