"""Turn tokens (`faq_bot.chat.shown`): an earlier chat turn kept as it was shown and
shown again without retrieval, signed so only the server's own tokens redraw as
answers. The page's behaviour is pinned in tests/test_web_ask.py."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from faq_bot.chat import QuestionError, answer
from faq_bot.chat.answer import replay
from faq_bot.chat.items import SEARCH_FIRST
from faq_bot.chat.shown import (
    ANSWERED,
    DECLINED,
    ENTRY_ID,
    GONE,
    MAX_ITEMS,
    MAX_TOKEN,
    TOKEN_PATTERN,
    UNANSWERED,
    UNVERIFIED,
    UNVERIFIED_MESSAGE,
    Shown,
    fingerprint,
    parse_conversation,
    passage_text,
    show,
    shown_of,
    sign,
)
from faq_bot.question import tidy_question

KEY = b"a test key, not the service's secret"

ids = st.from_regex(ENTRY_ID, fullmatch=True)
paragraphs = st.integers(0, 9999)
offsets = st.integers(0, 999_999)
questions = (
    st.text(min_size=1, max_size=200)
    .map(tidy_question)  # shown as typed: "ne" stays "ne"
    .filter(lambda q: re.search(r"[0-9A-Za-z]", q) is not None)
)
related = st.tuples(st.sampled_from(["link", "similar"]), ids, st.none() | paragraphs)
searched = st.tuples(ids, st.none() | paragraphs, st.booleans())  # a search hit (+ a word?)


@st.composite
def turns(draw) -> Shown:
    kind = draw(st.sampled_from([ANSWERED, DECLINED, GONE, UNANSWERED, UNVERIFIED]))
    items = tuple(draw(st.lists(related, max_size=MAX_ITEMS)))
    with_context = draw(st.booleans())
    scope = draw(st.none() | ids)
    read = draw(st.sampled_from(["", "alone", "back"]))  # read as its shape says, or not
    alone, back = read == "alone", read == "back"
    read_with = draw(st.sampled_from(["", "0f1e2d3c"]))
    if kind == DECLINED:
        hits = tuple(draw(st.lists(searched, max_size=SEARCH_FIRST)))
        return Shown(
            draw(questions), kind, related=items, with_context=with_context, scope=scope,
            search_first=hits, alone=alone, back=back, read_with=read_with,
        )  # fmt: skip
    if kind != ANSWERED:
        return Shown(
            draw(questions), kind, related=items, with_context=with_context, scope=scope,
            alone=alone, back=back, read_with=read_with,
        )  # fmt: skip
    start, end = sorted((draw(offsets), draw(offsets)))
    mark = draw(st.from_regex(r"[0-9a-f]{8}", fullmatch=True))
    question, entry, paragraph = draw(questions), draw(ids), draw(paragraphs)
    return Shown(
        question, kind, entry, paragraph, (start, end), items, mark, with_context, scope,
        alone=alone, back=back, read_with=read_with,
    )  # fmt: skip


# How the version before the READ_WITH item (37cec4fb) read a token's items: it took off the
# end, in this order, the items it knew, then read the rest as related entries and search
# hits, skipping any other letter's item as a later version's.
_OLDER_ENDS = (r"c", rf"d\.{ENTRY_ID}", r"r\.\d{1,2}", r"m\.[01]{1,5}", r"a\.(?:allein|zurueck)")
_OLDER_ITEM = re.compile(rf"[lsf]\.{ENTRY_ID}(?:\.\d{{1,4}})?")
_OLDER_LATER = re.compile(rf"(?![lsfmdr]\.)[a-z]\.{ENTRY_ID}(?:\.\d{{1,4}})?")


def _older_version_reads(token: str) -> bool:
    items = token.split(":")[0].split("_")[1:]
    for end in _OLDER_ENDS:
        if items and re.fullmatch(end, items[-1]):
            items.pop()
    return all(_OLDER_ITEM.fullmatch(i) or _OLDER_LATER.fullmatch(i) for i in items)


@settings(max_examples=examples(300))
@given(turns())
def test_the_version_before_reads_every_token_of_this_one(turn):
    """The code review: the item naming the question a turn was read with came after the
    scope and unsure items, which the version before took off the end first, so it refused
    a cautious follow-up's token (a 400 for a whole conversation after a rollback)."""
    assert _older_version_reads(turn.token(KEY))


