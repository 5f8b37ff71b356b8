"""The follow-ups' confident-wrong and Passage@1 at each bar, out of fold, on the signals
saved by `dump_signals.py --per-fold 5` (passage weights refitted per fold): the shipped
logistic model fitted on 4 folds, the fold left out scored (`conf_models.out_of_fold`), 5
folds x 3 shuffles, counts averaged over the shuffles.

Usage: python research/model_capacity/followup_bars.py SIGNALS.npz
"""

from __future__ import annotations

import sys

import numpy as np
from conf_models import out_of_fold  # the script's folder (run as a script)

from faq_bot.chat import fit as F


def main() -> None:
    d = np.load(sys.argv[1])
    x, y, ans, fu = d["x"], d["y"], d["ans"], d["fu"].astype(bool)
    x = F._filled(x, F._fallback(x, y, ans))
    probs = [p[fu] for p, _sure in out_of_fold(x, y, ans, fu)]
    n, right = int(fu.sum()), y[fu] > 0
    print(f"{n} Anschlussfragen")
    for t in np.arange(0.24, 0.61, 0.02):
        ok = np.mean([((p >= t) & right).sum() for p in probs])
        wrong = np.mean([((p >= t) & ~right).sum() for p in probs])
        print(f"Schwelle {t:.2f}: Passage@1 {ok / n:.3f}, sicher, aber falsch {wrong / n:.3f}")


if __name__ == "__main__":
    main()
