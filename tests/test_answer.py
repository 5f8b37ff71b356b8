"""The chatbot (`faq_bot.chat`, `faq_bot.question`) on the real corpus."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faq_bot.chat import MAX_HISTORY, Turn, answer, format_answer, parse_history
from faq_bot.chat.answer import replay
from faq_bot.chat.confidence import CONFIDENCE_THRESHOLD, foreign_nouns
from faq_bot.chat.history import context_turns, with_entries
from faq_bot.chat.items import earlier_item
from faq_bot.chat.passage import Passage, passage_table
from faq_bot.chat.result import Answer
from faq_bot.chat.terms import Coverage, entry_terms, reference_target
from faq_bot.chat.wording import NOT_CONFIDENT, unmentioned_note
from faq_bot.query import analyze_query
from faq_bot.question import (
    MAX_QUESTION_LENGTH,
    QuestionError,
    asks_quantity,
    check_question,
    content_words,
    is_followup,
    normalize_question,
)
from faq_bot.search import search
from faq_bot.text import has_number, sentence_window, split_sentences

# --- normalisation -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("  Darf ich   reagieren??  ", "Darf ich reagieren?"),
        ("Was passiert wenn…", "Was passiert wenn …"),
        ("hab ne frage!!!", "hab eine frage!"),
        ("gegner sperrt mit nem flugboot", "gegner sperrt mit einem flugboot"),
        ("gibts errata zur Flak", "gibt es errata zur Flak"),
        ("wieviele TW", "wie viele TW"),
        ("Zer\u00adstörer\u200b kontern", "Zerstörer kontern"),
        ("Scha\u0308den", "Schäden"),  # NFC
        ("227er\tlieber\nals Reaktion", "227er lieber als Reaktion"),
    ],
)
def test_question_normalize_table(raw, normalized):
    assert normalize_question(raw) == normalized


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("Darf ich eine Reaktion spielen?", ["reaktion", "spielen"]),
        ("Was passiert, wenn die Radarstation zerstört wird?", ["radarstation", "zerstort"]),
        ("Muss ich die 227er bezahlen?", ["227er", "bezahlen"]),
        ("Kann man Handkarten abwerfen?", ["handkarten", "abwerfen"]),
        ("Wie viele Karten hat ein Depot?", ["karten", "depot"]),
        ("Ich hätte mal eine Frage: stimmt es, dass Tarnung schützt?", ["tarnung", "schutzt"]),
    ],
)
def test_question_phrasing_leaves_the_content_words(question, words):
    assert content_words(question) == words


@pytest.mark.parametrize(
    ("question", "followup"),
    [
        ("und wenn er eine Feuerwehr hat?", True),
        ("Und die Feuerwehr?", True),
        ("aber was, wenn ich zuerst reagiere?", True),
        ("Was ist, wenn der Gegner kontert?", True),
        ("gilt das auch für Flugzeuge?", True),
        ("Kann ich dann noch reagieren?", True),
        ("zählt sie dann trotzdem?", True),
        # stop words and fillers only: names nothing of its own
        ("Warum nicht?", True),
        ("Wie viele?", True),
        ("Warum bitte?", True),
        # "das" before a noun with a suffix is no article: a neuter noun after it has none
        ("Kann das Reaktionen auslösen?", True),
        ("Bringt das Punkte?", True),
        ("Darf das Schiff fahren?", False),
        ("Wie wirkt das Ereigniss Handelswinde?", False),  # a typo is not an inflection
        ("Was kostet das Gebäude?", False),  # neuter singular nouns ending like a suffix
        ("Wann kommt das Ende?", False),
        # a relative clause ("das" after a comma or a noun) refers to nothing before
        ("Gibt es ein Ereignis, das Punkte bringt?", False),
        ("Welches Schiff, das Bomben trägt, ist am besten?", False),
        ("Gibt es ein Gebäude das Einheiten heilt?", False),
        ("Wie funktioniert die Feuerwehr?", False),
        ("Wie viele Punkte?", False),
        ("Gibt es Errata zur Flak?", False),
        ("Depot Mindestgröße Kartenanzahl", False),
        ("Wie viele Einheiten darf ich aus meinem Base Camp in ein Gebiet stellen?", False),
    ],
)
def test_question_followup_shape(question, followup):
    assert is_followup(question) is followup


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("", "Bitte eine Frage"),
        ("   ", "Bitte eine Frage"),
        ("?!?", "kein Wort, nach dem sich suchen lässt"),
        (None, "Text"),
        (42, "Text"),
        ("x" * (MAX_QUESTION_LENGTH + 1), "zu lang"),
        ("x " * (MAX_QUESTION_LENGTH * 2), "zu lang"),
    ],
)
def test_question_check_refuses_with_german_reason(value, message):
    with pytest.raises(QuestionError, match=message):
        check_question(value)


def test_split_sentences_keeps_abbreviations_and_numbers_together():
    text = "Er hat z.B. keine 227er. Das ist gut! 3. Eine Ausnahme: d.h. nichts. Ende"
    sentences = [text[s:e] for s, e in split_sentences(text)]
    assert sentences == [
        "Er hat z.B. keine 227er.",
        "Das ist gut!",
        "3. Eine Ausnahme: d.h. nichts.",
        "Ende",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Sie greift an (z.B. “Initiative! Land” bei einem Flugzeug). Dann endet es.",
        "Sie wählt „Achtung! Falle“ aus. Dann endet es.",
        'Die Paarung "Do217 vs. Spitfire" zählt. Dann endet es.',
    ],
)
def test_split_sentences_does_not_end_a_sentence_inside_a_short_quotation(text):
    sentences = [text[s:e] for s, e in split_sentences(text)]
    assert sentences == [text[: text.index(" Dann")], "Dann endet es."]


def test_split_sentences_still_ends_a_sentence_before_a_quotation_or_after_an_inch_mark():
    text = 'Höher als 2" ist es nicht. Bei „Treffer“ gilt: Er fällt. „Ja!“ Sagt er.'
    sentences = [text[s:e] for s, e in split_sentences(text)]
    assert sentences == [
        'Höher als 2" ist es nicht.',
        "Bei „Treffer“ gilt: Er fällt.",
        "„Ja!“",
        "Sagt er.",
    ]


def test_sentence_window_keeps_the_key_sentence_and_whole_neighbours_within_the_limit():
    text = "Eins ist kurz. Zwei ist auch kurz. Drei ist der Kern. Vier folgt. Fünf endet."
    key = (text.index("Drei"), text.index(" Vier"))
    window = text[slice(*sentence_window(text, *key, 60))]
    assert window == "Zwei ist auch kurz. Drei ist der Kern. Vier folgt."
    # at most a third of the limit before the key sentence: the rest after it
    window = text[slice(*sentence_window(text, *key, 45))]
    assert window == "Drei ist der Kern. Vier folgt. Fünf endet."
    assert sentence_window(text, *key, len(text)) == (0, len(text))  # short: all of it
    # a key sentence longer than the limit stands alone
    assert text[slice(*sentence_window(text, *key, 10))] == "Drei ist der Kern."


_SENTENCE = st.from_regex(r"[A-ZÄÖÜ][a-zäöüß ]{0,40}[.!?]", fullmatch=True)


@given(st.lists(_SENTENCE, min_size=1, max_size=12), st.data(), st.integers(1, 400))
def test_sentence_window_is_whole_sentences_around_the_span(sentences, data, limit):
    text = " ".join(sentences)
    spans = split_sentences(text)
    key_start, key_end = spans[data.draw(st.integers(0, len(spans) - 1))]
    low, high = sentence_window(text, key_start, key_end, limit)
    assert low <= key_start <= key_end <= high
    if (low, high) == (0, len(text)):
        # whole only when short, or when the window would have hidden less than a third
        key = key_end - key_start
        assert len(text) <= limit or key == len(text) or len(text) - max(limit, key) < limit // 3
    else:
        starts, ends = {s for s, _ in spans}, {e for _, e in spans}
        assert low in starts and high in ends
        assert high - low <= limit or (low, high) == (key_start, key_end)
        # the key sentence near the top, unless nothing follows it
        assert key_start - low <= limit // 3 or high == spans[-1][1]
        assert len(text) - (high - low) >= limit // 3  # a cut worth making


# --- history -------------------------------------------------------------------------


def test_history_accepts_strings_and_objects():
    turns = parse_history(["Frage eins", {"question": "Frage  zwei", "entry": "aktionsstapel"}])
    assert turns == [Turn("Frage eins"), Turn("Frage zwei", "aktionsstapel")]
    assert parse_history(None) == []
    assert parse_history([]) == []
    (back,) = parse_history([{"question": "Frage", "entry": None, "back": True}])
    assert back.back and back == Turn("Frage", None, back=True)


def test_a_chain_of_follow_ups_goes_on_from_a_turn_read_with_the_last_answered_one():
    """The code review: after A (answered), D (declined) and F (a follow-up read with A,
    its answer's ``back``), a follow-up of F was read with [F, D], never with A as F was."""
    a = Turn("Wie funktioniert die Flakbatterie?", "flakbatterie-basisausbau")
    d = Turn("Wer hat das Spiel erfunden?")  # not shaped like a follow-up: a chain stops there
    f = Turn("Und was kostet sie?", "flakbatterie-basisausbau", back=True)
    assert context_turns([a, d, f], "und wie lange hält das?") == [f, a]
    plain = Turn("Und was kostet sie?", "flakbatterie-basisausbau")  # read with D
    assert context_turns([a, d, plain], "und wie lange hält das?") == [plain, d]
    # a turn read back with no answered turn before it any more (a shortened history): not
    # the declined one it was read without (the code review)
    assert context_turns([d, f], "und wie lange hält das?") == [f]


@pytest.mark.parametrize(
    ("history", "message"),
    [
        ("Frage", "Liste"),
        ({"question": "x"}, "Liste"),
        ([1], "Eintrag 1"),
        (["ok", None], "Eintrag 2"),
        ([{"entry": "x"}], "Eintrag 1: „question“ \\(die frühere Frage\\) fehlt"),
        ([{"question": None, "entry": "x"}], "Eintrag 1: Die Frage muss Text sein"),
        ([{"question": ""}], "Eintrag 1: Bitte eine Frage"),
        ([{"question": "a", "entry": 5}], "„entry“ muss eine Eintrags-ID \\(Text\\) sein"),
        ([{"question": "a", "back": "ja"}], "Eintrag 1: „back“ muss true oder false sein"),
        # an API probe: 201 characters were refused as „muss eine Eintrags-ID (Text) sein“
        (
            [{"question": "a", "entry": "e" * 201}],
            "„entry“ ist zu lang \\(201 Zeichen, eine Eintrags-ID hat höchstens 200\\)",
        ),
        (["x" * (MAX_QUESTION_LENGTH + 1)], "zu lang"),
        (["Frage"] * (MAX_HISTORY + 1), "zu lang"),
    ],
)
def test_history_malformed_is_refused(history, message):
    with pytest.raises(QuestionError, match=message):
        parse_history(history)


# --- the passage that answers --------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "entry", "paragraph", "words"),
    [
        (
            "Darf eine blockende Einheit, die mehrere Gegner blockt, ihren Angriffswert aufteilen?",
            "schadenverteilungsphase",
            2,
            "aufteilen",
        ),
        (
            "Kann eine ungesperrte Einheit Schaden zurückgeben, wenn ein ungeblockter "
            "Angreifer sie angreift?",
            "schadenverteilungsphase",
            7,
            "ungesperrte Einheit",
        ),
        (
            "Wann spiele ich Aktionskarten in der Schadensverteilungsphase, um Schaden zu "
            "verhindern?",
            "schadenverteilungsphase",
            19,
            "Verhindern von Schäden",
        ),
        ("Dürfen Teamkollegen im Multiplayer-Spiel TW übereignen?", "multiplayer-spiel", 6, "TW"),
        (
            "Wer bekommt im Multiplayer den Siegeffekt eines Landes?",
            "multiplayer-spiel",
            7,
            "Siegeffekt",
        ),
        (
            "Wie wird im Multiplayer bei ungerader Spieleranzahl gespielt?",
            "multiplayer-spiel",
            11,
            "asynchronen",
        ),
        (
            "Darf ich auf meine eigene Reaktion nochmal reagieren, wenn der Gegner nicht will?",
            "aktionsstapel",
            3,
            "Reaktionskette",
        ),
        (
            "Was passiert im Aktionsstapel, wenn ein Zerstörer meine Radarstation sperrt und "
            "ich sie als Reaktion nutze?",
            "aktionsstapel",
            1,
            "Zerstörer",
        ),
        (
            "Zerstört die 227er die Radarstation bevor sie aktiv werden kann?",
            "227-pfund-bombe-basisausbau",
            1,
            "ehe sie aktiv werden konnte",
        ),
        (
            "Muss nur der TW bezahlen, dessen Aktion durchgeführt wird?",
            "227-pfund-bombe-basisausbau",
            3,
            "wirklich durchgeführt",
        ),
    ],
)
def test_answer_long_entry_gives_the_later_paragraph(index, question, entry, paragraph, words):
    result = answer(index, question)
    assert result.confident
    data = result.to_json()["answer"]
    assert (data["entry"]["id"], data["paragraph"]) == (entry, paragraph)
    record = index.entry(entry)
    assert data["text"] == record.plain_paragraphs[paragraph]
    assert words in data["text"]
    assert data["url"] == f"/entry/{entry}#p{paragraph}"
    assert data["fragment"] == f"p{paragraph}"


