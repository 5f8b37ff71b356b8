"""Fitting and cross-validating the chatbot's models on question files.

``collect(index, questions, mode) -> list[Case]``
    Reads every question once (analysis, embedding, ranking, the competing
    paragraphs with their `FEATURES`), so models can be refitted and evaluated
    without reading it again. Mode "hybrid" needs a build with dense vectors;
    "lexical" reads as the bot does without the embedder.
``fit_passage(cases, known=None) -> dict``
    The passage weights (a conditional logit over the paragraphs of the best
    entry, fitted on the cases whose best entry holds the answer); `known` (`known_of`):
    the training questions the ``precedent`` feature compares each case with, its own
    set left out (0 without them).
``fit_confidence(index, cases, passage_weights, thresholds=None) -> dict``
    The confidence model over `faq_bot.chat.confidence.SIGNALS` (logistic,
    the three outcomes right / wrong / unanswerable weighted equally) and its
    thresholds: the lowest one whose confident-wrong share of answerable
    questions stays at most `MAX_CONFIDENT_WRONG` and that declines at least
    `MIN_DECLINED` of the unanswerable questions, judged on out-of-fold
    probabilities (each question scored by a model fitted without it), so the
    targets are meant for unseen questions, not only for those fitted on; chosen
    for first questions and for follow-ups (read with an earlier question) apart,
    so that the confident-wrong bound holds for each, not only for their mix.
    Chosen here, the signals behind those probabilities are read from passages
    chosen with `passage_weights`, fitted on the same cases; `thresholds` given
    (`faq_bot.chat.crossval.out_of_fold_thresholds`, as `scripts/train_chat.py` does)
    are used instead.
``related_floor(cases) -> float | None``
    The dense similarity an entry needs to be listed under a declined answer
    (written with the confidence model).
``served_signals(index, questions, known) -> (x, y, answerable, with_context)``
    The confidence signals of questions read exactly as the bot reads a new one (the
    shipped passage model chooses, the shipped known questions compare, the confidence
    models in effect choose a follow-up's reading), whether each chosen passage is right,
    whether each question is answerable, whether it was read with an earlier question.
``fit_served(x, y, answerable, groups, k) -> (weights, out_of_fold)``
    The confidence model fitted on such rows, and each row's probability from a model
    fitted without its question set (set i in fold i mod k): what
    ``scripts/calibrate_threshold.py`` fits on the calibration sets and chooses the bars
    on (`faq_bot.chat.calibrate`).

Cross-validating both: `faq_bot.chat.crossval`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from faq_bot.dense import dense_for
from faq_bot.errors import IndexProblem, InputError
from faq_bot.evaluate import answerable, is_hit
from faq_bot.index import Index
from faq_bot.known import Comparison, KnownQuestions
from faq_bot.learn import fit_choice, fit_logistic, folds
from faq_bot.question import asks_quantity

from . import confidence as conf
from .answer import Reading, answered_reading, read, replay
from .passage import (
    FEATURES,
    Candidate,
    Row,
    choose_row,
    competing_rows,
    make_passage,
    row_text,
    with_neighbours,
    with_precedent,
)
from .passage import model as passage_model
from .terms import Coverage

__all__ = [
    "Case",
    "collect",
    "fit_confidence",
    "fit_passage",
    "fit_served",
    "known_of",
    "related_floor",
    "served_signals",
]

MAX_CONFIDENT_WRONG = 0.04  # below the 5 % target, on out-of-fold probabilities
MIN_DECLINED = 0.85
SERVED_FOLDS = 10  # the question sets' folds of `fit_served`


@dataclass
class Case:
    """One question read once, with what fitting needs."""

    id: str
    answerable: bool
    gold: list[str]
    reading: Reading
    rows: list[tuple[Candidate, Row]]
    right: list[bool]  # per row: its passage (with neighbours) holds a gold passage
    coverages: tuple[Coverage, Coverage]
    foreign: bool
    # cross-fitting (`faq_bot.crossfit.embed_known`): the question's fold, and its text
    # embedded by every fold's model (rows by fold), so that it is compared with known
    # questions embedded by the same model, as a new question is when answering
    fold: int | None = None
    fold_vectors: np.ndarray | None = None
    tuned: bool = True  # the shipped embedder's tuning read it (False: trained on only)
    followup: bool = False  # asked with a history (never among the tuning questions)

    @property
    def vector(self) -> np.ndarray | None:
        return self.reading.vector

    @property
    def entry_right(self) -> bool:
        return any(self.right)


def collect(index: Index, questions: list[dict[str, Any]], mode: str = "hybrid") -> list[Case]:
    cases = []
    dense = mode == "hybrid"
    for q in questions:
        try:
            history = replay(index, q.get("history") or [])
            # as `answer` reads it: a question not shaped like a follow-up, asked after an
            # answered one, by the reading the models in effect prefer (`answered_reading`)
            reading = (
                answered_reading(index, q["q"], history, dense=dense)[0]
                if history
                else read(index, q["q"], dense=dense)
            )
        except InputError as exc:  # blank, too long: which question of the file
            raise InputError(f"Frage „{q['id']}“: {exc}") from None
        if dense and reading.candidates and reading.dense is None:
            raise IndexProblem(
                "Kreuzvalidieren braucht einen Index mit Vektoren der semantischen Suche "
                "(faq-bot index mit geladenem Einbettungsmodell, ohne FAQ_BOT_DENSE=0)."
            )
        rows = competing_rows(
            index, reading.candidates, reading.combined, reading.paragraph_dense, entry_first=True
        )
        right = [answerable(q) and is_hit(row_text(cand, row), q["gold"]) for cand, row in rows]
        cases.append(
            Case(
                q["id"],
                answerable(q),
                q["gold"],
                reading,
                rows,
                right,
                reading.coverages(index),
                bool(conf.foreign_nouns(index, reading.text)),
                followup=bool(q.get("history")),
            )
        )
    return cases


Known = KnownQuestions | dict[int, KnownQuestions] | None


def _matrix(case: Case, known: Known = None) -> tuple[np.ndarray, np.ndarray]:
    rows = _rows(case, _compared(case, known))
    x = np.array([[row.features[f] for f in FEATURES] for _c, row in rows], dtype=float)
    return x.reshape(len(rows), len(FEATURES)), np.array(case.right, dtype=float)


def fit_passage(cases: list[Case], known: Known = None) -> dict[str, float]:
    """The passage weights; `known`: the training questions the ``precedent`` feature
    compares with (`known_of`; without them it is 0)."""
    groups = [
        _matrix(c, known) for c in cases if c.answerable and c.entry_right and len(c.rows) > 1
    ]
    w = fit_choice(groups)
    return {f: float(v) for f, v in zip(FEATURES, w, strict=True)}


def known_of(index: Index, cases: list[Case]) -> Known:
    """The `cases` as known questions (None in lexical mode: no vectors); cross-fitted
    cases give one set per fold, embedded by that fold's model."""
    retriever = dense_for(index)
    with_vector = [c for c in cases if c.vector is not None]
    if retriever is None or not with_vector:
        return None
    folded = [(c, c.fold_vectors) for c in with_vector if c.fold_vectors is not None]
    if folded:
        out = {}
        for k in range(len(folded[0][1])):
            members = [(c, v) for c, v in folded if not _unseen_by(c, k)]
            out[k] = KnownQuestions.of(
                [c.id for c, _v in members],
                np.array([v[k] for _c, v in members]),
                [c.answerable for c, _v in members],
                f"{retriever.model}-fold-{k}",
                [c.gold for c, _v in members],
            )
        return out
    return KnownQuestions.of(
        [c.id for c in with_vector],
        np.array([c.vector for c in with_vector]),
        [c.answerable for c in with_vector],
        retriever.model,
        [c.gold for c in with_vector],
    )


