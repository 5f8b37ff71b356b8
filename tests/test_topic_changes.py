"""scripts/topic_changes.py: questions that stand alone, asked after one on another document."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = [
    {"id": "a1", "q": "Wie viele Karten hat ein Depot?", "doc": "A", "gold": ["50 Karten"]},
    {"id": "a2", "q": "Wann darf ich kontern?", "doc": "A", "gold": ["sofort"]},
    {"id": "b1", "q": "Wie weit zieht eine Gruppe?", "doc": "B", "gold": ["10 cm"]},
    {"id": "u1", "q": "Wo kaufe ich Farbe?", "doc": None, "gold": []},
    {
        "id": "f1",
        "history": ["Wie weit zieht eine Gruppe?"],
        "q": "und im Bogen?",
        "doc": "B",
        "gold": ["Bogen"],
    },
]


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(json.dumps(q, ensure_ascii=False) for q in QUESTIONS), "utf-8")
    script = ROOT / "scripts" / "topic_changes.py"
    return subprocess.run(
        [sys.executable, str(script), *args, str(path)], capture_output=True, text=True, check=False
    )


def test_each_first_question_is_asked_after_an_answerable_one_on_another_document(tmp_path):
    done = _run(tmp_path, "--seed", "3")
    assert done.returncode == 0, done.stderr
    items = [json.loads(line) for line in done.stdout.splitlines()]
    by_id = {q["id"]: q for q in QUESTIONS}
    assert [i["id"] for i in items] == ["a1-t", "a2-t", "b1-t", "u1-t"]  # not the follow-up
    for item in items:
        own = by_id[item["id"][:-2]]
        assert item["q"] == own["q"] and item["gold"] == own["gold"]
        (earlier,) = item["history"]
        source = next(q for q in QUESTIONS if q["q"] == earlier and not q.get("history"))
        assert source["gold"] and source["doc"] != own["doc"]
    assert _run(tmp_path, "--seed", "3").stdout == done.stdout  # the seed decides


def test_same_document_asks_each_question_after_another_one_of_its_own_document(tmp_path):
    """The harder topic change: the earlier question is on the same document (its answer's
    entry a neighbour the context may pull towards), with other golds."""
    done = _run(tmp_path, "--seed", "3", "--same-document")
    assert done.returncode == 0, done.stderr
    items = [json.loads(line) for line in done.stdout.splitlines()]
    assert [i["id"] for i in items] == ["a1-t", "a2-t"]  # b1 has no other question of B
    by_id = {q["id"]: q for q in QUESTIONS}
    for item in items:
        own = by_id[item["id"][:-2]]
        (earlier,) = item["history"]
        source = next(q for q in QUESTIONS if q["q"] == earlier and not q.get("history"))
        assert source["doc"] == own["doc"] and source["gold"] != own["gold"]


def test_an_unreadable_file_is_a_clear_message(tmp_path):
    script = ROOT / "scripts" / "topic_changes.py"
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "missing.jsonl")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1 and "gibt es nicht" in done.stderr