@settings(max_examples=examples(300))
@given(turns())
def test_a_token_reads_back_as_the_turn_it_was_made_from(turn):
    token = turn.token(KEY)
    assert Shown.parse(token, KEY) == turn
    assert len(token) <= MAX_TOKEN
    assert re.match(TOKEN_PATTERN, token)  # the OpenAPI description's pattern admits it


@settings(max_examples=examples(300))
@given(st.text(max_size=300) | st.from_regex(TOKEN_PATTERN))
def test_any_text_is_a_turn_or_a_german_error(text):
    try:
        Shown.parse(text, KEY)
    except QuestionError as exc:
        assert str(exc)


@settings(max_examples=examples(300))
@given(turns(), st.data())
def test_a_token_changed_anywhere_is_its_question_only_or_an_error(turn, data):
    token = turn.token(KEY)
    at = data.draw(st.integers(0, len(token) - 1))
    char = data.draw(st.characters(codec="utf-8").filter(lambda c: c != token[at]))
    changed = token[:at] + char + token[at + 1 :]
    try:
        parsed = Shown.parse(changed, KEY)
    except QuestionError:
        return  # no longer a token at all: the page's German 400
    # the question is normalised: a changed space may still read as the same turn
    assert parsed == turn or (
        parsed.kind == UNVERIFIED and parsed.related == () and parsed.search_first == ()
    )


BOMB = "227-pfund-bombe-basisausbau"


def test_only_a_token_signed_with_the_key_is_the_turn_it_names():
    turn = Shown("Wer bezahlt?", ANSWERED, BOMB, 2, (0, 57), (("similar", "depot", 1),), "0" * 8)
    token = turn.token(KEY)
    head, sig = token.split("~")[0].split(":")
    assert Shown.parse(token, KEY) == turn
    forged = [
        token.replace("~Wer bezahlt?", "~Ist alles erlaubt?"),  # question changed
        token.replace(BOMB, "depot"),  # entry changed
        token.replace(".0.57.", ".0.3."),  # key sentence changed
        token.replace("s.depot.1", "s.depot.9999"),  # a related item changed
        f"{head}~Wer bezahlt?",  # signature stripped
        f"{head}:~Wer bezahlt?",  # signature emptied
        f"{head}:{sig[:-1]}~Wer bezahlt?",  # signature shortened
        turn.token(b"another service's key"),
        f"{BOMB}.2.0.3~Wer bezahlt?",  # the form from before tokens were signed
    ]
    for text in forged:
        parsed = Shown.parse(text, KEY)
        assert parsed.kind == UNVERIFIED and parsed.related == () and parsed.entry is None, text
        assert parsed.turn().entry is None  # history by its question only


def test_a_signed_item_of_a_later_version_is_skipped_not_an_error():
    from faq_bot.chat.shown import sign

    turn = Shown("Wer bezahlt?", ANSWERED, BOMB, 2, (0, 57), (("similar", "depot", 1),), "0" * 8)
    head = turn.token(KEY).split(":")[0]
    later = f"{head}_z.neu-1.3"  # a kind of item this version does not know
    token = f"{later}:{sign(KEY, f'{later}~Wer bezahlt?')}~Wer bezahlt?"
    assert Shown.parse(token, KEY) == turn
    with pytest.raises(QuestionError):  # what is no item at all is still refused
        Shown.parse(token.replace("_z.neu-1.3", "_z!neu"), KEY)


def test_an_unverified_turn_shows_its_question_with_a_note_and_no_answer(index):
    shown = Shown.parse(f"{BOMB}.2.0.3~Ist alles erlaubt?", KEY)
    again, kept = show(index, shown, [])
    assert kept == Shown("Ist alles erlaubt?", UNVERIFIED)
    assert again.message == UNVERIFIED_MESSAGE
    data = again.to_json()
    assert data["answer"] is None and data["related"] == [] and data["confident"] is False
    # the server vouches for the question only: carried on signed as such
    assert Shown.parse(kept.token(KEY), KEY) == kept


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
        again, kept = show(index, Shown.parse(shown_of(data).token(KEY), KEY), [])
        monkeypatch.undo()
        assert kept == shown_of(data)
        shown = again.to_json()
        for key in ("question", "confident", "message", "related", "suggestion", "check_url"):
            assert shown[key] == data[key], key
        if data["answer"]:
            for key in ("text", "paragraph", "url", "highlight", "title", "citation"):
                assert shown["answer"][key] == data["answer"][key], key


