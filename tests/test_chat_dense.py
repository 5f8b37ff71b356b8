"""The chatbot's hybrid path with the real embedder (nothing is downloaded) on the
one-document corpus (`dense_index`, built once per run: tests/dense_fixtures.py):
the fitted passage and confidence models, and ``faq-bot eval --cv``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from faq_bot.chat import answer
from faq_bot.chat.confidence import SIGNALS
from faq_bot.cli import main
from faq_bot.index import open_index

DOC = "003_392c06b39f773588.txt"
QUESTIONS = [
    ("Wer darf in einer Runde den ersten Befehl geben?", "darf den ersten Befehl geben"),
    ("Woraus besteht ein Befehl für eine Gruppe?", "Ein Befehl für eine Gruppe besteht aus"),
    ("Wie viele Modi kann eine Einheitenkarte haben?", "Mögliche Modi (maximal 6 verschiedene)"),
    ("Darf ich schräg oder im Bogen ziehen?", "Bewegt werden darf nur in geraden Linien."),
    ("Wie weit darf sich eine Gruppe bewegen?", "bis zu 10 cm versetzt werden"),
    ("Wann ist das Spiel ein Patt?", "nach der 10. Runde ohne Todesfall"),
    ("Was zeigt der Moduswürfel an?", "zeigt nunmehr den Modus der Gruppe an"),
    ("Wer gibt nach einem Befehl den nächsten?", "Reihum darf nun der nächste Spieler"),
]


@pytest.fixture
def hybrid_index(dense_on, dense_index):
    return dense_index


def test_the_hybrid_chatbot_chooses_a_paragraph_of_the_best_entry_with_all_signals(
    hybrid_index,
):
    result = answer(open_index(hybrid_index), "Darf ich beim Bewegen schräg ziehen?")
    assert result.passage is not None
    assert result.passage.entry.startswith("runde-")
    assert set(result.signals) == set(SIGNALS)
    assert 0.0 < result.passage.probability <= 1.0
    assert 0.0 <= result.confidence <= 1.0


def test_eval_cv_fits_on_some_questions_and_measures_on_the_others(hybrid_index, tmp_path):
    path = tmp_path / "questions.jsonl"
    lines = [
        {"id": f"c{i}", "q": q, "doc": DOC, "gold": [g], "kind": "paraphrase"}
        for i, (q, g) in enumerate(QUESTIONS)
    ]
    lines.append(
        {"id": "c9", "q": "Wo kaufe ich Farbe?", "doc": None, "gold": [], "kind": "unanswerable"}
    )
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines), "utf-8")
    args = ["eval", "--cv", "--folds", "2", "--index", str(hybrid_index), str(path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "2-fach kreuzvalidiert (9 Fragen" in result.output
    assert "Passage@1" in result.output and "abgelehnt" in result.output
    as_json = CliRunner().invoke(main, [*args[:1], "--json", *args[1:]])
    figures = json.loads(as_json.stdout)
    assert 0.0 <= figures["passage@1"]["mean"] <= 1.0


def test_eval_cv_without_vectors_says_so_with_exit_4(tiny_built_index, tmp_path: Path):
    # tiny_built_index is lexical, as are the tests' builds (FAQ_BOT_DENSE=0)
    path = tmp_path / "q.jsonl"
    q, g = QUESTIONS[0]
    path.write_text(json.dumps({"id": "c1", "q": q, "doc": DOC, "gold": [g], "kind": "x"}), "utf-8")
    result = CliRunner().invoke(main, ["eval", "--cv", "--index", str(tiny_built_index), str(path)])
    assert result.exit_code == 4
    assert "Vektoren der semantischen Suche" in result.output
