"""The chatbot's passage: a lead-in or sub-heading and what follows belong together; the fitted
confidence model is data the chatbot can read."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from faq_bot.chat import confidence, keysentence, layout
from faq_bot.chat import passage as passage_module
from faq_bot.chat.keysentence import (
    SENTENCE_FEATURES,
    best_sentence,
    key_sentence,
    sentence_features,
)
from faq_bot.chat.layout import PASSAGE_CHARS, sub_heading
from faq_bot.chat.passage import Passage, passage_table, with_neighbours
from faq_bot.evaluate import key_on_gold
from faq_bot.index import EntryRecord

LEAD = "Dabei gilt:"
ITEM = "Die Karte wird sofort abgelegt. Danach zieht der Spieler nach."


def record(*paragraphs: str) -> EntryRecord:
    return EntryRecord(
        id="x", doc="d", title="X", paragraphs=paragraphs, position=0, plain_paragraphs=paragraphs
    )


def passage(text: str, paragraph: int, highlight: tuple[int, int]) -> Passage:
    return Passage("x", paragraph, text, 1.0, 0.5, highlight)


def test_a_list_item_comes_with_its_lead_in_and_the_highlight_moves_with_it():
    found = with_neighbours(record("Vorher.", LEAD, ITEM), passage(ITEM, 2, (0, 31)))
    assert found.text == f"{LEAD}\n{ITEM}"
    start, end = found.highlight
    assert found.text[start:end] == "Die Karte wird sofort abgelegt."
    assert found.paragraph == 2  # the anchor stays the answering paragraph


def test_a_lead_in_comes_with_the_item_after_it():
    found = with_neighbours(record(LEAD, ITEM), passage(LEAD, 0, (0, len(LEAD))))
    assert found.text == f"{LEAD}\n{ITEM}"
    assert found.highlight == (0, len(LEAD))


def test_a_paragraph_without_a_lead_in_or_too_long_stays_alone():
    alone = passage(ITEM, 1, (0, 31))
    assert with_neighbours(record("Kein Doppelpunkt.", ITEM), alone) is alone
    long_item = "Wort " * (PASSAGE_CHARS // 5)
    long_passage = passage(long_item, 1, (0, 4))
    assert with_neighbours(record(LEAD, long_item), long_passage) is long_passage


@pytest.mark.parametrize("lead", [LEAD, "Beispiel „China“"])
def test_a_lead_in_whose_next_paragraph_is_too_long_stays_alone(lead: str):
    long_item = "Ein Satz. " * (PASSAGE_CHARS // 10 + 1)
    alone = passage(lead, 0, (0, len(lead)))
    assert with_neighbours(record(lead, long_item), alone) is alone


SUBHEADING = "Beispiel „China“"
EXAMPLE = "Der Angreifer hat 3 Einheiten in China, der Verteidiger 2."


def test_a_sub_heading_comes_with_the_paragraph_after_it():
    found = with_neighbours(record(SUBHEADING, EXAMPLE), passage(SUBHEADING, 0, (0, 16)))
    assert found.text == f"{SUBHEADING}\n{EXAMPLE}" and found.highlight == (0, 16)


def test_a_paragraph_after_a_sub_heading_shows_it_above_and_the_highlight_moves():
    found = with_neighbours(record("Vorher.", SUBHEADING, EXAMPLE), passage(EXAMPLE, 2, (4, 13)))
    assert found.text == f"{SUBHEADING}\n{EXAMPLE}"
    start, end = found.highlight
    assert found.text[start:end] == EXAMPLE[4:13] and found.paragraph == 2


@pytest.mark.parametrize(
    "before",
    [
        "Nur ein kurzer Satz.",
        "Wirklich?",
        "(siehe oben)",
        "„Zitat.“",
        "Eine Zeile ohne Punkt, " * 3,
    ],
)
def test_a_short_sentence_or_a_long_line_is_no_sub_heading(before: str):
    alone = passage(EXAMPLE, 1, (0, 12))
    assert not sub_heading((before, EXAMPLE), 0)
    assert with_neighbours(record(before, EXAMPLE), alone) is alone


ATTACK = "Der aktive Spieler greift „Mongolia” mit 4 Einheiten an:"
UNITS = ("1 Flieger-Einheit", "1 Panzer-Einheit", "2 Infanterie-Einheiten")
DEFENCE = "Der Verteidiger hat in „Mongolia” 3 Einheiten."


def test_list_items_are_no_sub_headings_and_keep_the_lead_in_above():
    paras = (ATTACK, *UNITS, DEFENCE)
    first = with_neighbours(record(*paras), passage(UNITS[0], 1, (0, 5)))
    assert first.text == f"{ATTACK}\n{UNITS[0]}"  # the lead-in, not the next item
    for i in range(2, len(paras) - 1):  # a later item: the lead-in, "…", the item
        later = with_neighbours(record(*paras), passage(paras[i], i, (0, 5)))
        assert later.text == f"{ATTACK}\n…\n{paras[i]}"
    after = passage(DEFENCE, len(paras) - 1, (0, 5))  # the text after the list: alone
    assert with_neighbours(record(*paras), after) is after
    assert not any(sub_heading(paras, i) for i in range(len(paras)))


def test_an_answer_shows_a_list_item_in_its_whole_list_when_it_fits():
    """A QA review: "Was bringt ein Held im Kampf?" showed the lead-in, "…" and the second
    of two effects; a judge needs both. The models still read the form they were fitted on."""
    paras = (ATTACK, *UNITS, DEFENCE)
    whole = "\n".join([ATTACK, *UNITS])
    for i in range(1, len(paras) - 1):  # any item: the lead-in and every item
        found = with_neighbours(record(*paras), passage(paras[i], i, (0, 5)), whole_lists=True)
        assert found.text == whole and found.rest is None and found.paragraph == i
        start, end = found.highlight
        assert found.text[start:end] == paras[i][:5]  # the item that answers, highlighted
        read = with_neighbours(record(*paras), passage(paras[i], i, (0, 5)))
        assert read.text == (f"{ATTACK}\n{paras[i]}" if i == 1 else f"{ATTACK}\n…\n{paras[i]}")
    after = passage(DEFENCE, len(paras) - 1, (0, 5))  # the text after the list: alone
    assert with_neighbours(record(*paras), after, whole_lists=True) is after


def test_an_answer_shows_a_long_list_as_far_as_it_fits_else_the_lead_in_and_a_gap():
    items = [f"- Punkt {n}: " + " ".join(["Lange Erklärung dieses Punktes."] * 6) for n in range(6)]
    paras = (ATTACK, *items)
    first = with_neighbours(record(*paras), passage(items[0], 1, (0, 5)), whole_lists=True)
    assert first.text.startswith(f"{ATTACK}\n{items[0]}\n{items[1]}")
    shown = first.text.count("\n")  # the items shown, one line each after the lead-in
    assert 2 <= shown < len(items) and first.rest == (1 + shown, len(items) - shown)
    middle = with_neighbours(record(*paras), passage(items[1], 2, (0, 5)), whole_lists=True)
    assert middle.text == first.text and middle.rest == first.rest  # the same list, cut alike
    assert middle.text[slice(*middle.highlight)] == items[1][:5]
    last = with_neighbours(record(*paras), passage(items[-1], 6, (0, 5)), whole_lists=True)
    assert last.text == f"{ATTACK}\n…\n{items[-1]}" and last.rest is None  # beyond the fit


def test_the_models_read_and_the_eval_judges_a_list_item_with_its_lead_in_alone():
    """A code review: a wrong item whose list holds the gold must not count as answering."""
    paras = (ATTACK, *UNITS, DEFENCE)
    shown = with_neighbours(record(*paras), passage(UNITS[2], 3, (0, 5)), whole_lists=True)
    assert UNITS[0] in shown.text
    assert passage_module.read_text(record(*paras), shown) == f"{ATTACK}\n…\n{UNITS[2]}"
    alone = passage("Kein Doppelpunkt.", 0, (0, 5))  # no neighbours: the text itself
    assert passage_module.read_text(record("Kein Doppelpunkt."), alone) == "Kein Doppelpunkt."


def test_an_item_leading_a_list_of_its_own_shows_that_list_in_an_answer_too():
    paras = ("Einheiten:", "Land", "- Infanterie", "- Panzer", "See", "- Schlachtschiff")
    own = with_neighbours(record(*paras), passage("See", 4, (0, 3)), whole_lists=True)
    assert own.text == "See\n- Schlachtschiff"
    bullet = with_neighbours(record(*paras), passage(paras[2], 2, (0, 3)), whole_lists=True)
    assert bullet.text == "Land\n- Infanterie\n- Panzer"  # its nearest lead-in's list


def test_two_short_lines_in_a_row_are_no_sub_heading():
    paras = ("Vorher.", "BATTLEMIST", "THE SAILS OF WAR", "Ein Satz.")
    assert not sub_heading(paras, 1) and not sub_heading(paras, 2)


_paragraph = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=400
)


# list-shaped paragraphs too: a lead-in with bulleted, numbered or short-line items (a
# heading framed by dashes among them), between other paragraphs
_item = st.builds(
    lambda m, t: m + t,
    st.sampled_from(["- ", "• ", "1. ", "2) ", "* "]),
    st.text("abcdef XYZ.,:1", min_size=60, max_size=200),
)
_block = st.one_of(
    st.lists(_paragraph, min_size=1, max_size=2),
    st.builds(
        lambda lead, items, tail: [lead, *items, *tail],
        st.one_of(st.builds(lambda t: t + ":", _paragraph), st.text("abc XY1", max_size=60)),
        st.lists(_item, min_size=1, max_size=25),
        st.lists(st.one_of(st.text("abc XY1", max_size=60), st.just("- Teil B -")), max_size=2),
    ),
)
_shaped = st.builds(
    lambda blocks: [p for b in blocks for p in b], st.lists(_block, min_size=1, max_size=3)
)


@given(paragraphs=_shaped, whole_lists=st.booleans(), data=st.data())
def test_neighbours_keep_the_passage_and_its_highlight_within_the_length(
    paragraphs, whole_lists, data
):
    i = data.draw(st.integers(0, len(paragraphs) - 1))
    text = paragraphs[i]
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    found = with_neighbours(record(*paragraphs), passage(text, i, (start, end)), whole_lists)
    assert text in found.text and found.paragraph == i
    assert found.text[found.highlight[0] : found.highlight[1]] == text[start:end]
    assert found.text == text or len(found.text) <= PASSAGE_CHARS
    if found.rest is not None:  # a list shown in part: the items left out follow it
        first, count = found.rest
        assert i < first and 1 <= count <= len(paragraphs) - first
        shown = [p.strip() for p in paragraphs[i + 1 : first]]  # the items before `first`
        # the passage leads the list in, or (whole_lists) is an item of it shown from its
        # lead-in on
        assert found.text == "\n".join([text, *shown]) or (
            whole_lists
            and any(
                found.text == "\n".join(p.strip() for p in paragraphs[s:first]) for s in range(i)
            )
        )


def test_the_fitted_confidence_model_is_read_and_gives_probabilities():
    assert confidence.model() is not None
    assert 0.0 < confidence.threshold() < 1.0
    # `strong` is the median right answer of the calibration sets 41-140 as served (each
    # signal's median over the 9,052 first questions whose passage was right, rounded): a
    # refit that no longer answers it would decline half of what it gets right. Earlier
    # this was a guess from dev2 with the optional signals left out, which sat at the bar
    # (0.21 against 0.22) once the model was refit on more sets.
    strong = {
        "coverage": 0.53,
        "named": 1.0,
        "evidence": 3.0,
        "dense_passage": 0.74,
        "dense_entry": 0.74,
        "dense_margin": 0.09,
        "rank_margin": 6.1,
        "foreign": 0.0,
        "passage_share": 1.0,
        "lexical_agrees": 1.0,
        "dense_agrees": 1.0,
        "missing": 7.6,
        "quantity_missing": 0.0,
        "unanswered_like": -0.2,
        "nearest_known": -0.83,
        "precedent": 0.09,
        "rank_share": 0.99,
        "rank_entropy": 0.05,
    }
    assert set(strong) == set(confidence.SIGNALS)
    weak = dict.fromkeys(confidence.SIGNALS, 0.0) | {"dense_passage": 0.8, "dense_entry": 0.8}
    p_strong, p_weak = confidence.probability(strong), confidence.probability(weak)
    assert p_strong is not None and p_weak is not None
    assert p_strong > confidence.threshold() > p_weak
    # without the optional signals the model reads its neutral fallbacks
    known = {k: v for k, v in strong.items() if k not in confidence.OPTIONAL}
    fallback = confidence.model()["first"]["fallback"]
    assert set(fallback) == set(confidence.OPTIONAL)
    assert confidence.probability(known) == pytest.approx(confidence.probability(known | fallback))


def test_the_fitted_passage_model_names_every_feature():
    from faq_bot.chat.passage import FEATURES, model

    weights = model()
    assert weights is not None and set(weights) == set(FEATURES)


def test_the_known_questions_precedent_is_a_feature_of_each_paragraph_with_its_neighbours():
    from faq_bot.chat.passage import FEATURES, Candidate, Row, choose_row, with_precedent

    lead, item, other = "Dabei gilt:", "- eine Einheit pro Feld", "Ganz anderes."
    cand = Candidate(record(lead, item, other), 1.0, frozenset(), frozenset())
    rows = [(cand, Row(i, dict.fromkeys(FEATURES, 0.0), lambda: (0, 1), 0.5)) for i in (1, 2)]
    seen: list[str] = []

    def precedent(text: str) -> float | None:
        seen.append(text)
        return 0.3 if "Einheit" in text else None  # None: nothing to say, counts 0

    got = with_precedent(rows, precedent)
    assert seen == [f"{lead}\n{item}", other]  # the list item with its lead-in
    assert [row.features["precedent"] for _c, row in got] == [0.3, 0.0]
    assert [row.features["precedent"] for _c, row in rows] == [0.0, 0.0]  # rows kept
    weights = dict.fromkeys(FEATURES, 0.0) | {"precedent": 10.0, "dense_para": 1.0}
    rows[1][1].features["dense_para"] = 1.0  # the other paragraph is nearer in meaning
    chosen, by_known = (
        choose_row(rows, weights),
        choose_row(with_precedent(rows, precedent), weights),
    )
    assert chosen is not None and chosen[1].paragraph == 2
    assert by_known is not None and by_known[1].paragraph == 1
    assert with_precedent(rows, None)[0][1].features["precedent"] == 0.0


def test_the_passage_model_chooses_by_its_weights_and_reports_the_share():
    from faq_bot.chat.passage import FEATURES, Candidate, Row, choose_row

    cand = Candidate(record("a", "b"), 1.0, frozenset(), frozenset())
    rows = [
        Row(0, {f: 0.0 for f in FEATURES} | {"dense_para": 0.80}, lambda: (0, 1), 0.80),
        Row(1, {f: 0.0 for f in FEATURES} | {"dense_para": 0.90}, lambda: (0, 1), 0.90),
    ]
    weights = {f: 0.0 for f in FEATURES} | {"dense_para": 10.0}
    chosen = choose_row([(cand, r) for r in rows], weights)
    assert chosen is not None
    _cand, row, _score, share = chosen
    assert row.paragraph == 1
    assert abs(share - 1 / (1 + np.exp(-1.0))) < 1e-3  # softmax of 9 against 8
    alone = choose_row([(cand, rows[0])], weights)
    assert alone is not None and alone[3] == 1.0


class _Coverage:
    """A stand-in for `terms.Coverage` that counts question words: the share of {"bombe",
    "kosten", "tw"} a sentence's terms hold (with the heading: its terms count too)."""

    words = frozenset({"bombe", "kosten", "tw"})

    def __call__(self, terms, heading=frozenset()):
        return len(self.words & (set(terms) | set(heading))) / len(self.words)


