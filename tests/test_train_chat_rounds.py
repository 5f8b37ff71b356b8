"""`scripts/train_chat.py --write` refits with what it wrote until the follow-ups'
contexts repeat, and writes the right fit: the last of a fixed point, the best of a
cycle, the last when nothing repeats (driven here with scripted fits, no index)."""

from __future__ import annotations

import sys

import pytest
from scripts_under_test import script


@pytest.fixture
def train_chat():
    return script("train_chat")


def _fit(train_chat, name: str, contexts: str, passage_at_1: float):
    cv = {"passage@1": passage_at_1, "confident_wrong": 0.03, "declined": 0.9}
    return train_chat.Fit(
        {"hybrid": {"name": name}}, {"hybrid": {"cross_validated": cv}}, None, (contexts,)
    )


def _run(train_chat, monkeypatch, capsys, fits):
    """The names of the fits written, in order, and what the script printed."""
    todo, written = list(fits), []
    monkeypatch.setattr(train_chat, "open_index", lambda _path: None)
    monkeypatch.setattr(train_chat, "training_set", lambda files, untuned: ([], frozenset()))
    monkeypatch.setattr(train_chat, "fit_modes", lambda *_args: todo.pop(0))
    monkeypatch.setattr(
        train_chat, "write", lambda _n, f: written.append(f.passages["hybrid"]["name"])
    )
    monkeypatch.setattr(sys, "argv", ["train_chat.py", "--write", "dev.jsonl"])
    train_chat.main()
    assert not todo, "every scripted fit is used"
    return written, capsys.readouterr().out


def test_a_fixed_point_writes_the_fit_made_on_its_own_answers(train_chat, monkeypatch, capsys):
    # round 1 (shipped models answer: contexts A) fits F1; F1 answers B, F2; F2 answers B again
    fits = [
        _fit(train_chat, "F1", "A", 0.50),
        _fit(train_chat, "F2", "B", 0.52),
        _fit(train_chat, "F3", "B", 0.52),
    ]
    written, out = _run(train_chat, monkeypatch, capsys, fits)
    assert written == ["F1", "F2", "F3"]
    assert "stabil nach Runde 3" in out and "nicht stabil" not in out


def test_a_cycle_writes_its_best_fit(train_chat, monkeypatch, capsys):
    # F1 answers B, F2 answers A again: the cycle is F2 (on B) and F3 (on A)
    fits = [
        _fit(train_chat, "F1", "A", 0.523),
        _fit(train_chat, "F2", "B", 0.526),
        _fit(train_chat, "F3", "A", 0.523),
    ]
    written, out = _run(train_chat, monkeypatch, capsys, fits)
    assert written[-1] == "F2" and "Zyklus aus 2 Anpassungen" in out


def test_no_repeat_within_the_rounds_writes_the_last_fit_and_says_it_is_not_stable(
    train_chat, monkeypatch, capsys
):
    rounds = train_chat.MAX_ROUNDS
    fits = [_fit(train_chat, f"F{n}", f"C{n}", 0.5 + n / 1000) for n in range(1, rounds + 1)]
    fits[0] = _fit(train_chat, "F1", "C1", 0.9)  # a better CV outside any cycle is not chosen
    written, out = _run(train_chat, monkeypatch, capsys, fits)
    assert written[-1] == f"F{rounds}"
    assert f"nach {rounds} Runden nicht stabil" in out and "stabil nach" not in out
