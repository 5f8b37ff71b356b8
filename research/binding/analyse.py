"""Out of fold: the 18 shipped confidence signals vs the same plus candidate binding features.
Usage (from the repository root): python analyse.py SIGNALS.npz [FEATURE ...]"""

import json
import sys

import numpy as np

sys.path.insert(0, "research/model_capacity")
from conf_models import out_of_fold  # noqa: E402

from faq_bot.chat import fit as F  # noqa: E402
from faq_bot.evaluate import question_set  # noqa: E402

d = np.load(sys.argv[1])
x, y, ans, fu, ids = d["x"], d["y"], d["ans"], d["fu"].astype(bool), d["ids"]
x = F._filled(x, F._fallback(x, y, ans))
rec = json.load(open(sys.argv[1] + ".choices.json"))
names = sys.argv[2:]
sets = np.array([question_set(str(i)) for i in ids])


def extra(name):
    return np.array([rec[i]["f"][name] if i in rec else 0.0 for i in ids], dtype=float)


def report(label, xx):
    runs = [sure for _p, sure in out_of_fold(xx, y, ans, fu)]
    out = []
    for part, rows in (("all first", ~fu), ("dev2 first", (sets == "t") & ~fu), ("follow-ups", fu)):
        f = [F._figures(s[rows], y[rows], ans[rows]) for s in runs]
        m = {k: np.mean([r[k] for r in f]) for k in f[0]}
        out.append(
            f"{part}: P@1 {m['passage@1']:.3f} CW {m['confident_wrong']:.3f} "
            f"decl {m['declined']:.3f}"
        )
    print(f"{label:30s} " + " | ".join(out), flush=True)


report("shipped 18", x)
for n in names:
    report(f"+{n}", np.column_stack([x, extra(n)]))
if len(names) > 1:
    report("+all", np.column_stack([x, *[extra(n) for n in names]]))
