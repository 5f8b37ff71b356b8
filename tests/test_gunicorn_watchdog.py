"""How the service's gunicorn worker (`faq_bot.gunicorn_worker.GermanThreadWorker`) bounds
what one request or client can hold: a request that runs longer than gunicorn's ``timeout``
gets its worker replaced (`notify`: gthread's main loop reported the worker alive while a
pool thread computed, so gunicorn's own timeout never fired); a stalled body and headers that
trickle in are ended; a worker whose threads are all at work leaves new connections to the
others."""

from __future__ import annotations

import contextlib
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
import os
import time

def app(environ, start_response):
    if environ["PATH_INFO"] == "/pid":  # which worker answered
        pid = str(os.getpid()).encode()
        start_response("200 OK", [("Content-Length", str(len(pid)))])
        return [pid]
    if environ["PATH_INFO"] == "/slow":
        time.sleep(40)
    if environ["PATH_INFO"] == "/upload":  # reads the body, then computes a little
        size = int(environ["CONTENT_LENGTH"])
        try:
            short = len(environ["wsgi.input"].read(size)) != size
        except OSError:  # gunicorn's NoMoreData
            short = True
        if short:
            start_response("400 Bad Request", [("Content-Length", "2")])
            return [b"no"]
        time.sleep(1)
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", "2")])
    return [b"ok"]
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start(
    tmp_path: Path, workers: int = 1, threads: int = 2
) -> tuple[subprocess.Popen[bytes], int, Path]:
    """gunicorn with the service's worker class and a 3 s timeout over `APP`, every worker
    booted and answering."""
    (tmp_path / "slowapp.py").write_text(APP, encoding="utf-8")
    port = _free_port()
    log = tmp_path / "gunicorn.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-k", WORKER_CLASS, "-w", str(workers),
             "--threads", str(threads), "--timeout", "3", "--pythonpath", str(tmp_path),
             "-b", f"127.0.0.1:{port}", "slowapp:app"],
            cwd=ROOT, stdout=out, stderr=out,
        )  # fmt: skip
    deadline = time.monotonic() + 60
    while True:
        try:
            booted = log.read_text(encoding="utf-8", errors="replace").count("Booting worker")
            assert booted >= workers, "not every worker has booted yet"
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                assert response.read() == b"ok"
            return process, port, log
        except (OSError, AssertionError):
            if time.monotonic() > deadline or process.poll() is not None:
                _stop(process)
                raise
            time.sleep(0.1)


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def test_a_request_running_past_the_timeout_gets_its_worker_replaced(tmp_path: Path) -> None:
    process, port, log = _start(tmp_path)
    url = f"http://127.0.0.1:{port}"
    try:
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
        _stop(process)


def test_a_slow_upload_does_not_count_against_the_timeout(tmp_path: Path) -> None:
    # the client sends its body over more than the timeout (3 s), within `BODY_WAIT`
    # timeouts: waiting for it is not the app's work, so the worker (and the other
    # requests it serves) stays
    process, port, log = _start(tmp_path)
    body = b"x" * 14
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(
                b"POST /upload HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                b"Content-Length: %d\r\n\r\n" % len(body)
            )
            for byte in body:
                time.sleep(0.3)
                sock.sendall(bytes([byte]))
            answer = b""
            while chunk := sock.recv(4096):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        assert answer.endswith(b"ok")
        assert "WORKER TIMEOUT" not in log.read_text(encoding="utf-8", errors="replace")
    finally:
        _stop(process)


def test_a_stalled_upload_is_ended_and_its_thread_serves_again(tmp_path: Path) -> None:
    """A review: with the body's wait off the clock, a client that sent part of its body
    and then nothing held a pool thread for good (gthread waits without a limit once a
    request has begun). After `BODY_WAIT` timeouts its request is refused, the worker
    stays, and the thread answers the next request."""
    from faq_bot.gunicorn_worker import BODY_WAIT

    process, port, log = _start(tmp_path)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            started = time.monotonic()
            smuggled = b"GET /smuggled HTTP/1.1\r\nHost: localhost\r\n\r\n"
            sock.sendall(  # keep-alive: the connection would go on after the answer
                b"POST /upload HTTP/1.1\r\nHost: localhost\r\n"
                b"Content-Length: %d\r\n\r\n" % (10 + len(smuggled)) + b"x" * 10
            )
            answer = sock.recv(4096)
            waited = time.monotonic() - started
            # a review: the rest of the body, sent after the cut, was read as a request of
            # its own on the kept connection; the cut connection is closed instead
            with contextlib.suppress(OSError):
                sock.sendall(smuggled)
            while chunk := sock.recv(4096):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 400"), answer[:200]
        assert b"connection: close" in answer.lower()
        assert answer.count(b"HTTP/1.1 ") == 1, answer
        assert BODY_WAIT * 3 <= waited < BODY_WAIT * 3 + 10
        assert "WORKER TIMEOUT" not in log.read_text(encoding="utf-8", errors="replace")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
            assert response.read() == b"ok"
    finally:
        _stop(process)


