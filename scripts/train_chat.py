"""Fit the chatbot's passage choice and confidence; report cross-validated figures.

    .venv/bin/python scripts/train_chat.py [--folds 5] [--write] [--index DIR] QUESTIONS.jsonl...

For each retrieval mode (hybrid; ``--modes hybrid lexical`` also fits the
lexical one, as without the embedder, which is not shipped) reads
every question once (`faq_bot.chat.fit.collect`), cross-validates both models
together by question (k folds, three shuffles: mean ± sd) and, with
``--write``, fits them on all questions and writes
``faq_bot/data/passage.json``, ``faq_bot/data/confidence.json`` (its bars chosen on
the cross-validation's out-of-fold runs, `faq_bot.chat.crossval.out_of_fold_thresholds`) and the
questions themselves as embeddings (``faq_bot/data/known_questions.npz``, the
``unanswered_like`` signal of `faq_bot.known`), refitting with
what it wrote until the follow-ups' earlier questions are answered as in a
round before (at most `MAX_ROUNDS`; see `main`). Needs a
built index with dense vectors. The training files are listed in the Makefile
(``make train``: the development sets, dev5-10 and the retired held-out sets 1-28, 13-28
given with ``--untuned``);
the held-out sets (`faq_bot.evaluate.HELD_OUT_SETS`) are refused
(`faq_bot.evaluate.training_questions`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, NamedTuple

from faq_bot.chat import crossval, fit
from faq_bot.crossfit import (
    add_crossfit_arguments,
    by_fold,
    embed_known,
    embedder_id,
    training_set,
)
from faq_bot.evaluate import EvalFileError
from faq_bot.fitted import reload as reload_models
from faq_bot.index import open_index
from faq_bot.known import known_questions

DATA = Path(__file__).resolve().parent.parent / "faq_bot" / "data"


MAX_ROUNDS = 6


class Fit(NamedTuple):
    """One round's models per mode, with what they were fitted on."""

    passages: dict[str, dict]
    confidences: dict[str, dict]
    known: Any  # the hybrid questions' vectors (`KnownQuestions`), None without
    contexts: tuple  # the follow-ups' earlier answers it was fitted on (`contexts`)
    embedder: str | None = None  # whose similarities it read (`faq_bot.crossfit.embedder_id`)


def contexts(cases: list[fit.Case]) -> tuple:
    """The entries the follow-ups' earlier questions were answered with, as the
    models in effect answered them: the only input of a fit that depends on the
    models fitted before it."""
    return tuple((c.id, tuple(t.entry for t in c.reading.context)) for c in cases)


def fit_modes(
    index, questions, modes, folds, crossfit: tuple[Path, Path, frozenset[str]] | None = None
) -> Fit:
    """The models of every mode fitted and cross-validated, with the models now in
    effect answering the follow-ups' earlier questions. `crossfit`: the tuned
    embedder's fold models, the index folder and the ids of questions trained on but
    not tuned on; each question is read by a fold model tuned without it, and the known
    questions are embedded by the shipped one (`faq_bot.crossfit`)."""
    passages: dict[str, dict] = {}
    confidences: dict[str, dict] = {}
    known, seen = None, []
    for mode in modes:
        print(f"== {mode}")
        if crossfit is not None and mode == "hybrid":
            folds_dir, index_dir, untuned = crossfit
            cases = by_fold(
                index,
                index_dir,
                questions,
                folds_dir,
                lambda qs: fit.collect(index, qs, "hybrid"),
                untuned,
            )
        else:
            cases = fit.collect(index, questions, mode)
        seen.append((mode, contexts(cases)))
        if mode == "hybrid" and crossfit is not None:
            known = embed_known(index, cases, crossfit[0])
        elif mode == "hybrid":
            known = fit.known_of(index, cases)
        runs = crossval.out_of_fold(index, cases, folds)
        cv = crossval.cross_validated(runs, cases)
        print(crossval.format_cv(cv, len(cases), folds))
        # the bars are chosen where no question's passage was chosen by weights fitted
        # on it (fit_confidence's own choice reads in-sample passages)
        thresholds = crossval.out_of_fold_thresholds(runs, cases)
        print(
            f"  Schwellen (außerhalb der Falten): erste Fragen {thresholds[0]:.2f}, "
            f"Anschlussfragen {thresholds[1]:.2f}"
        )
        passage_fit = fit.fit_passage(cases, fit.known_of(index, cases))
        weights = {k: round(v, 6) for k, v in passage_fit.items()}
        passages[mode] = {
            "cross_validated": {"within_entry": round(cv["within_learned"][0], 4)},
            "weights": weights,
        }
        confidences[mode] = {
            **fit.fit_confidence(index, cases, weights, thresholds),
            "cross_validated": {
                k: round(cv[k][0], 4)
                for k in (
                    "passage@1",
                    "confident_wrong",
                    "declined",
                    "first_passage@1",
                    "first_confident_wrong",
                    "followups_passage@1",
                    "followups_confident_wrong",
                )
            },
        }
    return Fit(passages, confidences, known, tuple(seen), embedder_id(index))


