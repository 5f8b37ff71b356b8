"""The chatbot's fitted model files (`faq_bot/data/passage.json`, `confidence.json`) are
read once per process; `reload()` reads them again (`scripts/train_chat.py` refits
with what it just wrote)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from faq_bot.chat import confidence, passage


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch) -> Iterator[Path]:
    (tmp_path / "data").mkdir()
    monkeypatch.setattr(passage.resources, "files", lambda _package: tmp_path)
    yield tmp_path / "data"
    monkeypatch.undo()
    passage.reload()  # the shipped files again for the tests after this one
    confidence.reload()


def _write(path: Path, modes: dict[str, Any]) -> None:
    path.write_text(json.dumps({"embedder": None, "modes": modes}), encoding="utf-8")


def test_passage_weights_are_read_once_until_reloaded(data_dir: Path):
    first = dict.fromkeys(passage.FEATURES, 1.0)
    _write(data_dir / "passage.json", {"hybrid": {"weights": first}})
    passage.reload()
    assert passage.model() == first
    _write(data_dir / "passage.json", {"hybrid": {"weights": {**first, "para": 2.0}}})
    assert passage.model() == first
    passage.reload()
    assert passage.model() == {**first, "para": 2.0}


def test_the_confidence_model_is_read_once_until_reloaded(data_dir: Path):
    weights = {**dict.fromkeys(confidence.SIGNALS, 0.5), "bias": -1.0}
    _write(data_dir / "confidence.json", {"hybrid": {"threshold": 0.4, "weights": weights}})
    confidence.reload()
    model = confidence.model()
    assert model is not None and model["threshold"] == 0.4
    _write(data_dir / "confidence.json", {"hybrid": {"threshold": 0.7, "weights": weights}})
    assert (confidence.model() or {})["threshold"] == 0.4
    confidence.reload()
    assert (confidence.model() or {})["threshold"] == 0.7