def test_an_untimed_body_reads_as_the_stream_and_pauses_only_its_own_clock() -> None:
    import io

    from faq_bot.gunicorn_worker import _Untimed

    class Slow(io.BytesIO):
        def read(self, size: int | None = -1) -> bytes:
            time.sleep(0.2)  # the client taking its time
            return super().read(size)

    before = time.monotonic() - 5.0
    started = {1: before, 2: before}
    reading: dict[int, tuple[float, object]] = {}
    body = _Untimed(Slow(b"ab\ncd\nef"), started, reading, 1, None, set())
    buffer = bytearray(2)
    assert body.readinto(buffer) == 2 and bytes(buffer) == b"ab"
    assert body.readline() == b"\n"
    assert list(body) == [b"cd\n", b"ef"]
    assert body.read() == b""
    assert before < started[1] and started[1] - before >= 0.2  # the waits moved it on
    assert started[2] == before  # another thread's clock is untouched
    assert reading == {}  # no read waiting now


def _trickle_head(port: int, every: float, bytes_sent: list[int]) -> bytes:
    """A request whose headers come a byte every `every` seconds and never end: what the
    server answers (until it closes, or 50 bytes later)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
        answer = b""
        sock.settimeout(every)
        with contextlib.suppress(OSError):
            while bytes_sent[0] < 50:
                try:
                    chunk = sock.recv(4096)
                except TimeoutError:
                    sock.sendall(b"a")
                    bytes_sent[0] += 1
                    continue
                if not chunk:
                    break
                answer += chunk
        return answer


def test_headers_trickling_in_are_ended_with_a_408_and_free_their_threads(
    tmp_path: Path,
) -> None:
    """A load probe: clients sending their headers a byte a second held every pool thread
    of the service for minutes (one was still open after 300 s), and ten of them stopped
    both workers. `HEADER_WAIT` timeouts after their first bytes they are answered 408
    and closed; the worker stays and answers the next request."""
    from concurrent.futures import ThreadPoolExecutor

    from faq_bot.gunicorn_worker import HEADER_WAIT

    process, port, log = _start(tmp_path)  # two threads, a 3 s timeout: a 1 s bound
    try:
        started = time.monotonic()
        sent = [[0], [0]]
        with ThreadPoolExecutor(2) as pool:  # as many as the worker has threads
            answers = list(pool.map(lambda n: _trickle_head(port, 0.2, sent[n]), range(2)))
        waited = time.monotonic() - started
        for answer in answers:
            assert answer.startswith(b"HTTP/1.1 408 Request Timeout"), answer[:200]
            assert b"Zeit\xc3\xbcberschreitung" in answer
            assert b"connection: close" in answer.lower()
        assert all(n[0] >= 2 for n in sent)  # the headers were still coming
        assert HEADER_WAIT * 3 <= waited < HEADER_WAIT * 3 + 5
        assert "WORKER TIMEOUT" not in log.read_text(encoding="utf-8", errors="replace")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
            assert response.read() == b"ok"
    finally:
        _stop(process)


def test_headers_arriving_slowly_within_the_bound_are_served(tmp_path: Path) -> None:
    """The bound ends only headers still unfinished after it: a request whose headers
    take half of it is answered as usual."""
    from faq_bot.gunicorn_worker import HEADER_WAIT

    process, port, _log = _start(tmp_path)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            head = b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
            sock.sendall(head[:10])
            time.sleep(HEADER_WAIT * 3 / 2)
            sock.sendall(head[10:])
            answer = b""
            while chunk := sock.recv(4096):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    finally:
        _stop(process)


def _worker_reading(monkeypatch, parse):
    """A `GermanThreadWorker` (its header bound only, no server) whose gthread `handle`
    is `parse(worker, conn)`, a connection over a socket pair, and the client's end."""
    import logging
    import threading
    from types import SimpleNamespace

    from gunicorn.workers.gthread import ThreadWorker

    from faq_bot.gunicorn_worker import GermanThreadWorker

    worker = GermanThreadWorker.__new__(GermanThreadWorker)
    worker._heading, worker._heads_lock = {}, threading.Lock()
    worker.cfg, worker.log = SimpleNamespace(timeout=3), logging.getLogger("test")
    monkeypatch.setattr(ThreadWorker, "handle", lambda self, conn: parse(self, conn))
    monkeypatch.setattr(ThreadWorker, "handle_request", lambda self, req, conn: True)
    ours, theirs = socket.socketpair()
    theirs.settimeout(1)
    return worker, SimpleNamespace(data_ready=True, sock=ours, client=("10.0.0.1", 1)), theirs


