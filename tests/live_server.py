"""A real gunicorn serving the app on loopback, for tests that need real HTTP
(chunked bodies, the request-line limit, schemathesis).

`start_gunicorn(index_dir)` returns a `LiveServer` (its base URL, a `stop()`).
The session fixture ``live_server`` serves the one-document build (`tiny_built_index`)
for tests of HTTP mechanics, where the corpus is not the point: a worker that
opens and warms the real corpus costs a few seconds of CPU. ``real_live_server``
serves the session's real index (schemathesis fuzzes the API against it).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from faq_bot.serving import WORKER_CLASS
from faq_bot.web.limits import MAX_REQUEST_LINE

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class LiveServer:
    host: str
    port: int
    process: subprocess.Popen

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(
    index_dir: Path, *extra: str, log: Path | None = None, root: str = ""
) -> LiveServer:
    """gunicorn with one worker on a free loopback port, serving `index_dir`; under the
    path `root` (its ``SCRIPT_NAME``, as behind a proxy's ``location /faq/``) if given."""
    port = _free_port()
    env = dict(os.environ, FAQ_BOT_INDEX=str(index_dir))
    if root:
        env["SCRIPT_NAME"] = root
    out = open(log, "wb") if log else subprocess.DEVNULL  # noqa: SIM115
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-k",
            WORKER_CLASS,
            "-w",
            "1",
            "--threads",
            "2",
            "-b",
            f"127.0.0.1:{port}",
            "--limit-request-line",
            str(MAX_REQUEST_LINE),
            *extra,
            "faq_bot.web:create_app()",
        ],
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=out,
    )
    if log:
        out.close()  # the child writes through its own copy
    server = LiveServer("127.0.0.1", port, process)
    deadline = time.monotonic() + 60  # a loaded 2-core machine needs 20 s and more to start it
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {process.returncode}")
        try:
            with urllib.request.urlopen(server.url + root + "/healthz", timeout=2):
                return server
        except OSError:
            time.sleep(0.05)
    server.stop()
    raise RuntimeError("gunicorn did not answer /healthz within 60 s")


@pytest.fixture(scope="session")
def live_server(tiny_built_index: Path) -> Iterator[LiveServer]:
    server = start_gunicorn(tiny_built_index)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def real_live_server(built_index: Path) -> Iterator[LiveServer]:
    server = start_gunicorn(built_index)
    yield server
    server.stop()
