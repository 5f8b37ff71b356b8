"""Query words marked on ruling pages (?h=); the search page's snippets (tests/test_snippets.py
has the snippet function itself)."""

from __future__ import annotations

import re

from faq_bot.web.marks import mark_html, query_groups

BOMB = "227-pfund-bombe-basisausbau"


def test_snippet_of_the_first_hit_includes_the_verb_of_the_question(client):
    html = client.get("/search?q=wer+bezahlt+die+227er").get_data(as_text=True)
    first = re.search(r'<p class="snippet">(.*?)</p>', html, re.S)
    assert first and "bezahlen" in first.group(1)
    assert "<mark>" in first.group(1)


def test_ruling_marks_the_query_words_from_a_search(client):
    html = client.get(f"/entry/{BOMB}?h=wer+bezahlt").get_data(as_text=True)
    assert "<mark>bezahlen</mark>" in html or "<mark>bezahlt</mark>" in html
    assert "Markiert: Wörter aus „wer bezahlt“" in html


def test_ruling_without_h_marks_nothing(client):
    html = client.get(f"/entry/{BOMB}").get_data(as_text=True)
    assert "<mark>" not in html


def test_marked_query_cannot_inject_markup(client):
    response = client.get(f"/entry/{BOMB}?h=%3Cscript%3Ealert(1)%3C/script%3E+Bombe")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<script>alert" not in html
    assert "<mark>Bombe</mark>" in html


def test_words_to_mark_past_the_query_limit_are_dropped_not_a_400(client, app):
    """A QA review: a hand-made or mangled link with a long `h` made the whole ruling a
    400; the words are only marks, so what lies past the query's limit is not read."""
    limit = app.config["MAX_QUERY_LENGTH"]
    response = client.get(f"/entry/{BOMB}", query_string={"h": "Bombe " + "a" * limit})
    assert response.status_code == 200
    assert "<mark>Bombe</mark>" in response.get_data(as_text=True)
    # another name of the entry redirects with the words as the page reads them
    moved = client.get("/entry/227er", query_string={"h": "Bombe " + "a" * limit})
    assert moved.status_code == 301
    from urllib.parse import parse_qs, urlsplit

    carried = parse_qs(urlsplit(moved.headers["Location"]).query)["h"][0]
    assert carried == ("Bombe " + "a" * limit)[:limit]


def test_mark_html_keeps_tags_and_entities(index):
    groups = query_groups(index, "Bombe")
    out = mark_html(index, '<p>Die <a href="/x">Bombe</a> &amp; Bomben &lt;b&gt;</p>', groups)
    assert (
        str(out)
        == '<p>Die <a href="/x"><mark>Bombe</mark></a> &amp; <mark>Bomben</mark> &lt;b&gt;</p>'
    )


def test_ruling_says_nothing_is_marked_when_no_word_of_the_search_stands_in_it(client):
    # an API probe: a hit close in meaning alone linked „?h=Kampf“ to a ruling without the
    # word, which said „Markiert: Wörter aus „Kampf““ over no mark
    html = client.get(f"/entry/{BOMB}?h=Flugzeugträger").get_data(as_text=True)
    assert "<mark>" not in html
    assert "Markiert:" not in html


def test_ruling_says_a_long_search_back_cut(client):
    html = client.get(f"/entry/{BOMB}", query_string={"h": "Bombe " * 100}).get_data(as_text=True)
    note = re.search(r'<p class="marked-note">Markiert: Wörter aus „([^“]*)“', html)
    assert note and note[1].endswith("…") and len(note[1]) <= 80


def test_a_hit_close_in_meaning_alone_links_its_ruling_without_words_to_mark(app):
    from flask import render_template_string

    from faq_bot.hits import Hit

    hits = [
        Hit("a", "how-faq", "A", "/entry/a", 1.0, "", "", matched=True),
        Hit("b", "how-faq", "B", "/entry/b", 0.5, "", "", matched=False),
    ]
    with app.test_request_context("/search?q=Bombe"):
        html = render_template_string(
            '{% from "_macros.html" import hit_list %}{{ hit_list(hits, {}, "Bombe") }}',
            hits=hits,
        )
    assert re.findall(r'class="hit-title"><a href="([^"]*)"', html) == [
        "/entry/a?h=Bombe",
        "/entry/b",
    ]
