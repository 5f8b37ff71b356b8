"""Query words marked on ruling pages (?h=) and snippets cut around the best passage."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from faq_bot.web.marks import best_window, mark_html, query_groups, snippet

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


def test_too_long_h_is_a_400(client):
    assert client.get(f"/entry/{BOMB}?h=" + "a" * 600).status_code == 400


def test_mark_html_keeps_tags_and_entities(index):
    groups = query_groups(index, "Bombe")
    out = mark_html(index, '<p>Die <a href="/x">Bombe</a> &amp; Bomben &lt;b&gt;</p>', groups)
    assert (
        str(out)
        == '<p>Die <a href="/x"><mark>Bombe</mark></a> &amp; <mark>Bomben</mark> &lt;b&gt;</p>'
    )


@settings(max_examples=examples(60), deadline=None)
@given(st.text(max_size=400), st.text(max_size=40))
def test_snippet_is_escaped_text_with_marks_only(index, text, query):
    out = snippet(index, text, query_groups(index, query))
    assert re.sub(r"</?mark>", "", out).count("<") == 0


def test_best_window_prefers_the_passage_with_most_query_words():
    found = [(5, 10, 0), (400, 405, 0), (420, 428, 1), (440, 445, 2)]
    start, end = best_window(found, 1000, 240)
    assert start <= 400 and end >= 445
