"""The confidence model's terms (`faq_bot.chat.confidence.terms`): the signals and their
pairwise products, read from a model file by name, one way for fitting and answering."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from faq_bot import fitted
from faq_bot.chat import confidence
from faq_bot.chat.confidence import PAIRS, SIGNALS, TERMS, probability, terms

finite = st.floats(-5, 5, allow_nan=False)


@given(st.lists(st.lists(finite, min_size=len(SIGNALS), max_size=len(SIGNALS)), min_size=1))
def test_terms_are_the_signals_then_each_named_pair_multiplied(rows):
    x = np.array(rows)
    t = terms(x)
    assert t.shape == (len(rows), len(TERMS))
    assert np.array_equal(t[:, : len(SIGNALS)], x)
    for n, name in enumerate(PAIRS, start=len(SIGNALS)):
        a, b = name.split("*")
        assert np.allclose(t[:, n], x[:, SIGNALS.index(a)] * x[:, SIGNALS.index(b)])


def test_every_pair_of_signals_is_a_term_once():
    assert len(PAIRS) == len(SIGNALS) * (len(SIGNALS) - 1) // 2 == len(set(PAIRS))


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch) -> Iterator[Path]:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "ranker.json").write_text('{"weights": {"bias": 0.0}}', "utf-8")
    monkeypatch.setattr(fitted.resources, "files", lambda _package: tmp_path)
    yield tmp_path / "data"
    monkeypatch.undo()
    fitted.reload()


def _model(data_dir: Path, weights: dict[str, float]) -> None:
    modes = {"hybrid": {"threshold": 0.5, "weights": weights}}
    (data_dir / "confidence.json").write_text(json.dumps({"embedder": None, "modes": modes}))
    fitted.reload()


def test_a_pair_weighted_in_the_file_moves_the_probability_by_the_product(data_dir: Path):
    weights = {**dict.fromkeys(TERMS, 0.0), "bias": 0.0, "coverage*named": 2.0}
    _model(data_dir, weights)
    values = dict.fromkeys(SIGNALS, 0.0) | {"coverage": 0.5, "named": 1.0}
    assert probability(values) == pytest.approx(1 / (1 + math.exp(-1.0)))
    assert probability(values | {"named": 0.0}) == pytest.approx(0.5)


def test_a_file_fitted_on_the_signals_alone_gives_the_pairs_no_weight(data_dir: Path):
    _model(data_dir, {**dict.fromkeys(SIGNALS, 0.0), "bias": 0.0, "coverage": 2.0})
    values = dict.fromkeys(SIGNALS, 3.0) | {"coverage": 0.5}
    assert probability(values) == pytest.approx(1 / (1 + math.exp(-1.0)))


def test_a_file_with_only_some_of_the_pairs_counts_as_none(data_dir: Path):
    _model(data_dir, {**dict.fromkeys(SIGNALS, 0.0), "bias": 0.0, PAIRS[0]: 1.0})
    assert confidence.model() is None
