"""A request that runs longer than gunicorn's ``timeout`` gets its worker replaced
(`faq_bot.gunicorn_worker.GermanThreadWorker.notify`): gthread's main loop reports the
worker alive while a pool thread computes, so gunicorn's own timeout never fired."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from faq_bot.serving import WORKER_CLASS

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.system

# a WSGI app whose /slow runs far longer than the timeout; / answers at once
APP = """
import time

def app(environ, start_response):
    if environ["PATH_INFO"] == "/slow":
        time.sleep(40)
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"ok"]
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_request_running_past_the_timeout_gets_its_worker_replaced(tmp_path: Path) -> None:
    (tmp_path / "slowapp.py").write_text(APP, encoding="utf-8")
    port = _free_port()
    log = tmp_path / "gunicorn.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-k", WORKER_CLASS, "-w", "1",
             "--threads", "2", "--timeout", "3", "--pythonpath", str(tmp_path),
             "-b", f"127.0.0.1:{port}", "slowapp:app"],
            cwd=ROOT, stdout=out, stderr=out,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + "/", timeout=2) as response:
                    assert response.read() == b"ok"
                break
            except OSError:
                assert time.monotonic() < deadline and process.poll() is None
                time.sleep(0.1)
        started = time.monotonic()
        with pytest.raises(OSError):  # the worker is killed: the connection drops
            urllib.request.urlopen(url + "/slow", timeout=25).read()
        assert time.monotonic() - started < 25
        assert "WORKER TIMEOUT" in log.read_text(encoding="utf-8", errors="replace")
        deadline = time.monotonic() + 60  # and a new worker answers
        while True:
            try:
                with urllib.request.urlopen(url + "/", timeout=2) as response:
                    assert response.read() == b"ok"
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
