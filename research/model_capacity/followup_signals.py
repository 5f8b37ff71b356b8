"""Would signals of how a follow-up's *own* words relate to the chosen entry make its
confidence sharper? Computes them for the training follow-ups and compares the shipped
confidence model with versions that also read them, out of fold on the signals saved by
`dump_signals.py --per-fold 5` (thresholds chosen by the fit's rule inside each training
part; 5 folds, 3 shuffles). The new signals are 0 for first questions.

- own_margin: the follow-up's own dense similarity to the chosen entry minus that of the
  best other candidate (the confidence model reads similarities pulled towards the earlier
  answer's entry, `faq_bot.chat.answer`);
- pull: the pulled similarity of the chosen entry minus its own one;
- stays: the chosen entry is the one that answered the earlier question;
- own_rank: how many other candidates the follow-up's own embedding puts above it.

Usage: python research/model_capacity/followup_signals.py SIGNALS.npz FOLLOWUP_FILE ...
(the new signals are read with the shipped models, not cross-fitted: ~1 min)
"""

from __future__ import annotations

import sys

import numpy as np
from conf_models import out_of_fold  # the script's folder (run as a script)

from faq_bot.chat import fit as F
from faq_bot.chat.answer import answered_reading, replay
from faq_bot.evaluate import load_questions
from faq_bot.index import open_index

NAMES = ("own_margin", "pull", "stays", "own_rank")


def followup_signals(index, question: dict) -> list[float] | None:
    """The `NAMES` of a follow-up as the shipped models answer it (None when it is not
    read with its earlier question or has no own embedding)."""
    turns = replay(index, question.get("history") or [])
    reading, response = answered_reading(index, question["q"], turns)
    p, own = response.passage, reading.own_dense
    if not reading.context or p is None or own is None or reading.dense is None:
        return None
    chosen = {p.via or p.entry, p.entry}
    others = [own.entry(c.record.id) for c in reading.candidates if c.record.id not in chosen]
    mine = max(own.entry(e) for e in chosen)
    return [
        mine - (max(others) if others else 0.0),
        reading.dense.entry(p.entry) - own.entry(p.entry),
        float(reading.context[0].entry in chosen),
        float(sum(o > mine for o in others)),
    ]


def nested(x, y, ans, fu) -> np.ndarray:
    """(first questions' Passage@1, confident-wrong, declined; follow-ups' Passage@1,
    confident-wrong), out of fold, mean over the shuffles."""
    rows = []
    for _p, sure in out_of_fold(x, y, ans, fu):
        a, u = F._figures(sure[~fu], y[~fu], ans[~fu]), F._figures(sure[fu], y[fu], ans[fu])
        rows.append(
            [
                a["passage@1"],
                a["confident_wrong"],
                a["declined"],
                u["passage@1"],
                u["confident_wrong"],
            ]
        )
    return np.mean(rows, axis=0)


def main() -> None:
    d = np.load(sys.argv[1])
    x, y, ans, fu, ids = d["x"], d["y"], d["ans"], d["fu"].astype(bool), d["ids"]
    x = F._filled(x, F._fallback(x, y, ans))
    index = open_index("index")
    found = {}
    for path in sys.argv[2:]:
        for q in load_questions(path):
            found[q["id"]] = followup_signals(index, q)
    extra = np.zeros((len(y), len(NAMES)))
    for i, qid in enumerate(ids):
        if fu[i] and found.get(str(qid)) is not None:
            extra[i] = found[str(qid)]
    with_signals = int(extra.any(axis=1).sum())
    print(f"{len(y)} Fragen, {int(fu.sum())} Anschlussfragen, {with_signals} mit Signalen")
    variants = {
        "shipped": x,
        "+ followup (0/1)": np.hstack([x, fu[:, None].astype(float)]),
        "+ own_margin": np.hstack([x, extra[:, [0]]]),
        "+ own_margin, pull": np.hstack([x, extra[:, [0, 1]]]),
        "+ stays": np.hstack([x, extra[:, [2]]]),
        "+ all four": np.hstack([x, extra]),
    }
    print("variant               first P@1  CW     declined  follow-ups P@1  CW")
    for name, xx in variants.items():
        r = nested(xx, y, ans, fu)
        print(
            f"{name:21s} {r[0]:.3f}      {r[1]:.3f}  {r[2]:.3f}     {r[3]:.3f}           {r[4]:.3f}"
        )


if __name__ == "__main__":
    main()
