"""Turn tokens (`faq_bot.chat.shown`): an earlier chat turn kept as it was shown and
shown again without retrieval. The page's behaviour is pinned in tests/test_web_ask.py."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from faq_bot.chat import QuestionError, answer
from faq_bot.chat.shown import (
    DECLINED,
    ENTRY_ID,
    GONE,
    MAX_ITEMS,
    MAX_TOKEN,
    TOKEN_PATTERN,
    UNANSWERED,
    Shown,
    parse_conversation,
    show,
    shown_of,
)
from faq_bot.question import normalize_question

ids = st.from_regex(ENTRY_ID, fullmatch=True)
paragraphs = st.integers(0, 9999)
offsets = st.integers(0, 999_999)
questions = (
    st.text(min_size=1, max_size=200)
    .map(normalize_question)
    .filter(lambda q: re.search(r"[0-9A-Za-z]", q) is not None)
)
related = st.tuples(st.sampled_from(["link", "similar"]), ids, st.none() | paragraphs)


@st.composite
def turns(draw) -> Shown:
    kind = draw(st.sampled_from(["answered", DECLINED, GONE, UNANSWERED]))
    items = tuple(draw(st.lists(related, max_size=MAX_ITEMS)))
    if kind != "answered":
        return Shown(draw(questions), kind, related=items)
    start, end = sorted((draw(offsets), draw(offsets)))
    return Shown(draw(questions), kind, draw(ids), draw(paragraphs), (start, end), items)


@settings(max_examples=examples(300))
@given(turns())
def test_a_token_reads_back_as_the_turn_it_was_made_from(turn):
    token = turn.token()
    assert Shown.parse(token) == turn
    assert len(token) <= MAX_TOKEN
    assert re.match(TOKEN_PATTERN, token)  # the OpenAPI description's pattern admits it


@settings(max_examples=examples(300))
@given(st.text(max_size=300) | st.from_regex(TOKEN_PATTERN))
def test_any_text_is_a_turn_or_a_german_error(text):
    try:
        Shown.parse(text)
    except QuestionError as exc:
        assert str(exc)


def test_every_entry_id_of_the_corpus_fits_a_token(index):
    assert all(re.fullmatch(ENTRY_ID, record.id) for record in index.iter_entries())


def test_an_answer_shown_again_equals_the_answer_without_searching(index, monkeypatch):
    from faq_bot.chat import passage

    for question in (
        "Wer bezahlt, wenn meine 227er gekontert wird?",
        "Wie viele Karten hat ein Depot mindestns?",
        "Ab welchem Alter ist das Spiel geeignet?",
    ):
        data = answer(index, question).to_json()
        monkeypatch.setattr(passage, "rank_entries", None)  # no search from here on
        again, kept = show(index, shown_of(data), [])
        monkeypatch.undo()
        assert kept == shown_of(data)
        shown = again.to_json()
        for key in ("question", "confident", "message", "related", "suggestion", "check_url"):
            assert shown[key] == data[key], key
        if data["answer"]:
            for key in ("text", "paragraph", "url", "highlight", "title", "citation"):
                assert shown["answer"][key] == data["answer"][key], key


def test_plain_questions_of_old_links_come_first_and_are_not_answers():
    earlier = parse_conversation(["Aktionsstapel"], ["-~Depot"])
    assert [(s.question, s.kind) for s in earlier] == [
        ("Aktionsstapel", UNANSWERED),
        ("Depot", DECLINED),
    ]
    assert [t.entry for t in (s.turn() for s in earlier)] == [None, None]
    with pytest.raises(QuestionError, match="Verlauf, Eintrag 1"):
        parse_conversation([""], [])
