"""`scripts/extend_known.py` keeps retired held-out questions among the known ones: added
after the training questions, with their flags and gold passages, each id once."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from scripts_under_test import script

from faq_bot.errors import FaqBotError
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


def test_a_second_run_replaces_the_rows_of_its_questions_and_keeps_the_others():
    known = _known()
    first = [_case("h29-001", True, ["Karten ziehen"]), _case("h29f01", True, ["a b"], True)]
    once = _script().extended(known, first, np.eye(3, dtype=np.float32)[[2, 0]])
    # read again with other models in effect: other vectors, the same questions
    again = _script().extended(once, first, np.eye(3, dtype=np.float32)[[1, 2]])
    assert again.ids == ("d2-001", "d2-002", "h29-001", "h29f01")
    assert np.array_equal(again.vectors[2:], np.eye(3, dtype=np.float32)[[1, 2]])
    # the other rows keep everything: vectors, flags and gold passages
    assert np.array_equal(again.vectors[:2], known.vectors)
    assert again.answerable.tolist() == [True, False, True, True]
    assert again.followup is not None and again.followup.tolist() == [False, False, False, True]
    assert again.golds is not None and again.golds[:2] == known.golds
    assert again.golds[3] == ("a b",)


def test_a_store_written_without_gold_passages_is_refused_in_german():
    bare = KnownQuestions.of(["d2-001"], np.eye(3, dtype=np.float32)[:1], [True], "m")
    with pytest.raises(FaqBotError, match="ohne Goldpassagen"):
        _script().extended(bare, [_case("h29-001", True, ["x"])], np.eye(3, dtype=np.float32)[:1])