SENTENCES_TEXT = "Die Bombe wird gespielt. Was kostet sie? Sie kostet 2 TW."
SENTENCES = (
    (0, 24, frozenset({"bombe", "gespielt"})),
    (25, 40, frozenset({"kosten"})),
    (41, 57, frozenset({"kosten", "tw", "2"})),
)


def test_sentence_features_mark_position_numbers_questions_and_the_best():
    rows = sentence_features(SENTENCES_TEXT, SENTENCES, frozenset(), _Coverage(), {(25, 40): 0.9})
    spans = [span for span, _f in rows]
    assert spans == [(0, 24), (25, 40), (41, 57)]
    first, asks, last = (f for _span, f in rows)
    assert (first["first"], first["last"], last["last"]) == (1.0, 0.0, 1.0)
    assert (asks["asks"], last["asks"], last["number"], first["number"]) == (1.0, 0.0, 1.0, 0.0)
    assert last["best_cover"] == 1.0 and asks["best_dense"] == 1.0 and asks["dense"] == 0.9
    assert first["cover"] == pytest.approx(1 / 3) and last["cover"] == pytest.approx(2 / 3)
    # the sentence after a question, and after the best covering one (none: it is last)
    assert [f["after_asks"] for _s, f in rows] == [0.0, 0.0, 1.0]
    assert [f["after_best"] for _s, f in rows] == [0.0, 0.0, 0.0]
    rows = sentence_features(SENTENCES_TEXT, SENTENCES[:2], frozenset(), _Coverage())
    assert [f["after_best"] for _s, f in rows] == [0.0, 1.0]  # a tie: the first is the best