def test_a_turn_read_with_the_turns_before_it_is_shown_again_so(index, monkeypatch):
    """A question not shaped like a follow-up that the bot read with the earlier answer
    keeps its "Im Zusammenhang mit" line when the page shows it again."""
    from faq_bot.chat import Turn

    earlier = Turn("Wie viele Karten hat ein Depot mindestens?", "depot")
    question = "Gibt es auch eine Höchstzahl an Karten?"  # not shaped like a follow-up
    data = answer(index, question, [earlier]).to_json()
    data["followup"], data["context"] = True, earlier.question  # as when that reading won
    token = shown_of(data).token(KEY)
    assert token.split(":")[0].endswith("_c")
    shown = Shown.parse(token, KEY)
    assert shown.with_context
    again, kept = show(index, shown, [earlier])
    assert again.followup and again.context == earlier.question
    assert kept.with_context
    # without the mark (a token from before it) the shape decides: standing alone
    alone, _ = show(
        index, Shown.parse(shown_of({**data, "followup": False}).token(KEY), KEY), [earlier]
    )
    assert not alone.followup and alone.context is None
    # the mark is signed: removing it is an altered token
    head, rest = token.split(":", 1)
    assert Shown.parse(f"{head[:-2]}:{rest}", KEY).kind == UNVERIFIED


def test_a_followup_read_with_the_last_answered_turn_is_shown_again_so(index):
    """A follow-up asked after a declined question that the bot read with the answered turn
    before it (`Answer.back`) says „Im Zusammenhang mit“ that turn when the page shows it
    again, not the declined question its token would otherwise be read after."""
    from faq_bot.chat import Turn
    from faq_bot.chat.shown import BACK

    earlier = Turn("Wie viele Karten hat ein Depot mindestens?", "depot")
    declined = Turn("Wie wird das Wetter morgen?")
    question = "Und darf es auch mehr haben?"  # shaped like a follow-up („es“)
    data = answer(index, question, [earlier, declined]).to_json()
    data["followup"], data["context"] = True, earlier.question  # as when that reading won
    token = shown_of({**data, "back": True}).token(KEY)
    assert BACK in token.split(":")[0].split("_")
    shown = Shown.parse(token, KEY)
    assert shown.back and not shown.alone
    again, kept = show(index, shown, [earlier, declined])
    assert again.followup and again.context == earlier.question
    assert kept.back
    # read after the declined one as its shape says (read with it), without the mark
    with_declined = {**data, "context": declined.question}
    plain_token = shown_of(with_declined).token(KEY)
    plain, _ = show(index, Shown.parse(plain_token, KEY), [earlier, declined])
    assert plain.context == declined.question
    # a mark without the turn it names: no context line rather than another question's
    unmarked, _ = show(index, Shown.parse(shown_of(data).token(KEY), KEY), [earlier, declined])
    assert unmarked.context is None
    # a link shortened to the turns after the answered one: no context to show
    cut, kept_cut = show(index, shown, [declined])
    assert not cut.followup and cut.context is None
    # and the conversation goes on without it, as chat.js reads the page (the code review)
    assert not cut.back and not kept_cut.turn().back
    assert kept.turn().back  # shown with it: a follow-up reads on from the answered turn


def test_a_turn_spliced_after_other_turns_does_not_show_their_question_as_its_context(index):
    """An API probe: signed turns of two conversations put in one link showed an answer
    „Im Zusammenhang mit“ a question it was never read with (each token signs only its own
    turn); and a turn whose signature failed showed a context line above no answer."""
    from faq_bot.chat import Turn

    earlier = Turn("Wie viele Karten hat ein Depot mindestens?", "depot")
    other = Turn("Was macht ein Zerstörer?", "zerstoerer")
    question = "Und darf es auch mehr haben?"  # shaped like a follow-up
    data = answer(index, question, [earlier]).to_json()
    assert data["followup"] and data["context"] == earlier.question
    token = shown_of(data).token(KEY)
    shown = Shown.parse(token, KEY)
    assert shown.read_with == fingerprint(earlier.question)
    kept, _ = show(index, shown, [earlier])
    assert kept.context == earlier.question
    spliced, again = show(index, shown, [other])
    assert not spliced.followup and spliced.context is None
    # and the turn as the page issues it again does not take the other question next time
    reissued = Shown.parse(again.token(KEY), KEY)
    assert show(index, reissued, [other])[0].context is None
    cut, _ = show(index, shown, [])  # a shortened link lost the turn before it
    assert cut.context is None
    unverified, _ = show(index, Shown(question, UNVERIFIED), [earlier])
    assert unverified.context is None
    # a token from before the item: read as its shape says, as before
    old = dataclasses.replace(shown, read_with="")
    assert show(index, old, [other])[0].context == other.question