def test_answer_highlight_is_the_sentence_with_the_question_words(index):
    data = answer(index, "Zerstört die 227er die Radarstation bevor sie aktiv werden kann?")
    found = data.to_json()["answer"]
    hl = found["highlight"]
    assert found["text"][hl["start"] : hl["end"]] == hl["text"]
    assert "ehe sie aktiv werden konnte" in hl["text"]
    assert hl["text"] != found["text"]  # a sentence, not the whole paragraph


def test_answer_reference_only_entry_follows_to_the_target_passage(index):
    result = answer(index, "3-Spieler-Spiel")
    data = result.to_json()["answer"]
    assert result.confident
    assert data["entry"]["id"] == "multiplayer-spiel"
    assert data["via"] == "3-spieler-spiel"
    assert "ungerade" in index.entry("multiplayer-spiel").plain_paragraphs[10]
    assert data["paragraph"] == 11  # the odd player counts, not the first paragraph
    assert [s["id"] for s in result.to_json()["sources"][:2]] == [
        "multiplayer-spiel",
        "3-spieler-spiel",
    ]


def test_answer_carries_document_date_citation_and_related_links(index):
    data = answer(index, "Wer bezahlt, wenn meine 227er gekontert wird?").to_json()
    found = data["answer"]
    assert found["doc_title"] == "HoW FAQ"
    assert found["date_text"] == "30. November 2012"
    assert "Stand: 30. November 2012" in data["message"]
    assert found["citation"].startswith(
        f"„227-Pfund Bombe (Basisausbau)“, Absatz {found['paragraph'] + 1} – HoW FAQ, Stand:"
    )
    assert found["citation"].endswith(found["paragraph_url"])  # the paragraph's permalink
    assert found["paragraph_url"].startswith("/entry/227-pfund-bombe-basisausbau/absatz/")
    assert "text" not in found["entry"]
    assert data["sources"][0]["id"] == found["entry"]["id"]
    links = [r for r in data["related"] if r["reason"] == "link"]
    assert [r["id"] for r in links] == ["aktionsstapel"]  # its "s. auch unter Aktionsstapel"
    similar = [r for r in data["related"] if r["reason"] == "similar"]
    assert similar and all(r["id"] != found["entry"]["id"] for r in similar)


