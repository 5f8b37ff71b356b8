"""Save the ranker's candidate features of every answerable first training question
(cross-fitted, as `scripts/train_ranker.py --crossfit` reads them).

Usage: python research/model_capacity/dump_ranker.py OUT.npz FILE [FILE ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from faq_bot.crossfit import by_fold
from faq_bot.evaluate import training_questions
from faq_bot.index import open_index

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from train_ranker import collect  # noqa: E402


def main() -> None:
    out, files = sys.argv[1], sys.argv[2:]
    index = open_index("index")
    questions = [q for q in training_questions(files) if not q.get("history")]
    groups = by_fold(
        index, Path("index"), questions, Path("build/e5-folds"), lambda qs: collect(index, qs)
    )
    np.savez(
        out,
        sizes=np.array([len(x) for x, _y in groups]),
        x=np.vstack([x for x, _y in groups]),
        y=np.concatenate([y for _x, y in groups]),
    )
    print("gespeichert:", len(groups))


if __name__ == "__main__":
    main()
