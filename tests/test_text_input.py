"""What a user types is cleaned once (`faq_bot.text.clean_input`) before search, the
chatbot and the pages read it: control characters are never text, invisible marks are
dropped, so a query of nothing else is an empty query."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from faq_bot.question import normalize_question
from faq_bot.text import HIDDEN_SENT, NOTHING_VISIBLE, clean_input, entry_id_in, said_back, squash

CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


@given(st.text())
def test_cleaned_input_has_no_control_or_invisible_characters(text: str):
    cleaned = clean_input(text)
    assert not CONTROL.search(cleaned)
    assert not any(unicodedata.category(c) == "Cf" for c in cleaned)
    assert unicodedata.is_normalized("NFC", cleaned)
    assert clean_input(cleaned) == cleaned  # once is enough


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("e\u200b\u0301", "\u00e9"),  # the mark combines once the zero-width space is gone
        ("O\u00ad\u0308l", "\u00d6l"),
        ("Bombe\u202e", "Bombe"),  # a right-to-left override is no text
        ("a\x00b", "a b"),
    ],
)
def test_invisible_characters_go_before_the_text_is_composed(typed: str, read: str):
    assert clean_input(typed) == read


@given(st.text(st.characters(blacklist_categories=("Cc", "Cf", "Cs"))))
def test_ordinary_text_is_only_normalised(text: str):
    assert clean_input(text) == unicodedata.normalize("NFC", text)


def test_control_characters_alone_are_an_empty_query(client):
    response = client.get("/api/search?q=%00%01%7F")
    assert response.status_code == 400
    assert response.get_json()["detail"] == "Bitte einen Suchbegriff angeben (Parameter „q“)."


def test_the_search_page_reads_control_characters_alone_as_no_query(client):
    response = client.get("/search?q=%00%E2%80%8B")
    assert response.status_code == 200
    assert "Geben Sie ein Stichwort" in response.get_data(as_text=True)


def test_the_chat_page_refuses_control_characters_alone_in_german(client):
    # a q that is neither empty nor a question: 400, as the OpenAPI description says
    for q in ("%00", "%C2%84", "%E2%80%8B"):
        response = client.get(f"/ask?q={q}")
        assert response.status_code == 400
        assert "Bitte eine Frage eingeben." in response.get_data(as_text=True)


def test_the_card_catalog_does_not_echo_control_characters(client):
    assert client.get("/api/cards?q=%00").get_json()["query"] == ""


def test_a_control_character_inside_a_query_separates_words(client):
    with_nul = client.get("/api/search?q=Radarstation%00Bombe").get_json()
    spaced = client.get("/api/search?q=Radarstation%20Bombe").get_json()
    assert with_nul["query"] == "Radarstation Bombe"
    assert [h["id"] for h in with_nul["hits"]] == [h["id"] for h in spaced["hits"]]


def test_a_question_of_signs_alone_is_told_it_has_no_word_to_search_for(client):
    # "Bitte eine Frage eingeben" read wrong to someone who had typed something
    for q in ("🤔", "?!", "…"):
        page = client.get("/ask", query_string={"q": q})
        api = client.post("/api/ask", json={"question": q})
        assert page.status_code == api.status_code == 400
        assert "kein Wort, nach dem sich suchen lässt" in page.get_data(as_text=True)
        said = "In der Frage steht kein Wort, nach dem sich suchen lässt."
        assert api.get_json()["detail"] == said


@pytest.mark.parametrize(
    "path",
    [
        "/search?q=x&n=abc",
        "/search?q=x&n=0",
        "/api/search?q=x&n=abc",
        "/api/suggest?q=x&format=xml",
    ],
)
def test_parameter_errors_name_the_parameter_in_german_quotes_not_markdown(client, path):
    response = client.get(path)
    assert response.status_code == 400
    text = response.get_data(as_text=True)
    assert "`" not in text
    assert "Parameter „" in text


def test_a_question_in_full_width_letters_is_read_as_the_letters_it_shows(client):
    """A QA review: search found "ＢＯＭＢＥ" (it folds anyway), the chat refused it as a
    question with no word to search for. What the chat shows back stays as typed."""
    assert normalize_question("Ｗａｓ ｋｏｓｔｅｔ ｄｉｅ ＢＯＭＢＥ？") == "Was kostet die BOMBE?"
    response = client.post("/api/ask", json={"question": "ＢＯＭＢＥ"})
    assert response.status_code == 200


@given(st.text())
def test_squash_leaves_one_space_between_words_and_none_around(text: str):
    """One helper folds white space for titles, captions, questions and embedded text
    (`faq_bot.text.squash`); every Unicode space counts, as in the regex it replaced."""
    squashed = squash(text)
    assert squashed == re.sub(r"\s+", " ", text).strip()
    assert squash(squashed) == squashed
    assert squashed.split(" ") == (text.split() or [""])


@given(st.text(), st.integers(min_value=2, max_value=120))
def test_a_value_said_back_is_its_cleaned_beginning_quoted_and_never_empty_quotes(
    text: str, limit: int
):
    """A review: cut at a word, „1 xxx…“ was said back as „1…“ (another paragraph number
    than the one sent), and a value of spaces or control characters alone as „“."""
    said = said_back(text, limit)
    read = squash(clean_input(text))
    if not read:
        assert said == NOTHING_VISIBLE
        return
    hidden = read != unicodedata.normalize("NFC", text)  # more was sent than is shown
    assert said.endswith(" " + HIDDEN_SENT) == hidden
    said = said.removesuffix(" " + HIDDEN_SENT)
    assert said.startswith("„") and said.endswith("“")
    inner = said[1:-1]
    assert len(inner) <= limit
    assert not any(unicodedata.category(c) in ("Cc", "Cf") for c in inner)
    assert inner == read or (inner.endswith("…") and read.startswith(inner[:-1]))


def test_a_short_value_is_said_back_as_typed_and_a_long_one_ends_in_an_ellipsis():
    assert said_back("how-faq") == "„how-faq“"
    assert said_back("\u202eabc") == "„abc“ (mit Leer- oder unsichtbaren Zeichen gesendet)"
    assert said_back("5 ") == said_back("\u200b5") == f"„5“ {HIDDEN_SENT}"
    assert said_back("Ka\u0308se") == "„Käse“"  # composed as typed text is: nothing hidden
    assert said_back("7" * 5000) == "„" + "7" * 79 + "…“"
    assert said_back("1 " + "x" * 60, 40) == "„1 " + "x" * 37 + "…“"
    assert said_back("\x00 \u200b") == NOTHING_VISIBLE


@pytest.mark.parametrize(
    ("typed", "named"),
    [
        ("/entry/227-pfund-bombe-basisausbau", "227-pfund-bombe-basisausbau"),
        ("https://x.example/faq/entry/depot/absatz/3?v=ab12", "depot"),
        ("  /entry/sperren-entsperren#p0 ", "sperren-entsperren"),
        ("/entry/%C3%B6lfeld", "ölfeld"),
        ("aktionsstapel", None),
        ("227-Pfund Bombe", None),
        ("/docs/how-faq", None),
    ],
)
def test_the_entry_id_in_a_pasted_address(typed, named):
    assert entry_id_in(typed) == named