def test_answer_abbreviation_and_slang_through_the_synonyms_table(index):
    result = answer(index, "kann ich die radarstation mit der 227er wegbomben?")
    assert result.confident
    assert result.passage.entry == "227-pfund-bombe-basisausbau"


def test_answer_offers_a_correction_for_unknown_words(index):
    result = answer(index, "Wie viele Karten hat ein Depot mindestns?")
    assert result.suggestion == "Wie viele Karten hat ein Depot mindestens?"
    assert result.confident and result.passage.entry == "depot"


# --- follow-ups ----------------------------------------------------------------------


def test_followup_feuerwehr_after_the_227er(index):
    first = answer(index, "Was passiert, wenn ich meine 227er auf eine Radarstation ansage?")
    assert first.passage.entry == "227-pfund-bombe-basisausbau"
    history = [Turn(first.question, first.passage.entry)]
    follow = answer(index, "und wenn er eine Feuerwehr hat?", history)
    assert follow.followup and follow.context == first.question
    assert follow.confident
    assert follow.passage.entry == "feuerwehr-basisausbau"
    assert "227er" in follow.passage.text  # read together with the earlier question
    alone = answer(index, "und wenn er eine Feuerwehr hat?")
    assert not alone.followup and alone.context is None


@pytest.mark.xfail(
    strict=True,  # a change that makes it pass must say so (drop the mark), not pass silently
    raises=AssertionError,  # the wrong passage, not a crash, is the known limitation
    reason="since HanTa lemmas are indexed the passage chosen is the neighbouring paragraph "
    "(p1, 'jetzt die richtige Zeit, zu kontern') instead of p2: both match the follow-up's "
    "only word (kontern), p1 also the earlier question's Radarstation, and nothing lexical "
    "says who counters; the hybrid path (own embedding, entry given) also picks p1; open",
)
def test_followup_short_question_borrows_the_evidence_of_the_earlier_one(index):
    first = "Was passiert, wenn ich meine 227er auf eine Radarstation ansage?"
    follow = answer(index, "und wenn er kontert?", [first])
    assert follow.confident
    assert (follow.passage.entry, follow.passage.paragraph) == ("227-pfund-bombe-basisausbau", 2)


def test_followup_history_as_plain_strings_works_too(index):
    follow = answer(
        index, "und was ist mit der Feuerwehr?", ["Wann setze ich die 227er am besten ein?"]
    )
    assert follow.followup
    assert follow.passage.entry == "feuerwehr-basisausbau"
    assert "227er" in follow.passage.text


def test_followup_history_as_plain_strings_is_answered_as_the_page_answered_it(index):
    # the earlier question sent as text is answered again, so its entry is the topic as
    # when the page (or the CLI's --after) sends it back; before, strings declined this
    earlier = ["Was kostet mich die Erfolgreiche Abwehr?"]
    question = "und die explosive landung, hat die denselben effekt?"
    as_text = answer(index, question, earlier)
    as_page = answer(index, question, replay(index, earlier))
    assert as_page.confident and as_page.passage.entry == "explosive-landung-aktionskarte"
    assert as_text.to_json() == as_page.to_json()


