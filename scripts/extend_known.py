"""Keep more questions among the known ones, without fitting anything on them.

    .venv/bin/python scripts/extend_known.py [--index DIR] QUESTIONS.jsonl...

The known questions (``faq_bot/data/known_questions.npz``, `faq_bot.known`) are the
evidence behind the confidence signals ``unanswered_like``, ``nearest_known`` and
``precedent`` and the ranker's ``known_entry``: a new question is compared with them.
`scripts/train_chat.py` writes them from the training questions; this adds the questions
of retired held-out sets (``make train`` passes `KNOWN_ONLY` from the Makefile), read as
the chatbot reads them and embedded by the shipped model, as the training questions are.
No weight is fitted on them, and since they leave the held-out sets they leave the
calibration too (`faq_bot.chat.calibrate.CALIBRATION_SETS`). Held-out sets are
refused (`faq_bot.evaluate.training_questions`).

A follow-up is read after its earlier question is answered, so its vector depends on the
models and bars in effect: ``make train`` runs this after `scripts/train_chat.py` has written
its models (with the bars the fit chose) and before ``make calibrate``, and rows of the given
files already in the store are read again and replaced, so the store is what those models
give, however often this runs.
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
    """`known` without the rows of `cases`' ids, then `cases` (with their `vectors`) added
    after the others: a second run replaces what the first added."""
    if known.golds is None or known.followup is None:
        raise FaqBotError(
            "Die bekannten Fragen wurden ohne Goldpassagen oder Anschlussmarken geschrieben: "
            "erst scripts/train_chat.py --write."
        )
    ours = {c.id for c in cases}
    kept = [i for i, qid in enumerate(known.ids) if qid not in ours]
    return KnownQuestions.of(
        [*(known.ids[i] for i in kept), *(c.id for c in cases)],
        np.vstack([known.vectors[kept], np.asarray(vectors, dtype=np.float32)]),
        [*known.answerable[kept], *(c.answerable for c in cases)],
        known.model,
        [*(known.golds[i] for i in kept), *(c.gold for c in cases)],
        [*known.followup[kept], *(c.followup for c in cases)],
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
        shipped = shipped_retriever(index)
        if shipped.model != known.model:
            raise FaqBotError("Die bekannten Fragen stammen von einem anderen Modell.")
        cases = [
            c for c in fit.collect(index, questions, "hybrid") if c.reading.vector_text is not None
        ]
        vectors = query_vectors(shipped.embedder, [c.reading.vector_text for c in cases])
        bigger = extended(known, cases, vectors)
    except FaqBotError as exc:
        print(f"Fehler: {exc}", file=sys.stderr)
        return 2
    path = DATA / "known_questions.npz"
    bigger.save(path)
    print(f"geschrieben: {path} ({len(bigger.ids)} Fragen, {len(cases)} aus den Dateien)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
