"""`scripts/extend_known.py` keeps retired held-out questions among the known ones: added
after the training questions, with their flags and gold passages, each id once."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from scripts_under_test import script

from faq_bot.known import KnownQuestions


def _script():
    return script("extend_known")


def _case(qid: str, answerable: bool, gold: list[str], followup: bool = False):
    return SimpleNamespace(id=qid, answerable=answerable, gold=gold, followup=followup)


def _known() -> KnownQuestions:
    return KnownQuestions.of(
        ["d2-001", "d2-002"],
        np.eye(3, dtype=np.float32)[:2],
        [True, False],
        "m",
        [["Ein Depot wird gemischt"], []],
        [False, False],
    )


def test_new_questions_are_added_after_the_known_ones_with_their_flags_and_golds():
    cases = [_case("h29-001", True, ["Karten ziehen"]), _case("h29f01", False, [], True)]
    vectors = np.eye(3, dtype=np.float32)[[2, 0]]
    bigger = _script().extended(_known(), cases, vectors)
    assert bigger.ids == ("d2-001", "d2-002", "h29-001", "h29f01")
    assert bigger.answerable.tolist() == [True, False, True, False]
    assert bigger.followup is not None and bigger.followup.tolist() == [False, False, False, True]
    assert bigger.golds is not None and bigger.golds[2] == ("karten ziehen",)
    assert np.array_equal(bigger.vectors[2:], vectors)
    assert bigger.model == "m"


def test_questions_already_known_are_left_as_they_are():
    known = _known()
    again = [_case("d2-001", False, []), _case("h30-002", True, ["x y"])]
    vectors = np.eye(3, dtype=np.float32)[[2, 1]]
    bigger = _script().extended(known, again, vectors)
    assert bigger.ids == ("d2-001", "d2-002", "h30-002")
    assert bigger.answerable[0]  # not overwritten by the second reading
    assert np.array_equal(bigger.vectors[:2], known.vectors)
    assert _script().extended(bigger, again, vectors).ids == bigger.ids
