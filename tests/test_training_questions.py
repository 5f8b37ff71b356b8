"""The fitting scripts read their questions with `training_questions`, which refuses
the held-out sets: they are for reporting only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from faq_bot.evaluate import EvalFileError, training_questions

LINE = {"id": "x1", "q": "Wer darf angreifen?", "doc": "d.txt", "gold": ["angreifen"], "kind": "k"}


def _write(path: Path) -> Path:
    path.write_text(json.dumps(LINE) + "\n", encoding="utf-8")
    return path


def _line(qid: str, gold: list[str]) -> str:
    return json.dumps(LINE | {"id": qid, "gold": gold}) + "\n"


def _held_line(qid: str, gold: list[str], q: str = "Wer greift zuerst an?") -> str:
    return json.dumps(LINE | {"id": qid, "q": q, "gold": gold}) + "\n"


def _held(tmp_path: Path, gold: str = "Ein Text, den sonst niemand nennt") -> Path:
    held = tmp_path / "held"
    held.mkdir(exist_ok=True)
    (held / "heldout6-questions.jsonl").write_text(_held_line("h6-001", [gold]), "utf-8")
    return held


def test_development_files_are_read_in_order(tmp_path: Path):
    a = _write(tmp_path / "dev4-questions.jsonl")
    b = _write(tmp_path / "heldout3-questions.jsonl")
    said: list[str] = []
    questions = training_questions(
        [a, b], held_out_dir=_held(tmp_path), corpus_dir=tmp_path, report=said.append
    )
    assert [q["id"] for q in questions] == ["x1", "x1"] and said == []


def test_a_question_whose_gold_covers_text_a_held_out_gold_covers_is_left_out(tmp_path: Path):
    held = _held(tmp_path, "Der Angreifer wählt zuerst eine Einheit aus, dann der Verteidiger")
    train = tmp_path / "dev9-questions.jsonl"
    train.write_text(
        _line("a", ["wählt zuerst eine  EINHEIT aus"])  # same text, other case and spacing
        + _line("b", ["Die Basis hat zehn Lebenspunkte. Der Angreifer wählt zuerst"])
        + json.dumps(LINE | {"id": "c", "doc": None, "gold": []})
        + "\n",
        encoding="utf-8",
    )
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "d.txt").write_text(
        "Zuerst: Der Angreifer wählt zuerst eine Einheit aus, dann der Verteidiger.\n"
        "Die Basis hat zehn Lebenspunkte. Der Angreifer wählt zuerst eine Karte.\n",
        encoding="utf-8",
    )
    said: list[str] = []
    questions = training_questions(
        [train], held_out_dir=held, corpus_dir=corpus, report=said.append
    )
    assert [q["id"] for q in questions] == ["b", "c"]
    assert said == [
        "1 Fragen ausgelassen: ihr Gold überschneidet sich mit einem "
        "zurückgehaltenen Fragensatz (a)"
    ]


@pytest.mark.parametrize(
    "name", ["heldout5-questions.jsonl", "heldout6-followups.jsonl", "heldout7-questions.jsonl"]
)
def test_a_held_out_file_is_refused_with_a_german_message(tmp_path: Path, name: str):
    with pytest.raises(EvalFileError, match="nie zum Trainieren"):
        training_questions([_write(tmp_path / "dev.jsonl"), _write(tmp_path / name)])


def test_the_shipped_held_out_files_are_refused():
    root = Path(__file__).resolve().parent.parent / "eval"
    for path in sorted(root.glob("heldout[5-7]-*.jsonl")):
        with pytest.raises(EvalFileError):
            training_questions([path])
    assert len(sorted(root.glob("heldout[5-7]-*.jsonl"))) == 6


def test_without_the_held_out_files_nothing_can_be_checked_so_nothing_is_trained(
    tmp_path: Path,
):
    with pytest.raises(EvalFileError, match="Keine zurückgehaltenen"):
        training_questions([_write(tmp_path / "dev.jsonl")], held_out_dir=tmp_path / "none")


@pytest.mark.parametrize("qid", ["h5-017", "h6f03", "h7-042", "h7f12"])
def test_a_held_out_question_in_a_renamed_file_is_refused(tmp_path: Path, qid: str):
    copy = tmp_path / "my-questions.jsonl"
    copy.write_text(_line(qid, ["irgendein Gold"]), encoding="utf-8")
    with pytest.raises(EvalFileError, match=qid):
        training_questions([copy], held_out_dir=_held(tmp_path), corpus_dir=tmp_path)


@pytest.mark.parametrize("history", [None, ["Wie beginnt ein Kampf?"]])
def test_a_held_out_question_copied_under_a_new_id_is_refused_by_its_wording(
    tmp_path: Path, history: list[str] | None
):
    held = _held(tmp_path)
    asked = {"q": "Wer darf  ANGREIFEN?", **({"history": history} if history else {})}
    (held / "heldout7-followups.jsonl").write_text(
        json.dumps(LINE | {"id": "h7f01", "gold": ["sonst"]} | asked) + "\n", "utf-8"
    )
    copy = tmp_path / "dev9-followups.jsonl"  # the same question (case, spacing aside)
    copy.write_text(json.dumps(LINE | {"id": "d9f01", "history": history}) + "\n", "utf-8")
    with pytest.raises(EvalFileError, match="d9f01 ist Frage h7f01"):
        training_questions([copy], held_out_dir=held, corpus_dir=tmp_path)
    other = tmp_path / "dev9-questions.jsonl"  # same words after another earlier question
    other.write_text(json.dumps(LINE | {"id": "d9-1", "history": ["Und sonst?"]}) + "\n", "utf-8")
    assert training_questions([other], held_out_dir=held, corpus_dir=tmp_path)


def test_held_out_7_golds_overlap_training_golds_by_design_so_none_is_left_out(tmp_path: Path):
    held = _held(tmp_path)  # set 6: a text no training gold covers
    (held / "heldout7-questions.jsonl").write_text(_held_line("h7-001", ["angreifen"]), "utf-8")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "d.txt").write_text("Wer darf angreifen? Jeder.\n", encoding="utf-8")
    train = _write(tmp_path / "dev9-questions.jsonl")  # its gold is set 7's gold
    said: list[str] = []
    got = training_questions([train], held_out_dir=held, corpus_dir=corpus, report=said.append)
    assert [q["id"] for q in got] == ["x1"] and said == []


def test_the_shipped_dev4_questions_sharing_held_out_5_text_are_left_out():
    root = Path(__file__).resolve().parent.parent / "eval"
    said: list[str] = []
    questions = training_questions([root / "dev4-questions.jsonl"], report=said.append)
    left_out = 160 - len(questions)
    assert 0 < left_out <= 10 and said and said[0].startswith(f"{left_out} Fragen ausgelassen")
