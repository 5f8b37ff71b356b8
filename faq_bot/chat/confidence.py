"""Confidence: how likely the chosen passage answers the question.

``SIGNALS``: coverage of the question by the passage (with the headword bonus),
the headword named, distinctive words matched, the passage's dense similarity
to the question, the best entry's dense similarity and its margin over the
runner-up entries, the margin of the fused ranking's best entry over the second,
whether the question names a thing the corpus never mentions, the passage
model's share for the chosen paragraph within its entry, whether the lexical
and the dense ranking alone
agree on that entry, the highest IDF of a question word the passage lacks, and
whether the question asks for an amount the passage does not state, how much
the question resembles the training questions the rulings do not answer and
whether the nearest of them is one,
whether the training questions nearest it were answered by this passage
(both `faq_bot.known`), and how sure the learned ranker is of its first entry:
its softmax share among the candidates and the entropy of that distribution
(`faq_bot.hybrid.Certainty`; its margin over the second alone says less when
several entries are close).

``signals(passage, dense, ranking, foreign, quantity, known) -> dict``
    The `SIGNALS` of a chosen passage.
``probability(signals, mode, followup=False) -> float | None``
    A logistic model over `SIGNALS` (``faq_bot/data/confidence.json``, written by
    ``scripts/train_chat.py --write``; one per retrieval mode: "hybrid", and
    "lexical" without the embedder, where the dense signals are 0); None when
    there is no model. In the hybrid mode questions read without an earlier one and those
    read with one (`followup`) each have a model of their own (``first``, ``followup``),
    fitted on the calibration sets as the bot reads them
    (``scripts/calibrate_threshold.py``); the model fitted on the training questions stands
    in where one is missing.
``reliability(probability, mode, followup=False) -> float | None``
    What an answer of that probability was worth on the calibration questions: the
    share whose passage was right (the calibrated steps, `faq_bot.chat.calibrate`);
    None where there are none (lexical mode, follow-ups). Under `SURE` the chat says it
    is unsure.
``threshold(mode, followup=False) -> float``
    The probability above which the bot answers, for first questions and follow-ups
    apart: calibrated (`faq_bot.chat.calibrate`), or chosen on the training questions
    under the targets (`faq_bot.chat.fit`) where it was not.
``rule_confident(passage, foreign) -> bool``
    Without a model file: the coverage rule below.
``foreign_nouns(index, question) -> list[str]``
    Nouns of the question the corpus never mentions.

The coverage rule (lexical mode)
--------------------------------
The feature is the *coverage* of the question by the answer: the IDF-weighted
share of the terms of the question itself (not the follow-up context; terms
that only come from compound splits or abbreviation expansion count half, as
in search) that occur in the answer paragraph or its entry's title and
aliases. A word the corpus does not know has the highest IDF, so a question
about things the rulings never mention covers little. When the question names
the entry's headword (a distinctive typed word of the title or an alias, or
one beginning with it), a bonus is added. The bot is confident when coverage
>= `CONFIDENCE_THRESHOLD` and either the headword is named or the passage
matches at least `MIN_EVIDENCE` distinctive words; a question naming a thing
the corpus never mentions (`foreign_nouns`) also needs coverage >=
`FOREIGN_NOUN_THRESHOLD` or the headword named. The constants were set on the
60 development questions (``scripts/answer_threshold.py`` prints the
coverage of their passages); with the embedder the fitted model decides.
"""

from __future__ import annotations

import bisect
import math
from typing import TYPE_CHECKING, Any

from faq_bot.fitted import fitted
from faq_bot.hybrid import ranker_weights
from faq_bot.query import unknown_words
from faq_bot.text import has_number

if TYPE_CHECKING:
    from faq_bot.dense import DenseScores
    from faq_bot.index import Index

    from .passage import Passage, Ranking

__all__ = [
    "OPTIONAL",
    "CONFIDENCE_THRESHOLD",
    "SURE",
    "SIGNALS",
    "foreign_nouns",
    "model",
    "probability",
    "reliability",
    "rule_confident",
    "signals",
    "threshold",
]

