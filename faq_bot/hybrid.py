"""Hybrid ranking: the lexical ranking fused with dense similarity.

``hybrid_rank(index, question, lexical, doc=None, category=None) -> list[ScoredEntry]``
    The lexical ranking (`faq_bot.search.rank_entries`) fused with the dense
    ranking of `faq_bot.dense`. Without a dense retriever (no embedder on this
    platform, a build without vectors) the lexical ranking is returned as is.

Fusion: when `faq_bot/data/ranker.json` exists (written by
``scripts/train_ranker.py``), each candidate entry gets a linear score over
generic features (`features`); else reciprocal rank fusion with k = `RRF_K`
(60, the usual constant). Candidates are the best `POOL` entries of each
ranking. The question is embedded once per request (`faq_bot.embed` keeps the
last vectors), so search and the chatbot share it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from importlib import resources
from typing import Any

from faq_bot.dense import DenseScores, dense_for

__all__ = ["FEATURES", "RRF_K", "Ranked", "dense_scores", "features", "hybrid_rank"]

RRF_K = 60
POOL = 50
FEATURES = (
    "rrf",
    "lex_score",
    "lex_recip_rank",
    "dense_entry",
    "dense_paragraph",
    "dense_sentence",
    "dense_recip_rank",
    "dense_margin",
    "log_length",
)


@dataclass
class Ranked:
    """A fused candidate with the features it was scored on."""

    entry: str
    score: float
    paragraph: int | None
    features: dict[str, float]


def dense_scores(index: Any, question: str) -> DenseScores | None:
    """Dense similarities of the question, tidied as the chatbot tidies it, so that
    search and answer of one request share one query embedding."""
    from faq_bot.question import normalize_question

    retriever = dense_for(index)
    if retriever is None or not question.strip():
        return None
    try:
        return retriever.scores(normalize_question(question))
    except Exception:  # the embedder failing on one question leaves search lexical
        return None


def _weights() -> dict[str, float] | None:
    try:
        text = resources.files("faq_bot").joinpath("data/ranker.json").read_text("utf-8")
    except (FileNotFoundError, OSError):
        return None
    data = json.loads(text)
    weights = data.get("weights")
    if not isinstance(weights, dict) or set(weights) - {*FEATURES, "bias"}:
        return None
    return {k: float(v) for k, v in weights.items()}


_WEIGHTS: dict[str, Any] = {}


def ranker_weights() -> dict[str, float] | None:
    if "w" not in _WEIGHTS:
        _WEIGHTS["w"] = _weights()
    return _WEIGHTS["w"]


def features(
    index: Any, lexical: list[Any], dense: DenseScores, doc: str | None, category: str | None
) -> list[Ranked]:
    """The candidates of both rankings with their features."""
    lex_rank = {s.entry: i + 1 for i, s in enumerate(lexical)}
    lex_para = {s.entry: s.paragraph for s in lexical}
    top_lex = lexical[0].score if lexical and lexical[0].score > 0 else 1.0
    lex_score = {s.entry: s.score / top_lex for s in lexical}
    dense_ranking = []
    for eid, sim in dense.ranking():
        record = index.entry(eid)
        if record is None or (doc and record.doc != doc):
            continue
        if category and record.category != category:
            continue
        dense_ranking.append((eid, sim))
    dense_rank = {eid: i + 1 for i, (eid, _s) in enumerate(dense_ranking)}
    best_dense = dense_ranking[0][1] if dense_ranking else 0.0
    pool = dict.fromkeys(
        [s.entry for s in lexical[:POOL]] + [eid for eid, _s in dense_ranking[:POOL]]
    )
    best_para: dict[str, tuple[float, int]] = {}  # entry -> its best (similarity, paragraph)
    for (e, n), s in dense.paragraph.items():
        if e in pool and (e not in best_para or (s, n) > best_para[e]):
            best_para[e] = (s, n)
    out = []
    for eid in pool:
        record = index.entry(eid)
        lr, dr = lex_rank.get(eid), dense_rank.get(eid)
        rrf = (1 / (RRF_K + lr) if lr else 0.0) + (1 / (RRF_K + dr) if dr else 0.0)
        f = {
            "rrf": rrf * RRF_K,
            "lex_score": lex_score.get(eid, 0.0),
            "lex_recip_rank": 1 / lr if lr else 0.0,
            "dense_entry": dense.entry(eid),
            "dense_paragraph": dense.entry_paragraph.get(eid, 0.0),
            "dense_sentence": dense.entry_sentence.get(eid, 0.0),
            "dense_recip_rank": 1 / dr if dr else 0.0,
            "dense_margin": dense.entry(eid) - best_dense,
            "log_length": math.log1p(len(record.text) if record else 0),
        }
        para = lex_para.get(eid)
        if para is None:
            para = best_para[eid][1] if eid in best_para else None
        out.append(Ranked(eid, f["rrf"], para, f))
    return out


def hybrid_rank(
    index: Any,
    question: str,
    lexical: list[Any],
    doc: str | None = None,
    category: str | None = None,
    dense: DenseScores | None = None,
) -> list[Any]:
    """`lexical` fused with the dense ranking (see the module docstring)."""
    from faq_bot.search import ScoredEntry

    if dense is None:
        dense = dense_scores(index, question)
    if dense is None:
        return lexical
    ranked = features(index, lexical, dense, doc, category)
    weights = ranker_weights()
    if weights:
        for r in ranked:
            r.score = weights.get("bias", 0.0) + sum(
                weights.get(k, 0.0) * v for k, v in r.features.items()
            )
    order = {eid: i for i, eid in enumerate(index._order)} if hasattr(index, "_order") else {}
    ranked.sort(key=lambda r: (-r.score, order.get(r.entry, 0)))
    fused = [ScoredEntry(r.entry, r.score, r.paragraph) for r in ranked]
    seen = {r.entry for r in ranked}
    fused.extend(ScoredEntry(s.entry, 0.0, s.paragraph) for s in lexical if s.entry not in seen)
    return fused