def test_an_answer_limited_to_one_document_says_so_when_shown_again(index, monkeypatch):
    from faq_bot.chat import passage

    for question in ("Wie greife ich an?", "Wer bezahlt, wenn meine 227er gekontert wird?"):
        data = answer(index, question, doc="sow").to_json()
        assert data["scope"] == "sow"
        token = shown_of(data).token(KEY)
        assert "_d.sow" in token.split(":")[0]
        monkeypatch.setattr(passage, "rank_entries", None)  # no search from here on
        again, kept = show(index, Shown.parse(token, KEY), [])
        monkeypatch.undo()
        assert again.scope == "sow" and kept.scope == "sow"
        # the limit is signed: taking it out is an altered token
        head, rest = token.split(":", 1)
        assert Shown.parse(f"{head.replace('_d.sow', '')}:{rest}", KEY).kind == UNVERIFIED
    # a document a new build no longer has is no limit any more
    gone = Shown("Wie greife ich an?", DECLINED, scope="gibt-es-nicht")
    assert show(index, gone, [])[0].scope is None
    # an answer over all documents carries none
    assert shown_of(answer(index, "Wie greife ich an?").to_json()).scope is None


def answered(index, question: str, entry: str, paragraph: int, span: tuple[int, int]) -> Shown:
    """The turn as the server would have issued it for this paragraph of this build."""
    record = index.entry(entry)
    mark = fingerprint(passage_text(index, record, paragraph))
    return Shown(question, ANSWERED, entry, paragraph, span, (), mark)


def test_a_passage_whose_text_changed_is_shown_as_gone(index):
    turn = answered(index, "Wer bezahlt?", BOMB, 0, (0, 10))
    again, kept = show(index, turn, [])
    assert kept == turn and again.passage is not None
    stale = Shown(turn.question, ANSWERED, BOMB, 0, (0, 10), (), "0" * 8)  # another text
    again, kept = show(index, stale, [])
    assert kept == Shown("Wer bezahlt?", GONE) and again.passage is None
    assert again.message.startswith("Dieser Eintrag ist nicht mehr vorhanden")


def test_a_list_shown_in_part_is_shown_again_with_what_it_leaves_out(index, monkeypatch):
    """An earlier turn shown again from its token after the next question keeps the line
    for the list items its answer left out (the fifteen phases: with the embedder)."""
    monkeypatch.setattr("faq_bot.chat.shown.dense_mode", lambda index: "hybrid")
    turn = answered(index, "Welche Phasen gibt es?", "phasen", 0, (0, 10))
    again, kept = show(index, turn, [])
    assert kept == turn and again.passage is not None
    first, count = again.passage.rest or (0, 0)
    assert count >= 1 and again.passage.text.count("\n") == first - 1  # one line per item
    assert again.to_json()["answer"]["rest"]["url"] == f"/entry/phasen#p{first}"


def test_an_answer_from_a_list_item_shows_the_whole_list_it_belongs_to(index, monkeypatch):
    """A QA review: the second of a hero's two effects in combat came with its lead-in and
    "…", hiding the first (with the embedder an answer shows its whole list when it fits)."""
    monkeypatch.setattr("faq_bot.chat.shown.dense_mode", lambda index: "hybrid")
    record = index.entry("sow-helden-und-kaempfe")
    assert record is not None
    lead, first, second = record.plain_paragraphs[1:4]
    assert lead.endswith(":") and first.startswith("1)") and second.startswith("2)")
    assert passage_text(index, record, 3) == f"{lead}\n{first}\n{second}"


