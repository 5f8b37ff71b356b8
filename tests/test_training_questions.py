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


def test_development_files_are_read_in_order(tmp_path: Path):
    a = _write(tmp_path / "dev4-questions.jsonl")
    b = _write(tmp_path / "heldout3-questions.jsonl")
    assert [q["id"] for q in training_questions([a, b])] == ["x1", "x1"]


@pytest.mark.parametrize("name", ["heldout5-questions.jsonl", "heldout6-followups.jsonl"])
def test_a_held_out_file_is_refused_with_a_german_message(tmp_path: Path, name: str):
    with pytest.raises(EvalFileError, match="nie zum Trainieren"):
        training_questions([_write(tmp_path / "dev.jsonl"), _write(tmp_path / name)])


def test_the_shipped_held_out_files_are_refused():
    root = Path(__file__).resolve().parent.parent / "eval"
    for path in sorted(root.glob("heldout[56]-*.jsonl")):
        with pytest.raises(EvalFileError):
            training_questions([path])
    assert len(sorted(root.glob("heldout[56]-*.jsonl"))) == 4