def _unseen_by(case: Case, fold: int) -> bool:
    """Whether `case` is an answerable question the embedder of `fold` was tuned without
    although the shipped one is tuned on it (a first question of fold `fold`). The shipped
    embedder compares a new question with known questions it was tuned on; in fitting,
    the known questions of a fold's model are those it was tuned on likewise (and those
    no model is tuned on: unanswerable questions, follow-ups, and questions trained on
    but not tuned on, `faq_bot.crossfit.check_tuned_on`)."""
    return case.fold == fold and case.answerable and not case.followup and case.tuned


def _choice(
    index: Index, case: Case, weights: dict[str, float] | None, known: Known
) -> tuple[int, Any] | None:
    """(index of the chosen row, the passage's confidence signals) under `weights`;
    `known`: the training questions (the case's own set left out, as for the ranking's
    ``known_entry``: a new question meets no paraphrases of itself by its writer)."""
    comparison = _compared(case, known)
    rows = _rows(case, comparison)
    chosen = choose_row(rows, weights)
    if chosen is None:
        return None
    cand, row, score, share = chosen
    i = next(n for n, (c, r) in enumerate(rows) if r is row and c is cand)
    passage = make_passage(index, cand, row, score, share, *case.coverages)
    passage = case.reading.for_confidence(with_neighbours(cand.record, passage))
    dense = case.reading.dense
    quantity = asks_quantity(case.reading.text)
    precedent = comparison.signals(passage.text) if comparison is not None else {}
    return i, conf.signals(passage, dense, case.reading.ranking, case.foreign, quantity, precedent)


