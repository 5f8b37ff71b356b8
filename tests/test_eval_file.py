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


def test_an_endless_question_file_is_refused_after_its_limit(monkeypatch):
    # a CLI probe: `faq-bot eval /dev/zero` read until the memory ran out
    import faq_bot.evaluate as evaluate

    monkeypatch.setattr(evaluate, "MAX_QUESTION_FILE", 1000)
    with pytest.raises(EvalFileError, match="größer als 1000 Bytes"):
        load_questions("/dev/zero")


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("[" * 100_000 + "]" * 100_000, "zu tief verschachtelt"),
        ('{"q": "x", "n": ' + "9" * 5000 + "}", "Zahl"),
    ],
    ids=["deep", "huge-number"],
)
def test_a_line_json_cannot_hold_is_refused_naming_it(tmp_path, line, reason):
    # a CLI probe: a RecursionError and a ValueError traceback (exit 1)
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps(LINE) + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(EvalFileError, match=f"Zeile 2: .*{reason}"):
        load_questions(path)


@pytest.mark.parametrize("kind", ["folder", "loop", "long-name"])
def test_a_question_file_that_cannot_be_read_says_why_in_german(tmp_path, kind):
    # a CLI probe: each was called a damaged index (exit 4, "run faq-bot index")
    path = {
        "folder": tmp_path,
        "loop": tmp_path / "schleife",
        "long-name": tmp_path / ("x" * 300),
    }[kind]
    if kind == "loop":
        path.symlink_to(path)
    with pytest.raises(EvalFileError, match="kann nicht gelesen werden") as caught:
        load_questions(path)
    assert "Errno" not in str(caught.value)


ANSWERABLE = {"id": "y", "q": "Wer zahlt die 227er?", "doc": "0.txt", "gold": ["227"], "kind": "x"}


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"q": ""}, "Bitte eine Frage eingeben"),
        ({"q": "   "}, "Bitte eine Frage eingeben"),
        ({"q": "Bombe " * 2000}, "zu lang"),
        ({"q": "?!"}, "kein Wort"),
        ({"doc": None}, "„gold“ ohne „doc“"),
        ({"gold": []}, "„doc“ ohne „gold“"),
        ({"kind": 5}, "„kind“ muss Text sein"),
        ({"id": 7}, "„id“ muss Text sein"),
        ({"doc": 3}, "„doc“ muss Text sein"),
        ({"kind": None}, "„kind“ muss Text sein"),
        ({"id": None}, "„id“ muss Text sein"),
        ({"history": ["", "Wer zahlt?"]}, "Bitte eine Frage eingeben"),
        ({"history": ["?!"]}, "kein Wort"),
    ],
    ids=[
        "empty",
        "blank",
        "long",
        "no-word",
        "gold-no-doc",
        "doc-no-gold",
        "kind",
        "id",
        "doc",
        "kind-null",
        "id-null",
        "history-empty",
        "history-no-word",
    ],  # fmt: skip
)
def test_a_line_the_measurement_would_misread_is_refused_naming_it(tmp_path, change, reason):
    """A CLI probe: an empty question was counted as an unanswerable one declined, a
    gold without its document as unanswerable, a 12,000-character question was asked,
    and a number as `kind` became a breakdown row of its own."""
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps(LINE) + "\n" + json.dumps({**ANSWERABLE, **change}) + "\n")
    with pytest.raises(EvalFileError, match=f"Zeile 2: .*{reason}"):
        load_questions(path)


def test_every_question_file_of_the_repository_is_still_read():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    files = sorted(root.glob("eval/*.jsonl"))
    assert len(files) > 100
    for path in files:
        assert load_questions(path)
