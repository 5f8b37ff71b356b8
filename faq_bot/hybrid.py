"""Hybrid ranking: the lexical ranking fused with dense similarity.

``fused_ranking(index, question, lexical, doc=None, category=None, dense=None, aq=None)
-> (ranking, Certainty)``
    The lexical ranking (`faq_bot.search.rank_entries`) fused with the dense
    ranking of `faq_bot.dense`, and how sure the fitted ranker is of its first entry
    (its softmax share among the candidates and the entropy of that distribution; the
    chatbot's confidence reads both). Without a dense retriever (no embedder on this
    platform, a build without vectors) the lexical ranking is returned as is.

Fusion: when `faq_bot/data/ranker.json` exists (written by
``scripts/train_ranker.py``), each candidate entry gets a linear score over the
generic features of `faq_bot.rankfeatures` (a listwise logistic model: the
score is the log-odds of the entry within the question's candidates, up to a
constant); else reciprocal rank fusion with k = `RRF_K` (60, the usual
constant). Candidates are the best `POOL` entries of each ranking. The question
is embedded once per request (`faq_bot.embed` keeps the last vectors), so
search and the chatbot share it; ``aq``, the analyzed query the lexical ranking
came from, is analyzed again from `question` when not given.

``topic_dense_scores(index, question, entry, weight)``: for a chatbot
follow-up, the scores of the question's own vector pulled towards the entry
that answered the earlier question (the mean of its stored paragraph vectors),
and the own vector; still one query embedding.
``entry_dense_scores(index, vector, entries)``: a vector's scores for the units
of a few entries only.
``related_floor() -> float``: the dense similarity an entry needs to count as close in
meaning to a question: what a declined answer may list, and what hybrid search lists
when no entry matches a word of the query.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from faq_bot.dense import DenseScores, dense_for
from faq_bot.fitted import fitted
from faq_bot.known import entry_precedent
from faq_bot.rankfeatures import FEATURES, POOL, RRF_K, Ranked, candidates

__all__ = [
    "FEATURES",
    "Certainty",
    "POOL",
    "RRF_K",
    "Ranked",
    "certainty",
    "dense_scores",
    "embedding_text",
    "entry_dense_scores",
    "features",
    "fused_ranking",
    "related_floor",
    "topic_dense_scores",
]

# The floor of `related_floor` when confidence.json lacks one fitted for the embedder that
# serves (the stock embedder's, from dev2: the best entry of an answerable question has
# >= 0.879 in three of four questions, that of an unanswerable one <= 0.881 in three of four).
RELATED_FLOOR = 0.88


def embedding_text(question: str, index: Any = None, *, correct: bool = True) -> str:
    """What the embedder is given for `question`: tidied as the chatbot tidies it,
    with the spelling corrections the search makes when `index` is given („Moduswürfl“
    is embedded as „Moduswürfel“: on the seen 141-170, 7 more right answers and 2 more
    confident-wrong of 465 questions whose text changes, models not refitted), umlauts
    written out spelt as the documents spell them („Laender“ as „Länder“,
    `faq_bot.query.corpus_spelling`: on the seen 141-170 with every umlaut written out, 19
    more right answers of 3,600 questions, one confident-wrong fewer), and with
    the corpus's words for its abbreviations and players' words in parentheses (the
    embedder knows neither table; the query analysis adds the same words as terms). The
    training scripts embed the questions without `index`, as the models were fitted.
    `correct=False`: no spelling correction (a search for the words as typed)."""
    from faq_bot.analysis import meanings
    from faq_bot.query import QueryError, analyze_query, corpus_spelling
    from faq_bot.question import normalize_question

    text = normalize_question(question)
    if index is not None:
        try:
            text = corpus_spelling(index, analyze_query(index, text, correct=correct).text)
        except QueryError:
            pass
    added = meanings(text)
    return f"{text} ({' '.join(added)})" if added else text


def _query_vector(
    index: Any, question: str, *, correct: bool = True
) -> tuple[Any, np.ndarray] | None:
    """(the build's dense retriever, the question's one embedding), or None without a
    retriever, for an empty question, or when the embedder fails on it (search then
    stays lexical)."""
    retriever = dense_for(index)
    if retriever is None or not question.strip():
        return None
    try:
        return retriever, retriever.embed(embedding_text(question, index, correct=correct))
    except Exception:  # the embedder failing on one question leaves search lexical
        return None


def dense_scores(index: Any, question: str, *, correct: bool = True) -> DenseScores | None:
    """Dense similarities of the question, tidied as the chatbot tidies it (and spelling
    corrected unless `correct` is False), so that search and answer of one request share
    one query embedding."""
    found = _query_vector(index, question, correct=correct)
    return found[0].scores_of(found[1]) if found else None


def topic_dense_scores(
    index: Any, question: str, entry: str, weight: float, vector: np.ndarray | None = None
) -> tuple[DenseScores, np.ndarray] | None:
    """Dense similarities of `question` pulled towards entry `entry` (the question's
    own vector plus `weight` times the unit-length mean of the entry's stored
    paragraph vectors, renormalised), and the question's own vector. Embeds only
    `question`, and nothing when its own `vector` is given; None as for
    `dense_scores`."""
    retriever = dense_for(index) if vector is not None else None
    if retriever is None or vector is None:
        found = _query_vector(index, question)
        if found is None:
            return None
        retriever, vector = found
    topic = retriever.entry_vector(entry)
    mixed = vector if topic is None else vector + weight * topic
    norm = float(np.linalg.norm(mixed))
    return retriever.scores_of(mixed / norm if norm > 0 else vector), vector


def entry_dense_scores(index: Any, vector: np.ndarray, entries: list[str]) -> DenseScores | None:
    """The similarities of the units of `entries` to a query `vector` (embeds nothing)."""
    retriever = dense_for(index)
    return retriever.scores_of(vector, entries) if retriever is not None else None


def ranker_weights() -> dict[str, float] | None:
    """The fitted ranker's weights, or None (RRF fuses then) when there are none or they
    were fitted for another embedder than the one that serves (`faq_bot.fitted`)."""
    return fitted("ranker", _weights)


def related_floor() -> float:
    """Fitted with the confidence model (`faq_bot.chat.fit.related_floor`: midway between
    the best entry's similarity of answerable and of unanswerable training questions,
    "related_floor" in confidence.json), for the embedder it was fitted on; else
    `RELATED_FLOOR`. A similarity scale belongs to the embedder, so the fitted floor
    holds whether the fitted ranker or rank fusion serves (until the fifteenth round the
    chat fell back to `RELATED_FLOOR` without a fitted ranker)."""
    floor = fitted("confidence", _related_floor)
    return RELATED_FLOOR if floor is None else floor


def _related_floor(data: dict[str, Any], mode: str) -> float | None:
    floor = data["modes"][mode].get("related_floor")  # a model file without one: the default
    return float(floor) if floor is not None else None


def _weights(data: dict[str, Any], _mode: str) -> dict[str, float]:
    weights = data["weights"]
    if not isinstance(weights, dict) or set(weights) - {*FEATURES, "bias"}:
        raise ValueError("features differ")
    return {k: float(v) for k, v in weights.items()}


def features(
    index: Any,
    lexical: list[Any],
    dense: DenseScores,
    doc: str | None,
    category: str | None,
    aq: Any = None,
) -> list[Ranked]:
    """The candidates of both rankings with their features (`faq_bot.rankfeatures`),
    compared with the known questions by the query's one embedding."""
    retriever = dense_for(index)
    model = retriever.model if retriever is not None else None
    known = entry_precedent(index, dense.query, model)
    return candidates(index, aq, lexical, dense, doc, category, known)


