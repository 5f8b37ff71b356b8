"""One signal's worth: the chatbot's out-of-fold figures with and without one column of the
signals saved by `dump_signals.py` (the logistic model and its bars refitted per fold, as
`by_set_oof.py`), over all training rows and over dev2's (`t`) alone.

Usage: python research/model_capacity/with_without.py SIGNALS.npz SIGNAL [SIGNAL ...]
"""

from __future__ import annotations

import sys

import numpy as np
from conf_models import out_of_fold  # the script's folder (run as a script)

from faq_bot.chat import confidence as conf
from faq_bot.chat import fit as F
from faq_bot.evaluate import question_set


def figures(x, y, ans, fu, rows_of: dict[str, np.ndarray]) -> dict[str, dict[str, float]]:
    runs = [sure for _p, sure in out_of_fold(x, y, ans, fu)]
    out = {}
    for name, rows in rows_of.items():
        f = [F._figures(sure[rows], y[rows], ans[rows]) for sure in runs]
        out[name] = {k: float(np.mean([r[k] for r in f])) for k in f[0]}
    return out


def main() -> None:
    d = np.load(sys.argv[1])
    x, y, ans, fu, ids = d["x"], d["y"], d["ans"], d["fu"].astype(bool), d["ids"]
    x = F._filled(x, F._fallback(x, y, ans))
    sets = np.array([question_set(str(i)) for i in ids])
    rows_of = {
        "all first": ~fu,
        "all follow-ups": fu,
        "dev2 first": (sets == "t") & ~fu,
        "dev2 follow-ups": (sets == "t") & fu,
    }
    drop = [conf.SIGNALS.index(s) for s in sys.argv[2:]]
    keep = [j for j in range(x.shape[1]) if j not in drop]
    for label, cols in (("with", list(range(x.shape[1]))), ("without", keep)):
        for name, m in figures(x[:, cols], y, ans, fu, rows_of).items():
            print(
                f"{label:8} {name:16} Passage@1 {m['passage@1']:.3f}  "
                f"confident-wrong {m['confident_wrong']:.3f}  declined {m['declined']:.3f}"
            )


if __name__ == "__main__":
    main()
