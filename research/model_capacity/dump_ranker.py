"""Save the ranker's candidate features of every answerable first training question
(cross-fitted, as `scripts/train_ranker.py --crossfit` reads them).

Usage: python research/model_capacity/dump_ranker.py OUT.npz FILE [FILE ...] [--untuned FILE ...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from faq_bot.crossfit import add_crossfit_arguments, by_fold, training_set
from faq_bot.index import open_index

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from train_ranker import collect  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("files", nargs="+")
    add_crossfit_arguments(ap)
    args = ap.parse_args()
    index = open_index("index")
    questions, untuned = training_set(args.files, args.untuned)
    questions = [q for q in questions if not q.get("history")]
    folds = args.crossfit or Path("research/embedder_tuning/folds")
    groups = by_fold(index, Path("index"), questions, folds, lambda qs: collect(index, qs), untuned)
    np.savez(
        args.out,
        sizes=np.array([len(x) for x, _y in groups]),
        x=np.vstack([x for x, _y in groups]),
        y=np.concatenate([y for _x, y in groups]),
    )
    print("gespeichert:", len(groups))


if __name__ == "__main__":
    main()
