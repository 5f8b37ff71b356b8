"""Served under a path (gunicorn's ``SCRIPT_NAME=/faq``, a proxy's ``location /faq/``):
every link the pages and the JSON API hand out is the same link as at the host's root with
the path before it, once — the stages' paths (`faq_bot.text.entry_path`, the checker link)
as well as the web's own (`url_for`), relative and absolute."""

from __future__ import annotations

import re
from typing import Any

import pytest
from werkzeug.test import EnvironBuilder, run_wsgi_app

ROOT = "/faq"
HOST = "http://localhost"
# attributes a browser follows or a script reads an address from, and the XML's templates
LINKED = re.compile(
    r'\s(?:href|src|action|cite|content|template|data-(?!root=)[a-z-]+)="((?:http://localhost)?/[^"]*)"'
)

PAGES = [
    "/",
    "/search?q=Sperren",  # hits
    "/search?q=Depo",  # no hit: similar titles
    "/ask?q=Darf+ich+eine+gesperrte+Einheit+entsperren%3F",  # an answer, related entries
    "/ask?q=Wie+lange+dauert+eine+Partie%3F",  # declined: the search's first hits
    "/ask?q=Wer+muss+zuerst+bezahlen%3A+Zerst%C3%B6rer+oder+Radarstation%3F",  # checker link
    "/entry/sperren-entsperren",  # references and backlinks, canonical, og:url
    "/entry/sperren-entsperren/absatz/1",  # a paragraph's permalink page
    "/docs/how-faq",
    "/check",
    "/offline",
    "/opensearch.xml",  # the browser's search box: search and suggestion templates, icon
]


def paths(text: str) -> list[str]:
    """The addresses of this site in a page, as paths (an absolute one without its host)."""
    return [p.removeprefix(HOST) for p in LINKED.findall(text)]


def json_paths(data: Any) -> list[str]:
    """The addresses of this site in JSON `data`, as paths: the values of its link fields
    (``url``, ``absolute_url``, ``paragraph_urls``, ``paragraph_permalinks`` …)."""
    if isinstance(data, dict):
        own = [v for k, v in data.items() if k.endswith(("url", "urls", "permalinks"))]
        found = [p for v in own for p in (v if isinstance(v, list) else [v])]
        local = [p.removeprefix(HOST) for p in found if isinstance(p, str)]
        return [p for p in local if p.startswith("/")] + json_paths(list(data.values()))
    if isinstance(data, list):
        return [p for item in data for p in json_paths(item)]
    return []


def rooted(found: list[str]) -> list[str]:
    return [ROOT + p for p in found]


@pytest.mark.parametrize("path", PAGES)
def test_a_page_under_a_script_root_links_as_at_the_root_under_it(client, path):
    at_root = client.get(path)
    under = client.get(path, base_url=HOST + ROOT)
    assert at_root.status_code == under.status_code == 200
    found = paths(at_root.get_data(as_text=True))
    assert found
    assert paths(under.get_data(as_text=True)) == rooted(found)


def test_a_not_found_page_under_a_script_root_offers_entries_under_it(client):
    at_root = client.get("/entry/sperrn")
    under = client.get("/entry/sperrn", base_url=HOST + ROOT)
    assert at_root.status_code == under.status_code == 404
    found = paths(at_root.get_data(as_text=True))
    assert any(p.startswith("/entry/") for p in found)
    assert paths(under.get_data(as_text=True)) == rooted(found)


@pytest.mark.parametrize(
    "path",
    [
        "/api/search?q=Sperren",
        "/api/suggest?q=Sper",
        "/api/entries/sperren-entsperren",
        "/api/entries/sperrn",  # 404 with suggestions
        "/api/entries/227-pfund-bombe",  # 301 with the canonical entry's links
    ],
)
def test_the_json_under_a_script_root_links_as_at_the_root_under_it(client, path):
    found = json_paths(client.get(path).get_json())
    assert found
    assert json_paths(client.get(path, base_url=HOST + ROOT).get_json()) == rooted(found)


