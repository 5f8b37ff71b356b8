"""Requests gunicorn refuses before the app sees them get German pages
(`faq_bot.gunicorn_worker`), through a real gunicorn with the service's worker class."""

from __future__ import annotations

import socket
import time
from http import HTTPStatus

import pytest

from faq_bot.gunicorn_pages import PAGES
from tests.live_server import start_gunicorn


def _raw(server, request: bytes) -> tuple[str, dict[str, str], str]:
    with socket.create_connection((server.host, server.port), timeout=30) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return lines[0], headers, body.decode("utf-8")


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"GET /search?q=" + b"a" * 10_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
        (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9_000 + b"\r\n\r\n", 431),
        (b"POST /api/ask HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400),
        (b"POST /api/ask HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
        (b"POST /api/ask HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: foo\r\n\r\n", 501),
    ],
)
def test_a_request_gunicorn_refuses_gets_a_german_page(live_server, request_bytes, status):
    status_line, headers, body = _raw(live_server, request_bytes)
    # the standard reason phrase (gunicorn's own says "Bad Request" for its 501)
    assert status_line == f"HTTP/1.1 {status} {HTTPStatus(status).phrase}"
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    title, text = PAGES[status]
    assert f"<h1>{title}</h1>" in body and text in body
    assert '<html lang="de">' in body
    assert '<meta name="color-scheme" content="light dark">' in body  # dark like the app's
    # gunicorn's own English page is gone
    assert "Too Long" not in body and "Invalid" not in body and "Bad Request" not in body