def _mine(case: Case, known: Known) -> tuple[KnownQuestions | None, np.ndarray | None]:
    """The known questions `case` meets and its vector to compare with them: cross-fitted,
    those of its fold's model and its text embedded by that model."""
    if isinstance(known, dict):
        folded = case.fold_vectors
        mine = known.get(case.fold) if case.fold is not None else None
        return mine, folded[case.fold] if mine is not None and folded is not None else None
    return known, case.vector


def _compared(case: Case, known: Known) -> Comparison | None:
    """`case` compared with the known questions it meets (`_mine`), its own set left out."""
    mine, vector = _mine(case, known)
    if mine is None or vector is None:
        return None
    return mine.compare(vector, exclude=mine.own_set(case.id), twin=mine.twin)


def _rows(case: Case, comparison: Comparison | None) -> list[tuple[Candidate, Row]]:
    """The case's competing paragraphs with their ``precedent`` feature (0 without a
    comparison)."""
    return with_precedent(case.rows, comparison.precedent if comparison is not None else None)


def _signal_rows(
    index: Index,
    cases: list[Case],
    weights: dict[str, float] | None,
    known: Known,
):
    x, y, ans = [], [], []
    for c in cases:
        found = _choice(index, c, weights, known)
        if found is None:
            x.append([0.0] * len(conf.SIGNALS))
            y.append(0.0)
        else:
            i, signals = found
            x.append([signals.get(k, np.nan) for k in conf.SIGNALS])
            y.append(float(c.right[i]))
        ans.append(c.answerable)
    return np.array(x, dtype=float), np.array(y), np.array(ans, dtype=bool)


def _figures(sure: np.ndarray, y: np.ndarray, ans: np.ndarray) -> dict[str, float]:
    n = max(int(ans.sum()), 1)
    return {
        "passage@1": float((sure & (y > 0)).sum() / n),
        "confident_wrong": float((sure & ans & (y == 0)).sum() / n),
        "confident": float((sure & ans).sum() / n),
        "declined": float((~sure & ~ans).sum() / max(int((~ans).sum()), 1)),
    }


def outcome_weights(y: np.ndarray, ans: np.ndarray) -> np.ndarray:
    """Row weights that give the three outcomes equal weight: a right passage, a
    wrong passage for an answerable question, an unanswerable question (the
    fewest, and the ones whose confident answer misleads most)."""
    sample = np.zeros(len(y))
    for mask in (ans & (y > 0), ans & (y == 0), ~ans):
        sample[mask] = 1.0 / max(int(mask.sum()), 1)
    return sample


