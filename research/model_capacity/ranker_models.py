"""Compare the ranker's conditional logit with non-linear versions of it on the features
saved by `dump_ranker.py` (Recall@1 on the fold left out, 5 folds, 2 shuffles).

Usage: python research/model_capacity/ranker_models.py FEATURES.npz
"""

from __future__ import annotations

import sys

import numpy as np

from faq_bot.learn import fit_choice, folds


def expansions(all_x: np.ndarray):
    n = all_x.shape[1]
    knots = {j: np.quantile(all_x[:, j], (0.5, 0.9, 0.98)) for j in range(n)}
    return {
        "linear": lambda x: x,
        "+ squares": lambda x: np.hstack([x, x**2]),
        "+ hinges": lambda x: np.hstack(
            [x] + [np.maximum(x[:, [j]] - k, 0) for j in range(n) for k in knots[j]]
        ),
        "+ products": lambda x: np.hstack(
            [x] + [(x[:, i] * x[:, j])[:, None] for i in range(n) for j in range(i + 1, n)]
        ),
    }


def recall_at_1(groups, expand, l2=0.01, seeds=(0, 1), k=5) -> float:
    runs = []
    for seed in seeds:
        fold = folds(len(groups), k, seed)
        hits = 0
        for f in range(k):
            train = [(expand(x), y) for (x, y), g in zip(groups, fold, strict=True) if g != f]
            w = fit_choice(train, l2=l2)
            test = [grp for grp, g in zip(groups, fold, strict=True) if g == f]
            hits += sum(bool(y[np.argmax(expand(x) @ w)] > 0) for x, y in test)
        runs.append(hits / len(groups))
    return float(np.mean(runs))


def main() -> None:
    d = np.load(sys.argv[1])
    starts = np.concatenate([[0], np.cumsum(d["sizes"])[:-1]])
    # read each array once: every d["x"] decompresses it anew, and a slice keeps its copy
    # alive (with 3,984 questions that took all 24 GB of the development machine)
    x, y = d["x"], d["y"]
    groups = [(x[s : s + n], y[s : s + n]) for s, n in zip(starts, d["sizes"], strict=True)]
    print(f"{len(groups)} Fragen")
    for name, expand in expansions(d["x"]).items():
        print(f"{name:12s} Recall@1 {recall_at_1(groups, expand):.4f}")


if __name__ == "__main__":
    main()
