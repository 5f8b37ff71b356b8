"""deploy/: nginx balancing two gunicorn instances that share one index artifact.

Runs the real thing on loopback (deploy/rolling.py): Debian's nginx with
deploy/nginx.conf, two ``gunicorn -c deploy/gunicorn.conf.py`` instances, one
index folder. Without nginx the tests are skipped locally with a hint, but fail
in CI (``CI`` set), where ``make test`` installs it (scripts/ensure-nginx).
"""

from __future__ import annotations

import gzip
import http.client
import importlib.util
import json
import os
import re
import socket
import sys
from collections.abc import Callable, Iterator
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from faq_bot.config import ROOT
from faq_bot.gunicorn_pages import PAGES
from tests.live_server import start_gunicorn


def _load_rolling():
    spec = importlib.util.spec_from_file_location("rolling", ROOT / "deploy" / "rolling.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["rolling"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


rolling = _load_rolling()

pytestmark = pytest.mark.system

# loopback addresses of their own for the tests of the per-address limit
CLIENT, OTHER_CLIENT, MARKING_CLIENT = "127.0.0.2", "127.0.0.3", "127.0.0.4"
SECURITY_HEADERS = ("Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options")


def require_nginx() -> None:
    """Skip without nginx locally, with a hint; fail in CI, where a missing nginx is a
    broken install step, never a reason to skip."""
    if rolling.nginx_binary() is None:
        message = "nginx fehlt: ./scripts/ensure-nginx installiert Debians nginx"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def deployment() -> Iterator:
    require_nginx()
    # these tests send from 127.0.0.1 as fast as they can: the per-address limit of a real
    # host would count them all as one client (its own test sets it, then sets this back)
    with rolling.deployment(instances=2, workers=1, limit=rolling.LOAD_LIMIT) as dep:
        yield dep


def raw_request(
    port: int, path: str, headers: dict[str, str] | None = None, source: str | None = None
):
    """GET `path` as sent, from the loopback address `source` if given (nginx's limits count
    per address: a test of them sends from an address no other request used)."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=10, source_address=(source, 0) if source else None
    )
    try:
        conn.putrequest("GET", path, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            conn.putheader(name, value)
        conn.endheaders()
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


def test_nginx_balances_both_instances_sharing_one_index(deployment):
    builds = {rolling.build_of(instance.port) for instance in deployment.instances}
    assert len(deployment.instances) == 2 and len(builds) == 1 and None not in builds
    status, headers, body = raw_request(deployment.port, "/healthz")
    assert status == 200 and body


def test_absolute_addresses_through_nginx_keep_the_port_the_client_used(deployment):
    # nginx's $host drops the port: every citation and canonical link, and the redirect
    # of a doubled slash, pointed at port 80
    status, _, body = raw_request(deployment.port, "/api/search?q=Bombe&n=1")
    assert status == 200
    hit = json.loads(body)["hits"][0]
    assert hit["absolute_url"].startswith(f"http://127.0.0.1:{deployment.port}/entry/")
    status, headers, _ = raw_request(deployment.port, "/entry//spiel")
    assert status in (301, 308)
    assert headers["Location"].startswith(f"http://127.0.0.1:{deployment.port}/")


def post_form(port: int, path: str, fields: dict):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        body = urlencode(fields, doseq=True)
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


def test_a_long_conversation_without_javascript_is_redirected_through_nginx(deployment):
    # each turn's token holds its question: long questions with umlauts make the
    # redirect's Location header several KB long, which nginx must pass on (not a 502)
    from faq_bot.web.ask import REDIRECT_CHARS

    question = "Äußerst dringend für Übungsrunde: wer bezahlt, wenn meine 227er gekontert wird? "
    tokens: list[str] = []
    longest = 0
    for turn in range(12):
        fields = {"q": (f"{turn} " + question * 6)[:480], "t": tokens}
        status, headers, _ = post_form(deployment.port, "/ask", fields)
        assert status == 303, (turn, status)
        location = headers["Location"]
        longest = max(longest, len(location))
        tokens = parse_qs(urlsplit(location).query)["t"]
    assert longest > REDIRECT_CHARS - 1500  # the address came near its bound
    status, _, body = raw_request(deployment.port, location.split("#")[0])
    assert status == 200 and body.count(b'class="turn"') == len(tokens)


def test_nginx_gzips_and_keeps_the_apps_own_security_headers_single(deployment):
    status, headers, body = raw_request(
        deployment.port, "/search?q=bombe", {"Accept-Encoding": "gzip"}
    )
    assert status == 200
    assert headers["Content-Encoding"] == "gzip"
    assert "Regelsuche" in gzip.decompress(body).decode()
    for name in SECURITY_HEADERS:
        assert len(headers.get_all(name) or []) == 1, name  # not doubled by nginx
    assert "script-src 'self'" in headers["Content-Security-Policy"]  # the app's own


NGINX_PAGE = "Diese Anfrage kann nicht beantwortet werden"  # deploy/errors/4xx.html


@pytest.mark.parametrize(
    ("path", "headers", "status", "from_nginx"),
    [
        # gunicorn's German pages (limit_request_line 8190, field size 8190)
        ("/search?q=" + "a" * 9000, None, 414, False),
        ("/", {"X-Big": "b" * 9000}, 431, False),
        # nginx's own: a request line beyond large_client_header_buffers (16k), a
        # transfer coding it does not know
        ("/search?q=" + "a" * 20000, None, 414, True),
        ("/", {"Transfer-Encoding": "foo"}, 501, True),
    ],
    ids=["gunicorn-414", "gunicorn-431", "nginx-414", "nginx-501"],
)
def test_error_pages_of_nginx_and_gunicorn_get_security_headers(
    deployment, path, headers, status, from_nginx
):
    got, response_headers, body = raw_request(deployment.port, path, headers)
    assert got == status
    assert (NGINX_PAGE in body.decode()) is from_nginx
    if not from_nginx:  # gunicorn's own page, in German (faq_bot/gunicorn_worker.py)
        assert PAGES[status][1] in body.decode()
    for name in SECURITY_HEADERS:
        assert response_headers.get(name), name
    assert "default-src 'none'" in response_headers["Content-Security-Policy"]


def test_rolling_a_new_index_across_instances_under_load_fails_no_request(deployment):
    report = rolling.roll(deployment, settle=1.0, clients=3)
    assert report["requests"] > 50, report
    assert report["failed"] == 0, report
    assert report["builds_after"] == [report["new_build"]], report
    assert report["new_build"] not in report["builds_before"], report
    assert report["ok"], report


def test_one_client_computing_too_fast_gets_a_german_429_and_ruling_pages_stay_open(deployment):
    """nginx limits the requests that compute per client address (deploy/nginx.conf): past
    the burst a search or a question gets a German 429 page with the security headers, while
    ruling pages and static files (cached, cheap) are never limited."""
    deployment.limit(("1r/m", 2))
    try:
        statuses = [
            raw_request(deployment.port, f"/api/search?q=bombe{n}", source=CLIENT)[0]
            for n in range(6)
        ]
        assert statuses[:2] == [200, 200] and 429 in statuses[2:], statuses
        status, headers, body = raw_request(deployment.port, "/search?q=depot", source=CLIENT)
        assert status == 429
        assert "Zu viele Anfragen" in body.decode()
        assert headers["Retry-After"] == "60"  # one request a minute
        for name in SECURITY_HEADERS:
            assert headers.get(name), name
        for _ in range(6):
            assert raw_request(deployment.port, "/entry/depot")[0] in (200, 301)
            assert raw_request(deployment.port, "/static/app.css")[0] == 200
    finally:
        deployment.limit(rolling.LOAD_LIMIT)
    assert raw_request(deployment.port, "/api/search?q=bombe")[0] == 200


def test_a_ruling_page_with_words_to_mark_counts_as_computing(deployment):
    """A ruling page's `h` (the search that led to it) is analysed like a search's words, so
    a client varying it is limited as for a search; the same page without `h` is not."""
    deployment.limit(("1r/m", 2))
    try:
        statuses = [
            raw_request(deployment.port, f"/entry/depot?h=bombe{n}", source=MARKING_CLIENT)[0]
            for n in range(6)
        ]
        assert statuses[:2] == [200, 200] and 429 in statuses[2:], statuses
        for _ in range(4):
            assert raw_request(deployment.port, "/entry/depot?h=", source=MARKING_CLIENT)[0] == 200
            assert raw_request(deployment.port, "/entry/depot", source=MARKING_CLIENT)[0] == 200
    finally:
        deployment.limit(rolling.LOAD_LIMIT)


def test_the_apis_clients_get_nginxs_own_errors_as_json_with_retry_after(deployment):
    """An API client reads {"error", "detail"} from nginx's own 429 as from the app
    (interfaces.md), with the seconds to wait; the pages' 200s carry no Retry-After."""
    deployment.limit(("1r/m", 1))
    try:
        answers = [
            raw_request(deployment.port, f"/api/search?q=depot{n}", source=OTHER_CLIENT)
            for n in range(4)
        ]
        status, headers, body = next(a for a in answers if a[0] == 429)
        assert headers["Content-Type"].startswith("application/json")
        assert headers["Retry-After"] == "60"
        problem = json.loads(body)
        assert problem["error"] == "too_many_requests" and "warten" in problem["detail"]
    finally:
        deployment.limit(rolling.LOAD_LIMIT)
    status, headers, _ = raw_request(deployment.port, "/api/search?q=depot")
    assert status == 200 and "Retry-After" not in headers


def test_a_body_too_large_for_nginx_gets_the_apps_own_json_error(deployment):
    """A body past client_max_body_size (1m) is answered by nginx before the app sees it,
    one past the app's own limit by the app: an API client reads the same error code from
    both ("too_large", faq_bot.web.errors), not a second one for the same mistake."""
    from faq_bot.web.errors import CODES

    conn = http.client.HTTPConnection("127.0.0.1", deployment.port, timeout=10)
    try:
        conn.request(
            "POST",
            "/api/ask",
            body=b"{" + b" " * (2 << 20) + b"}",
            headers={"Content-Type": "application/json"},
        )
        response = conn.getresponse()
        status, headers, body = response.status, response.headers, response.read()
    finally:
        conn.close()
    assert status == 413 and headers["Content-Type"].startswith("application/json")
    problem = json.loads(body)
    assert problem["error"] == CODES[413] and "groß" in problem["detail"]
    for name in SECURITY_HEADERS:
        assert headers.get(name), name
    # the chat's form gets the German page
    status, headers, body = post_form(deployment.port, "/ask", {"q": "x" * (2 << 20)})
    assert status == 413 and "zu groß" in body.decode()


def test_a_scenario_the_reader_takes_passes_nginx_to_the_checker(deployment):
    """nginx's body limit (1m) is above the largest body the app takes, the scenario
    reader's 1,000,000 bytes: a scenario of 200 entries with texts near their limit (about
    800 KB; the app took 256 KB) is checked."""
    entry = {"by": "A", "source": "r", "effect": {"type": "other", "text": "Ä" * 1990}}
    scenario = {
        "phase": "Bauphase",
        "players": {"A": {"tw": 4}},
        "cards": [{"id": "r", "name": "Radarstation", "owner": "A", "kind": "base"}],
        "stack": [{"id": f"e{i}", **entry} for i in range(200)],
    }
    body = json.dumps(scenario, ensure_ascii=False).encode()
    assert 750_000 < len(body) < 1_000_000
    conn = http.client.HTTPConnection("127.0.0.1", deployment.port, timeout=30)
    try:
        conn.request("POST", "/api/check", body=body, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        status, answer = response.status, response.read()
    finally:
        conn.close()
    assert status == 200, answer[:300]
    assert "steps" in json.loads(answer)


def test_with_no_instance_answering_api_clients_get_json_and_pages_the_german_502(deployment):
    """Every instance out of rotation (or down): nginx's own 502 is the API's JSON under
    /api/, the German page elsewhere, both with the security headers."""
    deployment.drain({instance.port for instance in deployment.instances})
    try:
        api = raw_request(deployment.port, "/api/search?q=depot")
        page = raw_request(deployment.port, "/search?q=depot")
    finally:
        deployment.drain(set())
    status, headers, body = api
    assert status == 502 and headers["Content-Type"].startswith("application/json")
    assert json.loads(body)["error"] == "service_unavailable"
    for name in SECURITY_HEADERS:
        assert headers.get(name), name
    status, headers, body = page
    assert status == 502 and headers["Content-Type"].startswith("text/html")
    assert "gerade nicht erreichbar" in body.decode()
    assert raw_request(deployment.port, "/api/search?q=depot")[0] == 200


@pytest.mark.parametrize(
    ("rate", "seconds"), [("10r/s", 1), ("1r/s", 1), ("2r/m", 30), ("1r/m", 60), ("7r/m", 9)]
)
def test_retry_after_is_the_time_in_which_the_rate_frees_one_request(rate, seconds):
    assert rolling.retry_after(rate) == seconds


def test_the_shipped_limit_is_what_the_nginx_template_is_filled_with(tmp_path):
    conf = rolling._nginx_conf(tmp_path, 8080, [8001], set())
    rate, burst = rolling.LIMIT
    assert f"rate={rate};" in conf and f"burst={burst} nodelay;" in conf
    assert not re.search(r"@[A-Z_]+@", conf.replace("@NAME@", ""))  # every placeholder filled


@pytest.fixture(scope="module")
def nginx_port(live_server) -> Iterator[int]:
    """deploy/nginx.conf in front of the one-document build: for what nginx answers itself
    (no index of the real corpus needed)."""
    require_nginx()
    with rolling.nginx([live_server.port], rolling.LOAD_LIMIT) as (port, _log, _drain, _limit):
        yield port


def raw_exchange(port: int, request: bytes) -> tuple[int, bytes]:
    """`request` sent as is; the answer's status and body."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


@pytest.mark.parametrize(
    ("request_line", "status"),
    [
        (b"TRACE / HTTP/1.1", 405),  # a method nginx refuses itself
        (b"GET /_fehler/4xx.html HTTP/1.1", 404),  # its error pages' internal location
        (b"GET / HTTP/3.0", 505),  # a version it does not speak
    ],
    ids=["trace-405", "internal-404", "version-505"],
)
def test_nginx_answers_it_gives_itself_are_german_pages(nginx_port, request_line, status):
    """nginx answered these with its own English page ("405 Not Allowed"): every status
    it produces itself gets the German page (the app's own 404 and 405 pass through)."""
    got, body = raw_exchange(
        nginx_port, request_line + b"\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    assert got == status
    assert NGINX_PAGE in body.decode()
    # in the reader's colours, as the app's pages (a judge's phone at night)
    assert '<meta name="color-scheme" content="light dark">' in body.decode()


@pytest.mark.parametrize(
    ("request_line", "status"),
    [(b"GET /entry/gibt-es-nicht HTTP/1.1", 404), (b"DELETE /ask HTTP/1.1", 405)],
    ids=["404", "405"],
)
def test_the_apps_own_404_and_405_pass_nginx_unchanged(nginx_port, request_line, status):
    got, body = raw_exchange(
        nginx_port, request_line + b"\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    assert got == status
    assert NGINX_PAGE not in body.decode()
    assert "Regelsuche" in body.decode()


def test_a_health_check_without_host_passes_nginx(nginx_port):
    """A QA review: HTTP/1.0 without a Host header (HAProxy's default health check) got the
    app's 400 through nginx, which had passed its server_name „_“ on as the host."""
    got, body = raw_exchange(nginx_port, b"GET /healthz HTTP/1.0\r\n\r\n")
    assert got == 200, body[:200]


# --- under a path: deploy/nginx.conf with @ROOT@ = /faq, gunicorn with SCRIPT_NAME=/faq ---

MOUNT = "/faq"
MOUNTED_CLIENT = "127.0.0.5"


@pytest.fixture(scope="module")
def mounted_nginx(tiny_built_index) -> Iterator[tuple[int, Callable]]:
    """nginx in front of the one-document build served under /faq: its port and the
    function that sets its limit on computing requests."""
    require_nginx()
    server = start_gunicorn(tiny_built_index, root=MOUNT)
    try:
        with rolling.nginx([server.port], rolling.LOAD_LIMIT, root=MOUNT) as nginx:
            port, _log, _drain, set_limit = nginx
            yield port, set_limit
    finally:
        server.stop()


def test_under_a_path_nginx_passes_the_app_its_pages_and_api(mounted_nginx):
    port, _ = mounted_nginx
    status, _, body = raw_request(port, f"{MOUNT}/search?q=Spiel")
    assert status == 200
    assert f'href="{MOUNT}/entry/' in body.decode() and 'href="/entry/' not in body.decode()
    status, headers, body = raw_request(port, f"{MOUNT}/api/search?q=Spiel")
    assert status == 200 and json.loads(body)["hits"][0]["url"].startswith(f"{MOUNT}/entry/")


def test_under_a_path_nginx_answers_outside_it_with_its_german_page(mounted_nginx):
    port, _ = mounted_nginx
    status, _, body = raw_request(port, "/search?q=Spiel")
    assert status == 404 and NGINX_PAGE in body.decode()
    assert f'<a href="{MOUNT}/">Zur Startseite</a>' in body.decode()  # back under the path


def test_under_a_path_the_apis_clients_get_nginxs_own_errors_as_json(mounted_nginx):
    port, set_limit = mounted_nginx
    got, body = raw_exchange(
        port, f"TRACE {MOUNT}/api/search HTTP/1.1\r\nHost: localhost\r\n".encode() + b"\r\n"
    )
    assert got == 405 and json.loads(body)["error"]
    set_limit(("1r/m", 1))  # computing requests under the path are counted
    try:
        answers = [
            raw_request(port, f"{MOUNT}/api/search?q=spiel{n}", source=MOUNTED_CLIENT)
            for n in range(4)
        ]
    finally:
        set_limit(rolling.LOAD_LIMIT)
    status, headers, body = next(a for a in answers if a[0] != 200)
    assert status == 429 and headers["Content-Type"].startswith("application/json")
    assert json.loads(body)["error"] == "too_many_requests"


def test_the_root_of_the_nginx_template_takes_only_a_plain_path(tmp_path):
    conf = rolling._nginx_conf(tmp_path, 8080, [8001], set(), root=MOUNT)
    assert f"location {MOUNT}/ {{" in conf and "~^/api/ json;" not in conf
    # nothing outside the path: not nginx's own welcome page at "/" on a Debian host
    assert "location / {\n            return 404;\n        }" in conf
    at_root = rolling._nginx_conf(tmp_path, 8080, [8001], set())
    assert at_root.count("location / {") == 1 and "return 404;" not in at_root
    with pytest.raises(ValueError):
        rolling._nginx_conf(tmp_path, 8080, [8001], set(), root="/faq/ { return 200; }")


@pytest.mark.parametrize(("root", "home"), [("", 'href="/"'), (MOUNT, f'href="{MOUNT}/"')])
def test_nginxs_error_pages_lead_to_the_start_page_of_the_path(tmp_path, root, home):
    rolling.copy_error_pages(tmp_path / "errors", root)
    pages = sorted((tmp_path / "errors").glob("*.html"))
    assert pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "@ROOT@" not in text and f"<a {home}>Zur Startseite</a>" in text