@pytest.mark.parametrize(
    "question",
    [
        "Darf ich eine gesperrte Einheit entsperren?",
        "Wie lange dauert eine Partie?",  # declined: the search's first hits
        "Wer muss zuerst bezahlen: Zerstörer oder Radarstation?",  # checker link
    ],
)
def test_an_answer_under_a_script_root_links_as_at_the_root_under_it(client, question):
    def asked(**where: str) -> list[str]:
        return json_paths(client.post("/api/ask", json={"question": question}, **where).get_json())

    found = asked()
    assert found
    assert asked(base_url=HOST + ROOT) == rooted(found)


@pytest.mark.parametrize(
    "path",
    [
        "/entry/227-pfund-bombe",  # another name: 301 to the entry
        "/entry/sperren-entsperren/",  # a trailing slash
        "/entry/sperren-entsperren/Absatz/1",  # a paragraph link as a forum writes it
        "/docs",
        "/favicon.ico",
    ],
)
def test_a_redirect_under_a_script_root_leads_under_it(client, path):
    at_root = client.get(path).headers["Location"]
    under = client.get(path, base_url=HOST + ROOT).headers["Location"]
    assert at_root.startswith("/") and under == ROOT + at_root.removeprefix(HOST)


def test_the_service_worker_and_manifest_under_a_script_root_keep_to_it(client):
    worker = client.get("/sw.js", base_url=HOST + ROOT).get_data(as_text=True)
    for name in ("SHELL", "STATIC_PATH", "DATA_PATH", "ASK_PATH"):
        value = re.search(rf"^var {name} = \"([^\"]*)\";$", worker, re.M)
        assert value and value.group(1).startswith(ROOT + "/"), name
    # its caches are its own: a worker at the root deletes only "regelsuche-…"
    assert 'var CACHE_PREFIX = "regelsuche/faq/-";' in worker
    manifest = client.get("/manifest.webmanifest", base_url=HOST + ROOT).get_json()
    assert manifest["scope"] == manifest["start_url"] == ROOT + "/"


def test_a_path_that_only_begins_like_the_script_root_is_not_found(app):
    """An adversarial review: a server strips the root as text, so ``/faqentry/x`` under
    ``/faq`` reached the app as ``entry/x`` and was the entry's page at a wrong address."""
    environ = EnvironBuilder(path="/entry/sperren-entsperren", base_url=HOST + ROOT).get_environ()
    environ["PATH_INFO"] = "entry/sperren-entsperren"  # what gunicorn leaves of /faqentry/…
    body, status, _ = run_wsgi_app(app, environ, buffered=True)
    assert status.startswith("404")
    assert "Seite nicht gefunden" in b"".join(body).decode()


def test_a_script_root_given_with_its_slash_still_serves_its_pages(app):
    """A review: with ``SCRIPT_NAME=/faq/`` gunicorn leaves ``/faq/search`` as ``search``,
    which the check above must not take for a path outside the app."""
    environ = EnvironBuilder(path="/search", query_string="q=Sperren").get_environ()
    environ["SCRIPT_NAME"], environ["PATH_INFO"] = "/faq/", "search"
    _, status, _ = run_wsgi_app(app, environ, buffered=True)
    assert status.startswith("200")


@pytest.mark.parametrize("rest", ["", "?q=Sperren"])
def test_the_start_page_under_a_script_root_given_with_its_slash_is_served(app, rest):
    """``SCRIPT_NAME=/faq/`` leaves ``/faq/`` as the empty path, which werkzeug answered with
    a 308 to ``/faq/`` itself: a browser looped until it gave up. The root's slash belongs to
    the path: the start page, its links rooted once."""
    environ = EnvironBuilder(path="/", query_string=rest.lstrip("?")).get_environ()
    environ["SCRIPT_NAME"], environ["PATH_INFO"] = "/faq/", ""
    body, status, _ = run_wsgi_app(app, environ, buffered=True)
    assert status.startswith("200")
    found = paths(b"".join(body).decode())
    assert found and all(p.startswith(ROOT + "/") and not p.startswith(ROOT + "//") for p in found)
