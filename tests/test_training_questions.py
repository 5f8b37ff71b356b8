"""The fitting scripts read their questions with `training_questions`, which refuses
the held-out sets: they are for reporting only."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from faq_bot.chat.calibrate import CALIBRATION_SETS
from faq_bot.evaluate import (
    HELD_OUT_SETS,
    EvalFileError,
    answerable,
    question_set,
    training_questions,
)
from faq_bot.tuned import TENSORS, tensors_meta

LINE = {"id": "x1", "q": "Wer darf angreifen?", "doc": "d.txt", "gold": ["angreifen"], "kind": "k"}
EVAL = Path(__file__).resolve().parent.parent / "eval"


def _write(path: Path) -> Path:
    path.write_text(json.dumps(LINE) + "\n", encoding="utf-8")
    return path


def _line(qid: str, gold: list[str]) -> str:
    return json.dumps(LINE | {"id": qid, "gold": gold}) + "\n"


def _held(tmp_path: Path) -> Path:
    held = tmp_path / "held"
    held.mkdir(exist_ok=True)
    line = LINE | {"id": "h41-001", "q": "Wer greift zuerst an?", "gold": ["zuerst"]}
    (held / "heldout41-questions.jsonl").write_text(json.dumps(line) + "\n", "utf-8")
    return held


def test_development_files_are_read_in_order(tmp_path: Path):
    a = _write(tmp_path / "dev4-questions.jsonl")
    b = _write(tmp_path / "heldout3-questions.jsonl")
    questions = training_questions([a, b], held_out_dir=_held(tmp_path))
    assert [q["id"] for q in questions] == ["x1", "x1"]


@pytest.mark.parametrize(
    "name",
    [
        "heldout41-questions.jsonl",
        "heldout41-followups.jsonl",
        "heldout42-questions.jsonl",
        "heldout42-followups.jsonl",
        "heldout43-questions.jsonl",
        "heldout43-followups.jsonl",
        "heldout44-questions.jsonl",
        "heldout44-followups.jsonl",
        "heldout45-questions.jsonl",
        "heldout45-followups.jsonl",
        "heldout46-questions.jsonl",
        "heldout46-followups.jsonl",
        "heldout47-questions.jsonl",
        "heldout47-followups.jsonl",
        "heldout48-questions.jsonl",
        "heldout48-followups.jsonl",
        "heldout49-questions.jsonl",
        "heldout49-followups.jsonl",
        "heldout50-questions.jsonl",
        "heldout50-followups.jsonl",
        "heldout51-questions.jsonl",
        "heldout51-followups.jsonl",
        "heldout52-questions.jsonl",
        "heldout52-followups.jsonl",
        "heldout53-questions.jsonl",
        "heldout53-followups.jsonl",
        "heldout54-questions.jsonl",
        "heldout54-followups.jsonl",
        "heldout55-questions.jsonl",
        "heldout55-followups.jsonl",
        "heldout56-questions.jsonl",
        "heldout56-followups.jsonl",
        "heldout57-questions.jsonl",
        "heldout57-followups.jsonl",
        "heldout58-questions.jsonl",
        "heldout58-followups.jsonl",
        "heldout59-questions.jsonl",
        "heldout59-followups.jsonl",
        "heldout60-questions.jsonl",
        "heldout60-followups.jsonl",
        "heldout61-questions.jsonl",
        "heldout61-followups.jsonl",
        "heldout62-questions.jsonl",
        "heldout62-followups.jsonl",
        "heldout63-questions.jsonl",
        "heldout63-followups.jsonl",
        "heldout64-questions.jsonl",
        "heldout64-followups.jsonl",
        "heldout65-questions.jsonl",
        "heldout65-followups.jsonl",
        "heldout66-questions.jsonl",
        "heldout66-followups.jsonl",
        "heldout67-questions.jsonl",
        "heldout67-followups.jsonl",
        "heldout68-questions.jsonl",
        "heldout68-followups.jsonl",
    ],
)
def test_a_held_out_file_is_refused_with_a_german_message(tmp_path: Path, name: str):
    with pytest.raises(EvalFileError, match="nie zum Trainieren"):
        training_questions([_write(tmp_path / "dev.jsonl"), _write(tmp_path / name)])


def test_every_unretired_held_out_file_in_eval_is_refused():
    # the files on disk from the first held-out set on: a set merged but not added to
    # HELD_OUT_SETS fails here
    first = min(HELD_OUT_SETS)
    held = [p for p in sorted(EVAL.glob("heldout*-*.jsonl")) if _set_number(p) >= first]
    assert len(held) >= 8
    for path in held:
        with pytest.raises(EvalFileError):
            training_questions([path])


def test_the_retired_held_out_sets_are_training_questions():
    retired = [EVAL / f"heldout{n}-questions.jsonl" for n in ("", *range(2, min(HELD_OUT_SETS)))]
    questions = training_questions(retired)
    assert len(questions) == sum(len(p.read_text("utf-8").splitlines()) for p in retired)


def test_without_the_held_out_files_nothing_can_be_checked_so_nothing_is_trained(
    tmp_path: Path,
):
    with pytest.raises(EvalFileError, match="Keine zurückgehaltenen"):
        training_questions([_write(tmp_path / "dev.jsonl")], held_out_dir=tmp_path / "none")


@pytest.mark.parametrize(
    "qid",
    ["h41-017", "h41f03", "h42-042", "h42f12", "h43-007", "h43f02", "h45-011", "h46f04", "h44-105"],
)
def test_a_held_out_question_in_a_renamed_file_is_refused(tmp_path: Path, qid: str):
    copy = tmp_path / "my-questions.jsonl"
    copy.write_text(_line(qid, ["irgendein Gold"]), encoding="utf-8")
    with pytest.raises(EvalFileError, match=qid):
        training_questions([copy], held_out_dir=_held(tmp_path))


@pytest.mark.parametrize(
    "qid",
    [
        "h5-017",
        "h8f03",
        "h9-017",
        "h12f03",
        "h13-017",
        "h24f03",
        "h29-017",
        "h40f03",
        "h001",
        "h100",
        "h090",
        "h4-042",
        "d2-001",
    ],
)
def test_ids_of_retired_and_training_sets_are_not_taken_for_held_out_ones(tmp_path: Path, qid: str):
    train = tmp_path / "dev9-questions.jsonl"
    train.write_text(_line(qid, ["angreifen"]), encoding="utf-8")
    assert [q["id"] for q in training_questions([train], held_out_dir=_held(tmp_path))] == [qid]


@pytest.mark.parametrize("history", [None, ["Wie beginnt ein Kampf?"]])
def test_a_held_out_question_copied_under_a_new_id_is_refused_by_its_wording(
    tmp_path: Path, history: list[str] | None
):
    held = _held(tmp_path)
    asked = {"q": "Wer darf  ANGREIFEN?", **({"history": history} if history else {})}
    (held / "heldout42-followups.jsonl").write_text(
        json.dumps(LINE | {"id": "h42f01", "gold": ["sonst"]} | asked) + "\n", "utf-8"
    )
    copy = tmp_path / "dev9-followups.jsonl"  # the same question (case, spacing aside)
    copy.write_text(json.dumps(LINE | {"id": "d9f01", "history": history}) + "\n", "utf-8")
    with pytest.raises(EvalFileError, match="d9f01 ist Frage h42f01"):
        training_questions([copy], held_out_dir=held)
    other = tmp_path / "dev9-questions.jsonl"  # same words after another earlier question
    other.write_text(json.dumps(LINE | {"id": "d9-1", "history": ["Und sonst?"]}) + "\n", "utf-8")
    assert training_questions([other], held_out_dir=held)


def _set_number(path: Path) -> int:
    """The set number of ``heldoutN-….jsonl`` (1 for the first set, ``heldout-….jsonl``)."""
    digits = path.name.removeprefix("heldout").split("-")[0]
    return int(digits) if digits else 1


@pytest.mark.parametrize(
    ("qid", "question_set_"),
    [("t001", "t"), ("f01", "t"), ("d001", "d"), ("d4-001", "d4"), ("d4f01", "d4"),
     ("h12-003", "h12"), ("h12f01", "h12"), ("k007", "k"), ("g01", "g"),
     ("no_number", "no_number")],
)  # fmt: skip
def test_a_questions_set_is_its_id_without_the_number(qid: str, question_set_: str):
    assert question_set(qid) == question_set_


def _make_list(target: str) -> list[Path]:
    root = EVAL.parent
    out = subprocess.run(
        ["make", "-s", "--no-print-directory", target], cwd=root, check=True, capture_output=True
    )
    return [root / f for f in out.stdout.decode().split()]


def test_the_embedder_was_tuned_on_the_makefiles_tuning_list_and_not_on_the_untuned_one():
    # `make train` reproduces the shipped models only if the shipped tensors were tuned on
    # exactly TRAIN_QUESTIONS' answerable first questions, and TRAIN_UNTUNED's are none of them
    tuning, untuned = _make_list("print-train-questions"), _make_list("print-train-untuned")
    if not all(p.is_file() for p in tuning):
        pytest.skip("the shared development questions are not present")
    tuned = set(tensors_meta(TENSORS)["question_ids"])
    first = {q["id"] for q in training_questions(tuning) if answerable(q) and not q.get("history")}
    assert first == tuned
    assert untuned and not {q["id"] for q in training_questions(untuned)} & tuned


def test_every_held_out_set_is_trained_on_known_or_held_out_and_only_one_of_these():
    # the boundaries between the lists (Makefile: TRAIN_QUESTIONS, TRAIN_UNTUNED, KNOWN_ONLY;
    # HELD_OUT_SETS; CALIBRATION_SETS) are written in several places: this pins them together
    def sets(target: str) -> set[int]:
        return {_set_number(p) for p in _make_list(target) if p.name.startswith("heldout")}

    trained = sets("print-train-questions") | sets("print-train-untuned")
    known = sets("print-known-only")
    held = set(HELD_OUT_SETS)
    on_disk = {_set_number(p) for p in EVAL.glob("heldout*-questions.jsonl")}
    assert not trained & known and not trained & held and not known & held
    assert trained | known | held == on_disk
    assert max(trained) < min(known) and max(known) < min(held)
    assert set(CALIBRATION_SETS) <= held
