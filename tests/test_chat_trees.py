"""The first questions' confidence model as boosted trees (`faq_bot.chat.trees`): fitted
with scikit-learn, written as data, read back without it; what serving computes from the
data equals what scikit-learn predicts."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faq_bot.chat import trees
from faq_bot.chat.fit import fit_served, scores

NAMES = ("a", "b", "c")


def _data(seed: int, n: int = 300) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, len(NAMES)))
    # an interaction a logistic model cannot draw: right when a and b agree in sign
    y = ((x[:, 0] * x[:, 1] > 0) ^ (rng.random(n) < 0.1)).astype(float)
    return x, y, rng.random(n) + 0.5


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_written_trees_predict_what_scikit_learn_predicts(seed: int):
    from sklearn.ensemble import GradientBoostingClassifier

    x, y, sample = _data(seed)
    written = json.loads(json.dumps(trees.fit_trees(x, y, sample, NAMES)))  # as the file holds it
    model = GradientBoostingClassifier(init="zero", random_state=0)
    model.fit(x, y.astype(int), sample_weight=sample)
    fresh = np.random.default_rng(seed + 100).normal(size=(200, len(NAMES)))
    expected = model.predict_proba(fresh)[:, 1]
    checked = trees.check(written, NAMES)
    assert trees.probabilities(checked, fresh) == pytest.approx(expected, abs=1e-9)
    assert trees.probabilities(written, fresh) == pytest.approx(expected, abs=1e-9)


def test_trees_learn_an_interaction_a_straight_line_cannot():
    x, y, sample = _data(3, n=600)
    written = trees.fit_trees(x, y, sample, NAMES)
    test_x, test_y, _ = _data(4, n=400)
    right = (trees.probabilities(written, test_x) >= 0.5) == (test_y > 0)
    assert right.mean() > 0.8


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=32), min_size=3, max_size=3))
def test_a_row_falls_on_one_leaf_per_tree_and_gives_a_probability(row: list[float]):
    stump = {
        "signals": list(NAMES),
        "rate": 0.5,
        "trees": [[[1, 0.25, 1, 2, 0.0], [-1, 0, -1, -1, -2.0], [-1, 0, -1, -1, 2.0]]],
    }
    checked = trees.check(stump, NAMES)
    p = trees.probability(checked, row)
    expected = 1 / (1 + np.exp(1.0 if np.float32(row[1]) <= 0.25 else -1.0))
    assert p == pytest.approx(expected)


@pytest.mark.parametrize(
    "nodes",
    [
        [[0, 0.5, 0, 2, 0.0], [-1, 0, -1, -1, 1.0], [-1, 0, -1, -1, 1.0]],  # points at itself
        [[3, 0.5, 1, 2, 0.0], [-1, 0, -1, -1, 1.0], [-1, 0, -1, -1, 1.0]],  # no such signal
        [[0, 0.5, 1, 5, 0.0], [-1, 0, -1, -1, 1.0]],  # no such node
        [],
    ],
)
def test_malformed_trees_are_refused(nodes: list):
    with pytest.raises(ValueError):
        trees.check({"signals": list(NAMES), "rate": 0.1, "trees": [nodes]}, NAMES)


def test_trees_of_other_signals_are_refused():
    x, y, sample = _data(5, n=100)
    written = trees.fit_trees(x, y, sample, NAMES)
    with pytest.raises(ValueError, match="signals differ"):
        trees.check(written, ("a", "c", "b"))


def test_fit_served_scores_each_set_by_trees_fitted_without_it():
    from faq_bot.chat import confidence as conf

    rng = np.random.default_rng(6)
    n = 240
    x = rng.normal(size=(n, len(conf.SIGNALS)))
    x[rng.random(n) < 0.3, conf.SIGNALS.index("precedent")] = np.nan  # optional: filled
    y = (x[:, 0] + rng.normal(scale=0.5, size=n) > 0).astype(float)
    ans = rng.random(n) > 0.15
    y[~ans] = 0
    groups = np.array([f"heldout{41 + i % 6}" for i in range(n)])
    model, out = fit_served(x, y, ans, groups, k=3, form="trees")
    assert set(model) == {"fallback", "trees"} and not np.isnan(out).any()
    assert scores(model, x) == pytest.approx(
        trees.probabilities(model["trees"], np.nan_to_num(x, nan=model["fallback"]["precedent"]))
    )
    # each set's scores come from trees fitted without it: flipping one set's outcomes
    # leaves its own scores alone
    flipped = y.copy()
    flipped[groups == "heldout41"] = 1 - flipped[groups == "heldout41"]
    _model, after = fit_served(x, flipped, ans, groups, k=3, form="trees")
    assert after[groups == "heldout41"] == pytest.approx(out[groups == "heldout41"])
    with pytest.raises(ValueError, match="form"):
        fit_served(x, y, ans, groups, k=3, form="forest")
