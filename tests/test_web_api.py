"""The JSON API: search, suggestions, entries, health, and the OpenAPI description."""

from __future__ import annotations

import re

import pytest

from faq_bot.web.openapi import rule_to_path

BOMB = "227-pfund-bombe-basisausbau"
HIT_KEYS = {"id", "doc", "title", "url", "score", "snippet", "text"}


def test_api_search_returns_hits_in_the_spec_shape(client):
    response = client.get("/api/search?q=Radarstation&n=5")
    assert response.status_code == 200
    data = response.get_json()
    assert data["query"] == "Radarstation"
    assert 0 < len(data["hits"]) <= 5
    assert data["total"] >= len(data["hits"])
    for hit in data["hits"]:
        assert HIT_KEYS <= hit.keys()
        assert hit["url"] == f"/entry/{hit['id']}"
    assert any("<mark>" in hit["snippet"] for hit in data["hits"])


def test_api_search_names_the_longer_words_a_search_word_stands_in(client):
    data = client.get("/api/search?q=Fernkampf").get_json()
    assert data["longer_words"] == [{"word": "Fernkampf", "words": ["Fernkampfphase"]}]
    assert client.get("/api/search?q=Radarstation").get_json()["longer_words"] == []


def test_api_search_doc_filter(client):
    hits = client.get("/api/search?q=Einheiten&doc=sow&n=50").get_json()["hits"]
    assert hits
    assert {hit["doc"] for hit in hits} == {"sow"}


def test_api_search_default_n_is_ten(client):
    assert len(client.get("/api/search?q=Karte").get_json()["hits"]) == 10


def test_api_search_suggestion_for_typo(client):
    assert client.get("/api/search?q=Radarstatoin").get_json()["suggestion"] == "Radarstation"


def test_api_search_no_hits_is_an_empty_list_not_an_error(client):
    response = client.get("/api/search?q=xyzzyqq")
    assert response.status_code == 200
    assert response.get_json()["hits"] == []


def test_api_suggest_offers_titles_and_aliases_for_a_prefix(client):
    data = client.get("/api/suggest?q=Aktions").get_json()
    titles = [s["title"] for s in data["suggestions"]]
    assert "Aktionsstapel" in titles
    assert all(s["url"] == f"/entry/{s['id']}" for s in data["suggestions"])


def test_api_suggest_within_a_document_offers_only_its_titles(client):
    """A QA review: the document page's own search box („In „HoW FAQ“ suchen“) offered
    titles of the other documents („Runde“ twice, one of them the rulebook's)."""
    everywhere = client.get("/api/suggest?q=Runde").get_json()["suggestions"]
    assert {s["id"] for s in everywhere} >= {"runde", "runde-runde"}
    within = client.get("/api/suggest?q=Runde&doc=how-faq").get_json()["suggestions"]
    assert within and all(not s["id"].startswith(("runde-", "sow-")) for s in within)
    assert "runde" in {s["id"] for s in within}
    refused = client.get("/api/suggest?q=Runde&doc=gibtsnicht")
    assert refused.status_code == 400 and "Unbekanntes Dokument" in refused.get_json()["detail"]


def test_api_suggest_empty_prefix_gives_nothing(client):
    assert client.get("/api/suggest?q=").get_json()["suggestions"] == []


def test_api_entry_has_paragraphs_links_backlinks_and_document(client, index):
    data = client.get("/api/entries/aktionsstapel").get_json()
    record = index.entry("aktionsstapel")
    assert data["id"] == "aktionsstapel"
    assert data["paragraphs"] == list(record.paragraphs)
    assert data["paragraph_urls"][0] == "/entry/aktionsstapel#p0"
    assert {b["id"] for b in data["backlinks"]} == {b["id"] for b in record.backlinks}
    assert data["document"]["title"] == "HoW FAQ"
    assert data["document"]["date_text"] == "30. November 2012"
    prev, nxt = index.neighbours("aktionsstapel")
    assert data["previous"] == (prev.id if prev else None)
    assert data["next"] == (nxt.id if nxt else None)