@pytest.mark.parametrize(
    ("sentence", "marks"),
    [
        ("Beispiel: Die Bombe kostet 2 TW.", {"example"}),
        ("Bsp. Ich spiele die Bombe.", {"example"}),
        ("z. B. die Bombe.", {"example"}),
        ("Die Bombe darf nicht gespielt werden.", {"rule"}),
        ("Es MÜSSEN exakt zwei Einheiten sein!", {"rule", "caps", "exclaim"}),
        ("Diese Siegeffekte werden SOFORT ausgelöst!", {"caps", "exclaim"}),
        ("Der Siegeffekt wird ausgelöst.", set()),
        ("NUR FLIEGENDE EINHEITEN.", {"rule"}),  # a line all in capitals emphasises nothing
        ("Beim Beispielkampf gilt das „Stop!“", {"exclaim"}),  # "Beispielkampf" is a word
        ("Die TW zählen.", set()),  # an abbreviation of two capitals
    ],
)
def test_sentence_features_mark_examples_rules_emphasis_and_exclamations(sentence, marks):
    """What a ruling's sentence looks like beside a situation restated: the key-sentence
    model's example, rule, caps and exclaim features (fitted on the training questions)."""
    [(_span, f)] = sentence_features(
        sentence, [(0, len(sentence), frozenset())], frozenset(), _Coverage()
    )
    assert {k for k in ("example", "rule", "caps", "exclaim") if f[k]} == marks


