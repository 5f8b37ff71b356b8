"""Snippets cut around the passage with the most query words: one function
(`faq_bot.snippets.snippet`) behind the search page, /api/search and `faq-bot search`."""

from __future__ import annotations

import html
import re

from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from faq_bot.cli import main
from faq_bot.search import search
from faq_bot.snippets import Spans, best_window, marked_sentence, snippet
from faq_bot.web.marks import query_groups

QUERY = "wer bezahlt die 227er"
BOMB = "227-pfund-bombe-basisausbau"


def test_search_hit_snippet_holds_the_passage_with_the_questions_verb(index):
    hit = search(index, QUERY, n=1).hits[0]
    assert hit.id == BOMB
    assert "<mark>bezahlen</mark>" in hit.snippet


def test_api_search_snippet_is_cut_around_the_best_passage(client):
    hits = client.get("/api/search", query_string={"q": QUERY, "n": 1}).get_json()["hits"]
    assert hits[0]["id"] == BOMB
    assert "<mark>bezahlen</mark>" in hits[0]["snippet"]


def test_cli_search_snippet_is_cut_around_the_best_passage(built_index):
    result = CliRunner().invoke(
        main, ["search", "--index", str(built_index), "-n", "1", *QUERY.split()]
    )
    assert result.exit_code == 0, result.output
    assert "bezahlen" in result.output
    json_result = CliRunner().invoke(
        main, ["search", "--json", "--index", str(built_index), "-n", "1", QUERY]
    )
    assert "<mark>bezahlen</mark>" in json_result.stdout


def test_page_and_api_show_the_same_snippet(client, index):
    expected = [h.snippet_text for h in search(index, QUERY, n=3).hits]
    api = client.get("/api/search", query_string={"q": QUERY, "n": 3}).get_json()["hits"]
    page = client.get("/search", query_string={"q": QUERY, "n": 3}).get_data(as_text=True)
    shown = re.findall(r'<p class="snippet">(.*?)</p>', page, re.S)
    assert [plain(h["snippet"]) for h in api] == expected
    assert [plain(h) for h in shown] == expected


def plain(snippet_html: str) -> str:
    return html.unescape(re.sub(r"</?mark>", "", snippet_html))


def test_short_text_is_shown_whole(index):
    text = "Die Bombe bezahlt der Spieler, der sie ausspielt."
    out = snippet(index, text, query_groups(index, "bezahlt"))
    assert "…" not in out and "<mark>bezahlt</mark>" in out


def test_long_text_is_cut_at_spaces_with_ellipses(index):
    text = " ".join(["Vorrede"] * 60) + " Wer bezahlt die Bombe? " + " ".join(["Nachwort"] * 60)
    out = snippet(index, text, query_groups(index, "wer bezahlt die Bombe"))
    assert out.startswith("…") and out.endswith(" …")
    assert "<mark>bezahlt</mark>" in out and "<mark>Bombe</mark>" in out
    plain = re.sub(r"</?mark>", "", out).strip("… ")
    assert plain.split()[0] == "Vorrede" and plain.split()[-1] == "Nachwort"


@settings(max_examples=examples(60), deadline=None)
@given(st.text(max_size=400), st.text(max_size=40))
def test_snippet_is_escaped_text_with_marks_only(index, text, query):
    out = snippet(index, text, query_groups(index, query))
    assert re.sub(r"</?mark>", "", out).count("<") == 0


@settings(max_examples=examples(80), deadline=None)
@given(
    st.lists(
        st.tuples(
            st.text(alphabet="abcdeWICHTIGäöüß", min_size=1, max_size=14),
            st.sampled_from([" ", "\n", " \n", "\n\n"]),
        ),
        min_size=1,
        max_size=90,
    ),
    st.integers(0, 89),
)
# the window's start 40 characters before the word asked for fell inside the first word
@example([("WICHTIG:", " ")] + [("ab", " ")] * 11 + [("Reaktion", " ")] + [("cd", " ")] * 90, 12)
def test_a_snippet_starts_and_ends_with_whole_words(index, parts, pick):
    """A phone review: "…ICHTIG: Es muss nicht zwingend…" (the source: "WICHTIG"): a
    passage whose window began in its first word, or after a line break, was cut inside
    a word."""
    text = "".join(word + sep for word, sep in parts).rstrip()
    words = set(text.split())
    query = parts[pick % len(parts)][0]
    shown = plain(snippet(index, text, query_groups(index, query))).removeprefix("…")
    shown = shown.removesuffix(" …")
    assert all(word in words for word in shown.split()), (text, shown)


def test_best_window_prefers_the_passage_with_most_query_words():
    found = [(5, 10, 0), (400, 405, 0), (420, 428, 1), (440, 445, 2)]
    start, end = best_window(found, 1000, 240)
    assert start <= 400 and end >= 445


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(st.text(max_size=10), st.integers(0, 2**31), st.integers(0, 2**31))))
def test_token_spans_are_held_compactly_and_given_back_in_order(tokens):
    assert list(Spans(tokens)) == tokens and len(Spans(tokens)) == len(tokens)


def test_a_hits_sentence_is_the_one_of_its_snippet_with_most_query_words(index):
    """What a hit's link names in a text fragment (`faq_bot.hits.Hit.fragment`)."""
    text = (
        "Die Bombe kostet 2 TW. Wer bezahlt sie? Der Spieler bezahlt die Bombe, der sie "
        "ausspielt. Danach geht sie ins Depot."
    )
    start, end = marked_sentence(index, text, query_groups(index, "wer bezahlt die Bombe"))
    assert text[start:end] == "Der Spieler bezahlt die Bombe, der sie ausspielt."
    assert marked_sentence(index, text, query_groups(index, "Radarstation")) is None


def test_a_hits_link_names_its_snippets_sentence_but_not_for_a_table(index):
    from faq_bot.corpus.model import paragraph_table

    hits = search(index, "Kriegsschiff Kosten", n=50, mode="lexical", fragments=True).hits
    assert not any(h.fragment for h in search(index, "Kriegsschiff Kosten", n=50).hits)
    named = [h for h in hits if h.fragment]
    assert named and all(h.fragment.startswith("text=") for h in named)
    for hit in hits:
        record = index.entry(hit.id)
        if hit.paragraph is not None and paragraph_table(
            record.paragraphs[hit.paragraph], record.markup
        ):
            assert hit.fragment is None, hit.id
    assert any(h.fragment is None and h.paragraph is not None for h in hits), "no table hit"