def test_followup_history_replays_only_the_newest_plain_strings(index, monkeypatch):
    import importlib

    chat_answer = importlib.import_module("faq_bot.chat.answer")  # `chat.answer` is a function
    asked: list[str] = []
    real = chat_answer._answered

    def counting(index, question, history, doc):
        asked.append(question)
        return real(index, question, history, doc)

    monkeypatch.setattr(chat_answer, "_answered", counting)
    earlier = [f"Wie viele Karten hat ein Depot in Runde {n}?" for n in range(1, 6)]
    # an object keeps its entry: not answered again, and it does not count
    history = [*earlier[:4], {"question": "Wann darf ich reagieren?", "entry": None}, earlier[4]]
    answer(index, "und danach?", history)
    assert asked == [*earlier[2:5], "und danach?"]


@pytest.mark.parametrize("question", ["   ", "?!", "x" * (MAX_QUESTION_LENGTH + 1), 42])
def test_a_refused_question_answers_no_earlier_question_first(index, monkeypatch, question):
    """An HTTP probe: a blank or too long question after three plain-text earlier ones got
    its 400 only after they were answered again (a second of work for a refusal)."""
    import importlib

    chat_answer = importlib.import_module("faq_bot.chat.answer")
    asked: list[str] = []
    monkeypatch.setattr(chat_answer, "_answered", lambda *args: asked.append(args[1]))
    with pytest.raises(QuestionError):
        answer(index, question, ["Wann darf ich reagieren?", "Was kostet die 227er?"])
    assert asked == []


def test_followup_context_does_not_apply_to_a_new_question(index):
    result = answer(index, "Wie viele Karten hat ein Depot?", ["Wann spiele ich die 227er?"])
    assert not result.followup
    assert result.passage.entry == "depot"


def test_context_turns_follow_the_shape_unless_asked_for_always():
    turns = [Turn("Wie viele Karten hat ein Depot?", "depot"), Turn("und wie viele davon?")]
    assert context_turns(turns, "Wie viele Karten hat ein Depot?") == []
    # the newest first, and the chain reaches back past a turn shaped like a follow-up
    assert context_turns(turns, "Wie viele Karten hat ein Depot?", always=True) == turns[::-1]
    assert context_turns(turns, "und was ist mit ihr?") == turns[::-1]
    assert context_turns([], "und was ist mit ihr?", always=True) == []


# --- declining -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "Wie bemale ich Miniaturen?",
        "Wie grundiere und bemale ich meine Miniaturen am besten?",
        "Gibt es eine offizielle App oder Online-Version?",
        "Rezept für Apfelkuchen mit Zimt",
        # every word is in the corpus, but only one distinctive word, in some body text
        "Wo kann ich das Spiel kaufen?",
        "Wer hat das Spiel erfunden?",
    ],
)
def test_answer_declines_off_topic_questions(index, question):
    result = answer(index, question)
    data = result.to_json()
    assert data["confident"] is False
    assert data["answer"] is None
    assert data["message"].startswith(NOT_CONFIDENT)
    assert all(r["reason"] == "similar" for r in data["related"])


@pytest.mark.parametrize(
    ("question", "nouns"),
    [
        ("Welche Sleeves passen auf die Karten?", ["Sleeves"]),
        ("Gibt es Meisterschaften mit Ranglisten?", ["Meisterschaften", "Ranglisten"]),
        # known words, a corrected typo and an abbreviation are no foreign nouns
        ("Autoblida 41 - kann ich beliebig viele TW in die Fähigkeit stecken?", []),
        ("wer bezahlt die 227er", []),
        # lower-case unknown words are not taken for nouns
        ("was heisst hinterherschieben", []),
    ],
)
def test_foreign_nouns_are_capitalised_words_the_corpus_never_mentions(index, question, nouns):
    assert foreign_nouns(index, question) == nouns


def test_answer_declines_a_question_about_a_thing_the_corpus_never_mentions(index):
    data = answer(index, "Welche Kartenhüllen passen, und sind Sleeves im Turnier Pflicht?")
    assert data.confident is False


def test_answer_named_headword_is_confident_even_for_one_word(index):
    for question, entry in [("Depot", "depot"), ("Erschütterungstest", None)]:
        result = answer(index, question)
        assert result.confident, question
        assert result.passage.named
        if entry:
            assert result.passage.entry == entry
    assert result.confidence >= CONFIDENCE_THRESHOLD


def test_a_headword_asked_alone_is_answered_from_its_entry(index):
    """Typed into the chat, a FAQ headword ("Endphase") gets its entry's passage (or, for a
    bare reference, its target's), sure or not, and a declined answer lists it first."""
    missed = []
    for e in index.entries("how-faq"):
        result = answer(index, e.title)
        target = reference_target(index, e)
        wanted = {e.id, target.id if target else e.id}
        if result.passage is None or result.passage.entry not in wanted:
            missed.append(e.title)
        elif not result.confident and result.related[0]["id"] not in wanted:
            missed.append(e.title)
    assert missed == []


def test_a_declined_answer_introduces_one_closest_entry_in_the_singular():
    """A phone review: „Diese Einträge kommen Ihrer Frage am nächsten:“ above one entry."""
    from faq_bot.chat.wording import NOT_CONFIDENT, declined_message

    one, two = [{"id": "a"}], [{"id": "a"}, {"id": "b"}]
    assert declined_message(one).endswith("Dieser Eintrag kommt Ihrer Frage am nächsten:")
    assert declined_message(two).endswith("Diese Einträge kommen Ihrer Frage am nächsten:")
    assert declined_message([]) == NOT_CONFIDENT


def test_answer_declined_lists_the_closest_entries(index):
    data = answer(index, "Ab welchem Alter ist das Spiel geeignet?").to_json()
    assert data["confident"] is False
    assert data["related"], "the closest entries are offered instead"
    assert "am nächsten" in data["message"]
    assert all(r["url"].startswith("/entry/") for r in data["related"])


# --- the search's first hits under a declined answer ------------------------------------

# Declined; the search "In der Suche nachsehen" runs finds entries the declined answer does
# not list among its closest ones (in a lexical build those are the chat's next best
# entries, which hold the search's first hits of most first questions: see the two
# follow-ups, read with their earlier question, and the search of their words together).
DECLINED_SEARCHED = [
    ([], "Wann ist das Spiel vorbei?"),
    (["Wie lange dauert eine Partie?"], "und zu zweit?"),
    (["Darf ein Panzer Truppen transportieren?"], "und mit einem Fahrzeug?"),
]