SIGNALS = (
    "coverage",
    "named",
    "evidence",
    "dense_passage",
    "dense_entry",
    "dense_margin",
    "rank_margin",
    "foreign",
    "passage_share",
    "lexical_agrees",
    "dense_agrees",
    "missing",
    "quantity_missing",
    "unanswered_like",
    "nearest_known",
    "precedent",
    "rank_share",
    "rank_entropy",
)
# signals that can be missing (`faq_bot.known`): the model's fallback stands in
OPTIONAL = ("unanswered_like", "nearest_known", "precedent")
CONFIDENCE_THRESHOLD = 0.35
# An answer whose probability was right for fewer than nine in ten calibration questions
# says it is unsure and asks to check the paragraph (a line drawn for the reader, not a
# fitted weight: on the sets 41-140, scored out of fold, it marks answers under about 0.52,
# whose passage was right for 61-89 %, while those above were right for 90-100 %)
SURE = 0.9
MIN_EVIDENCE = 2  # distinctive question words an answer that names no headword must match
FOREIGN_NOUN_THRESHOLD = 0.55


def model(mode: str = "hybrid") -> dict[str, Any] | None:
    """The fitted model of `mode` ("hybrid", or "lexical" without the embedder):
    ``{"threshold": float, "threshold_followup": float, "weights": {signal: float, "bias":
    float}, "fallback": {...}, "first": {"weights": ..., "fallback": ...} | None, "followup":
    ... | None}`` (``first``, ``followup``: the models of questions read alone and of those
    read with an earlier one, fitted on the calibration sets),
    or None, also when the hybrid model was fitted for another embedder than the one that
    serves (`faq_bot.fitted`: its similarities lie on another scale), and when no fitted
    ranker serves: the hybrid model reads the ranker's certainty (``rank_share``,
    ``rank_entropy``), which is 0 under RRF and would decline nearly every answer."""
    if mode == "hybrid" and ranker_weights() is None:
        return None
    return fitted("confidence", _model, mode)


def _model(data: dict[str, Any], mode: str) -> dict[str, Any]:
    data = data["modes"][mode]
    first, later = data.get("first"), data.get("followup")
    return {
        **data,
        **_weights_of(data),
        "first": _weights_of(first) if first is not None else None,
        "followup": _weights_of(later) if later is not None else None,
        "threshold": float(data["threshold"]),
        # models fitted before follow-ups had a bar of their own answer them alike
        "threshold_followup": float(data.get("threshold_followup", data["threshold"])),
    }


def _weights_of(data: dict[str, Any]) -> dict[str, Any]:
    """A logistic model's ``weights`` and ``fallback``, checked against `SIGNALS`."""
    if set(data["weights"]) != {*SIGNALS, "bias"}:
        raise ValueError("signals differ")
    fallback = data.get("fallback", {})
    if not isinstance(fallback, dict) or not set(fallback) <= set(OPTIONAL):
        raise ValueError("fallback names no optional signal")
    return {
        "weights": {k: float(v) for k, v in data["weights"].items()},
        "fallback": {k: float(v) for k, v in fallback.items()},
    }


def probability(
    values: dict[str, float], mode: str = "hybrid", followup: bool = False
) -> float | None:
    """The model's probability that the passage of `values` answers; a missing
    optional signal takes the model's ``fallback`` value (one that tells it nothing).
    A question read without an earlier one (not `followup`) is scored by the first
    questions' model where there is one, one read with an earlier one by the follow-ups'
    model where there is one (both fitted on the calibration sets); else by the training
    questions' model."""
    data = model(mode)
    if data is None:
        return None
    data = _scorer(data, followup)
    w = data["weights"]
    fallback = data["fallback"]
    z = w["bias"] + sum(w[k] * _value(values, k, fallback) for k in SIGNALS)
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))