def test_a_token_issued_when_a_list_item_came_with_its_lead_in_alone_still_shows(
    index, monkeypatch
):
    """A code review: a turn token of a list item issued before whole lists were shown (or
    by an older instance during a rolling deployment) must not turn into "gone"."""
    monkeypatch.setattr("faq_bot.chat.shown.dense_mode", lambda index: "hybrid")
    record = index.entry("sow-helden-und-kaempfe")
    assert record is not None
    lead, second = record.plain_paragraphs[1], record.plain_paragraphs[3]
    older = f"{lead}\n…\n{second}"  # what such a token's answer showed
    span = (older.index(second), len(older))
    turn = Shown("Was bringt ein Held?", ANSWERED, record.id, 3, span, (), fingerprint(older))
    again, kept = show(index, turn, [])
    assert kept == turn and again.passage is not None and again.passage.text == older
    start, end = again.passage.highlight
    assert again.passage.text[start:end] == second


@pytest.mark.parametrize("span", [(5, 5), (0, 0), (0, 99_999)])
def test_an_empty_key_sentence_or_one_outside_the_passage_is_shown_as_gone(index, span):
    turn = answered(index, "Wer bezahlt?", BOMB, 0, span)
    assert show(index, turn, [])[1].kind == GONE


def test_related_entries_or_paragraphs_the_index_lacks_are_left_out(index):
    items = (
        ("similar", "depot", 1),  # no such paragraph (it has one)
        ("link", "die-regel-von-gestern", None),  # no such entry
        ("similar", "aktionsstapel", 3),
        ("link", BOMB, None),
    )
    turn = Shown("Wer bezahlt?", DECLINED, related=items)
    again, kept = show(index, turn, [])
    assert kept == turn  # carried on as it was issued
    assert [(r["id"], r["url"]) for r in again.to_json()["related"]] == [
        ("aktionsstapel", "/entry/aktionsstapel#p3"),
        (BOMB, f"/entry/{BOMB}"),
    ]


def test_plain_questions_of_old_links_come_first_and_are_not_answers():
    earlier = parse_conversation(["Aktionsstapel"], [Shown("Depot", DECLINED).token(KEY)], KEY)
    assert [(s.question, s.kind) for s in earlier] == [
        ("Aktionsstapel", UNANSWERED),
        ("Depot", DECLINED),
    ]
    assert [t.entry for t in (s.turn() for s in earlier)] == [None, None]
    with pytest.raises(QuestionError, match="Verlauf, Eintrag 1"):
        parse_conversation([""], [], KEY)


def test_an_earlier_turn_reads_back_in_the_asker_s_words():
    turn = Shown("hab ne frage zu nem flugboot", UNVERIFIED)
    assert Shown.parse(turn.token(KEY), KEY).question == "hab ne frage zu nem flugboot"


def test_an_earlier_turn_is_read_as_it_was_searched_with_its_slang_spelled_out():
    # shown in the asker's words, but read as /api/ask reads a history (normalised)
    turn = Shown("gibts ne reaktion", UNVERIFIED).turn()
    assert turn.question == "gibt es eine reaktion"


def no_search(monkeypatch) -> None:
    """From here on, any search or ranking fails the test."""
    from faq_bot import search
    from faq_bot.chat import passage

    def refuse(*args, **kwargs):
        raise AssertionError("searched")

    for module, name in ((search, "search"), (search, "rank"), (passage, "rank_entries")):
        monkeypatch.setattr(module, name, refuse)


@pytest.mark.parametrize(
    ("earlier", "question"),
    [([], "Wann ist das Spiel vorbei?"), (["Wie lange dauert eine Partie?"], "und zu zweit?")],
)
def test_a_declined_answer_shown_again_offers_the_same_search_hits_without_searching(
    index, monkeypatch, earlier, question
):
    before = replay(index, earlier)
    data = answer(index, question, before).to_json()
    assert not data["confident"] and data["search_first"]
    token = shown_of(data).token(KEY)
    no_search(monkeypatch)
    again, kept = show(index, Shown.parse(token, KEY), before)
    assert kept == shown_of(data)
    assert again.to_json()["search_first"] == data["search_first"]
    assert again.to_json()["related"] == data["related"]
    # the hits are signed: taking one out is an altered token
    head, rest = token.split(":", 1)
    first = data["search_first"][0]
    item = f"_f.{first['id']}" + ("" if first["paragraph"] is None else f".{first['paragraph']}")
    assert item + "_" in head + "_"
    assert Shown.parse(f"{head.replace(item, '', 1)}:{rest}", KEY).kind == UNVERIFIED


