"""Save the confidence signals of the chosen passage of every training question, read as
`scripts/train_chat.py` reads them (cross-fitted), with the shipped passage weights.

Usage: python research/model_capacity/dump_signals.py OUT.npz FILE [FILE ...] [--untuned FILE ...]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from faq_bot.chat import fit
from faq_bot.crossfit import add_crossfit_arguments, by_fold, embed_known, training_set
from faq_bot.index import open_index

FOLDS = Path("research/embedder_tuning/folds")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("files", nargs="+")
    add_crossfit_arguments(ap)
    args = ap.parse_args()
    index = open_index("index")
    questions, untuned = training_set(args.files, args.untuned)
    folds = args.crossfit or FOLDS
    cases = by_fold(
        index, Path("index"), questions, folds, lambda qs: fit.collect(index, qs, "hybrid"), untuned
    )
    known = embed_known(index, cases, folds)
    passage = json.loads(Path("faq_bot/data/passage.json").read_text())
    x, y, ans = fit._signal_rows(index, cases, passage["modes"]["hybrid"]["weights"], known)
    ids = np.array([c.id for c in cases])
    np.savez(args.out, x=x, y=y, ans=ans, fu=fit._followups(cases), ids=ids)
    print("gespeichert:", x.shape)


if __name__ == "__main__":
    main()
