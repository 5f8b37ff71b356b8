"""The gunicorn worker the service runs in: gunicorn's ``gthread`` worker, with German
pages for the requests gunicorn refuses itself (`faq_bot.gunicorn_pages.write_error`,
put in place of ``gunicorn.util.write_error``), bounds on what one request or client can
hold (a running request's time, a body's and headers' arrival), and new connections left
to other workers while all its threads are at work. Served under a path
(``SCRIPT_NAME``, docs/web.md), a request outside it is a 404 (gunicorn answers 500,
"configuration problem").

``GermanThreadWorker``
    The worker class (`faq_bot.serving.WORKER_CLASS`).
``tame_allocator() -> list[str]``
    Called as each worker starts: glibc's allocator at most `ARENAS` arenas and a fixed
    mmap threshold, so that the serving threads' large short-lived buffers (the query
    embedding's activations) go back to the system when freed instead of raising each
    thread's arena to its high-water mark (`benchmarks/word_caches.py`). An operator's
    ``MALLOC_ARENA_MAX`` / ``MALLOC_MMAP_THRESHOLD_`` wins for its setting, and malloc
    tunables in ``GLIBC_TUNABLES`` for both; elsewhere than glibc, nothing. Arenas the
    master made before the fork (a build in `on_starting`) stay usable beyond the cap.
"""

from __future__ import annotations

import contextlib
import ctypes
import datetime
import os
import socket
import threading
import time
from typing import Any

from gunicorn import util
from gunicorn.http import message
from gunicorn.http.body import ChunkedReader
from gunicorn.http.errors import ConfigurationProblem, InvalidChunkSize, InvalidRequestLine
from gunicorn.http.wsgi import Response as GunicornResponse
from gunicorn.http.wsgi import default_environ
from gunicorn.workers.gthread import ThreadWorker
from werkzeug.exceptions import RequestEntityTooLarge

from faq_bot.gunicorn_pages import write_error, write_line_error
from faq_bot.web.body import MAX_ANY_BODY

__all__ = ["GermanThreadWorker", "tame_allocator"]

# glibc's mallopt parameters (malloc.h) and what the workers set them to
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
ARENAS = 2
MMAP_THRESHOLD = 128 * 1024  # glibc's starting value, kept from rising


def tame_allocator() -> list[str]:
    """Set glibc's arena count and mmap threshold for this process (see the module
    docstring); the names of the settings made (none elsewhere than glibc)."""
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return []
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    if "glibc.malloc." in os.environ.get("GLIBC_TUNABLES", ""):
        return []
    made = []
    for env, param, value in (
        ("MALLOC_ARENA_MAX", M_ARENA_MAX, ARENAS),
        ("MALLOC_MMAP_THRESHOLD_", M_MMAP_THRESHOLD, MMAP_THRESHOLD),
    ):
        if env not in os.environ and mallopt(param, value) == 1:
            made.append(env)
    return made


# how many of gunicorn's timeouts the app waits for a request body in all (`_Untimed`)
BODY_WAIT = 2
# the share of gunicorn's timeout a request's line and headers may take to arrive once
# their first bytes have (10 s as served): a client sends them in one go, and gthread
# reads them in a pool thread without a limit (`GermanThreadWorker._end_slow_heads`)
HEADER_WAIT = 1 / 3


class ChunkTooLarge(InvalidChunkSize):
    """A chunk of a chunked body declared larger than any route takes (`MAX_ANY_BODY`)."""


class _BoundedChunks(ChunkedReader):
    """gunicorn's reader of a chunked body, refusing a chunk larger than `MAX_ANY_BODY` as
    soon as its size line is read: it waited for the whole chunk (a size of ffff… held the
    thread until `BODY_WAIT` ran out), which no route would take."""

    def parse_chunk_size(self, unreader: Any, data: Any = None) -> Any:
        size, rest = super().parse_chunk_size(unreader, data)
        if size > MAX_ANY_BODY:
            raise ChunkTooLarge(f"chunk of {size} bytes")
        return size, rest