def test_a_declined_answer_shown_again_says_the_same_of_its_words(index, monkeypatch):
    """The words no document holds and the longer words one stands in, as first said."""
    data = answer(index, "Was gilt beim Fernkampf?").to_json()
    assert not data["confident"] and data["longer_words"]
    no_search(monkeypatch)
    again, _kept = show(index, Shown.parse(shown_of(data).token(KEY), KEY), [])
    shown = again.to_json()
    assert (shown["message"], shown["unmentioned"], shown["longer_words"]) == (
        data["message"],
        data["unmentioned"],
        data["longer_words"],
    )


def test_search_hits_the_index_lacks_are_left_out_when_shown_again(index):
    hits = (("die-regel-von-gestern", None, True), ("depot", 7, True), ("aktionsstapel", 0, True))
    turn = Shown("Wer bezahlt?", DECLINED, search_first=hits)
    again, kept = show(index, turn, [])
    assert kept == turn  # carried on as it was issued
    assert again.to_json()["search_first"] == [
        {
            "id": "aktionsstapel",
            "title": "Aktionsstapel",
            "url": "/entry/aktionsstapel",
            "doc_title": "HoW FAQ",
            "paragraph": 0,
            "matched": True,
        }
    ]


def test_a_search_hit_close_in_meaning_only_keeps_its_label_in_the_turn_token(index):
    """The hits stay ``f.`` items; one ``m.`` item after them says which hold a word of the
    search text (``1``) and which are close in meaning only (``0``), so the turn shown
    again labels them as the answer did."""
    hits = (("depot", None, False), ("aktionsstapel", 2, True))
    turn = Shown("Wer bezahlt?", DECLINED, search_first=hits, scope="how-faq")
    token = turn.token(KEY)
    assert "_f.depot_f.aktionsstapel.2_m.01_d.how-faq:" in token
    assert Shown.parse(token, KEY) == turn
    again, _ = show(index, Shown.parse(token, KEY), [])
    assert [(s["id"], s["matched"]) for s in again.to_json()["search_first"]] == [
        ("depot", False),
        ("aktionsstapel", True),
    ]
    data = {"question": "Wer bezahlt?", "answer": None, "related": [], **again.to_json()}
    assert shown_of(data) == turn
    worded = Shown("Wer bezahlt?", DECLINED, search_first=(("depot", None, True),))
    assert "_m." not in worded.token(KEY)  # every hit holds a word: no item (as before)


def test_a_version_without_the_label_shows_every_search_hit_of_a_newer_token(index):
    """During a rolling deployment an older instance reads the label item as a later
    version's item and skips it: it shows every hit, only unlabelled (a hit item of a new
    letter it would drop, and sign the turn again without it)."""
    hits = (("depot", None, False), ("aktionsstapel", 2, True))
    token = Shown("Wer bezahlt?", DECLINED, search_first=hits).token(KEY)
    head = token.split(":")[0]
    items = head.split("_")[1:]
    older_item = re.compile(r"([lsf])\.([a-z0-9][a-z0-9-]{0,199})(?:\.(\d{1,4}))?")
    older_later = re.compile(r"(?![lsfdr]\.)[a-z]\.[a-z0-9][a-z0-9-]{0,199}(?:\.\d{1,4})?")
    kept = [i for i in items if older_item.fullmatch(i)]
    skipped = [i for i in items if not older_item.fullmatch(i)]
    assert kept == ["f.depot", "f.aktionsstapel.2"]
    assert skipped and all(older_later.fullmatch(i) for i in skipped)


@pytest.mark.parametrize("flags", ["m.0", "m.011", "m.2", "m.01_m.01"])
def test_a_label_item_that_does_not_fit_the_search_hits_is_no_turn(flags):
    head = f"-_f.depot_f.aktionsstapel_{flags}"
    token = f"{head}:{sign(KEY, head + '~Wer bezahlt?')}~Wer bezahlt?"
    with pytest.raises(QuestionError):
        Shown.parse(token, KEY)


def test_a_confident_answer_carries_no_search_hits_in_its_token(index):
    data = answer(index, "Wer bezahlt, wenn meine 227er gekontert wird?").to_json()
    assert data["confident"]
    offered = {**data, "search_first": [{"id": "depot", "paragraph": None}]}
    assert shown_of(offered).search_first == ()
