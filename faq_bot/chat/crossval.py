"""Cross-validating the chatbot's fitted models (`faq_bot.chat.fit`) by question.

``out_of_fold(index, cases, k, seeds) -> list[OutOfFold]``
    Both models (passage weights, confidence) and the known questions fitted on k-1
    folds and applied to the fold left out, per shuffle.
``cross_validated(runs, cases) -> dict`` (``cross_validate(index, cases, k, seeds)``: both)
    Their figures (mean, sd over the shuffles): passage choice within the right entry
    (learned and the lexical rule), Passage@1, confident-wrong and declined (the same
    definitions as ``faq-bot eval``), also for first questions and follow-ups apart.
``out_of_fold_thresholds(runs, cases) -> (float, float)``
    The thresholds chosen by the fit's rule on those runs, where no case's passage was
    chosen by weights fitted on it (`scripts/train_chat.py` writes these).
``format_cv(cv, n, k) -> str``
    The figures as German text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from faq_bot.errors import InputError
from faq_bot.index import Index
from faq_bot.learn import folds

from . import confidence as conf
from .fit import (
    Case,
    _bars,
    _choice,
    _figures,
    _filled,
    _followups,
    _prob,
    _signal_rows,
    fit_confidence,
    fit_passage,
    known_of,
)

__all__ = [
    "OutOfFold",
    "cross_validate",
    "cross_validated",
    "format_cv",
    "out_of_fold",
    "out_of_fold_thresholds",
]


@dataclass
class OutOfFold:
    """One shuffle of a cross-validation: every case scored by models fitted on the
    other folds only (passage weights, known questions, confidence model), as a new
    question is by the shipped ones."""

    probability: np.ndarray  # the confidence model's probability of the chosen passage
    sure: np.ndarray  # answered with confidence, under the fold's own thresholds
    right: np.ndarray  # the chosen passage holds a gold passage
    within: dict[str, int]  # passage choice within the right entry: learned, rule, n


def out_of_fold(
    index: Index, cases: list[Case], k: int = 5, seeds: tuple[int, ...] = (0, 1, 2)
) -> list[OutOfFold]:
    """Both models fitted on k-1 folds and applied to the fold left out, per shuffle."""
    runs = []
    for seed in seeds:
        fold = folds(len(cases), k, seed)
        probability = np.zeros(len(cases))
        sure = np.zeros(len(cases), dtype=bool)
        y = np.zeros(len(cases))
        within = {"learned": 0, "rule": 0, "n": 0}
        for f in range(k):
            train = [c for c, g in zip(cases, fold, strict=True) if g != f]
            test_idx = [i for i, g in enumerate(fold) if g == f]
            known = known_of(index, train)
            try:
                pw = fit_passage(train, known)
                cw = fit_confidence(index, train, pw)
            except ValueError:  # no right passage to learn from, one outcome only
                raise InputError(
                    f"Die Fragen außerhalb von Teil {f + 1} von {k} reichen nicht, um die "
                    "Modelle anzupassen: es braucht beantwortbare Fragen, deren richtiger "
                    "Absatz gefunden wird, und solche, bei denen nicht. Bitte mehr Fragen "
                    "oder weniger Teile (--folds)."
                ) from None
            weights = np.array([cw["weights"][s] for s in conf.SIGNALS])
            test = [cases[i] for i in test_idx]
            xt, yt, _ = _signal_rows(index, test, pw, known)
            xt = _filled(xt, cw["fallback"])
            bar = np.where(_followups(test), cw["threshold_followup"], cw["threshold"])
            probability[test_idx] = _prob(xt, weights, cw["weights"]["bias"])
            sure[test_idx] = probability[test_idx] >= bar
            y[test_idx] = yt
            for c in test:
                if c.answerable and c.entry_right:
                    within["n"] += 1
                    for name, wts in (("learned", pw), ("rule", None)):
                        found = _choice(index, c, wts, known)
                        within[name] += bool(found and c.right[found[0]])
        runs.append(OutOfFold(probability, sure, y, within))
    return runs


def out_of_fold_thresholds(runs: list[OutOfFold], cases: list[Case]) -> tuple[float, float]:
    """(first questions' threshold, follow-ups') chosen by the fit's rule on the
    probabilities of `runs`, each shuffle with its own outcomes: unlike `fit_confidence`'s
    own choice, no case's passage was chosen, nor its signals read, with weights fitted on
    it (why: docs/quality-journal.md, "2026-11-29 (fourth round)")."""
    ans = np.array([c.answerable for c in cases])
    return _bars([r.probability for r in runs], [r.right for r in runs], ans, _followups(cases))


def cross_validated(runs: list[OutOfFold], cases: list[Case]) -> dict[str, Any]:
    """The figures of `runs` (mean, sd over the shuffles): Passage@1, confident-wrong,
    declined, also for first questions and follow-ups apart, and the passage choice
    within the right entry (learned and the lexical rule)."""
    ans, later = np.array([c.answerable for c in cases]), _followups(cases)
    figures = []
    for run in runs:
        sure, y, within = run.sure, run.right, run.within
        figures.append(
            {
                **_figures(sure, y, ans),
                **{
                    f"{part}_{key}": value
                    for part, rows in (("first", ~later), ("followups", later))
                    for key, value in _figures(sure[rows], y[rows], ans[rows]).items()
                    if key in ("passage@1", "confident_wrong")
                },
                "within_learned": within["learned"] / max(within["n"], 1),
                "within_rule": within["rule"] / max(within["n"], 1),
            }
        )
    keys = figures[0].keys()
    return {
        key: (float(np.mean([r[key] for r in figures])), float(np.std([r[key] for r in figures])))
        for key in keys
    }


def require_parts(n: int, k: int) -> None:
    """Refuse `n` questions in `k` parts when a part would hold none."""
    if n < k:
        raise InputError(
            f"Zum Kreuzvalidieren in {k} Teile braucht es mindestens {k} Fragen; die Datei hat {n}."
        )


def cross_validate(
    index: Index, cases: list[Case], k: int = 5, seeds: tuple[int, ...] = (0, 1, 2)
) -> dict[str, Any]:
    """`cross_validated` figures of `out_of_fold` runs."""
    require_parts(len(cases), k)
    return cross_validated(out_of_fold(index, cases, k, seeds), cases)


def format_cv(cv: dict[str, tuple[float, float]], n: int, k: int) -> str:
    """The cross-validated figures as German text."""
    lines = [
        f"Chatbot, {k}-fach kreuzvalidiert ({n} Fragen, Mittel ± Streuung über 3 Mischungen):",
        f"  Absatzwahl im richtigen Eintrag: gelernt {_pm(cv['within_learned'])}, "
        f"Regel {_pm(cv['within_rule'])}",
        f"  Passage@1 (sicher und richtig)             {_pm(cv['passage@1'])}",
        f"  sicher beantwortet (beantwortbare Fragen)  {_pm(cv['confident'])}",
        f"  sicher, aber falscher Absatz               {_pm(cv['confident_wrong'])}",
        f"  abgelehnt (unbeantwortbare Fragen)         {_pm(cv['declined'])}",
        f"  davon erste Fragen: Passage@1 {_pm(cv['first_passage@1'])}, "
        f"sicher, aber falsch {_pm(cv['first_confident_wrong'])}",
        f"  davon Anschlussfragen: Passage@1 {_pm(cv['followups_passage@1'])}, "
        f"sicher, aber falsch {_pm(cv['followups_confident_wrong'])}",
    ]
    return "\n".join(lines)


def _pm(value: tuple[float, float]) -> str:
    return f"{value[0]:.3f} ± {value[1]:.3f}"
