"""Small numpy learners for the fitted parts (ranking, passage choice, confidence).

``fit_logistic(x, y, balance=True, sample=None) -> (weights, bias)``
    L2-regularised logistic regression by gradient descent on standardised
    features; the weights returned apply to the raw features. ``balance``
    weighs both classes equally; ``sample`` gives each row its own weight.
``fit_choice(groups) -> weights``
    A conditional logit: in each group (one question's candidates, ``(x, y)``)
    the softmax of ``x @ w`` should put its mass on the rows with ``y > 0``.
    No bias (it cancels within a group); weights on raw features. Fitted by
    Adam on standardised features (the ranking's listwise model and the passage
    choice are both this model). A group of one row adds no gradient but counts
    in the standardisation and in the per-group average of the penalty.
``folds(n, k, seed) -> array``
    The fold of each of `n` items for k-fold cross-validation (by question).
``crossfit_fold(question_id, k) -> int``
    A question's fold for cross-fitting, from its id alone: the embedder tuned
    without fold f reads the questions of fold f when the ranker and the chat
    models are fitted (`research/embedder_tuning/tune.py`, `faq_bot/crossfit.py`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

__all__ = ["crossfit_fold", "fit_choice", "fit_logistic", "folds"]

L2 = 1e-2
STEPS = 3000
CHOICE_STEPS = 600  # Adam converges in a few hundred steps


def _standardise(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    mu, sd = x.mean(0), x.std(0) + 1e-9
    return (x - mu) / sd, mu, sd


def fit_logistic(
    x: np.ndarray, y: np.ndarray, balance: bool = True, sample: np.ndarray | None = None
) -> tuple[np.ndarray, float]:
    z, mu, sd = _standardise(np.asarray(x, dtype=float))
    y = np.asarray(y, dtype=float)
    w, b = np.zeros(z.shape[1]), 0.0
    if sample is not None:
        sample = np.asarray(sample, dtype=float) * len(y) / np.sum(sample)
    elif balance:
        pos = min(max(y.mean(), 1e-6), 1 - 1e-6)
        sample = np.where(y > 0, 0.5 / pos, 0.5 / (1 - pos))
    else:
        sample = np.ones_like(y)
    for _ in range(STEPS):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        g = (p - y) * sample
        w -= 0.5 * (z.T @ g / len(y) + L2 * w)
        b -= 0.5 * g.mean()
    raw = w / sd
    return raw, float(b - (mu * raw).sum())


def fit_choice(
    groups: Sequence[tuple[np.ndarray, np.ndarray]], l2: float = L2, steps: int = CHOICE_STEPS
) -> np.ndarray:
    groups = [(np.asarray(x, dtype=float), np.asarray(y, dtype=float)) for x, y in groups]
    groups = [(x, y) for x, y in groups if len(x) and y.any()]
    if not groups:
        raise ValueError("no group with a positive row")
    z, mu, sd = _standardise(np.vstack([x for x, _ in groups]))
    pos = np.concatenate([y > 0 for _, y in groups])
    gid = np.concatenate([np.full(len(x), i) for i, (x, _) in enumerate(groups)])
    starts = np.concatenate([[0], np.cumsum([len(x) for x, _ in groups])[:-1]])
    n = len(groups)
    w = np.zeros(len(mu))
    m, v = np.zeros_like(w), np.zeros_like(w)  # Adam's moments
    for t in range(1, steps + 1):
        s = z @ w
        p = np.exp(s - np.maximum.reduceat(s, starts)[gid])
        p /= np.bincount(gid, p, n)[gid]
        q = np.where(pos, p, 0.0)
        q /= np.bincount(gid, q, n)[gid]  # the posterior over the right rows
        grad = z.T @ (p - q) / n + l2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad**2
        w -= 0.05 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return w / sd


def folds(n: int, k: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).permutation(n) % k


def crossfit_fold(question_id: str, k: int = 5) -> int:
    """The fold of a question for cross-fitting: a hash of its id, so every script that
    fits on the training questions agrees on it without sharing a file."""
    digest = hashlib.sha256(question_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") % k