def _threshold(p: np.ndarray, y: np.ndarray, ans: np.ndarray) -> float:
    """The lowest threshold meeting both bounds (the declined one only where there are
    unanswerable questions: the training follow-ups are all answerable)."""
    unanswerable = bool((~ans).any())
    for t in np.linspace(0.05, 0.95, 91):
        f = _figures(p >= t, y, ans)
        if f["confident_wrong"] <= MAX_CONFIDENT_WRONG and (
            not unanswerable or f["declined"] >= MIN_DECLINED
        ):
            return float(t)
    return 0.95


def _prob(x: np.ndarray, w: np.ndarray, b: float) -> np.ndarray:
    return 1 / (1 + np.exp(-np.clip(x @ w + b, -50, 50)))


def _held_out_threshold(
    x: np.ndarray,
    y: np.ndarray,
    ans: np.ndarray,
    followup: np.ndarray | None = None,
    k: int = 5,
    seeds: tuple[int, ...] = (0, 1, 2),
) -> tuple[float, float]:
    """(threshold for first questions, threshold for follow-ups), chosen on out-of-fold
    probabilities: each question scored by a model fitted without it (k folds, pooled
    over `seeds` shuffles), so that the targets hold for questions the model has not
    seen, not only for those it fitted. `followup` marks the rows read with an earlier
    question; their threshold is never below the first questions' (a few follow-ups
    must not lower the bar by chance), and is theirs where there are none."""
    followup = np.zeros(len(y), dtype=bool) if followup is None else followup
    probs = []
    for seed in seeds:
        fold = folds(len(y), k, seed)
        p = np.zeros(len(y))
        for f in range(k):
            train = fold != f
            w, b = fit_logistic(x[train], y[train], sample=outcome_weights(y[train], ans[train]))
            p[~train] = _prob(x[~train], w, b)
        probs.append(p)
    return _bars(probs, [y] * len(probs), ans, followup)


def _bars(
    probs: list[np.ndarray], rights: list[np.ndarray], ans: np.ndarray, followup: np.ndarray
) -> tuple[float, float]:
    """(threshold for first questions, for follow-ups) on the out-of-fold probabilities
    of one or more shuffles, each with its own outcomes (`rights`: a shuffle that refits
    the passage weights may choose other passages), pooled; the follow-ups' never below
    the first questions'."""
    p, ys = np.concatenate(probs), np.concatenate(rights)
    answerables, later = np.tile(ans, len(probs)), np.tile(followup, len(probs))
    first = _threshold(p[~later], ys[~later], answerables[~later])
    if not later.any():
        return first, first
    return first, max(first, _threshold(p[later], ys[later], answerables[later]))


def _fallback(x: np.ndarray, y: np.ndarray, ans: np.ndarray) -> dict[str, float]:
    """For each signal that can be missing (`conf.OPTIONAL`), the value that stands
    in for it: its mean over the rows that have it, weighted as the fit weights the
    outcomes, which tells the model nothing either way."""
    out = {}
    sample = outcome_weights(y, ans)
    for name in conf.OPTIONAL:
        j = conf.SIGNALS.index(name)
        seen = ~np.isnan(x[:, j])
        total = float(sample[seen].sum())
        out[name] = float(sample[seen] @ x[seen, j]) / total if total > 0 else 0.0
    return out


def _filled(x: np.ndarray, fallback: dict[str, float]) -> np.ndarray:
    x = x.copy()
    for j, name in enumerate(conf.SIGNALS):
        x[np.isnan(x[:, j]), j] = fallback.get(name, 0.0)
    return x


def fit_confidence(
    index: Index,
    cases: list[Case],
    passage_weights: dict[str, float] | None,
    thresholds: tuple[float, float] | None = None,
) -> dict[str, Any]:
    """`thresholds`: (first questions', follow-ups') chosen elsewhere, e.g. on the
    cross-validation's runs (`faq_bot.chat.crossval.out_of_fold_thresholds`); else chosen
    here on out-of-fold probabilities of signals read with `passage_weights` (fitted on
    these very cases)."""
    x, y, ans = _signal_rows(index, cases, passage_weights, known_of(index, cases))
    fallback, w, b = _fit_filled(x, y, ans)
    if thresholds is None:
        thresholds = _held_out_threshold(_filled(x, fallback), y, ans, _followups(cases))
    t, t_followup = thresholds
    floor = related_floor(cases)
    return {
        "threshold": round(t, 3),
        "threshold_followup": round(t_followup, 3),
        **({"related_floor": round(floor, 4)} if floor is not None else {}),
        **_written(fallback, w, b),
    }