def _run_out(worker) -> None:
    """The bound runs out for every request being read (as `notify` would find it)."""
    worker._end_slow_heads()  # the first bytes seen
    for heading in worker._heading.values():
        heading.since -= 10
    worker._end_slow_heads()


def test_headers_in_just_as_the_bound_runs_out_are_served_without_a_408(monkeypatch):
    """A code review: headers that came in whole as the bound ran out were served, and then
    a 408 was written after the answer (a keep-alive client takes it for its next one)."""

    def parse(worker, conn):
        _run_out(worker)  # the cut lands while the parser has the whole request
        return worker.handle_request(object(), conn)

    worker, conn, client = _worker_reading(monkeypatch, parse)
    with client, conn.sock:
        assert worker.handle(conn) is True
        conn.sock.sendall(b"end")  # nothing written before it
        assert client.recv(100) == b"end"


def test_headers_cut_by_the_bound_are_answered_408(monkeypatch):
    def parse(worker, conn):
        _run_out(worker)
        return False  # the parser's read came back empty

    worker, conn, client = _worker_reading(monkeypatch, parse)
    with client, conn.sock:
        assert worker.handle(conn) is False
        assert client.recv(100).startswith(b"HTTP/1.1 408 Request Timeout")
    assert worker._heading == {}


def test_a_worker_whose_threads_are_all_held_leaves_new_connections_to_the_others(
    tmp_path: Path,
) -> None:
    """A load probe: with four slow uploads holding one worker's threads, half of the new
    health checks waited up to a minute in that worker's queue while the other worker was
    idle (gthread takes every connection it can). Two workers of one thread each: one held
    by a stalled upload, every new request is answered at once by the other."""
    process, port, _log = _start(tmp_path, workers=2, threads=1)
    try:
        pids, deadline = set(), time.monotonic() + 30
        while len(pids) < 2:  # both workers listening
            assert time.monotonic() < deadline, pids
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/pid", timeout=5) as answer:
                pids.add(answer.read())
        with socket.create_connection(("127.0.0.1", port), timeout=30) as held:
            held.sendall(  # a body that stalls: its worker's one thread waits for it (6 s)
                b"POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\nxyz"
            )
            time.sleep(0.5)
            waits = []
            for _ in range(10):  # without the bound about half would wait
                started = time.monotonic()
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=20) as answer:
                    assert answer.read() == b"ok"
                waits.append(time.monotonic() - started)
        assert max(waits) < 2, waits
    finally:
        _stop(process)


def _answer(sock: socket.socket) -> bytes:
    """One whole answer read from `sock` (its headers and its Content-Length of body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(4096)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
    while len(body) < length:
        body += sock.recv(4096)
    return head + b"\r\n\r\n" + body


def test_a_kept_alive_connection_that_had_to_wait_for_a_thread_is_closed_after_its_answer(
    tmp_path: Path,
) -> None:
    """A code review: a kept-alive connection (a browser's, nginx's) is no new connection:
    with its worker's threads held it waited in that worker's queue all the same. Its
    answer closes it, so the client's next request opens a new one, which a free worker
    takes."""
    process, port, _log = _start(tmp_path, workers=1, threads=1)
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as kept:
            request = b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"
            kept.sendall(request)
            first = _answer(kept)
            assert first.startswith(b"HTTP/1.1 200") and b"close" not in first.lower()
            with socket.create_connection(("127.0.0.1", port), timeout=30) as held:
                held.sendall(  # a stalled body holds the one thread (6 s)
                    b"POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 9\r\n\r\nx"
                )
                time.sleep(0.5)
                kept.sendall(request)  # waits for the thread
                second = _answer(kept)
        assert second.startswith(b"HTTP/1.1 200"), second[:200]
        assert b"connection: close" in second.lower()
    finally:
        _stop(process)
