"""Dump out-of-fold confidence signals of the training questions for `conf_models.py`.

    .venv/bin/python research/model_capacity/dump_oof.py OUT.npz --crossfit DIR \
        FILES... --untuned FILES...

Reads every question as `scripts/train_chat.py` does (cross-fitted by the tuned
embedder's fold models), then for each of k folds fits the passage weights and the
known questions on the other folds and records the chosen passage's
`faq_bot.chat.confidence.SIGNALS` for the fold's questions: the rows a confidence
model is fitted and judged on in `faq_bot.chat.fit.cross_validate` (seed 0). Unlike
`dump_signals.py`, which reads with the shipped passage weights, no row's passage was
chosen by weights fitted on it. 19 minutes for 5,343 questions.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from faq_bot.chat import confidence as conf
from faq_bot.chat import fit
from faq_bot.crossfit import add_crossfit_arguments, by_fold, embed_known, training_set
from faq_bot.evaluate import EvalFileError
from faq_bot.index import open_index
from faq_bot.learn import folds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--index", default="index")
    add_crossfit_arguments(ap)
    args = ap.parse_args()
    index = open_index(args.index)
    try:
        questions, untuned = training_set(args.files, args.untuned)
    except EvalFileError as exc:
        sys.exit(str(exc))
    source = {}
    for f in [*args.files, *args.untuned]:
        for q in fit_questions(f):
            source[str(q["id"])] = Path(f).name
    cases = by_fold(
        index,
        Path(args.index),
        questions,
        args.crossfit,
        lambda qs: fit.collect(index, qs, "hybrid"),
        untuned,
    )
    embed_known(index, cases, args.crossfit)
    fold = folds(len(cases), args.folds, 0)
    x = np.zeros((len(cases), len(conf.SIGNALS)))
    y = np.zeros(len(cases))
    for f in range(args.folds):
        train = [c for c, g in zip(cases, fold, strict=True) if g != f]
        idx = [i for i, g in enumerate(fold) if g == f]
        known = fit.known_of(index, train)
        pw = fit.fit_passage(train, known)
        xt, yt, _ = fit._signal_rows(index, [cases[i] for i in idx], pw, known)
        x[idx], y[idx] = xt, yt
        print(f"Falte {f + 1}/{args.folds}", flush=True)
    np.savez(
        args.out,
        x=x,
        y=y,
        ans=np.array([c.answerable for c in cases]),
        fu=fit._followups(cases),
        fold=fold,
        ids=np.array([c.id for c in cases]),
        source=np.array([source.get(c.id, "") for c in cases]),
        signals=np.array(conf.SIGNALS),
    )


def fit_questions(path: str):
    import json

    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


if __name__ == "__main__":
    main()
