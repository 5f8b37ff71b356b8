"""Compare the logistic confidence model with non-linear versions of it on the signals
saved by `dump_signals.py`: fitted on 4 folds, thresholds chosen by the shipped rule inside
the training part, measured on the fold left out (5 folds, 3 shuffles).

Usage: python research/model_capacity/conf_models.py SIGNALS.npz
"""

from __future__ import annotations

import sys

import numpy as np

from faq_bot.chat import fit as F
from faq_bot.learn import fit_logistic, folds


def expansions(x: np.ndarray) -> dict[str, np.ndarray]:
    binary = [j for j in range(x.shape[1]) if set(np.unique(x[:, j])) <= {0.0, 1.0}]
    cont = [j for j in range(x.shape[1]) if j not in binary]
    n = x.shape[1]
    hinges = [
        np.maximum(x[:, [j]] - np.quantile(x[:, j], q), 0) for j in cont for q in (0.25, 0.5, 0.75)
    ]
    products = [(x[:, i] * x[:, j])[:, None] for i in range(n) for j in range(i + 1, n)]
    return {
        "logistic": x,
        "+ squares": np.hstack([x, x[:, cont] ** 2]),
        "+ hinges": np.hstack([x, *hinges]),
        "+ products": np.hstack([x, *products]),
    }


def out_of_fold(x, y, ans, fu, seeds=(0, 1, 2), k=5) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per shuffle: (probability, answered with confidence) of every row, by a logistic
    model fitted on the other k-1 folds, with bars chosen by the fit's rule inside that
    training part (first questions and follow-ups apart). The research scripts beside this
    one share it."""
    runs = []
    for seed in seeds:
        fold = folds(len(y), k, seed)
        p = np.zeros(len(y))
        sure = np.zeros(len(y), dtype=bool)
        for f in range(k):
            tr = fold != f
            w, b = fit_logistic(x[tr], y[tr], sample=F.outcome_weights(y[tr], ans[tr]))
            first, later = F._held_out_threshold(x[tr], y[tr], ans[tr], fu[tr], seeds=(0,))
            p[~tr] = F._prob(x[~tr], w, b)
            sure[~tr] = p[~tr] >= np.where(fu[~tr], later, first)
        runs.append((p, sure))
    return runs


def nested(x, y, ans, fu, seeds=(0, 1, 2), k=5) -> np.ndarray:
    rows = []
    for _p, sure in out_of_fold(x, y, ans, fu, seeds, k):
        every, ups = F._figures(sure, y, ans), F._figures(sure[fu], y[fu], ans[fu])
        rows.append([every["passage@1"], every["confident_wrong"], ups["passage@1"]])
    return np.mean(rows, axis=0)


def main() -> None:
    d = np.load(sys.argv[1])
    x, y, ans, fu = d["x"], d["y"], d["ans"], d["fu"]
    x = F._filled(x, F._fallback(x, y, ans))
    print(f"{len(y)} Fragen, {int(fu.sum())} Anschlussfragen")
    for name, xf in expansions(x).items():
        p1, cw, fu1 = nested(xf, y, ans, fu)
        print(f"{name:12s} Passage@1 {p1:.3f}  sicher, aber falsch {cw:.3f}  Anschluss {fu1:.3f}")


if __name__ == "__main__":
    main()