def test_api_entry_links_carry_their_targets(client):
    links = client.get(f"/api/entries/{BOMB}").get_json()["links"]
    assert any(link["target"] == "aktionsstapel" for link in links)


def test_api_entry_alias_redirects_to_canonical(client):
    response = client.get("/api/entries/227-pfund-bombe")
    assert response.status_code == 301
    assert response.headers["Location"] == f"/api/entries/{BOMB}"
    assert response.headers["Cache-Control"] == "no-cache"  # the next build's aliases may differ


def test_healthz_reports_the_loaded_index(client, index):
    response = client.get("/healthz")
    assert response.status_code == 200
    data = response.get_json()
    assert data["status"] == "ok"
    assert data["index"] == index.version


def test_healthz_without_index_is_503(no_index_client):
    response = no_index_client.get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["error"] == "index_unavailable"


def test_openapi_is_a_valid_openapi_3_document(client):
    spec = client.get("/api/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    from openapi_spec_validator import validate  # not at collection (see test_openapi_responses)

    validate(spec)


def test_openapi_describes_every_route_and_nothing_else(app, client):
    spec = client.get("/api/openapi.json").get_json()
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        methods = {m.lower() for m in rule.methods or ()} - {"head", "options"}
        routes.setdefault(rule_to_path(rule.rule), set()).update(methods)
    assert set(spec["paths"]) == set(routes)
    for path, methods in routes.items():
        assert set(spec["paths"][path]) == methods, path


@pytest.mark.parametrize(
    ("rule", "path"),
    [
        ("/entry/<entry_id>", "/entry/{entry_id}"),
        ("/api/entries/<string:entry_id>", "/api/entries/{entry_id}"),
        ("/", "/"),
    ],
)
def test_rule_to_path_uses_openapi_braces(rule, path):
    assert rule_to_path(rule) == path


def test_api_suggest_opensearch_format_for_browsers(client):
    response = client.get("/api/suggest?q=Aktions&format=opensearch")
    assert response.mimetype == "application/x-suggestions+json"
    query, titles = response.get_json(force=True)
    assert query == "Aktions"
    assert "Aktionsstapel" in titles


def test_api_suggest_opensearch_offers_each_title_once(client):
    """A review: the browser's own search box offered „Runde“ twice (two entries)."""
    json_titles = [s["title"] for s in client.get("/api/suggest?q=Runde").get_json()["suggestions"]]
    assert json_titles.count("Runde") == 2  # the API lists each entry
    _query, titles = client.get("/api/suggest?q=Runde&format=opensearch").get_json(force=True)
    assert titles.count("Runde") == 1


def test_distinct_titles_keep_the_first_place_and_the_spelling_not_in_capitals():
    from faq_bot.suggest import distinct_titles

    assert distinct_titles(["FLUGZEUGE", "Runde", "Flugzeuge", "runde", "Zug"]) == [
        "Flugzeuge",
        "Runde",
        "Zug",
    ]


# --- what a forum bot needs to embed a ruling from the API alone ------------------------


def _permalink(index, entry_id: str, paragraph: int) -> str:
    from faq_bot.text import paragraph_path

    record = index.entry(entry_id)
    return "http://localhost" + paragraph_path(
        entry_id, paragraph, record.plain_paragraphs[paragraph]
    )


def test_api_search_hits_carry_absolute_url_paragraph_permalink_citation_and_stand(client, index):
    hits = client.get("/api/search?q=Radarstation&n=10").get_json()["hits"]
    assert any(hit["paragraph"] is not None for hit in hits)
    for hit in hits:
        doc = index.document(hit["doc"])
        assert hit["url"] == f"/entry/{hit['id']}"  # kept: the path, as before
        assert hit["absolute_url"] == f"http://localhost/entry/{hit['id']}"
        assert hit["date_text"] == doc.get("date_text")
        assert hit["citation"].startswith(f"„{hit['title']}“ – {doc['title']}")
        assert hit["citation"].endswith(hit["absolute_url"])
        if hit["paragraph"] is None:
            assert hit["paragraph_url"] is None
        else:
            assert hit["paragraph_url"] == _permalink(index, hit["id"], hit["paragraph"])


def test_api_search_absolute_urls_follow_the_request_host(client):
    hit = client.get(
        "/api/search?q=Radarstation&n=1", base_url="https://regeln.example"
    ).get_json()["hits"][0]
    assert hit["absolute_url"].startswith("https://regeln.example/entry/")


def test_api_entry_carries_citation_stand_and_absolute_paragraph_permalinks(client, index):
    data = client.get("/api/entries/aktionsstapel").get_json()
    record = index.entry("aktionsstapel")
    assert data["url"] == "/entry/aktionsstapel"  # kept
    assert data["paragraph_urls"][0] == "/entry/aktionsstapel#p0"  # kept
    assert data["absolute_url"] == "http://localhost/entry/aktionsstapel"
    assert data["date_text"] == "30. November 2012"
    assert data["citation"] == (
        "„Aktionsstapel“ – HoW FAQ, Stand: 30. November 2012. http://localhost/entry/aktionsstapel"
    )
    assert data["paragraph_permalinks"] == [
        _permalink(index, "aktionsstapel", i) for i in range(len(record.paragraphs))
    ]


def test_api_entry_alias_redirect_has_a_german_json_body_naming_the_canonical_entry(client):
    response = client.get("/api/entries/227-pfund-bombe")
    assert response.status_code == 301
    assert response.headers["Location"] == f"/api/entries/{BOMB}"  # as before
    assert response.mimetype == "application/json"
    data = response.get_json()
    assert data["id"] == BOMB
    assert data["url"] == f"/entry/{BOMB}"
    assert data["api_url"] == f"/api/entries/{BOMB}"
    assert "227-pfund-bombe" in data["message"] and BOMB in data["message"]
    assert "umgezogen" not in data["message"]  # not the HTML redirect page's text


def test_api_entry_unknown_id_404_lists_the_suggestions_of_the_html_404_page(client):
    response = client.get("/api/entries/radarstation-kaputt")
    assert response.status_code == 404
    data = response.get_json()
    assert data["error"] == "not_found" and "radarstation-kaputt" in data["detail"]
    page = client.get("/entry/radarstation-kaputt").get_data(as_text=True)
    listed = re.findall(r'<a[^>]* href="/entry/([^"#?]+)', page.split("Passende Einträge", 1)[1])
    assert listed and [s["id"] for s in data["suggestions"]] == listed
    assert all(s["url"] == f"/entry/{s['id']}" and s["title"] for s in data["suggestions"])
    assert all(
        s["absolute_url"] == f"http://localhost/entry/{s['id']}" for s in data["suggestions"]
    )


def test_api_entry_unknown_id_without_words_has_no_suggestions(client):
    data = client.get("/api/entries/zzzqqq").get_json()
    assert data["error"] == "not_found" and data["suggestions"] == []


@pytest.mark.parametrize("path", ["/openapi.json", "/api", "/api/"])
def test_openapi_json_at_the_root_and_the_bare_api_redirect_to_the_api_document(client, path):
    """A QA review: ``/api`` and ``/api/`` were a 404, where people look for the API."""
    response = client.get(path)
    assert response.status_code == 301
    assert response.headers["Location"] == "/api/openapi.json"
    assert client.get(path, follow_redirects=True).get_json()["openapi"].startswith("3.")


@pytest.mark.parametrize(
    ("sent", "meant"),
    [
        ("/api/search/?q=Bombe", "/api/search?q=Bombe"),
        ("/api//search?q=Bombe", "http://localhost/api/search?q=Bombe"),
        ("/api/entries/aktionsstapel/", "/api/entries/aktionsstapel"),
        ("/api/", "/api/openapi.json"),
        ("/api", "/api/openapi.json"),
        ("/healthz/", "/healthz"),
    ],
)
def test_an_api_redirect_says_where_in_json(client, sent, meant):
    """An API probe: the 301 of a slash added and the 308 of a doubled slash under /api/
    had HTML bodies, where every other answer there is JSON."""
    response = client.get(sent)
    assert response.status_code in (301, 308)
    assert response.headers["Location"] == meant
    assert response.mimetype == "application/json"
    assert response.get_json() == {"message": "Diese Adresse ist umgezogen.", "location": meant}
    page = client.get("/entry/aktionsstapel/")  # a page's redirect stays a page
    assert page.status_code == 301 and page.mimetype == "text/html"


def _first_entry(index, has) -> str:
    return next(r.id for r in index.iter_entries() if has(r))


def test_api_entry_links_and_backlinks_carry_the_page_links_a_client_can_follow(client, index):
    """Each cross reference and backlink carries ``url`` (as the ruling page links it: at
    the paragraph it points to or refers from, past the first) and ``absolute_url``; a
    reference that resolves to no entry has neither (null)."""
    with_target_paragraph = _first_entry(
        index, lambda r: any(link.get("target_paragraph") for link in r.links)
    )
    with_referring_paragraph = _first_entry(
        index, lambda r: any(b.get("paragraph") for b in r.backlinks)
    )
    unresolved = _first_entry(index, lambda r: any(not link.get("target") for link in r.links))
    for entry_id in (with_target_paragraph, with_referring_paragraph, unresolved, BOMB):
        data = client.get(f"/api/entries/{entry_id}").get_json()
        for link in data["links"]:
            if not link["target"]:
                assert link["url"] is None and link["absolute_url"] is None
                continue
            expected = f"/entry/{link['target']}"
            if link["target_paragraph"] is not None:
                expected += f"#p{link['target_paragraph']}"
            assert link["url"] == expected
            assert link["absolute_url"] == "http://localhost" + expected
        for back in data["backlinks"]:
            expected = f"/entry/{back['id']}"
            if back.get("paragraph"):
                expected += f"#p{back['paragraph']}"
            assert back["url"] == expected
            assert back["absolute_url"] == "http://localhost" + expected
    page = client.get(f"/entry/{with_referring_paragraph}").get_data(as_text=True)
    back = next(
        b
        for b in client.get(f"/api/entries/{with_referring_paragraph}").get_json()["backlinks"]
        if b.get("paragraph")
    )
    assert f'href="{back["url"]}"' in page  # the same address the page links


def test_api_entry_absolute_urls_name_a_mounted_apps_prefix_once(client):
    """A code review: under a prefix (the app mounted at /regeln) the entry's and its
    links' absolute_url repeated it (…/regeln/regeln/entry/…)."""
    data = client.get("/api/entries/aktionsstapel", base_url="http://localhost/regeln").get_json()
    assert data["url"] == "/regeln/entry/aktionsstapel"
    assert data["absolute_url"] == "http://localhost/regeln/entry/aktionsstapel"
    for back in data["backlinks"]:
        assert back["absolute_url"] == "http://localhost" + back["url"]
        assert back["url"].startswith("/regeln/entry/")
    assert all(p.startswith("http://localhost/regeln/entry/") for p in data["paragraph_permalinks"])


def test_api_search_as_typed_has_no_suggestion_and_finds_only_the_words_typed(client):
    """A code review: the search page could search the words as typed, the API not."""
    read = client.get("/api/search?q=Karte+zihen&doc=how-faq&n=50").get_json()
    typed = client.get("/api/search?q=Karte+zihen&doc=how-faq&n=50&genau=1").get_json()
    assert read["suggestion"] == "Karte ziehen" and typed["suggestion"] is None
    assert typed["total"] < read["total"]
    bad = client.get("/api/search?q=Karte&genau=ja")
    assert bad.status_code == 400 and "„genau“" in bad.get_json()["detail"]
