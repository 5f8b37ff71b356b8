"""Every API error has one shape: JSON {"error", "detail"} with a German detail.

Pages get one German error page (templates/error.html); a 500 shows no traceback.
"""

from __future__ import annotations

import logging
import re
import tomllib

import pytest
from flask import Flask
from werkzeug.exceptions import default_exceptions

from faq_bot.config import ROOT
from faq_bot.web import create_app

LONG = "x" * 600

API_ERRORS = [
    ("GET", "/api/search", 400),
    ("GET", "/api/search?q=", 400),
    ("GET", "/api/search?q=%20%20", 400),
    ("GET", f"/api/search?q={LONG}", 400),
    ("GET", "/api/search?q=Bombe&n=0", 400),
    ("GET", "/api/search?q=Bombe&n=abc", 400),
    ("GET", "/api/search?q=Bombe&n=100000", 400),
    ("GET", "/api/search?q=Bombe&doc=nope", 400),
    ("GET", f"/api/suggest?q={LONG}", 400),
    ("GET", "/api/suggest?q=Akt&n=99", 400),
    ("GET", "/api/entries/gibt-es-nicht", 404),
    ("GET", "/api/nope", 404),
    ("GET", "/api/gibt-es-nicht/", 404),  # /api/ itself leads to the OpenAPI document
    ("POST", "/api/search?q=Bombe", 405),
    ("DELETE", "/api/entries/aktionsstapel", 405),
    ("PUT", "/healthz", 405),
    ("POST", "/api/ask", 415),  # no JSON body
    ("GET", "/api/ask", 405),
]

# a detail in English (werkzeug's defaults, a forgotten message) has these words
ENGLISH = re.compile(r"\b(the|is|not|was|were|request|server|please|found|invalid)\b", re.I)
# the corpus's document titles, which a detail may name as they are („The Sails of War“)
TITLES = [
    d["title"]
    for d in tomllib.loads((ROOT / "corpus" / "manifest.toml").read_text("utf-8"))["documents"]
]
WERKZEUG_DEFAULTS = {cls.description for cls in default_exceptions.values()}
# fields an error may add to the shape: an unknown entry's 404 lists `suggestions`
EXTRA_FIELDS = {"suggestions"}


def assert_error_shape(response, status: int) -> dict:
    assert response.status_code == status
    assert response.mimetype == "application/json"
    data = response.get_json()
    assert {"error", "detail"} <= set(data) <= {"error", "detail", *EXTRA_FIELDS}
    assert isinstance(data["error"], str) and data["error"]
    assert isinstance(data["detail"], str) and data["detail"]
    assert data["detail"] not in WERKZEUG_DEFAULTS
    words = data["detail"]
    for title in TITLES:
        words = words.replace(title, "")
    assert not ENGLISH.search(words), data["detail"]
    assert "Traceback" not in response.get_data(as_text=True)
    return data


@pytest.mark.parametrize(("method", "path", "status"), API_ERRORS)
def test_error_shape_api_errors(client, method, path, status):
    assert_error_shape(client.open(path, method=method), status)


def test_error_shape_405_keeps_allow_header(client):
    response = client.post("/api/search?q=Bombe")
    assert "GET" in response.headers["Allow"]


def api_rules(app: Flask):
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") or rule.rule == "/healthz":
            yield rule


def sample_path(rule) -> str:
    return rule.rule.replace("<entry_id>", "aktionsstapel").replace("<", "").replace(">", "")


def test_error_shape_every_api_route_wrong_method(app, client):
    """Covers routes added later too: a wrong method is a JSON 405."""
    for rule in api_rules(app):
        wrong = "PATCH" if "PATCH" not in (rule.methods or ()) else "PUT"
        assert_error_shape(client.open(sample_path(rule), method=wrong), 405)


def test_error_shape_every_api_route_without_index(app, no_index_client):
    """Without an index every API route answers, and each error is in the one shape."""
    needs_index = {"/api/search", "/api/suggest", "/api/entries/<entry_id>", "/healthz"}
    for rule in api_rules(app):
        method = "GET" if "GET" in (rule.methods or ()) else "POST"
        query = "?q=Bombe" if method == "GET" else ""
        response = no_index_client.open(
            sample_path(rule) + query, method=method, json={} if method == "POST" else None
        )
        if rule.rule in needs_index:
            assert_error_shape(response, 503)
        elif response.status_code >= 400:
            assert_error_shape(response, response.status_code)


@pytest.mark.parametrize(
    ("path", "status", "title"),
    [
        ("/entry/gibt-es-nicht", 404, "Seite nicht gefunden"),
        ("/docs/nope", 404, "Seite nicht gefunden"),
        ("/search?q=" + LONG, 400, "Ungültige Anfrage"),
        ("/search?q=Bombe&n=0", 400, "Ungültige Anfrage"),
    ],
)
def test_error_pages_are_german_html(client, path, status, title):
    response = client.get(path)
    assert response.status_code == status
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert '<section class="error-page">' in html
    assert f"<h1>{title}</h1>" in html
    assert '<html lang="de">' in html