class _Untimed:
    """A request body whose reads stop the app call's clock in `started` while they wait
    for the client (the clock moves on by the time the call worked before the read), and
    are entered in `reading` (thread -> when its waits began, counted as one, and the
    connection's socket): `GermanThreadWorker.notify` ends a body that keeps the app
    waiting longer than `BODY_WAIT` timeouts in all."""

    def __init__(
        self,
        stream: Any,
        started: dict[int, float],
        reading: dict[int, tuple[float, Any]],
        thread: int,
        sock: Any,
        cut: set[int],
    ) -> None:
        self._stream = stream
        self._started = started
        self._reading = reading
        self._thread = thread
        self._sock = sock
        self._cut = cut
        self._waited = 0.0  # seconds this body's reads have waited so far

    def _untimed(self, method: str, *args: Any) -> Any:
        began = self._started.pop(self._thread, None)
        paused = time.monotonic()
        self._reading[self._thread] = (paused - self._waited, self._sock)
        try:
            return getattr(self._stream, method)(*args)
        except ChunkTooLarge:
            # the app's 413 (`faq_bot.web.body.raw_body`), then the connection closes: the
            # rest of the body must never be read as a request (`GermanThreadWorker`'s `timed`)
            self._cut.add(self._thread)
            raise RequestEntityTooLarge() from None
        finally:
            self._reading.pop(self._thread, None)
            waited = time.monotonic() - paused
            self._waited += waited
            if began is not None:
                self._started[self._thread] = began + waited

    def read(self, *args: Any) -> Any:
        return self._untimed("read", *args)

    def readline(self, *args: Any) -> Any:
        return self._untimed("readline", *args)

    def readlines(self, *args: Any) -> Any:
        return self._untimed("readlines", *args)

    def readinto(self, buffer: Any) -> int:  # werkzeug's LimitedStream prefers it
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def __iter__(self) -> Any:
        return self

    def __next__(self) -> Any:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Heading:
    """A request whose line and headers a pool thread reads (`GermanThreadWorker.handle`):
    when its first bytes were seen (None before), its connection, whether it was cut, and
    whether its headers came in all the same (`_headers_in`)."""

    __slots__ = ("conn", "cut", "served", "since")

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.since: float | None = None
        self.cut = False
        self.served = False