def test_the_key_sentence_follows_the_fitted_weights_and_the_rule_without_them(monkeypatch):
    args = (SENTENCES_TEXT, SENTENCES, frozenset(), _Coverage(), {(25, 40): 0.9})
    monkeypatch.setattr(keysentence, "sentence_model", lambda mode="hybrid": None)
    # the rule: coverage + dense similarity (0.9 lifts the question over the answer)
    assert key_sentence(*args) == best_sentence(*args[1:])[1] == (25, 40)
    weights = dict.fromkeys(SENTENCE_FEATURES, 0.0) | {"asks": -5.0, "number": 1.0}
    monkeypatch.setattr(keysentence, "sentence_model", lambda mode="hybrid": weights)
    assert key_sentence(*args) == (41, 57)
    weights["first"] = 10.0
    assert key_sentence(*args) == (0, 24)


@pytest.mark.parametrize(
    ("highlight", "golds", "on"),
    [
        ((41, 57), ["kostet 2 TW"], True),
        ((0, 24), ["kostet 2 TW"], False),
        ((0, 24), ["nicht im Text"], None),
        ((0, 24), ["nicht im Text", "Die Bombe"], True),
    ],
)
def test_the_key_sentence_is_on_the_gold_when_their_spans_overlap(highlight, golds, on):
    assert key_on_gold(SENTENCES_TEXT, highlight, golds) is on


