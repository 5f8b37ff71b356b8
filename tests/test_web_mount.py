"""Served under a path (gunicorn's ``SCRIPT_NAME=/faq``, a proxy's ``location /faq/``):
every link the pages and the JSON API hand out stays under it — the stages' paths
(`faq_bot.text.entry_path`, the checker link) as well as the web's own (`url_for`)."""

from __future__ import annotations

import re
from typing import Any

import pytest

ROOT = "/faq"
BASE = f"http://localhost{ROOT}"
# attributes a browser follows or a script reads a path from
LINKED = re.compile(r'\s(?:href|src|action|cite|data-[a-z-]+)="(/[^"]*)"')

PAGES = [
    "/",
    "/search?q=Sperren",  # hits
    "/search?q=Depo",  # no hit: similar titles
    "/ask?q=Darf+ich+eine+gesperrte+Einheit+entsperren%3F",  # an answer, related entries
    "/ask?q=Wie+lange+dauert+eine+Partie%3F",  # declined: the search's first hits
    "/ask?q=Wer+muss+zuerst+bezahlen%3A+Zerst%C3%B6rer+oder+Radarstation%3F",  # checker link
    "/entry/sperren-entsperren",  # references and backlinks
    "/docs/how-faq",
    "/check",
    "/offline",
]


def outside(paths: list[str]) -> list[str]:
    return [p for p in paths if p != ROOT and not p.startswith(ROOT + "/")]


def site_paths(data: Any) -> list[str]:
    """The paths of this site in JSON `data`: its link fields' values that start with "/"."""
    if isinstance(data, dict):
        own = [v for k, v in data.items() if k.endswith("url") and isinstance(v, str)]
        return [v for v in own if v.startswith("/")] + site_paths(list(data.values()))
    if isinstance(data, list):
        return [p for item in data for p in site_paths(item)]
    return []


@pytest.mark.parametrize("path", PAGES)
def test_a_page_under_a_script_root_links_only_under_it(client, path):
    response = client.get(path, base_url=BASE)
    assert response.status_code == 200
    linked = LINKED.findall(response.get_data(as_text=True))
    assert linked
    assert outside(linked) == []


def test_a_not_found_page_under_a_script_root_offers_entries_under_it(client):
    response = client.get("/entry/sperrn", base_url=BASE)
    assert response.status_code == 404
    linked = LINKED.findall(response.get_data(as_text=True))
    assert any("/entry/" in p for p in linked)
    assert outside(linked) == []


@pytest.mark.parametrize(
    "path",
    [
        "/api/search?q=Sperren",
        "/api/suggest?q=Sper",
        "/api/entries/sperren-entsperren",
        "/api/entries/sperrn",  # 404 with suggestions
    ],
)
def test_the_json_under_a_script_root_gives_urls_under_it(client, path):
    data = client.get(path, base_url=BASE).get_json()
    paths = site_paths(data)
    assert paths
    assert outside(paths) == []


@pytest.mark.parametrize(
    "question",
    [
        "Darf ich eine gesperrte Einheit entsperren?",
        "Wie lange dauert eine Partie?",  # declined: the search's first hits
        "Wer muss zuerst bezahlen: Zerstörer oder Radarstation?",
    ],
)
def test_an_answer_under_a_script_root_links_under_it(client, question):
    data = client.post("/api/ask", json={"question": question}, base_url=BASE).get_json()
    paths = site_paths(data)
    assert paths
    assert outside(paths) == []


def test_absolute_links_under_a_script_root_name_it_once(client):
    data = client.get("/api/search?q=Sperren", base_url=BASE).get_json()
    hit = data["hits"][0]
    assert hit["absolute_url"] == "http://localhost" + hit["url"]
    assert hit["url"].startswith(ROOT + "/entry/") and ROOT + ROOT not in hit["absolute_url"]