def searched_first(index, result) -> list[str]:
    """The first 3 hits of the search the declined `result` links to (its search query, in
    its document), without the entries it lists as closest."""
    listed = {r["id"] for r in result.related}
    found = search(index, result.search_query, n=3, doc=result.scope, mode=None)
    return [h.id for h in found.hits if h.id not in listed]


@pytest.mark.parametrize(("earlier", "question"), DECLINED_SEARCHED)
def test_a_declined_answer_offers_the_searchs_first_hits_it_does_not_list_as_related(
    index, earlier, question
):
    result = answer(index, question, replay(index, earlier))
    assert not result.confident
    expected = searched_first(index, result)
    assert expected, "the search finds an entry the closest ones leave out"
    assert [item["id"] for item in result.search_first] == expected
    for item in result.search_first:
        record = index.entry(item["id"])
        assert item["title"] == record.title
        assert item["doc_title"] == index.document(record.doc)["title"]
        assert re.fullmatch(rf"/entry/{item['id']}(#p[1-9]\d*)?", item["url"])
    assert result.to_json()["search_first"] == result.search_first


@pytest.mark.parametrize(
    "question", ["Ab welchem Alter ist das Spiel geeignet?", "Wann darf ich reagieren?"]
)
def test_a_declined_answer_leaves_out_the_search_hits_it_lists_as_closest(index, question):
    # the lexical build lists the chat's next best entries, which hold the search's first 3
    result = answer(index, question)
    assert not result.confident and result.related
    assert searched_first(index, result) == []
    assert result.search_first == []


def test_a_declined_answer_in_one_document_offers_that_documents_search_hits(index):
    result = answer(index, "Wann ist das Spiel vorbei?", doc="how-faq")
    assert not result.confident and result.scope == "how-faq"
    assert [item["id"] for item in result.search_first] == searched_first(index, result)
    assert all(index.entry(item["id"]).doc == "how-faq" for item in result.search_first)


BOMB_TURN = {
    "question": "Was passiert, wenn ich eine 227er auf die Radarstation meines Gegners spiele?",
    "entry": "227-pfund-bombe-basisausbau",
}


# a question that names something of its own (not shaped like a follow-up) and that the
# rulings do not answer ("warum?" was the QA review's; stop words only, it is now read with
# the earlier question)
FINDS_NOTHING = "Ist das fair?"


OFF_CORPUS = "Wie funktioniert die Rochade beim Schach?"


def test_a_declined_answer_names_the_words_no_document_mentions(index):
    """A QA review: a decline never said why; a question about things the documents never
    mention („Rochade“, „Schach“) is told so, in the message, the JSON and the terminal."""
    result = answer(index, OFF_CORPUS)
    assert not result.confident
    assert result.unmentioned == foreign_nouns(index, OFF_CORPUS) == ["Rochade", "Schach"]
    said = "„Rochade“ und „Schach“ kommen in keinem der Dokumente vor."
    assert result.message.startswith(f"{NOT_CONFIDENT} {said}")
    assert result.to_json()["unmentioned"] == ["Rochade", "Schach"]
    assert said in format_answer(result.to_json())


def test_a_declined_answer_says_where_a_word_stands_only_inside_longer_words(index):
    """„Fernkampf“ was said to be in no document: the documents hold it only at the start of
    „Fernkampfphase“, and a judge told it is nowhere would stop looking."""
    question = "Was gilt beim Fernkampf?"
    result = answer(index, question)
    assert not result.confident
    assert "Fernkampf" in result.unmentioned
    assert result.longer == (("Fernkampf", ("Fernkampfphase",)),)
    said = "„Fernkampf“ steht in den Dokumenten nur in längeren Wörtern: „Fernkampfphase“."
    assert said in result.message
    assert "„Fernkampf“ kommt" not in result.message and "„Fernkampf“ und" not in result.message
    assert result.to_json()["longer_words"] == [{"word": "Fernkampf", "words": ["Fernkampfphase"]}]
    assert said in format_answer(result.to_json())


@pytest.mark.parametrize(
    ("words", "longer", "said"),
    [
        (
            ["Fernkampf"],
            {"Fernkampf": ["Fernkampfphase"]},
            "„Fernkampf“ steht in den Dokumenten nur in längeren Wörtern: „Fernkampfphase“.",
        ),
        (
            ["Schach", "Fernkampf"],
            {"Fernkampf": ["Fernkampfphase", "Fernkampfregel"]},
            "„Schach“ kommt in keinem der Dokumente vor. „Fernkampf“ steht in den Dokumenten"
            " nur in längeren Wörtern: „Fernkampfphase“ und „Fernkampfregel“.",
        ),
    ],
)
def test_unmentioned_note_names_the_longer_words_a_word_stands_in(words, longer, said):
    assert unmentioned_note(words, tuple((w, tuple(ws)) for w, ws in longer.items())) == said


@pytest.mark.parametrize(
    ("words", "said"),
    [
        ([], ""),
        (["Rochade"], "„Rochade“ kommt in keinem der Dokumente vor."),
        (["A", "B", "C"], "„A“, „B“ und „C“ kommen in keinem der Dokumente vor."),
        (
            ["A", "B", "C", "D"],
            "„A“, „B“, „C“ und ein weiteres Wort kommen in keinem der Dokumente vor.",
        ),
        (list("ABCDEF"), "„A“, „B“, „C“ und 3 weitere Wörter kommen in keinem der Dokumente vor."),
    ],
)
def test_unmentioned_note_names_each_word_once_in_german(words, said):
    assert unmentioned_note(words) == said
    assert unmentioned_note(words + words[:1]) == said  # a word asked twice, named once


def test_a_confident_answer_names_no_unmentioned_words(index):
    result = answer(index, "Wer bezahlt, wenn meine 227er gekontert wird?")
    assert result.confident and result.unmentioned == []