def test_the_fitted_key_sentence_model_names_every_feature_in_both_modes():
    data = json.loads(
        (Path(keysentence.__file__).parent.parent / "data" / "sentence.json").read_text("utf-8")
    )
    for mode in ("hybrid", "lexical"):
        assert set(data["modes"][mode]["weights"]) == set(SENTENCE_FEATURES)
    assert keysentence.sentence_model("lexical") == data["modes"]["lexical"]["weights"]
    # fitted out of fold better than the rule it replaces, on the training questions
    figures = data["cross_validated"]["hybrid"]
    assert figures["model"] > figures["rule"] and figures["paragraphs"] > 1000


def test_only_the_passage_s_paragraph_gets_a_key_sentence(index, monkeypatch):
    """Paragraphs compete, but only the one answered with needs its key sentence chosen
    (it was chosen for each of them)."""
    from faq_bot.chat import answer

    chosen: list[str] = []
    featured: list[int] = []
    shipped, features = passage_module.key_sentence, passage_module.paragraph_features

    def counting(text, *args):
        chosen.append(text)
        return shipped(text, *args)

    def rows(*args, **kwargs):
        found = features(*args, **kwargs)
        featured.extend(r.paragraph for r in found)
        return found

    monkeypatch.setattr(passage_module, "key_sentence", counting)
    monkeypatch.setattr(passage_module, "paragraph_features", rows)
    result = answer(index, "Wer bezahlt, wenn meine Aktionskarte gekontert wird?")
    assert result.passage is not None
    assert len(featured) > 1  # others competed
    record = index.entry(result.passage.entry)
    assert chosen == [record.plain_paragraphs[result.passage.paragraph]]
    start, end = result.passage.highlight
    assert 0 <= start < end <= len(result.passage.text)