def _fit_filled(
    x: np.ndarray, y: np.ndarray, ans: np.ndarray
) -> tuple[dict[str, float], np.ndarray, float]:
    """The logistic confidence model on rows whose missing optional signals are NaN:
    (fallback, weights, bias), the outcomes weighted equally (`outcome_weights`)."""
    fallback = _fallback(x, y, ans)
    w, b = fit_logistic(_filled(x, fallback), y, sample=outcome_weights(y, ans))
    return fallback, w, b


def _written(fallback: dict[str, float], w: np.ndarray, b: float) -> dict[str, Any]:
    """A fitted confidence model as the model file holds it."""
    return {
        "fallback": {k: round(v, 6) for k, v in fallback.items()},
        "weights": {
            "bias": round(b, 6),
            **{k: round(float(v), 6) for k, v in zip(conf.SIGNALS, w, strict=True)},
        },
    }


def _followups(cases: list[Case]) -> np.ndarray:
    """Which cases were read with an earlier question (as `answer` reads them: a
    question not shaped like a follow-up only when that reading was preferred)."""
    return np.array([bool(c.reading.context) for c in cases], dtype=bool)


def related_floor(cases: list[Case]) -> float | None:
    """The dense similarity an entry needs to be listed under a declined answer: midway
    between the best entry's similarity that three of four answerable questions reach
    and the one three of four unanswerable questions stay below. None without both
    kinds (lexical mode: no similarities)."""
    best: dict[bool, list[float]] = {True: [], False: []}
    for c in cases:
        ranking = c.reading.dense.ranking() if c.reading.dense is not None else []
        if ranking:
            best[c.answerable].append(ranking[0][1])
    if not best[True] or not best[False]:
        return None
    return float((np.quantile(best[True], 0.25) + np.quantile(best[False], 0.75)) / 2)


def served_signals(
    index: Index, questions: list[dict[str, Any]], known: KnownQuestions | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(signals with NaN where an optional one is missing, right passage chosen,
    answerable, read with an earlier question) of `questions` as `answer` reads them in
    the hybrid mode: the shipped passage model and `known` (the shipped known questions; a
    new question's set is never among them). Follow-ups are read with their history, as
    `collect` reads them (which reading depends on the confidence models in effect)."""
    retriever = dense_for(index)
    if known is not None and (retriever is None or known.model != retriever.model):
        known = None  # of another embedding model: answering compares nothing either
    cases = collect(index, questions)
    return (*_signal_rows(index, cases, passage_model("hybrid"), known), _followups(cases))


def fit_served(
    x: np.ndarray, y: np.ndarray, ans: np.ndarray, groups: np.ndarray, k: int = SERVED_FOLDS
) -> tuple[dict[str, Any], np.ndarray]:
    """The confidence model (``{"fallback": ..., "weights": ...}``, as `fit_confidence`
    writes them) fitted on all rows, and the out-of-fold probability of each row: scored
    by a model fitted without the question set it belongs to (`groups`; set i of the
    sorted sets in fold i mod k), so the bars chosen on them are chosen as a new set meets
    the model."""
    names = sorted(set(groups.tolist()))
    if k < 2 or len(names) < 2:
        raise ValueError("out-of-fold scores need at least two folds of question sets")
    fold = np.array([names.index(g) % k for g in groups.tolist()])
    out = np.full(len(y), np.nan)
    for f in range(min(k, len(names))):
        train = fold != f
        fallback, w, b = _fit_filled(x[train], y[train], ans[train])
        out[~train] = _prob(_filled(x[~train], fallback), w, b)
    return _written(*_fit_filled(x, y, ans)), out
