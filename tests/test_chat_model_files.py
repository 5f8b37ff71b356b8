"""The fitted model files (`faq_bot/data/passage.json`, `confidence.json`, `ranker.json`)
are read once per process; `faq_bot.fitted.reload()` reads them again
(`scripts/train_chat.py` refits with what it just wrote); a file its user refuses
counts as none."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from faq_bot import fitted
from faq_bot.chat import confidence, passage
from faq_bot.hybrid import ranker_weights


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch) -> Iterator[Path]:
    (tmp_path / "data").mkdir()
    # a fitted ranker (no weights but its bias): the hybrid confidence model reads its certainty
    (tmp_path / "data" / "ranker.json").write_text('{"weights": {"bias": 0.0}}', "utf-8")
    monkeypatch.setattr(fitted.resources, "files", lambda _package: tmp_path)
    yield tmp_path / "data"
    monkeypatch.undo()
    fitted.reload()  # the shipped files again for the tests after this one


def _write(path: Path, modes: dict[str, Any]) -> None:
    path.write_text(json.dumps({"embedder": None, "modes": modes}), encoding="utf-8")


def test_passage_weights_are_read_once_until_reloaded(data_dir: Path):
    first = dict.fromkeys(passage.FEATURES, 1.0)
    _write(data_dir / "passage.json", {"hybrid": {"weights": first}})
    fitted.reload()
    assert passage.model() == first
    _write(data_dir / "passage.json", {"hybrid": {"weights": {**first, "para": 2.0}}})
    assert passage.model() == first
    fitted.reload()
    assert passage.model() == {**first, "para": 2.0}


def test_the_confidence_model_is_read_once_until_reloaded(data_dir: Path):
    weights = {**dict.fromkeys(confidence.SIGNALS, 0.5), "bias": -1.0}
    _write(data_dir / "confidence.json", {"hybrid": {"threshold": 0.4, "weights": weights}})
    fitted.reload()
    model = confidence.model()
    assert model is not None and model["threshold"] == 0.4
    _write(data_dir / "confidence.json", {"hybrid": {"threshold": 0.7, "weights": weights}})
    assert (confidence.model() or {})["threshold"] == 0.4
    fitted.reload()
    assert (confidence.model() or {})["threshold"] == 0.7


def test_follow_ups_have_their_own_bar_and_older_files_answer_them_alike(data_dir: Path):
    weights = {**dict.fromkeys(confidence.SIGNALS, 0.5), "bias": -1.0}
    modes = {"hybrid": {"threshold": 0.4, "threshold_followup": 0.6, "weights": weights}}
    _write(data_dir / "confidence.json", modes)
    fitted.reload()
    assert confidence.threshold() == 0.4
    assert confidence.threshold(followup=True) == 0.6
    _write(data_dir / "confidence.json", {"hybrid": {"threshold": 0.4, "weights": weights}})
    fitted.reload()
    assert confidence.threshold(followup=True) == 0.4


def test_first_questions_are_scored_by_their_own_model_and_follow_ups_by_the_fitted_one(
    data_dir: Path,
):
    weights = {**dict.fromkeys(confidence.SIGNALS, 0.0), "bias": -1.0}
    first = {**dict.fromkeys(confidence.SIGNALS, 0.0), "bias": 1.0}
    hybrid = {"threshold": 0.4, "weights": weights, "first": {"weights": first}}
    _write(data_dir / "confidence.json", {"hybrid": hybrid})
    fitted.reload()
    values = dict.fromkeys(confidence.SIGNALS, 0.3)
    assert confidence.probability(values) == pytest.approx(1 / (1 + math.exp(-1.0)))
    assert confidence.probability(values, followup=True) == pytest.approx(1 / (1 + math.exp(1.0)))
    # a follow-ups' model of its own scores the follow-ups
    later = {**dict.fromkeys(confidence.SIGNALS, 0.0), "bias": 2.0}
    hybrid["followup"] = {"weights": later}
    _write(data_dir / "confidence.json", {"hybrid": hybrid})
    fitted.reload()
    assert confidence.probability(values) == pytest.approx(1 / (1 + math.exp(-1.0)))
    assert confidence.probability(values, followup=True) == pytest.approx(1 / (1 + math.exp(-2.0)))
    # calibrated steps describe the first questions' model: a follow-up scored by another
    # model has none, whichever of the two models a file lacks
    hybrid["reliability"] = [[0.0, 0.5], [0.5, 0.95]]
    for lacking in ("first", "followup", None):
        _write(
            data_dir / "confidence.json",
            {"hybrid": {**hybrid, lacking: None} if lacking else hybrid},
        )
        fitted.reload()
        assert confidence.reliability(0.6) == 0.95
        assert confidence.reliability(0.6, followup=True) is None
    del hybrid["reliability"]
    # a file without a first questions' model scores both with the fitted one
    _write(data_dir / "confidence.json", {"hybrid": {"threshold": 0.4, "weights": weights}})
    fitted.reload()
    assert confidence.probability(values) == confidence.probability(values, followup=True)


def test_a_first_questions_model_whose_signals_differ_makes_the_file_count_as_none(
    data_dir: Path,
):
    weights = {**dict.fromkeys(confidence.SIGNALS, 0.5), "bias": -1.0}
    first = {"weights": {**weights, "extra": 1.0}}
    hybrid = {"threshold": 0.4, "weights": weights, "first": first}
    _write(data_dir / "confidence.json", {"hybrid": hybrid})
    fitted.reload()
    assert confidence.model() is None


def test_a_file_whose_fields_differ_from_the_model_counts_as_none(data_dir: Path):
    weights = {**dict.fromkeys(confidence.SIGNALS, 0.5), "bias": -1.0, "extra": 1.0}
    _write(data_dir / "confidence.json", {"hybrid": {"threshold": 0.4, "weights": weights}})
    _write(data_dir / "passage.json", {"hybrid": {"weights": {"para": 1.0}}})
    (data_dir / "ranker.json").write_text('{"weights": {"no such feature": 1.0}}', "utf-8")
    fitted.reload()
    assert confidence.model() is None
    assert passage.model() is None
    assert ranker_weights() is None


def test_an_unreadable_file_counts_as_none(data_dir: Path):
    (data_dir / "confidence.json").write_text("{not json", "utf-8")
    fitted.reload()
    assert confidence.model() is None
    assert confidence.threshold() == 0.5


def test_models_fitted_for_another_embedder_stand_down_and_lexical_ones_do_not(
    data_dir: Path, monkeypatch
):
    from faq_bot import embed

    monkeypatch.setenv("FAQ_BOT_DENSE", "1")
    monkeypatch.setattr(embed, "model_id", lambda: "the-serving-model")
    first = dict.fromkeys(passage.FEATURES, 1.0)
    modes = {"hybrid": {"weights": first}, "lexical": {"weights": first}}
    for embedder, served in (("another-model", None), ("the-serving-model", first)):
        (data_dir / "passage.json").write_text(
            json.dumps({"embedder": embedder, "modes": modes}), encoding="utf-8"
        )
        fitted.reload()
        assert passage.model("hybrid") == served
        assert passage.model("lexical") == first  # reads no similarities


def test_a_refused_model_file_is_logged(data_dir: Path, caplog):
    _write(data_dir / "passage.json", {"hybrid": {"weights": {"para": 1.0}}})
    fitted.reload()
    with caplog.at_level("WARNING"):
        assert passage.model() is None
    assert "passage.json" in caplog.text


def test_a_file_fitted_for_the_other_mode_only_stands_down_without_a_warning(
    data_dir: Path, caplog
):
    """The chat's models are fitted for hybrid search; a lexical build uses the rules and
    must not tell the operator a model file is unusable."""
    _write(data_dir / "passage.json", {"hybrid": {"weights": dict.fromkeys(passage.FEATURES, 1.0)}})
    fitted.reload()
    with caplog.at_level("WARNING"):
        assert passage.model("lexical") is None
        assert passage.model("hybrid") is not None
    assert caplog.text == ""


def test_without_a_fitted_ranker_the_hybrid_confidence_model_stands_down(data_dir: Path):
    weights = {**dict.fromkeys(confidence.SIGNALS, 0.5), "bias": -1.0}
    _write(data_dir / "confidence.json", {"hybrid": {"threshold": 0.4, "weights": weights}})
    fitted.reload()
    assert confidence.model() is not None
    (data_dir / "ranker.json").unlink()  # RRF fuses: no certainty to read
    fitted.reload()
    assert ranker_weights() is None
    assert confidence.model() is None  # the coverage rule decides
    assert confidence.model("lexical") is None  # (no lexical model in this file either)