ORDER = "Ein Befehl für eine Gruppe besteht aus"  # a lead-in that lost its ":"
STEPS = ("- Modus", "- Bewegung", "1. Angriff", "2) Markierung")


@pytest.mark.parametrize("lead", [ORDER, "Ein Befehl besteht aus:"])
def test_a_lead_in_comes_with_its_whole_list(lead: str):
    """A QA review: "Woraus besteht ein Befehl?" showed the lead-in alone, without its items."""
    paras = (lead, *STEPS, "Danach ist der Nächste dran.")
    found = with_neighbours(record(*paras), passage(lead, 0, (0, len(lead))))
    assert found.text == "\n".join([lead, *STEPS])  # the list, not the sentence after it
    assert found.highlight == (0, len(lead)) and found.paragraph == 0


@pytest.mark.parametrize("lead", [ORDER, "Die Phasen sind:"])
def test_a_list_too_long_to_show_whole_shows_the_items_that_fit_and_where_the_rest_begin(
    lead: str,
):
    """A QA review: "Welche Phasen hat eine Spielrunde?" (fifteen phases) showed the lead-in
    and the first phase only, as if that were all."""
    items = [f"- Phase {n} mit einem längeren Namen" for n in range(30)]
    found = with_neighbours(record(lead, *items, "Danach."), passage(lead, 0, (0, len(lead))))
    shown = found.text.split("\n")
    assert shown[0] == lead and shown[1:] == items[: len(shown) - 1]  # whole items, in order
    assert len(found.text) <= PASSAGE_CHARS < len(found.text) + 1 + len(items[len(shown) - 1])
    assert found.rest == (len(shown), 30 - (len(shown) - 1))  # first left out, how many


def test_a_list_that_fits_or_a_paragraph_without_a_list_leaves_no_rest():
    found = with_neighbours(record(ORDER, *STEPS), passage(ORDER, 0, (0, len(ORDER))))
    assert found.rest is None and found.text.endswith(STEPS[-1])
    item = with_neighbours(record("Dabei gilt:", *STEPS), passage(STEPS[0], 1, (0, 3)))
    assert item.rest is None  # an item with its lead-in: the others are its neighbours


def test_a_lead_in_whose_first_item_does_not_fit_stays_alone_and_says_what_follows():
    long_item = "- " + "sehr lange Zeile " * 45
    found = with_neighbours(record(ORDER, long_item, "- kurz"), passage(ORDER, 0, (0, 5)))
    assert found.text == ORDER and found.rest == (1, 2)