def write(names, fitted: Fit) -> None:
    passages, confidences, known = fitted.passages, fitted.confidences, fitted.known
    for name, model, modes in (
        ("passage", "conditional logit over faq_bot.chat.passage.FEATURES", passages),
        ("confidence", "logistic regression over faq_bot.chat.confidence.SIGNALS", confidences),
    ):
        data = {"model": model, "trained_on": names, "embedder": fitted.embedder, "modes": modes}
        path = DATA / f"{name}.json"
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"geschrieben: {path}")
    if known is not None:
        path = DATA / "known_questions.npz"
        known.save(path)
        print(f"geschrieben: {path} ({len(known.ids)} Fragen)")
    # the next round answers with what was just written
    reload_models()
    known_questions.cache_clear()


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
    add_crossfit_arguments(ap)
    args = ap.parse_args()
    index = open_index(args.index)
    try:
        questions, untuned = training_set(args.files, args.untuned)
    except EvalFileError as exc:
        sys.exit(str(exc))
    names = [Path(f).name for f in [*args.files, *args.untuned]]
    crossfit = (args.crossfit, Path(args.index), untuned) if args.crossfit else None
    fitted = fit_modes(index, questions, args.modes, args.folds, crossfit)
    if not args.write:
        return
    # A follow-up's earlier questions are answered by the models in effect, and
    # the fit reads those answers: refit with what was written until the answers
    # repeat. Answers that repeat those of the round before are a fixed point;
    # answers that repeat an earlier round's are a cycle (a few earlier questions
    # answered and declined in turn), of which the fit with the best cross-validated
    # Passage@1 is written. Either way `make train` gives the same models whatever
    # was shipped before it. Answers that have not repeated after `MAX_ROUNDS` (the
    # last fit is written) depend on where the rounds started: the first round's
    # earlier questions are answered by the shipped models (the 2026-11-25 refits ran
    # 6 rounds, cross-validated Passage@1 moving by up to 0.01 from round to round).
    rounds, repeated = [fitted], False
    while len(rounds) < MAX_ROUNDS:
        write(names, rounds[-1])
        print(f"Runde {len(rounds) + 1}: die früheren Fragen der Anschlussfragen neu beantwortet")
        fitted = fit_modes(index, questions, args.modes, args.folds, crossfit)
        seen = [r.contexts for r in rounds]
        rounds.append(fitted)
        if fitted.contexts in seen:
            cycle, repeated = rounds[seen.index(fitted.contexts) + 1 :], True
            break
    else:
        cycle = rounds[-1:]
        print(f"nach {MAX_ROUNDS} Runden nicht stabil: die letzte Anpassung wird geschrieben")
    best = max(cycle, key=_cv_key)
    if len(cycle) > 1:
        print(
            f"Zyklus aus {len(cycle)} Anpassungen: geschrieben wird die mit dem besten "
            f"kreuzvalidierten Passage@1 ({_cv_key(best)[0]:.4f})"
        )
    elif repeated:
        print(f"stabil nach Runde {len(rounds)}: dieselben Antworten, dasselbe Modell")
    write(names, best)


def _cv_key(fitted: Fit) -> tuple[float, float]:
    """Cross-validated Passage@1, then the fewer confident-wrong (hybrid, else the
    first mode)."""
    confidences = fitted.confidences
    cv = confidences.get("hybrid", next(iter(confidences.values())))["cross_validated"]
    return cv["passage@1"], -cv["confident_wrong"]


if __name__ == "__main__":
    main()