@pytest.mark.parametrize(
    ("path", "field", "detail"),
    [
        ("/search?q=", "q", r'<p class="detail" id="error-detail">[^<]*zu lang'),
        # the chat's own page, its conversation kept (an API probe)
        ("/ask?q=", "chat-q", r'<p id="chat-error-text">[^<]*zu lang'),
    ],
)
def test_a_refused_text_comes_back_in_a_field_marked_with_the_error(client, path, field, detail):
    """An accessibility review: the 400 page put the refused text back in the field, but
    neither tied the field to the message nor marked it invalid."""
    html = client.get(path + "x" * 900).get_data(as_text=True)
    tag = re.search(rf'<input id="{field}"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in tag and "x" * 900 in tag
    described = re.search(r'aria-describedby="([^"]*)"', tag)[1]
    assert re.search(detail, html) and f'id="{described}"' in re.search(detail, html)[0]
    # a 404's search field holds the path's words to search, no error of its own
    found = client.get("/entry/gibt-es-nicht").get_data(as_text=True)
    assert "aria-invalid" not in re.search(r'<input id="q"[^>]*>', found).group(0)


@pytest.mark.parametrize("wrong", ["n=abc", "n=999", "genau=ja"])
def test_a_search_refused_for_another_parameter_leaves_its_text_unmarked(client, wrong):
    """An accessibility review: /search?n=abc&q=x came back with the valid query marked
    invalid and described by „Der Parameter „n“ muss …“: a screen reader said the query
    was wrong. The text comes back, unmarked."""
    response = client.get(f"/search?q=Bombe&{wrong}")
    assert response.status_code == 400
    tag = re.search(r'<input id="q"[^>]*>', response.get_data(as_text=True)).group(0)
    assert 'value="Bombe"' in tag and "aria-invalid" not in tag and "aria-describedby" not in tag


def test_error_page_post_to_a_page_is_405_html(client):
    response = client.post("/search")
    assert response.status_code == 405
    assert "Methode nicht erlaubt" in response.get_data(as_text=True)


def test_error_page_without_index_is_503_with_advice(no_index_client):
    response = no_index_client.get("/")
    assert response.status_code == 503
    assert "faq-bot index" in response.get_data(as_text=True)


@pytest.fixture
def crashing_app(tiny_built_index):
    # not TESTING: errors are handled; the one-document build, as the corpus is not
    # the point (an app on the real corpus warms ~1 s of CPU)
    app = create_app({"INDEX_DIR": str(tiny_built_index)})

    @app.get("/api/boom")
    def api_boom():
        raise RuntimeError("secret internal detail")

    @app.get("/boom")
    def page_boom():
        raise RuntimeError("secret internal detail")

    return app


def test_error_500_api_is_json_without_traceback_and_logged(crashing_app, caplog):
    with caplog.at_level(logging.ERROR, logger="faq_bot.web"):
        response = crashing_app.test_client().get("/api/boom")
    data = assert_error_shape(response, 500)
    assert data["error"] == "internal_error"
    assert "secret internal detail" not in response.get_data(as_text=True)
    assert any("RuntimeError" in (r.exc_text or "") for r in caplog.records)


def test_error_500_page_is_german_without_traceback(crashing_app):
    response = crashing_app.test_client().get("/boom")
    html = response.get_data(as_text=True)
    assert response.status_code == 500
    assert "Interner Fehler" in html
    assert "secret internal detail" not in html
    assert "Traceback" not in html
    assert response.headers["Content-Security-Policy"]


def test_every_status_the_app_answers_with_has_a_german_title_and_detail():
    """An HTTP probe: a 415 page said only „Fehler“ (406, 422 and 429 likewise)."""
    from faq_bot.web.errors import CODES, DEFAULT_DETAILS
    from faq_bot.web.errors import TITLES as GERMAN_TITLES

    assert set(CODES) <= set(GERMAN_TITLES)
    assert set(CODES) <= set(DEFAULT_DETAILS)


def test_a_compressed_form_post_is_a_415_page_with_a_german_title(client):
    response = client.post(
        "/check",
        data=b"a=",
        headers={"Content-Encoding": "gzip"},
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 415
    assert "<h1>Format nicht unterstützt</h1>" in response.get_data(as_text=True)


def test_an_allowance_gives_its_burst_then_its_rate():
    from faq_bot.web.errors import Allowance

    now = [100.0]
    allowance = Allowance(rate=2.0, burst=3, clock=lambda: now[0])
    assert [allowance.take() for _ in range(5)] == [True, True, True, False, False]
    now[0] += 0.5  # half a second: one more
    assert [allowance.take() for _ in range(2)] == [True, False]
    now[0] += 60  # a long pause refills the burst, not more
    assert sum(allowance.take() for _ in range(10)) == 3


def test_404_pages_stop_searching_the_path_when_a_flood_spends_the_allowance(client, monkeypatch):
    """A review: every 404 searched the words of its path (30-86 ms), outside nginx's
    limit on the computing routes: random addresses in a loop were unlimited work. Past
    the worker's allowance a 404 lists no search hits; it stays a German 404."""
    import faq_bot.search as search_module
    from faq_bot.web import errors

    searched: list[str] = []

    original = search_module.search
    monkeypatch.setattr(
        search_module, "search", lambda *a, **k: searched.append(a[1]) or original(*a, **k)
    )
    monkeypatch.setattr(errors, "NOT_FOUND_SEARCHES", errors.Allowance(rate=0.001, burst=2))
    pages = [client.get(f"/entry/bombe-{n}") for n in range(6)]
    assert [p.status_code for p in pages] == [404] * 6
    assert len(searched) == 2
    assert "Seite nicht gefunden" in pages[-1].get_data(as_text=True)
    api = client.get("/api/entries/bombe-x")
    assert api.status_code == 404 and len(searched) == 2


def test_a_404_pages_hits_are_headed_below_their_list_heading(client):
    """An accessibility review: the hits' titles were h2, siblings of the h2 „Passende
    Einträge …“ they stand under."""
    html = client.get("/entry/bombe-basisausbau-zzz").get_data(as_text=True)
    assert "<h2>Passende Einträge" in html
    assert '<h3 class="hit-title">' in html and '<h2 class="hit-title">' not in html