def test_a_declined_answer_in_a_conversation_offers_the_entry_it_was_about(index):
    """A QA review: "warum?" after an answer was declined with nothing to follow."""
    result = answer(index, FINDS_NOTHING, [BOMB_TURN])
    assert not result.confident
    earlier = result.to_json()["earlier"]
    assert earlier["id"] == "227-pfund-bombe-basisausbau"
    assert earlier["url"] == "/entry/227-pfund-bombe-basisausbau"
    assert earlier["title"] == index.entry(earlier["id"]).title
    assert "Zuletzt ging es um:" in format_answer(result.to_json())


@pytest.mark.parametrize(
    ("question", "history"),
    [
        (FINDS_NOTHING, []),  # no conversation
        (FINDS_NOTHING, [{"question": "x y z", "entry": "gibt-es-nicht"}]),  # not in the index
        (FINDS_NOTHING, [{"question": "Wer zahlt die 227er?"}]),  # no answer's entry
        ("Was ist ein Aktionsstapel?", [BOMB_TURN]),  # answered: nothing to fall back on
    ],
)
def test_an_answer_offers_no_earlier_entry_without_one_to_offer(index, question, history):
    assert answer(index, question, history).earlier is None


def test_a_declined_answer_after_a_declined_turn_offers_the_last_answered_entry(index):
    """A QA review: a question declined after another declined one lost the topic the
    conversation was about; „Zuletzt ging es um“ is the last answer given with confidence
    (as the API description says), however many declined turns came since."""
    history = [BOMB_TURN, {"question": "warum?"}, {"question": "Ist das so?"}]
    earlier = answer(index, FINDS_NOTHING, history).earlier
    assert earlier is not None and earlier["id"] == BOMB_TURN["entry"]


@pytest.mark.parametrize("listed_as", ["related", "search_first"])
def test_a_declined_answer_does_not_offer_again_an_entry_it_lists_already(index, listed_as):
    declined = Answer(
        question="warum?", confident=False, confidence=0.0, message="", passage=None, entry=None
    )
    turns = [Turn(BOMB_TURN["question"], BOMB_TURN["entry"])]
    assert earlier_item(index, declined, turns)["id"] == BOMB_TURN["entry"]
    setattr(declined, listed_as, [{"id": BOMB_TURN["entry"]}])
    assert earlier_item(index, declined, turns) is None


def test_an_answer_limited_to_a_document_offers_no_earlier_entry_of_another(index):
    assert answer(index, FINDS_NOTHING, [BOMB_TURN], doc="runde").earlier is None
    assert answer(index, FINDS_NOTHING, [BOMB_TURN], doc="how-faq").earlier is not None


def test_a_confident_answer_offers_no_search_hits(index):
    result = answer(index, "Wer bezahlt, wenn meine 227er gekontert wird?")
    assert result.confident
    assert result.search_first == [] and result.to_json()["search_first"] == []


def test_a_declined_answer_whose_search_finds_nothing_offers_no_search_hits(index):
    result = answer(index, "Wie grundiert man xyzzyqua plorfen?")
    assert not result.confident
    assert search(index, result.search_query, mode=None).hits == []
    assert result.search_first == []


def test_format_answer_lists_the_searchs_first_hits_after_the_closest_entries(index):
    """A QA review: under the closest entries the search's hits that leave them out were
    called its first ones; they are what it finds „außerdem“."""
    result = answer(index, "Wann ist das Spiel vorbei?")
    lines = format_answer(result.to_json()).splitlines()
    heading = lines.index("Die Suche findet außerdem:")
    closest = [f"  - {r['title']}  {r['url']}" for r in result.related]
    assert closest and lines[2 : 2 + len(closest)] == closest  # the message's entries first
    assert lines[2 + len(closest) :][:2] == ["", "Die Suche findet außerdem:"]
    hits = [f"  - {s['title']}  {s['url']}" for s in result.search_first]
    assert hits and lines[heading + 1 : heading + 1 + len(hits)] == hits
    confident = format_answer(answer(index, "Aktionsstapel").to_json())
    nothing_new = format_answer(answer(index, "Ab welchem Alter ist das Spiel geeignet?").to_json())
    assert "Die Suche findet" not in confident + nothing_new
    alone = {**result.to_json(), "related": []}  # nothing listed above: the first hits
    assert "Die Suche findet zuerst:" in format_answer(alone).splitlines()


# --- checker link --------------------------------------------------------------------


def test_answer_json_has_the_check_url(index):
    data = answer(index, "Wer muss zuerst bezahlen: Zerstörer oder Radarstation?").to_json()
    assert data["check_url"] and data["check_url"].startswith("/check?s=")


# --- shape and robustness ------------------------------------------------------------


def test_answer_json_shape(index):
    data = answer(index, "Aktionsstapel").to_json()
    assert set(data) >= {
        "question",
        "confident",
        "confidence",
        "message",
        "answer",
        "sources",
        "related",
        "suggestion",
        "check_url",
        "followup",
        "context",
    }
    assert set(data["answer"]) >= {"text", "entry", "paragraph", "url", "highlight", "citation"}
    assert all("text" in s for s in data["sources"])


def test_format_answer_for_the_terminal(index):
    text = format_answer(answer(index, "Aktionsstapel").to_json())
    assert "Das steht unter „Aktionsstapel“" in text
    assert "Kernsatz:" in text and "Zitat: „Aktionsstapel“, Absatz 1 – HoW FAQ" in text
    assert "/entry/aktionsstapel/absatz/1?v=" in text
    declined = format_answer(answer(index, "Wie bemale ich Miniaturen?").to_json())
    assert declined.startswith(NOT_CONFIDENT)


def test_format_answer_introduces_the_closest_entries_once(index):
    # the declined message already says what follows; a second heading repeated it
    text = format_answer(answer(index, "Ab welchem Alter ist das Spiel geeignet?").to_json())
    assert "am nächsten:" in text.splitlines()[0]
    assert text.lower().count("am nächsten") == 1
    assert "  - " in text


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.text(min_size=0, max_size=120),
    st.lists(st.text(min_size=1, max_size=40), max_size=3),
)
def test_answer_any_text_answers_or_refuses_cleanly(index, question, history):
    try:
        result = answer(index, question, history)
    except QuestionError as exc:
        assert str(exc)
        return
    data = result.to_json()
    assert data["confident"] == (data["answer"] is not None)
    if data["answer"]:
        hl = data["answer"]["highlight"]
        assert 0 <= hl["start"] <= hl["end"] <= len(data["answer"]["text"])
        assert data["answer"]["text"][hl["start"] : hl["end"]] == hl["text"]


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Wie viele Karten darf ich ziehen?", True),
        ("wieviel TW kostet das", True),
        ("Wie weit darf ein Flugzeug fliegen?", True),
        ("Was kostet die Aktionskarte?", True),
        ("Wer bezahlt die 227er?", False),
        ("Wie funktioniert der Fluchttest?", False),
    ],
)
def test_question_asks_for_an_amount(question, asks):
    assert asks_quantity(question) is asks


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("Das Deck muss mindestens aus 50 Karten bestehen.", True),
        ("Er zieht zwei Karten.", True),
        ("Der Schaden wird verdoppelt, die doppelte Menge.", True),
        ("Es gibt keine Obergrenze.", True),
        ("Eine Karte wird abgelegt.", False),  # the article is not an amount
        ("Etwas teurer als die Erfolgreiche Abwehr.", False),
    ],
)
def test_text_states_an_amount(text, number):
    assert has_number(text) is number