class GermanThreadWorker(ThreadWorker):
    """gunicorn's ``gthread`` worker, with `write_error` for the requests it refuses, a
    heartbeat as old as its oldest running request (`notify`), a bound on the time a
    request's body (`_end_stalled_bodies`) and its headers (`_end_slow_heads`) take, and
    new connections taken only while a pool thread is free (`set_accept_enabled`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._started: dict[int, float] = {}  # pool thread -> when its request began
        self._reading: dict[int, tuple[float, Any]] = {}  # pool thread -> its body's wait
        self._cut: set[int] = set()  # pool threads whose body `_end_stalled_bodies` ended
        # pool thread -> its request while the request's line and headers are read
        # (`_end_slow_heads`); taken out, or cut, only under `_heads_lock`
        self._heading: dict[int, _Heading] = {}
        self._heads_lock = threading.Lock()
        # connections handed to the pool and not finished (main thread only), and the
        # file descriptors of those handed over while every thread was at work (a TLS
        # connection's socket object changes once it is wrapped, its descriptor does not)
        self._busy = 0
        self._waited: set[int] = set()

    # gthread takes every connection it can (up to ``worker_connections``, 1,000) and queues
    # it for its pool: a worker whose threads were all held by slow clients went on taking
    # new ones, which waited up to a minute while another worker sat idle (a load probe:
    # half of the health checks). A worker now leaves new connections to the others while
    # all its threads are at work; the kernel holds them until a worker takes them. A kept-
    # alive connection that has to wait all the same is closed after its answer (`timed`).
    # These hooks run in the worker's main thread (gthread's event loop), as `_busy` does.

    def set_accept_enabled(self, enabled: bool) -> None:
        super().set_accept_enabled(enabled and self._busy < self.cfg.threads)

    def accept(self, listener: Any) -> None:
        # the listener's event of a batch read before the pool filled up (a code review)
        if self._busy < self.cfg.threads:
            super().accept(listener)

    def enqueue_req(self, conn: Any) -> None:
        self._busy += 1
        if self._busy > self.cfg.threads:
            self._waited.add(conn.sock.fileno())
        super().enqueue_req(conn)
        if self._busy >= self.cfg.threads:
            self.set_accept_enabled(False)

    def finish_request(self, conn: Any, fs: Any) -> None:
        self._busy -= 1
        self._waited.discard(conn.sock.fileno())
        super().finish_request(conn, fs)  # may hand the connection to the pool again

    def load_wsgi(self) -> None:
        super().load_wsgi()
        app: Any = self.wsgi  # type: ignore[has-type]

        def timed(environ: Any, start_response: Any) -> Any:
            # the app's own work only: waiting for a slow client's body (`_Untimed`) and
            # sending the answer to it are not timed
            thread = threading.get_ident()
            self._started[thread] = time.monotonic()
            if "wsgi.input" in environ:
                environ["wsgi.input"] = _Untimed(
                    environ["wsgi.input"],
                    self._started,
                    self._reading,
                    thread,
                    environ.get("gunicorn.socket"),
                    self._cut,
                )
            try:
                return app(environ, start_response)
            finally:
                self._started.pop(thread, None)
                # its body was ended: what is left of it unread must never be read as a
                # request; or it waited for a thread of this worker (`enqueue_req`), or
                # others wait now: the client's next request goes to a new connection,
                # which a free worker takes (`set_accept_enabled`). The connection closes
                # after the answer (before its headers go out: "Connection: close")
                cut = thread in self._cut
                client = environ.get("gunicorn.socket")
                waited = client is not None and client.fileno() in self._waited
                if cut or waited or self._busy > self.cfg.threads:
                    self._cut.discard(thread)
                    with contextlib.suppress(AttributeError):
                        start_response.__self__.force_close()

        self.wsgi = timed

    def notify(self) -> None:
        """Tell the arbiter the worker is alive, as of the start of its oldest running
        app call: gthread's main loop notifies every second while a pool thread
        computes, so gunicorn's ``timeout`` never replaced a worker whose request ran on
        (a bug's loop, a pathological input); now the arbiter does, ``timeout`` after
        the app began on it. Time spent waiting for the request body is not counted
        (`_Untimed`): a slow upload costs its own request, not the worker."""
        super().notify()
        oldest = min(list(self._started.values()), default=None)  # list(): one step
        if oldest is not None:
            os.utime(self.tmp.fileno(), (oldest, oldest))
        self._end_stalled_bodies()
        self._end_slow_heads()

    def _end_stalled_bodies(self) -> None:
        """A body the app has waited for longer than `BODY_WAIT` timeouts in all (a client
        that stalls or trickles) is ended: its reading side shut down, the app's read
        comes back short, and the request is refused (the app's 400) instead of holding
        its thread for good; gthread waits without a limit once a request has begun. The
        connection closes after that answer (`timed`): gunicorn would read the rest of the
        body as the next request."""
        if not self.cfg.timeout:
            return
        now = time.monotonic()
        for thread, (since, sock) in list(self._reading.items()):
            if sock is not None and now - since > BODY_WAIT * self.cfg.timeout:
                self._cut.add(thread)
                with contextlib.suppress(OSError):
                    # the plain socket's shutdown: an SSLSocket's would drop its TLS state
                    # under the pool thread, whose answer then went out unencrypted
                    socket.socket.shutdown(sock, socket.SHUT_RD)

    def _end_slow_heads(self) -> None:
        """A request whose line and headers have not all arrived `HEADER_WAIT` timeouts
        after its first bytes did (a client sending them a byte at a time, or a part and
        then nothing) is ended: its reading side shut down, the parser's read comes back
        empty, and `handle` answers 408. A few such clients held every pool thread of both
        workers for minutes (a load probe: ten of them stopped the service). The clock
        starts at the first `notify` after the bytes were seen (within a second)."""
        if not self.cfg.timeout:
            return
        now = time.monotonic()
        for thread, heading in list(self._heading.items()):
            if heading.since is None:
                if heading.conn.data_ready:
                    heading.since = now
                continue
            if heading.cut or now - heading.since <= HEADER_WAIT * self.cfg.timeout:
                continue
            with self._heads_lock:
                # still reading that request's headers: not one whose headers came in
                # since the copy above, nor a later request the thread has gone on to
                if self._heading.get(thread) is not heading:
                    continue
                heading.cut = True
                with contextlib.suppress(OSError):  # the plain socket's, as for a body
                    socket.socket.shutdown(heading.conn.sock, socket.SHUT_RD)

    def _headers_in(self) -> None:
        """The request of this pool thread has its headers (or is an HTTP/2 connection,
        whose requests are not timed here): `_end_slow_heads` no longer times it. Headers
        that came in whole as they were cut are served (the read side is shut, so the
        connection ends after this answer), and `handle` adds no 408 after the answer."""
        with self._heads_lock:
            heading = self._heading.pop(threading.get_ident(), None)
            if heading is not None:
                heading.served = True

    def handle(self, conn: Any) -> Any:
        """gthread's, with the request's line and headers timed (`_end_slow_heads`): a
        request ended there is answered 408 and its connection closed."""
        heading = _Heading(conn)
        with self._heads_lock:
            self._heading[threading.get_ident()] = heading
        try:
            kept = super().handle(conn)
        finally:
            with self._heads_lock:
                self._heading.pop(threading.get_ident(), None)
        if heading.cut and not heading.served:
            self.log.info("Request headers too slow from %s: ended", conn.client)
            with contextlib.suppress(OSError):
                write_error(conn.sock, 408, "Request Timeout", "")
            return False
        return kept

    def handle_request(self, req: Any, conn: Any) -> Any:
        # the headers are in: from here the app's clock (`notify`) and the body's bound
        self._headers_in()
        return super().handle_request(req, conn)

    def handle_http2(self, conn: Any) -> Any:  # gunicorn 25+ with h2 (not served so far)
        self._headers_in()
        return super().handle_http2(conn)

    def handle_h2c_upgrade(self, conn: Any, req: Any, settings: Any) -> Any:
        self._headers_in()
        return super().handle_h2c_upgrade(conn, req, settings)

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        """gunicorn's, except for a path outside ``SCRIPT_NAME`` (served under /faq: a
        request for /healthz or /entry/x), which is a page that is not here, the 404, not
        gunicorn's 500 (a balancer probing /healthz took the instance for broken); and a
        request line it refused, answered as the app answers at its path
        (`write_line_error`: JSON under /api/, unencoded umlauts said)."""
        line = getattr(exc, "req", None)
        if isinstance(exc, InvalidRequestLine) and isinstance(line, str):
            host = (addr or ("",))[0]
            self.log.warning("Invalid request from ip=%s: %s", host, exc)
            with contextlib.suppress(OSError):
                write_line_error(client, line)
            return
        if not (isinstance(exc, ConfigurationProblem) and "SCRIPT_NAME" in str(exc)):
            super().handle_error(req, client, addr, exc)
            return
        self.log.info("Outside the app's path: %s", exc)
        if req is not None:  # in the access log as gunicorn logs the errors it answers
            environ = default_environ(req, client, self.cfg)
            host, port = addr or ("", -1)  # a unix socket has none
            environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = host, str(port)
            answer = GunicornResponse(req, client, self.cfg)
            answer.status = "404 Not Found"
            self.log.access(answer, req, environ, datetime.timedelta(0))
        with contextlib.suppress(OSError):
            write_error(client, 404, "Not Found", "")

    def init_process(self) -> None:
        # gunicorn's handle_error looks up util.write_error at each call; this worker
        # process only serves the app, so replacing it here changes nothing else
        util.write_error = write_error
        # likewise the chunked-body reader a request makes (looked up in gunicorn.http.message)
        message.ChunkedReader = _BoundedChunks  # type: ignore[misc]
        tame_allocator()
        super().init_process()