def test_a_sentence_before_a_list_is_no_lead_in_and_short_lines_need_a_colon():
    alone = passage("Das ist ein Satz.", 0, (0, 5))
    assert with_neighbours(record("Das ist ein Satz.", *STEPS), alone) is alone
    found = with_neighbours(record(ATTACK, *UNITS, DEFENCE), passage(ATTACK, 0, (0, 10)))
    assert found.text == "\n".join([ATTACK, *UNITS])  # "1 Flieger-Einheit": short lines
    unclosed = passage(ORDER, 0, (0, 10))  # without ":", short lines are not its list
    assert with_neighbours(record(ORDER, *UNITS, DEFENCE), unclosed) is unclosed


def test_a_list_item_is_no_lead_in_of_the_items_after_it():
    """A review: "- Bewegung" (no closing punctuation) brought the rest of its list."""
    paras = ("Ein Befehl besteht aus:", *STEPS)
    for i in range(2, len(paras)):
        alone = passage(paras[i], i, (0, 3))
        found = with_neighbours(record(*paras), alone)
        assert found.text == f"{paras[0]}\n…\n{paras[i]}"  # never a list's tail
    item = passage(paras[1], 1, (0, 3))  # the first item keeps its lead-in only
    assert with_neighbours(record(*paras), item).text == f"{paras[0]}\n{paras[1]}"


def test_a_short_line_after_marked_items_ends_the_list():
    """A review: the sub-heading "Beispiel" after a bulleted list was taken as an item."""
    paras = (
        "Dabei gilt:",
        "- Die Einheit bewegt sich.",
        "- Sie greift an.",
        "Beispiel",
        "Ein Satz.",
    )
    found = with_neighbours(record(*paras), passage(paras[0], 0, (0, 5)))
    assert found.text == "\n".join(paras[:3])


def test_a_heading_framed_by_dashes_ends_a_list_and_is_not_counted_as_left_out():
    """A QA review: the even-player rules of a multiplayer game counted the heading of the
    odd-player rules after them ("- ungerade Spieleranzahl (optional) -") as one more."""
    rules = [
        f"- Regel {n}: jeder Spieler hat seine eigene lange Basiszone und Regeln" for n in range(12)
    ]
    paras = ("Gerade Spieleranzahl:", *rules, "- ungerade Spieleranzahl (optional) -", "- Regel x")
    found = with_neighbours(record(*paras), passage(paras[0], 0, (0, 5)))
    shown = found.text.count("\n")
    assert found.rest == (1 + shown, 12 - shown)
    short = ("Gerade Spieleranzahl:", *rules[:2], "- ungerade Spieleranzahl (optional) -", "- x")
    whole = with_neighbours(record(*short), passage(short[0], 0, (0, 5)))
    assert whole.text == "\n".join(short[:3]) and whole.rest is None


def test_a_later_list_item_comes_with_its_list_s_lead_in_and_a_gap_line():
    """A QA review: "- Polen (keine Karten nach 1940)", the seventh of a list of countries,
    was the whole answer to what the listed countries are."""
    lead = "Als solche werden Länder bezeichnet, die bestimmte Karten ausschließen"
    countries = [f"- Land {n} (keine Karten nach 194{n})" for n in range(7)]
    paras = (lead, *countries, "Daneben gibt es positive Länder.")
    for i in range(2, 8):  # the second item onwards: its lead-in is not right before it
        item = paras[i]
        found = with_neighbours(record(*paras), passage(item, i, (2, 6)))
        assert found.text == f"{lead}\n…\n{item}" and found.paragraph == i
        assert found.text[slice(*found.highlight)] == item[2:6] and found.rest is None
    first = with_neighbours(record(*paras), passage(paras[1], 1, (0, 3)))  # no gap line
    assert first.text == f"{lead}\n{paras[1]}" and first.highlight == (len(lead) + 1, len(lead) + 4)
    after = passage(paras[8], 8, (0, 3))  # the sentence after the list is no item
    assert with_neighbours(record(*paras), after) is after
    long_lead = "Ein sehr langer Vorspann " * 30
    far = passage(countries[3], 4, (0, 3))
    assert with_neighbours(record(long_lead, *countries), far) is far  # would not fit


def test_an_item_of_a_list_after_a_sentence_gets_no_lead_in():
    paras = ("Das ist ein Satz.", "- eins", "- zwei", "- drei")
    alone = passage("- drei", 3, (0, 3))
    assert with_neighbours(record(*paras), alone) is alone


