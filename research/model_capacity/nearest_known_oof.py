"""Out of fold: the shipped confidence signals with and without the nearest known
question's label (`nearest_known.py`), on the signals `dump_signals.py` saved (5 folds x 3
shuffles, bars chosen inside each training part as `conf_models.out_of_fold` does). The
feature is read from the shipped known questions the way fitting sees them (not of the
question's own set, not a twin); follow-ups get 0.

Usage: python research/model_capacity/nearest_known_oof.py SIGNALS.npz
"""

from __future__ import annotations

import sys

import numpy as np
from conf_models import out_of_fold

from faq_bot.chat import fit as F
from faq_bot.known import known_questions


def nearest_signed(ids: np.ndarray, followup: np.ndarray) -> np.ndarray:
    """Per row: the cosine of the nearest known question, + when it is unanswerable,
    - when answerable; 0 for follow-ups and questions not among the known ones."""
    known = known_questions()
    if known is None:
        raise SystemExit("no known questions (faq_bot/data/known_questions.npz)")
    vectors, kid = known.vectors.astype(np.float32), np.array(known.ids)
    kfu = known.followup if known.followup is not None else np.zeros(len(kid), bool)
    where = {q: i for i, q in enumerate(kid)}
    out = np.zeros(len(ids))
    for r, qid in enumerate(ids):
        i = where.get(qid)
        if i is None or followup[r]:
            continue
        sims = vectors @ vectors[i]
        keep = ~np.isin(kid, list(known.own_set(qid))) & (sims < known.twin) & ~kfu
        if not keep.any():
            continue
        j = np.flatnonzero(keep)[np.argmax(sims[keep])]
        out[r] = sims[j] * (-1.0 if known.answerable[j] else 1.0)
    return out


def figures(x, y, ans, fu) -> np.ndarray:
    rows = []
    first = ~fu
    for _p, sure in out_of_fold(x, y, ans, fu):
        n_ans, n_un = (first & ans).sum(), (first & ~ans).sum()
        rows.append(
            [
                (sure & first & ans & (y == 1)).sum() / n_ans,
                (sure & first & ans & (y == 0)).sum() / n_ans,
                (~sure & first & ~ans).sum() / n_un,
                (sure & fu & ans & (y == 1)).sum() / (fu & ans).sum(),
                (sure & fu & ans & (y == 0)).sum() / (fu & ans).sum(),
            ]
        )
    return np.mean(rows, axis=0)


def main() -> None:
    d = np.load(sys.argv[1], allow_pickle=True)
    x, y, ans, fu, ids = d["x"], d["y"], d["ans"], d["followup"], d["ids"]
    x = F._filled(x, F._fallback(x, y, ans))
    feat = nearest_signed(ids, fu)
    variants = {
        "shipped signals": x,
        "+ nearest known (signed cosine)": np.hstack([x, feat[:, None]]),
        "+ nearest unanswerable (0/1)": np.hstack([x, (feat > 0)[:, None].astype(float)]),
    }
    for name, xx in variants.items():
        p1, cw, dec, fp1, fcw = figures(xx, y, ans, fu)
        print(
            f"{name:34s} first: Passage@1 {p1:.3f} confident-wrong {cw:.3f} declined "
            f"{dec:.3f} | follow-ups: Passage@1 {fp1:.3f} confident-wrong {fcw:.3f}"
        )


if __name__ == "__main__":
    main()
