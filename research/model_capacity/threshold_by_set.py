"""Does the confidence threshold change when it is chosen on probabilities out of *set*
rather than out of fold? Each question set is one writer's voice, so leaving a whole set
out is closer to a question set nobody has seen. Prints the thresholds of the shipped rule
both ways, the out-of-fold figures at a few thresholds, and each set's figures (left out)
at the shipped rule's threshold.

Usage: python research/model_capacity/threshold_by_set.py SIGNALS.npz (from dump_signals.py)
"""

from __future__ import annotations

import sys

import numpy as np

from faq_bot.chat import fit as F
from faq_bot.evaluate import question_set
from faq_bot.learn import fit_logistic


def out_of(x, y, ans, fold_of) -> np.ndarray:
    """Probabilities of each row by a model fitted without its fold (or set)."""
    p = np.zeros(len(y))
    for f in np.unique(fold_of):
        train = fold_of != f
        w, b = fit_logistic(x[train], y[train], sample=F.outcome_weights(y[train], ans[train]))
        p[~train] = F._prob(x[~train], w, b)
    return p


def line(figures: dict[str, float]) -> str:
    return " ".join(f"{k} {v:.3f}" for k, v in figures.items())


def main() -> None:
    d = np.load(sys.argv[1])
    x, y, ans, fu, ids = d["x"], d["y"], d["ans"], d["fu"], d["ids"]
    x = F._filled(x, F._fallback(x, y, ans))
    sets = np.array([question_set(str(i)) for i in ids])
    print(f"{len(y)} questions in {len(set(sets))} sets")
    first, later = F._held_out_threshold(x, y, ans, fu)
    by_set = out_of(x, y, ans, sets)
    set_first = F._threshold(by_set[~fu], y[~fu], ans[~fu])
    set_later = max(set_first, F._threshold(by_set[fu], y[fu], ans[fu]))
    print(f"out of fold (shipped rule): first questions {first:.2f}, follow-ups {later:.2f}")
    print(
        f"out of set:                 first questions {set_first:.2f}, follow-ups {set_later:.2f}"
    )
    by_fold = np.mean([out_of(x, y, ans, F.folds(len(y), 5, s)) for s in (0, 1, 2)], axis=0)
    for name, p in (("out of fold", by_fold), ("out of set", by_set)):
        for t in sorted({first, set_first, 0.40, 0.45}):
            figures = F._figures(p[~fu] >= t, y[~fu], ans[~fu])
            print(f"  {name}, first questions at {t:.2f}: {line(figures)}")
    print(f"each set left out, first questions at {first:.2f}:")
    for name in sorted(set(sets)):
        m = (sets == name) & ~fu
        if m.sum() >= 20:
            f = F._figures(by_set[m] >= first, y[m], ans[m])
            print(f"  {name:4s} n={int(m.sum()):4d} {line(f)}")


if __name__ == "__main__":
    main()
