"""Fit the chatbot's passage choice and confidence; report cross-validated figures.

    .venv/bin/python scripts/train_chat.py [--folds 5] [--write] [--index DIR] QUESTIONS.jsonl...

For each retrieval mode (hybrid; ``--modes hybrid lexical`` also fits the
lexical one, as without the embedder, which is not shipped) reads
every question once (`faq_bot.chat.fit.collect`), cross-validates both models
together by question (k folds, three shuffles: mean ± sd) and, with
``--write``, fits them on all questions and writes
``faq_bot/data/passage.json``, ``faq_bot/data/confidence.json`` and the
questions themselves as embeddings (``faq_bot/data/known_questions.npz``, the
``unanswered_like`` signal of `faq_bot.chat.precedent`). Needs a
built index with dense vectors. The training files are listed in the Makefile
(``make train``: the development sets and the retired held-out sets 1-4);
held-out 5 and 6 are refused (`faq_bot.evaluate.training_questions`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from faq_bot.chat import fit
from faq_bot.evaluate import EvalFileError, training_questions
from faq_bot.index import open_index

DATA = Path(__file__).resolve().parent.parent / "faq_bot" / "data"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--index", default="index")
    ap.add_argument("--write", action="store_true")
    ap.add_argument(
        "--modes",
        nargs="+",
        default=["hybrid"],
        choices=["hybrid", "lexical"],
        help="retrieval modes to fit (lexical: as without the embedder; not shipped, see README)",
    )
    args = ap.parse_args()
    index = open_index(args.index)
    try:
        questions = training_questions(args.files, report=print)
    except EvalFileError as exc:
        sys.exit(str(exc))
    names = [Path(f).name for f in args.files]
    passages: dict[str, dict] = {}
    confidences: dict[str, dict] = {}
    known = None
    for mode in args.modes:
        print(f"== {mode}")
        cases = fit.collect(index, questions, mode)
        if mode == "hybrid":
            known = fit.known_of(index, cases)
        cv = fit.cross_validate(index, cases, args.folds)
        print(fit.format_cv(cv, len(cases), args.folds))
        weights = {k: round(v, 6) for k, v in fit.fit_passage(cases).items()}
        passages[mode] = {
            "cross_validated": {"within_entry": round(cv["within_learned"][0], 4)},
            "weights": weights,
        }
        confidences[mode] = {
            **fit.fit_confidence(index, cases, weights),
            "cross_validated": {
                k: round(cv[k][0], 4) for k in ("passage@1", "confident_wrong", "declined")
            },
        }
    if not args.write:
        return
    for name, model, modes in (
        ("passage", "conditional logit over faq_bot.chat.passage.FEATURES", passages),
        ("confidence", "logistic regression over faq_bot.chat.confidence.SIGNALS", confidences),
    ):
        data = {"model": model, "trained_on": names, "modes": modes}
        path = DATA / f"{name}.json"
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"geschrieben: {path}")
    if known is not None:
        path = DATA / "known_questions.npz"
        known.save(path)
        print(f"geschrieben: {path} ({len(known.ids)} Fragen)")


if __name__ == "__main__":
    main()