def _analyzed(index: Any, question: str) -> Any:
    from faq_bot.query import QueryError, analyze_query

    try:
        return analyze_query(index, question)
    except QueryError:
        return None


class Certainty(NamedTuple):
    """How sure the learned ranker is of its first entry: its softmax share among the
    ranked candidates and the entropy of that distribution (nats). The share is the
    model's own estimate, not calibrated: the ranker is fitted on the training questions
    the chat's confidence is fitted on too, and an entry reached through a reference-only
    entry shares it with that entry; the confidence model weighs it like any signal.
    Both 0 when no fitted ranker scored them (RRF scores are no log-odds) or a score is
    not finite."""

    share: float = 0.0
    entropy: float = 0.0


def certainty(logits: list[float]) -> Certainty:
    """The `Certainty` of a ranker's log-odds, best first."""
    z = np.asarray(logits, dtype=float)
    if not len(z) or not np.isfinite(z).all():
        return Certainty()
    p = np.exp(z - z.max())
    p /= p.sum()
    return Certainty(float(p.max()), float(-(p * np.log(np.clip(p, 1e-300, None))).sum()))


def fused_ranking(
    index: Any,
    question: str,
    lexical: list[Any],
    doc: str | None = None,
    category: str | None = None,
    dense: DenseScores | None = None,
    aq: Any = None,
) -> tuple[list[Any], Certainty]:
    """`lexical` fused with the dense ranking (see the module docstring), and the fitted
    ranker's `Certainty` of its first entry."""
    from faq_bot.search import ScoredEntry

    if dense is None:
        dense = dense_scores(index, question)
    if dense is None:
        return lexical, Certainty()
    if aq is None:
        aq = _analyzed(index, question)
    ranked = features(index, lexical, dense, doc, category, aq)
    weights = ranker_weights()
    if weights:
        for r in ranked:
            r.score = weights.get("bias", 0.0) + sum(
                weights.get(k, 0.0) * v for k, v in r.features.items()
            )
    ranked.sort(key=lambda r: -r.score)  # stable: ties keep the candidates' order
    fused = [ScoredEntry(r.entry, r.score, r.paragraph) for r in ranked]
    seen = {r.entry for r in ranked}
    fused.extend(ScoredEntry(s.entry, 0.0, s.paragraph) for s in lexical if s.entry not in seen)
    return fused, certainty([r.score for r in ranked]) if weights else Certainty()
