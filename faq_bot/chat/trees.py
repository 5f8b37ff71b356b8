"""A confidence model of gradient-boosted regression trees, as data.

``fit_trees(x, y, sample, names) -> dict``
    Fits scikit-learn's ``GradientBoostingClassifier`` (its default settings; with
    ``init="zero"`` the model is its trees alone) on filled signal rows `x`, the outcomes
    `y` (> 0: the chosen passage is right) and row weights `sample`, and returns it as the
    model file holds it: ``{"rate": float, "trees": [[node, ...], ...]}``, a node
    ``[signal, threshold, left, right, value]`` (``signal`` -1: a leaf). scikit-learn is
    needed only here (the ``train`` extra): serving reads the trees with the functions
    below.
``check(data, names) -> dict``
    The trees of a model file, checked against the signal `names` the rows hold
    (`ValueError` when malformed or fitted on other signals).
``probability(data, row) -> float`` and ``probabilities(data, x) -> ndarray``
    The model's probability for one row of signal values (in `SIGNALS` order) or for each
    row of a matrix; a row goes left where its value is at most the node's threshold, as
    scikit-learn compares (in 32-bit floats).

Why trees: on the first questions of the calibration sets, read as served and scored out
of fold, they answered about one point more right at the same confident-wrong than the
logistic model over the same signals (docs/quality-journal.md, "thirty-third round"): some
signals matter only together (a named headword with low coverage, a dense margin that
means more when the lexical ranking agrees).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["check", "fit_trees", "probabilities", "probability"]

LEAF = -1


def fit_trees(
    x: np.ndarray, y: np.ndarray, sample: np.ndarray, names: Sequence[str]
) -> dict[str, Any]:
    try:
        from sklearn.ensemble import GradientBoostingClassifier
    except ImportError:
        raise SystemExit(
            "Die Bäume des Konfidenzmodells lernt scikit-learn: "
            "pip install -e '.[train]' (make calibrate installiert es)."
        ) from None
    model = GradientBoostingClassifier(init="zero", random_state=0)
    model.fit(x, (y > 0).astype(int), sample_weight=sample)
    return {
        "signals": list(names),
        "rate": float(model.learning_rate),
        "trees": [_nodes(tree.tree_) for tree in model.estimators_[:, 0]],
    }


def _nodes(tree: Any) -> list[list[float | int]]:
    return [
        [
            int(tree.feature[i]) if tree.children_left[i] != LEAF else LEAF,
            float(tree.threshold[i]) if tree.children_left[i] != LEAF else 0.0,
            int(tree.children_left[i]),
            int(tree.children_right[i]),
            float(tree.value[i].ravel()[0]),
        ]
        for i in range(tree.node_count)
    ]


def check(data: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """`data`'s ``rate`` and ``trees`` as floats and ints; `ValueError` unless they were
    fitted on the signals `names` (in this order), every node names one of them (or is a
    leaf) and every child lies after its node (so a walk ends)."""
    if list(data["signals"]) != list(names):
        raise ValueError("signals differ")
    signals = len(names)
    trees = []
    for tree in data["trees"]:
        nodes = []
        for i, (signal, threshold, left, right, value) in enumerate(tree):
            signal, left, right = int(signal), int(left), int(right)
            if signal != LEAF and not (
                0 <= signal < signals and i < left < len(tree) and i < right < len(tree)
            ):
                raise ValueError("malformed tree node")
            nodes.append((signal, float(threshold), left, right, float(value)))
        if not nodes:
            raise ValueError("empty tree")
        trees.append(tuple(nodes))
    return {"rate": float(data["rate"]), "trees": tuple(trees)}


def _raw(data: dict[str, Any], row: Sequence[float]) -> float:
    values = np.asarray(row, dtype=np.float32).tolist()  # compared as scikit-learn does
    total = 0.0
    for nodes in data["trees"]:
        i = 0
        while nodes[i][0] != LEAF:
            signal, threshold, left, right, _ = nodes[i]
            i = left if values[signal] <= threshold else right
        total += nodes[i][4]
    return data["rate"] * total


def probability(data: dict[str, Any], row: Sequence[float]) -> float:
    z = _raw(data, row)
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))


def probabilities(data: dict[str, Any], x: np.ndarray) -> np.ndarray:
    return np.array([probability(data, row) for row in x])