@pytest.mark.parametrize("lead", ["Dabei gilt:", ORDER])
def test_every_item_of_a_list_after_a_short_lead_in_comes_with_it(lead: str):
    """A code review: a short lead-in ("Dabei gilt:", no closing punctuation) was taken
    for an item of its own list, so its later items stayed alone."""
    paras = ("Das ist ein Satz.", lead, *STEPS)
    for i in range(2, len(paras)):
        found = with_neighbours(record(*paras), passage(paras[i], i, (0, 3)))
        gap = "\n" if i == 2 else "\n…\n"
        assert found.text == f"{lead}{gap}{paras[i]}"


def test_a_short_item_ending_in_a_colon_does_not_end_its_list():
    """A code review: "1. Bewegung:" ended the list as if it were a heading, unsaid."""
    paras = ("Der Zug besteht aus:", "1. Bewegung:", "- a", "2. Kampf:", "- b")
    assert with_neighbours(record(*paras), passage(paras[0], 0, (0, 5))).text == "\n".join(paras)


def test_an_empty_paragraph_leads_in_no_list():
    paras = ("Text.", "", "- a", "- b", "- c")
    alone = passage("- b", 3, (0, 3))
    assert with_neighbours(record(*paras), alone) is alone


def test_the_lists_of_an_entry_are_read_once_however_many_items_it_has(monkeypatch):
    """A code review: each item walked back over its list and read it again, quadratic in
    the list's length (12 s for an entry of 3,000 items)."""
    calls = []
    reading = layout._list_after
    monkeypatch.setattr(layout, "_list_after", lambda *args: calls.append(1) or reading(*args))
    layout._lists.cache_clear()
    items = tuple(f"- Punkt {n}" for n in range(3000))
    entry = record("Die Punkte sind:", *items)
    for i in range(1, 3001, 7):
        with_neighbours(entry, passage(items[i - 1], i, (0, 3)))
    assert layout._lists.cache_info().misses == 1  # read once for all its items
    assert len(calls) == 3001  # each paragraph read once as a possible lead-in


def test_an_item_leading_in_a_list_of_its_own_shows_it_and_its_items_their_nearest_lead_in():
    """A code review: in a list of short lines that each lead in bullets, "See" showed the
    outer lead-in instead of its own list, and its bullets the outer lead-in."""
    paras = ("Einheiten:", "Land", "- Infanterie", "- Panzer", "See", "- Schlachtschiff")
    entry = record(*paras)
    own = with_neighbours(entry, passage("See", 4, (0, 3)))
    assert own.text == "See\n- Schlachtschiff"
    assert with_neighbours(entry, passage(paras[2], 2, (0, 3))).text == "Land\n- Infanterie"
    assert with_neighbours(entry, passage(paras[3], 3, (0, 3))).text == "Land\n…\n- Panzer"


def test_a_table_leads_in_no_list_and_stays_a_table():
    """The Sails of War's recruitment table is followed by its footnote "* Eine Großstadt
    …" (a bullet): the table is shown as a table, alone, and the footnote alone."""
    table = "Einheit\tKosten\nFußsoldat\t1H"
    paras = (table, "* Eine Großstadt kann nur als Ersatz gebaut werden")
    entry = record(*paras)
    alone = passage(table, 0, (0, 5))
    assert with_neighbours(entry, alone) is alone and passage_table(entry, alone) is not None
    note = passage(paras[1], 1, (0, 5))
    assert with_neighbours(entry, note) is note


def test_an_item_that_heads_its_own_explanation_keeps_it_rather_than_the_lead_in():
    """The play zones: "1. Basiszone Spieler 1" and then "(hier werden Basisausbaukarten
    abgelegt)" under a lead-in without ":"."""
    lead = "Die Spielfläche bietet Platz für fünf Kartenreihen. Diese werden aufgeteilt in die"
    paras = (lead, "1. Basiszone Spieler 1", "(hier werden Basisausbaukarten abgelegt)")
    found = with_neighbours(record(*paras), passage(paras[1], 1, (0, 5)))
    assert found.text == f"{paras[1]}\n{paras[2]}"
