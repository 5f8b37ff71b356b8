"""Is the nearest known question's label a signal for unanswerable questions?

The shipped `unanswered_like` compares the 3 nearest unanswerable known questions with the
3 nearest answerable ones; an unanswerable question about a card the rulings cover often
has answerable neighbours about that card, and scores about 0. This reads the *nearest*
known question alone, as fitting would see it: not of the question's own set
(`KnownQuestions.own_set`), not a twin (cosine below `KnownQuestions.twin`), first
questions only. Queries: the first questions of the sets the embedder was not tuned on
(held-out 13 to 28, dev11, dev12), so their own vectors are not fitted; their neighbours
may be.

Usage: python research/model_capacity/nearest_known.py   (reads faq_bot/data/known_questions.npz)
"""

from __future__ import annotations

import re

import numpy as np

from faq_bot.known import known_questions

UNTUNED = re.compile(r"h(1[3-9]|2[0-8])-|d1[12]-")


def main() -> None:
    known = known_questions()
    if known is None:
        raise SystemExit("no known questions (faq_bot/data/known_questions.npz)")
    vectors = known.vectors.astype(np.float32)
    ids = np.array(known.ids)
    followup = known.followup if known.followup is not None else np.zeros(len(ids), bool)
    rows = [i for i, qid in enumerate(ids) if UNTUNED.match(qid) and not followup[i]]
    found = []  # (answerable, nearest answerable, its cosine)
    for r in rows:
        sims = vectors @ vectors[r]
        keep = ~np.isin(ids, list(known.own_set(ids[r]))) & (sims < known.twin) & ~followup
        if not keep.any():
            continue
        j = np.flatnonzero(keep)[np.argmax(sims[keep])]
        found.append((known.answerable[r], known.answerable[j], sims[j]))
    table = np.array(found, dtype=float)
    print(f"{len(rows)} first questions; twin bar {known.twin:.3f}")
    for low in (0.0, 0.8, 0.85, 0.9):
        sel = table[:, 2] >= low
        answerable, unanswerable = sel & (table[:, 0] == 1), sel & (table[:, 0] == 0)
        print(
            f"nearest at cosine >= {low}: answerable {answerable.sum()} "
            f"(nearest unanswerable: {int((table[answerable, 1] == 0).sum())}), "
            f"unanswerable {unanswerable.sum()} "
            f"(nearest unanswerable: {int((table[unanswerable, 1] == 0).sum())})"
        )


if __name__ == "__main__":
    main()
