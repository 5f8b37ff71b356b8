"""The chatbot's cross-validated figures for one question set at a time: out of fold on
the signals saved by `dump_signals.py --per-fold 5` (passage weights refitted per fold),
the shipped logistic model and its bars chosen by the fit's rule inside each training part
(5 folds, 3 shuffles), then the rows of each set picked out. Issue 9 states its targets on
dev2 cross-validated (`t`: dev2's questions and follow-ups).

Usage: python research/model_capacity/by_set_oof.py SIGNALS.npz [SET ...]  (default: t)
"""

from __future__ import annotations

import sys

import numpy as np
from conf_models import out_of_fold  # the script's folder (run as a script)

from faq_bot.chat import fit as F
from faq_bot.evaluate import question_set


def main() -> None:
    d = np.load(sys.argv[1])
    x, y, ans, fu, ids = d["x"], d["y"], d["ans"], d["fu"].astype(bool), d["ids"]
    x = F._filled(x, F._fallback(x, y, ans))
    sets = np.array([question_set(str(i)) for i in ids])
    wanted = sys.argv[2:] or ["t"]
    runs = [sure for _p, sure in out_of_fold(x, y, ans, fu)]
    for name in wanted:
        for part, rows in (
            ("erste Fragen", (sets == name) & ~fu),
            ("Anschlussfragen", (sets == name) & fu),
        ):
            if not rows.any():
                continue
            f = [F._figures(sure[rows], y[rows], ans[rows]) for sure in runs]
            mean = {k: np.mean([r[k] for r in f]) for k in f[0]}
            print(
                f"{name} {part} ({int(rows.sum())}): Passage@1 {mean['passage@1']:.3f}, "
                f"sicher, aber falsch {mean['confident_wrong']:.3f}, "
                f"abgelehnt {mean['declined']:.3f}"
            )


if __name__ == "__main__":
    main()