def test_coverage_reports_the_rarest_question_word_a_passage_lacks(index):
    record = index.entry("227-pfund-bombe-basisausbau")
    assert record is not None
    et = entry_terms(index, record)
    found = (frozenset().union(*et.paragraphs), et.heading)  # the whole entry
    aq = analyze_query(index, "227er bezahlen")
    assert Coverage(index, aq.terms, aq.words).missing(*found) == 0.0
    aq = analyze_query(index, "227er bezahlen Flugzeugträger")
    assert Coverage(index, aq.terms, aq.words).missing(*found) > 0.0


def test_a_replayed_conversation_keeps_the_entry_of_a_confident_answer(index):
    turns = replay(index, ["Wer bezahlt, wenn meine 227er gekontert wird?"])
    assert turns == [Turn("Wer bezahlt, wenn meine 227er gekontert wird?", turns[0].entry)]
    assert turns[0].entry == "227-pfund-bombe-basisausbau"
    declined = replay(index, ["Wo kann ich Booster kaufen?"])
    assert declined[0].entry is None


@pytest.mark.parametrize("doc", ["how-faq", "uebersicht"])
def test_a_replayed_conversation_limited_to_a_document_answers_from_it(index, doc):
    # "angreifen" is ruled in both documents: the turns answered stay in the one chosen (the
    # first is; unscoped, uebersicht's would be answered from how-faq)
    turns = replay(index, ["Wer darf in dieser Phase angreifen?", "und danach?"], doc=doc)
    entries = [t.entry for t in turns if t.entry]
    assert entries, "a confident answer was expected"
    assert all(index.entry(e).doc == doc for e in entries)


def test_an_answer_shows_the_question_in_the_asker_s_words_and_searches_it_spelled_out(index):
    """Slang is spelled out to search ("ne" -> "eine"), but a judge reading the chat back
    saw words they never typed."""
    typed = "kann ich auf ne  reaktion nochmal reagieren??"
    result = answer(index, typed)
    assert result.question == "kann ich auf ne reaktion nochmal reagieren?"
    spelled = answer(index, "kann ich auf eine reaktion nochmal reagieren?")
    assert (result.passage, result.confidence) == (spelled.passage, spelled.confidence)


def test_related_entries_of_an_answer_list_its_own_game_first(index):
    from faq_bot.chat.items import RELATED, related_entries
    from faq_bot.search import ScoredEntry

    record = index.entry("aktionsstapel")
    assert record is not None
    own = [e.id for e in index.entries(record.doc) if e.id != record.id and not e.links][:3]
    other = [e.id for e in index.entries("sow")][:3]
    # the ranking put the other game's entries first
    scored = [ScoredEntry(e, 1.0, None) for e in [*other, *own]]
    similar = [
        r for r in related_entries(index, record, scored, {record.id}) if r["reason"] == "similar"
    ]
    docs = [r["doc"] for r in similar]
    assert docs[:3] == [record.doc] * 3  # own game first ...
    assert docs[3:] == ["sow"] * (min(len(scored), RELATED) - 3)  # ... others after, kept
    # a declined answer (no record) keeps the ranking's order: any game may be meant
    declined = related_entries(index, None, scored, set())
    assert [r["doc"] for r in declined][:3] == ["sow"] * 3


def test_related_entries_never_list_the_entry_its_own_table_reference_names(index):
    from faq_bot.chat.items import related_entries

    ships = index.entry("sow-allgemeine-regeln-fuer-schiffe")
    assert ships is not None and any(li["target"] == ships.id for li in ships.links)
    # a declined answer (nothing excluded) from the entry whose "s. Tabelle 1.0" is its own
    linked = [r for r in related_entries(index, ships, [], set()) if r["reason"] == "link"]
    assert ships.id not in [r["id"] for r in linked]


def test_an_answer_from_another_game_than_the_last_one_says_so(index):
    from faq_bot.chat.wording import other_game_note

    runde = next(e.id for e in index.entries("runde"))
    how = next(e.id for e in index.entries("how-faq") if e.id != "aktionsstapel")
    earlier = [Turn("Was ist der Aktionsstapel?", "aktionsstapel")]
    note = other_game_note(index, runde, earlier)
    assert note == (
        "Achtung, anderes Spiel: Diese Regel gilt für Tabletop-Skirmish, "
        "die vorige Antwort für HoW."
    )
    assert other_game_note(index, how, earlier) is None  # the same game
    assert other_game_note(index, runde, []) is None  # nothing before
    assert other_game_note(index, runde, [Turn("xyz", None)]) is None  # declined before
    # the last answered turn counts, not a declined one after it
    assert other_game_note(index, runde, [*earlier, Turn("xyz", None)]) == note


def test_the_chat_message_carries_the_note_when_the_game_changes(index):
    history = [{"question": "Was ist der Aktionsstapel?", "entry": "aktionsstapel"}]
    result = answer(index, "Wann endet das Spiel mit einem Patt nach der 10. Runde?", history)
    assert result.confident and result.passage is not None
    assert index.entry(result.passage.entry).doc == "runde"
    assert result.message.endswith("die vorige Antwort für HoW.")
    # the note names the new game; the message above it does not name it a second time
    assert result.message.count("Tabletop-Skirmish") == 1
    assert ", Spiel: " not in result.message
    alone = answer(index, "Wann endet das Spiel mit einem Patt nach der 10. Runde?")
    assert "Achtung" not in alone.message


