"""What `faq-bot eval` accepts as a question file (`faq_bot.evaluate.load_questions`)."""

from __future__ import annotations

import json

import pytest

from faq_bot.evaluate import EvalFileError, load_questions

LINE = {"id": "x", "q": "und was dann?", "doc": None, "gold": [], "kind": "unanswerable"}


@pytest.mark.parametrize("history", [5, "Frage davor", [5], [None], {"a": 1}])
def test_a_history_that_is_no_list_of_texts_is_refused_naming_the_line(tmp_path, history):
    """A CLI probe: "history": 5 ended in a TypeError traceback, a string was replayed one
    character per turn, [5] and [null] were taken silently."""
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps(LINE) + "\n" + json.dumps({**LINE, "history": history}) + "\n")
    with pytest.raises(EvalFileError, match="Zeile 2: „history“ muss eine Liste von Texten sein"):
        load_questions(path)


def test_a_history_of_texts_is_read(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps({**LINE, "history": ["Was ist eine Flak?"]}) + "\n")
    assert load_questions(path)[0]["history"] == ["Was ist eine Flak?"]


def test_a_file_with_a_byte_order_mark_is_read_as_check_and_batch_read_one(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(LINE).encode("utf-8") + b"\n")
    assert load_questions(path)[0]["q"] == "und was dann?"
