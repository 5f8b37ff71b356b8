"""Save the confidence signals of the chosen passage of every training question, read as
`scripts/train_chat.py` reads them (cross-fitted), with the shipped passage weights.

Usage: python research/model_capacity/dump_signals.py OUT.npz FILE [FILE ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from faq_bot.chat import fit
from faq_bot.crossfit import by_fold, embed_known
from faq_bot.evaluate import training_questions
from faq_bot.index import open_index

FOLDS = Path("build/e5-folds")


def main() -> None:
    out, files = sys.argv[1], sys.argv[2:]
    index = open_index("index")
    questions = training_questions(files)
    cases = by_fold(
        index, Path("index"), questions, FOLDS, lambda qs: fit.collect(index, qs, "hybrid")
    )
    known = embed_known(index, cases, FOLDS)
    passage = json.loads(Path("faq_bot/data/passage.json").read_text())
    x, y, ans = fit._signal_rows(index, cases, passage["modes"]["hybrid"]["weights"], known)
    ids = np.array([c.id for c in cases])
    np.savez(out, x=x, y=y, ans=ans, fu=fit._followups(cases), ids=ids)
    print("gespeichert:", x.shape)


if __name__ == "__main__":
    main()