def test_a_followup_reads_an_earlier_question_alike_as_typed_or_spelled_out(index):
    followup = "und wenn er eine Feuerwehr hat?"
    typed = answer(index, followup, [{"question": "wer zahlt wenn ne 227er gekontert wird"}])
    spelled = answer(index, followup, [{"question": "wer zahlt wenn eine 227er gekontert wird"}])
    assert (typed.passage, typed.confidence) == (spelled.passage, spelled.confidence)
    assert typed.context == "wer zahlt wenn ne 227er gekontert wird"  # shown as typed
    assert spelled.context == "wer zahlt wenn eine 227er gekontert wird"
    replayed = replay(index, ["wer zahlt wenn ne 227er gekontert wird"])
    assert replayed[0].question == "wer zahlt wenn eine 227er gekontert wird"


@given(st.text(max_size=300), st.integers(2, 250))
def test_clip_is_at_most_the_limit_and_keeps_short_text_whole(text, limit):
    from faq_bot.text import clip

    clipped = clip(text, limit)
    collapsed = " ".join(text.split())
    assert len(clipped) <= limit or " " not in collapsed[: limit - 1]
    if len(collapsed) <= limit:
        assert clipped == collapsed
    else:
        assert clipped.endswith("…")


def test_a_table_is_shown_as_one_only_when_its_paragraph_stands_alone(index):
    record = index.entry("sow-allgemeine-regeln-fuer-schiffe")
    row = next(i for i, p in enumerate(record.paragraphs) if "\t" in p)
    alone = Passage(record.id, row, record.plain_paragraphs[row], 0.0, 1.0, (0, 1))
    shown = passage_table(record, alone)
    assert shown.rows[-1] == ("Kriegsschiff", "3", "6 H oder E", "1 H oder E")
    assert shown.lead == ""
    with_lead_in = dataclasses.replace(alone, text="Tabelle 1.0\n" + alone.text)
    assert passage_table(record, with_lead_in) is None  # the text shows what it joins
    prose = Passage(record.id, 0, record.plain_paragraphs[0], 0.0, 1.0, (0, 1))
    assert passage_table(record, prose) is None


def test_a_history_entry_is_read_as_the_index_names_it(index):
    """The client sends the history: an alias or an older id of an entry is read as its
    entry (as the "Zuletzt ging es um" item reads it), an id the index lacks as none."""
    record = index.entry(BOMB_TURN["entry"])
    assert record is not None and record.alias_ids
    first, question = BOMB_TURN["question"], "und wenn er eine Feuerwehr hat?"
    turns = [Turn(first, record.alias_ids[0]), Turn(first, "gibt-es-nicht"), Turn(first)]
    assert with_entries(index, turns) == [Turn(first, record.id), Turn(first), Turn(first)]

    def read_as(entry):
        result = answer(index, question, [{"question": first, "entry": entry}])
        return result.passage, result.confidence

    assert read_as(record.alias_ids[0]) == read_as(record.id)


@pytest.mark.parametrize(
    "history",
    [
        ["Was passiert, wenn ich meine 227er auf eine Radarstation ansage?"],  # as strings
        [BOMB_TURN],  # as the page sends it
    ],
)
def test_a_question_of_stop_words_only_is_read_with_the_earlier_one(index, history):
    """A QA review: "Warum nicht?" after a question names nothing of its own; read alone
    (plain-string history) it found nothing and offered nothing. Read with the earlier
    question, the entry that question was about is answered from or offered first (this
    lexical build declines it, the question's own words covering nothing; with the
    embedder it is answered)."""
    result = answer(index, "Warum nicht?", history)
    assert result.followup and result.context is not None
    offered = [r["id"] for r in result.related] + ([result.earlier["id"]] if result.earlier else [])
    if result.confident:
        assert result.passage is not None and result.passage.entry == BOMB_TURN["entry"]
    else:
        assert offered[0] == BOMB_TURN["entry"]
    assert not answer(index, "Warum nicht?").followup  # nothing to read it with


def test_chat_js_heads_the_search_hits_as_the_server_does():
    """chat-render.js builds the heading of a declined answer's search hits itself; its two
    endings are `search_first_heading`'s, with closest entries listed and without."""
    from pathlib import Path

    from faq_bot.chat.wording import search_first_heading

    js = (Path(__file__).resolve().parent.parent / "faq_bot/static/chat-render.js").read_text()
    built = re.search(
        r'var searchHeading = \(data\.related \|\| \[\]\)\.length \? "([^"]+)" : "([^"]+)";\s*'
        r'box\.appendChild\(el\("p", "related-h", "([^"]+)" \+ searchHeading\)\);',
        js,
    )
    assert built, "chat-render.js builds the heading otherwise: keep it in step with the server"
    with_related, without, prefix = built[1], built[2], built[3]
    assert prefix + with_related == search_first_heading([{"id": "x"}])
    assert prefix + without == search_first_heading([])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet="abcÄöüßXYZ", min_size=1, max_size=8), max_size=12))
def test_unmentioned_note_names_the_first_three_distinct_words_and_counts_the_rest(words):
    said = unmentioned_note(words)
    distinct = list(dict.fromkeys(words))
    if not distinct:
        assert said == ""
        return
    assert said.endswith("in keinem der Dokumente vor.")
    assert all(f"„{w}“" in said for w in distinct[:3])
    rest = len(distinct) - 3
    if rest == 1:
        assert "und ein weiteres Wort kommen" in said
    elif rest > 1:
        assert f"und {rest} weitere Wörter kommen" in said
    assert said.count("„") == min(len(distinct), 3)


def test_a_turn_keeps_whether_it_was_read_with_the_last_answered_one(index):
    """The code review: nothing failed if a replayed turn dropped its answer's ``back``, so a
    follow-up of it read on from the declined question (`turn_of`, as `Shown.turn` does)."""
    from faq_bot.chat.answer import turn_of

    result = answer(index, "Wie viele Karten hat ein Depot mindestens?")
    assert not turn_of(result).back
    result.back = True
    assert turn_of(result).back


def test_the_cli_says_when_a_follow_up_was_read_on_its_own(index):
    data = {**answer(index, "Wie viele Karten hat ein Depot mindestens?").to_json(), "alone": True}
    assert "(für sich gelesen, nicht im Zusammenhang mit der vorigen Frage)" in format_answer(data)