@pytest.mark.parametrize(
    ("path", "json_shaped"),
    [
        (b"/api/search?q=Bomb\xc3\xa9", True),
        (b"/search?q=Bomb\xc3\xa9", False),
        (b"http://x/api/search?q=Bomb\xc3\xa9", True),  # the absolute form (a code review)
    ],
)
def test_an_address_with_raw_umlauts_is_said_as_such_and_json_under_api(
    live_server, path, json_shaped
):
    """An API review: `curl ".../api/search?q=Bombé"` sends the é unencoded; gunicorn
    refuses the request line before the app sees it, and the answer was the HTML page
    „Der Server konnte diese Anfrage nicht lesen.“ even under /api/, with no word of why."""
    import json

    status_line, headers, body = _raw(live_server, b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status_line == "HTTP/1.1 400 Bad Request"
    assert headers["X-Content-Type-Options"] == "nosniff"
    if json_shaped:
        assert headers["Content-Type"] == "application/json"
        data = json.loads(body)
        assert data["error"] == "bad_request"
        detail = data["detail"]
    else:
        assert headers["Content-Type"] == "text/html; charset=utf-8"
        detail = body
    assert "nicht kodiert" in detail and "%C3%A4" in detail


@pytest.mark.parametrize(
    "chunks",
    [
        b"zz\r\n{}\r\n0\r\n\r\n",  # a chunk size that is no hex number
        b"-1\r\n{}\r\n0\r\n\r\n",
        b"2\r\n{}XX0\r\n\r\n",  # no CRLF after the chunk's data
        b"2;\x01\r\n{}\r\n0\r\n\r\n",  # a control character in a chunk extension
    ],
)
@pytest.mark.parametrize("path", ["/api/ask", "/ask", "/api/check"])
def test_a_malformed_chunked_body_is_a_german_400_not_a_500(live_server, chunks, path):
    request = (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n".encode()
        + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + chunks
    )
    status_line, _headers, body = _raw(live_server, request)
    assert status_line.startswith("HTTP/1.1 400"), status_line
    assert "fehlerhaft übertragen" in body
    assert "Fehler im Programm" not in body


@pytest.mark.parametrize("path", ["/api/ask", "/ask", "/api/check"])
def test_a_chunk_declared_larger_than_any_body_is_a_413_at_once(live_server, path):
    """A probe: a chunk size of ffff… held the worker thread until the body wait ran out
    (a minute), waiting for data no route would take. A chunk larger than the largest body
    any route takes (`MAX_ANY_BODY`) is refused as soon as its size line arrives."""
    request = (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n".encode()
        + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + b'ffffffffffff\r\n{"question":'  # and then nothing: the client waits
    )
    with socket.create_connection((live_server.host, live_server.port), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):  # a timeout here (10 s) fails the test
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413"), head[:80]
    assert b"Connection: close" in head  # the rest is never read as a request
    assert "Die Anfrage ist zu groß" in body.decode("utf-8")


def test_a_chunk_declared_larger_than_any_body_keeps_no_connection_open(live_server):
    """Without „Connection: close“ the client's connection is closed after the 413 too:
    what follows the size line is the refused body, never the next request."""
    request = (
        b"POST /api/ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\nffffffffffff\r\n"
        b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"  # smuggled as the body's first bytes
    )
    status_line, headers, _body = _raw(live_server, request)
    assert status_line.startswith("HTTP/1.1 413"), status_line
    assert headers.get("Connection") == "close"


@pytest.fixture(scope="module")
def access_log(tmp_path_factory):
    return tmp_path_factory.mktemp("mounted") / "access.log"


@pytest.fixture(scope="module")
def mounted_server(tiny_built_index, access_log):
    """The one-document build served under /faq (gunicorn's SCRIPT_NAME), its access log
    in `access_log`."""
    server = start_gunicorn(tiny_built_index, "--access-logfile", str(access_log), root="/faq")
    yield server
    server.stop()


@pytest.mark.parametrize("path", [b"/healthz", b"/entry/spiel", b"/FAQ/search?q=x"])
def test_under_a_path_a_request_outside_it_is_a_german_404(mounted_server, path):
    """An adversarial review: served under /faq, gunicorn answered a path outside it with a
    500 (its "configuration problem"): a mistyped address read as a broken service, and a
    balancer probing /healthz took the instance out."""
    status_line, headers, body = _raw(
        mounted_server, b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    assert status_line == "HTTP/1.1 404 Not Found"
    title, text = PAGES[404]
    assert f"<h1>{title}</h1>" in body and text in body
    assert '<a href="/faq/">Zur Startseite</a>' in body  # back into the app
    assert "SCRIPT_NAME" not in body
    status_line, _, _ = _raw(mounted_server, b"GET /faq/healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status_line == "HTTP/1.1 200 OK"


def test_under_a_path_a_request_outside_it_is_in_the_access_log(mounted_server, access_log):
    _raw(mounted_server, b"GET /nirgendwo-ausserhalb HTTP/1.1\r\nHost: x\r\n\r\n")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        lines = access_log.read_text().splitlines() if access_log.exists() else []
        if any("/nirgendwo-ausserhalb" in line and '" 404 ' in line for line in lines):
            return
        time.sleep(0.1)
    raise AssertionError(f"no access line with 404: {lines[-3:]}")


@pytest.mark.parametrize("path", [b"/faqentry/spiel", b"/faqx/"])
def test_under_a_path_one_that_only_begins_like_it_is_the_apps_404(mounted_server, path):
    status_line, _, body = _raw(mounted_server, b"GET " + path + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status_line == "HTTP/1.1 404 NOT FOUND"  # the app's, not the worker's
    assert "Seite nicht gefunden" in body and 'data-root="/faq"' in body


def test_under_a_path_gunicorns_own_pages_lead_back_under_it(mounted_server):
    request = b"GET /faq/search?q=" + b"a" * 10_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"
    status_line, _, body = _raw(mounted_server, request)
    assert status_line.startswith("HTTP/1.1 414")
    assert '<a href="/faq/">Zur Startseite</a>' in body


def test_under_a_path_given_with_its_slash_the_start_page_is_served(tiny_built_index):
    """``SCRIPT_NAME=/faq/``: gunicorn left ``/faq/`` as the empty path, and the start page
    answered with a 308 to itself, a loop; now it is the start page, its links under /faq."""
    server = start_gunicorn(tiny_built_index, root="/faq/")
    try:
        status_line, _, body = _raw(server, b"GET /faq/ HTTP/1.1\r\nHost: x\r\n\r\n")
        assert status_line == "HTTP/1.1 200 OK"
        assert 'data-root="/faq"' in body and 'action="/faq/search"' in body
        status_line, _, _ = _raw(server, b"GET /faq/healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert status_line == "HTTP/1.1 200 OK"
    finally:
        server.stop()