def _scorer(data: dict[str, Any], followup: bool) -> dict[str, Any]:
    """The model of `data` that scores a question read alone or, `followup`, with an
    earlier one: its own where there is one, else the training questions' (`data`)."""
    own = data["followup" if followup else "first"]
    return own if own is not None else data


def _value(values: dict[str, float], name: str, fallback: dict[str, float]) -> float:
    """The signal `name`, or its fallback when it is missing or not a finite number (a
    NaN would otherwise make any answer certain)."""
    value = float(values.get(name, math.nan))
    return value if math.isfinite(value) else fallback.get(name, 0.0)


def reliability(p: float, mode: str = "hybrid", followup: bool = False) -> float | None:
    """The share of the calibration questions answered with about probability `p` whose
    passage was right (the step of ``reliability`` in the model file that `p` falls on,
    `faq_bot.chat.calibrate.reliability_steps`) in whole percent, rounded down (never said
    better than measured; the page, the JSON and a turn's token all say this one number),
    or None without calibrated steps. The steps are those of the model that scores first
    questions: a `followup` scored by another model has none (its probabilities lie on
    that model's scale)."""
    data = model(mode)
    if data is not None and _scorer(data, followup) is not _scorer(data, False):
        return None
    steps = data.get("reliability") if data else None
    if not steps:
        return None
    i = bisect.bisect_right([float(start) for start, _share in steps], p) - 1
    return math.floor(float(steps[max(i, 0)][1]) * 100 + 1e-9) / 100


def threshold(mode: str = "hybrid", followup: bool = False) -> float:
    """The probability an answer needs to be given with confidence: a follow-up (read
    with an earlier question) has a bar of its own, for its own model."""
    data = model(mode)
    if not data:
        return 0.5
    return float(data["threshold_followup" if followup else "threshold"])


def signals(
    passage: Passage,
    dense: DenseScores | None,
    ranking: Ranking,
    foreign: bool,
    quantity: bool,
    known: dict[str, float] | None = None,
) -> dict[str, float]:
    """The `SIGNALS` of a chosen passage; the dense ones are 0 without dense scores;
    `known`: the `OPTIONAL` ones there are (`faq_bot.known.Comparison.signals`), the
    model's fallback stands in for the others (`probability`)."""
    top = passage.via or passage.entry
    chosen = {passage.entry, top}
    entry = dense.entry(passage.entry) if dense is not None else 0.0
    others = [v for e, v in dense.ranking() if e not in chosen] if dense is not None else []
    return {
        "coverage": passage.coverage,
        "named": float(passage.named),
        "evidence": float(min(passage.evidence, 3)),
        "dense_passage": passage.dense,
        "dense_entry": entry,
        "dense_margin": entry - (others[0] if others else 0.0),
        "rank_margin": ranking.margin,
        "foreign": float(foreign),
        "passage_share": passage.probability,
        "lexical_agrees": float(ranking.lexical_top in chosen),
        "dense_agrees": float(ranking.dense_top in chosen),
        "missing": passage.missing,
        "quantity_missing": float(quantity and not has_number(passage.text)),
        "rank_share": ranking.share,
        "rank_entropy": ranking.entropy,
        **{k: v for k, v in (known or {}).items() if k in OPTIONAL},
    }


def rule_confident(passage: Passage | None, foreign: bool) -> bool:
    return (
        passage is not None
        and passage.coverage >= CONFIDENCE_THRESHOLD
        and (passage.named or passage.evidence >= MIN_EVIDENCE)
        and (not foreign or passage.named or passage.coverage >= FOREIGN_NOUN_THRESHOLD)
    )


def foreign_nouns(index: Index, question: str) -> list[str]:
    """Nouns of `question` that the corpus never mentions: capitalised words of four
    or more letters (German capitalises nouns; all-caps abbreviations excluded) that
    are unknown to the corpus vocabulary and cannot be corrected into it."""
    return [
        w
        for w in unknown_words(index, question)
        if len(w) >= 4 and w[0].isupper() and not w.isupper() and w.isalpha()
    ]
