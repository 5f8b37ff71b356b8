"""Save the confidence signals of the chosen passage of every training question, read as
`scripts/train_chat.py` reads them (cross-fitted), for `conf_models.py`.

Usage: python research/model_capacity/dump_signals.py OUT.npz FILE [FILE ...] [--untuned FILE ...]
       [--per-fold K]

By default the passages are chosen with the shipped passage weights (fitted on these very
questions; 7 min). With ``--per-fold K`` the questions are split into K folds (seed 0, as
`faq_bot.chat.crossval.cross_validate` splits them) and each fold's passages are chosen with
passage weights and known questions fitted on the other folds, so that no row's passage was
chosen by weights fitted on it (19 min for 5,343 questions). ``--known-only FILE...`` (the
Makefile's KNOWN_ONLY) keeps those questions among every fold's known questions, as what ships
keeps them (`scripts/extend_known.py`), and among the ranking's; no row of theirs is saved and
nothing is fitted on them.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from faq_bot.chat import fit
from faq_bot.crossfit import add_crossfit_arguments, by_fold, embed_known, training_set
from faq_bot.index import open_index
from faq_bot.learn import folds as fold_of

FOLDS = Path("research/embedder_tuning/folds")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--per-fold", type=int, metavar="K", help="refit the passage weights per fold")
    ap.add_argument(
        "--known-only",
        nargs="+",
        default=[],
        metavar="FILE",
        help="questions kept among the known questions only, as `make train` keeps KNOWN_ONLY",
    )
    add_crossfit_arguments(ap)
    args = ap.parse_args()
    index = open_index("index")
    questions, untuned = training_set(args.files, args.untuned)
    extra, _ = training_set(args.known_only)
    extra_ids = frozenset(str(q["id"]) for q in extra)
    folds = args.crossfit or FOLDS
    everything = by_fold(
        index,
        Path("index"),
        [*questions, *extra],
        folds,
        lambda qs: fit.collect(index, qs, "hybrid"),
        untuned | extra_ids,
    )
    known = embed_known(index, everything, folds)
    cases = [c for c in everything if c.id not in extra_ids]
    extras = [c for c in everything if c.id in extra_ids]
    if args.per_fold:
        x, y, ans = _per_fold(index, cases, args.per_fold, extras)
    else:
        passage = json.loads(Path("faq_bot/data/passage.json").read_text())
        x, y, ans = fit._signal_rows(index, cases, passage["modes"]["hybrid"]["weights"], known)
    ids = np.array([c.id for c in cases])
    np.savez(args.out, x=x, y=y, ans=ans, fu=fit._followups(cases), ids=ids)
    print("gespeichert:", x.shape)


def _per_fold(index, cases, k: int, extras=()):
    """The signal rows of each fold with passage weights and known questions fitted on the
    other folds; `extras` (``--known-only``) are known in every fold, as KNOWN_ONLY is to
    what ships, and nothing is fitted on them."""
    fold = fold_of(len(cases), k, 0)
    x, y, ans = None, np.zeros(len(cases)), np.array([c.answerable for c in cases])
    for f in range(k):
        train = [c for c, g in zip(cases, fold, strict=True) if g != f]
        rows = np.flatnonzero(fold == f)
        known = fit.known_of(index, [*train, *extras])
        xt, yt, _ = fit._signal_rows(
            index, [cases[i] for i in rows], fit.fit_passage(train, known), known
        )
        x = np.zeros((len(cases), xt.shape[1])) if x is None else x
        x[rows], y[rows] = xt, yt
        print(f"Falte {f + 1}/{k}", flush=True)
    return x, y, ans


if __name__ == "__main__":
    main()
