"""Keep more questions among the known ones, without fitting anything on them.

    .venv/bin/python scripts/extend_known.py [--index DIR] QUESTIONS.jsonl...

The known questions (``faq_bot/data/known_questions.npz``, `faq_bot.known`) are the
evidence behind the confidence signals ``unanswered_like``, ``nearest_known`` and
``precedent`` and the ranker's ``known_entry``: a new question is compared with them.
`scripts/train_chat.py` writes them from the training questions; this adds the questions
of retired held-out sets (``make train`` passes `KNOWN_ONLY` from the Makefile), read as
the chatbot reads them and embedded by the shipped model, as the training questions are.
No weight is fitted on them, and since they leave the held-out sets they leave the
calibration too (`faq_bot.chat.calibrate.CALIBRATION_SETS`). Questions already known (by
id) are left as they are, so running it twice changes nothing. Held-out sets are
refused (`faq_bot.evaluate.training_questions`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from faq_bot.chat import fit
from faq_bot.crossfit import query_vectors, shipped_retriever, training_set
from faq_bot.errors import FaqBotError
from faq_bot.index import open_index
from faq_bot.known import KnownQuestions, known_questions

DATA = Path(__file__).resolve().parent.parent / "faq_bot" / "data"


def extended(known: KnownQuestions, cases: list[fit.Case], vectors: np.ndarray) -> KnownQuestions:
    """`known` with `cases` (and their `vectors`) added, those whose id it has skipped."""
    have = set(known.ids)
    new = [i for i, c in enumerate(cases) if c.id not in have]
    if known.golds is None or known.followup is None:
        raise ValueError("the known questions were written without gold passages or flags")
    return KnownQuestions.of(
        [*known.ids, *(cases[i].id for i in new)],
        np.vstack([known.vectors, vectors[new]]) if new else known.vectors,
        [*known.answerable, *(cases[i].answerable for i in new)],
        known.model,
        [*known.golds, *(cases[i].gold for i in new)],
        [*known.followup, *(cases[i].followup for i in new)],
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--index", default="index")
    args = ap.parse_args()
    try:
        index = open_index(args.index)
        questions, _ = training_set(args.files)
        known = known_questions()
        if known is None:
            raise FaqBotError("Keine bekannten Fragen: erst scripts/train_chat.py --write.")
        cases = [
            c for c in fit.collect(index, questions, "hybrid") if c.reading.vector_text is not None
        ]
        shipped = shipped_retriever(index)
        if shipped.model != known.model:
            raise FaqBotError("Die bekannten Fragen stammen von einem anderen Modell.")
        vectors = query_vectors(shipped.embedder, [c.reading.vector_text for c in cases])
        bigger = extended(known, cases, vectors)
    except FaqBotError as exc:
        print(f"Fehler: {exc}", file=sys.stderr)
        return 2
    path = DATA / "known_questions.npz"
    bigger.save(path)
    print(f"geschrieben: {path} ({len(known.ids)} + {len(bigger.ids) - len(known.ids)} Fragen)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
