"""The follow-ups' confident-wrong and Passage@1 at each bar, out of fold, on the signals
saved by `dump_signals.py --per-fold 5` (passage weights refitted per fold): the shipped
logistic model fitted on 4 folds, the fold left out scored, 5 folds x 3 shuffles, counts
averaged over the shuffles.

Usage: python research/model_capacity/followup_bars.py SIGNALS.npz
"""

from __future__ import annotations

import sys

import numpy as np

from faq_bot.chat import fit as F
from faq_bot.learn import fit_logistic, folds


def main() -> None:
    d = np.load(sys.argv[1])
    x, y, ans, fu = d["x"], d["y"], d["ans"], d["fu"].astype(bool)
    x = F._filled(x, F._fallback(x, y, ans))
    probs = []
    for seed in (0, 1, 2):
        fold = folds(len(y), 5, seed)
        p = np.zeros(len(y))
        for f in range(5):
            tr = fold != f
            w, b = fit_logistic(x[tr], y[tr], sample=F.outcome_weights(y[tr], ans[tr]))
            p[~tr] = F._prob(x[~tr], w, b)
        probs.append(p[fu])
    n, right = int(fu.sum()), y[fu] > 0
    print(f"{n} Anschlussfragen")
    for t in np.arange(0.24, 0.61, 0.02):
        ok = np.mean([((p >= t) & right).sum() for p in probs])
        wrong = np.mean([((p >= t) & ~right).sum() for p in probs])
        print(f"Schwelle {t:.2f}: Passage@1 {ok / n:.3f}, sicher, aber falsch {wrong / n:.3f}")


if __name__ == "__main__":
    main()
