"""`faq-bot serve` (the README's run command) keeps its resources flat under load.

The bug this pins (issue 8): every request opened one more file, and after about
1,000 requests every route answered 500 "Too many open files". These tests start
the real command as a subprocess on loopback, send a few thousand requests over
mixed routes and read each serving process's open files (``/proc/<pid>/fd``) and
resident memory before and after. Growth must be bounded (a small constant, not
one per request), no answer may be a 5xx, and no worker may have been replaced
(a restarted worker would hide a leak).
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest

from faq_bot.config import ROOT
from faq_bot.index import open_index
from faq_bot.indexbuild import build_index

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs Linux /proc"),
]

FAQ_BOT = Path(sys.executable).with_name("faq-bot")
QUESTIONS = ROOT / "eval" / "heldout-questions.jsonl"
# a few thousand by default; FAQ_BOT_SOAK_REQUESTS=10000 for the longer soak
REQUESTS = int(os.environ.get("FAQ_BOT_SOAK_REQUESTS", "3000"))
WARMUP = 300  # requests before the baseline: every thread has opened what it keeps
CLIENTS = 4
FD_GROWTH = 12  # open files a process may gain after the warm-up (not one per request)
RSS_GROWTH_KB = 40 * 1024


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    proc: subprocess.Popen
    port: int
    index_dir: Path

    def pids(self) -> list[int]:
        """The processes that serve requests: gunicorn's workers, or the one process."""
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        pids = [int(p) for p in children.read_text().split()]
        return pids or [self.proc.pid]


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


def snapshot(server: Server) -> dict[int, tuple[int, int]]:
    return {pid: (open_files(pid), rss_kb(pid)) for pid in server.pids()}


def wait_healthy(server: Server, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise AssertionError(f"faq-bot serve ended with {server.proc.returncode}")
        # closed on every path: a server still starting (a timeout) must not leave
        # an unclosed socket, which pytest's warning filter turns into an error
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        try:
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass  # not listening yet, or still warming up
        finally:
            conn.close()
        time.sleep(0.2)
    raise AssertionError("faq-bot serve did not become healthy")


def start(tmp_path: Path, built_index: Path, *options: str) -> Iterator[Server]:
    """`faq-bot serve` on a copy of the session's real index (rebuilt by one test)."""
    index_dir = tmp_path / "index"
    shutil.copytree(built_index, index_dir, symlinks=True)
    port = free_port()
    env = {**os.environ, "FAQ_BOT_ACCESS_LOG": "0"}
    env.pop("FAQ_BOT_WORKERS", None)
    log = (tmp_path / "serve.log").open("wb")
    proc = subprocess.Popen(
        [str(FAQ_BOT), "serve", "--port", str(port), "--index", str(index_dir), *options],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    server = Server(proc, port, index_dir)
    try:
        wait_healthy(server)
        yield server
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture
def gunicorn_server(tmp_path: Path, built_index: Path) -> Iterator[Server]:
    yield from start(tmp_path, built_index, "--workers", "2")


@pytest.fixture
def debug_server(tmp_path: Path, built_index: Path) -> Iterator[Server]:
    yield from start(tmp_path, built_index, "--debug")


def mixed_requests(index_dir: Path, count: int) -> list[tuple[str, str, bytes | None]]:
    """(method, path, body) over the main routes, with real questions as queries."""
    # the questions' first words: real, varied queries, cheaper than whole questions
    # (what is measured here is what a request leaves behind, not search speed)
    questions = [
        " ".join(json.loads(line)["q"].split()[:4])
        for line in QUESTIONS.read_text("utf-8").splitlines()
        if line
    ]
    index = open_index(index_dir)
    ids = [record.id for record in index.entries()]
    index.close()
    requests: list[tuple[str, str, bytes | None]] = []
    for i in range(count):
        q = questions[i % len(questions)]
        entry = ids[(i * 7) % len(ids)]
        kind = i % 10  # three in ten search (the routes that open searchers)
        if kind == 0:
            requests.append(("GET", f"/search?q={quote(q)}", None))
        elif kind == 1:
            requests.append(("GET", f"/api/search?q={quote(q)}", None))
        elif kind == 2:
            requests.append(("POST", "/api/ask", json.dumps({"question": q}).encode()))
        elif kind == 3:
            requests.append(("GET", "/", None))
        elif kind == 4:
            requests.append(("GET", "/healthz", None))
        elif kind in (5, 6):
            requests.append(("GET", f"/api/entries/{entry}", None))
        else:
            requests.append(("GET", f"/entry/{entry}", None))
    return requests


def fire(port: int, requests: list[tuple[str, str, bytes | None]]) -> Counter[int]:
    """Send all requests from `CLIENTS` threads, a new connection for each, like a
    browser opening links; the statuses counted (0: the connection failed)."""
    statuses: Counter[int] = Counter()
    lock = threading.Lock()
    todo = iter(requests)

    def client() -> None:
        while True:
            with lock:
                item = next(todo, None)
            if item is None:
                return
            method, path, body = item
            headers = {"Content-Type": "application/json"} if body else {}
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                status = response.status
                conn.close()
            except OSError:
                status = 0
            with lock:
                statuses[status] += 1

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def assert_flat_under_load(server: Server, count: int = REQUESTS) -> None:
    requests = mixed_requests(server.index_dir, count)
    warm = fire(server.port, requests[:WARMUP])
    before = snapshot(server)
    rest = fire(server.port, requests[WARMUP:])
    after = snapshot(server)

    statuses = warm + rest
    assert sum(statuses.values()) == count
    failed = {status: n for status, n in statuses.items() if status == 0 or status >= 500}
    assert not failed, f"failed answers (status: count): {failed}, all: {dict(statuses)}"
    assert set(after) == set(before), "a worker was replaced while serving"
    for pid, (files, rss) in after.items():
        files_before, rss_before = before[pid]
        assert files - files_before <= FD_GROWTH, (
            f"process {pid}: open files {files_before} -> {files} after {count - WARMUP} requests"
        )
        assert rss - rss_before <= RSS_GROWTH_KB, (
            f"process {pid}: RSS {rss_before} kB -> {rss} kB after {count - WARMUP} requests"
        )


def test_serve_keeps_open_files_and_memory_flat_over_thousands_of_requests(gunicorn_server):
    assert len(gunicorn_server.pids()) == 2  # --workers 2: gunicorn's workers, not one process
    assert_flat_under_load(gunicorn_server)


def test_serve_keeps_open_files_flat_across_an_index_swap(gunicorn_server):
    """A rebuild while serving: the old build's files are closed, not piled up."""
    requests = mixed_requests(gunicorn_server.index_dir, 150)
    fire(gunicorn_server.port, requests)
    before = snapshot(gunicorn_server)
    for _ in range(3):  # three swaps: each retired build must be let go
        build_index(ROOT / "corpus", gunicorn_server.index_dir)
        statuses = fire(gunicorn_server.port, requests)
        assert not [s for s in statuses if s == 0 or s >= 500], dict(statuses)
    after = snapshot(gunicorn_server)
    assert set(after) == set(before)
    for pid, (files, _) in after.items():
        assert files - before[pid][0] <= FD_GROWTH, f"process {pid}: {before[pid][0]} -> {files}"


def test_serve_debug_keeps_open_files_flat(debug_server):
    assert_flat_under_load(debug_server, count=800)
