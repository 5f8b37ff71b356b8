"""Generic features of a candidate entry for the learned ranking (`faq_bot.hybrid`).

``dense_within(index, dense, doc, category) -> list[tuple[str, float]]``
    The dense ranking (entry, similarity), best first, of document `doc` and
    `category` only when given.
``candidates(index, aq, lexical, dense, doc, category) -> list[Ranked]``
    The union of the best `POOL` entries of the lexical ranking and of the dense
    ranking, each with the features of `FEATURES`, all computed from what one
    request already has: the analyzed query (its lexical ranking is cached per
    build), the lexical ranking and the dense similarities of the one query
    embedding. Nothing here names a question, an entry or a document.

Features:

- lexical: the combined score relative to the best, the reciprocal rank,
- dense: the entry's best paragraph, best sentence and best unit similarity,
  the reciprocal dense rank, the margin to the best entry,
- fusion: RRF of the two entry ranks (k = `RRF_K`), and ``paragraph_rrf``: the
  best RRF (k = `PARAGRAPH_K`) any one paragraph of the entry reaches over the
  paragraph-level lexical and dense rankings (the same paragraph good in both,
  not one paragraph good lexically and another densely),
- title: ``title_coverage``, the IDF-weighted share of the query's words found
  in the entry's title and aliases (compound parts and lemmas count), and
  ``title_named``, the IDF-weighted share of the title's own words the query
  contains (the headword named),
- entry: log length, ``coverage``: the IDF-weighted share of the query's words the
  entry's text holds (`faq_bot.search.QueryCoverage`, as the lexical ranking computes
  it; ``lex_score`` is relative to the best entry, so for a one-word query it cannot
  tell an entry holding the word from one that merely resembles it),
- precedent: ``known_entry``, how near the nearest known training question this entry
  answered lies, relative to the nearest of all (`faq_bot.known.entry_precedent`; 0
  for every candidate without known questions, which changes no order).

Which features earn their place was measured with ``scripts/train_ranker.py``
(grouped cross-validation on the training questions); the README's "Learned
ranking" section has the figures.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from faq_bot.corpus import slugify
from faq_bot.dense import DenseScores
from faq_bot.impacts import impacts

__all__ = [
    "FEATURES",
    "POOL",
    "RRF_K",
    "Ranked",
    "TitleTerms",
    "candidates",
    "dense_within",
    "title_terms",
]

RRF_K = 60
PARAGRAPH_K = 10  # RRF constant of the paragraph-level fusion
PARAGRAPH_DEPTH = 200  # paragraphs of each paragraph-level ranking that count
POOL = 50  # entries each ranking contributes to the candidates
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
    "paragraph_rrf",
    "title_coverage",
    "title_named",
    "known_entry",
    "coverage",
)


@dataclass
class Ranked:
    """A fused candidate with the features it was scored on."""

    entry: str
    score: float
    paragraph: int | None
    features: dict[str, float]


@dataclass(frozen=True)
class TitleTerms:
    every: frozenset[str]  # every term of title and aliases (compound parts, lemmas, ...)
    own: dict[str, float]  # the words' own terms only, with their share of the title's IDF


def title_terms(index: Any, entry_id: str) -> TitleTerms:
    """The analyzed terms of an entry's title and aliases (cached per build)."""
    cache: dict[str, TitleTerms] = index.state.once("rankfeatures.titles", dict)
    found = cache.get(entry_id)
    if found is None:
        record = index.entry(entry_id)
        names = " ".join((record.title, *record.aliases)) if record is not None else ""
        from faq_bot.search import term_idf

        tokens = [
            (t.text, bool(getattr(t, "extra", None))) for t in index.analyzer(names, mode="index")
        ]
        idf = {t: term_idf(index, t) for t, extra in tokens if not extra}
        total = sum(idf.values()) or 1.0
        found = TitleTerms(frozenset(t for t, _x in tokens), {t: v / total for t, v in idf.items()})
        cache[entry_id] = found
    return found


def _title_named(query: Any, own: dict[str, float]) -> float:
    """IDF-weighted share of the title's own terms the query contains."""
    return sum(share for t, share in own.items() if t in query.weight)


def _paragraph_lex_rank(
    index: Any, aq: Any, doc: str | None, category: str | None
) -> dict[tuple[str, int], int]:
    """The lexical rank (by BM25F) of each matching (entry id, paragraph); the
    ranking is the one search computed for the same query (cached per build)."""
    from faq_bot.search import _ranking

    if aq is None or not aq.terms:
        return {}
    r = _ranking(index, aq, doc, category)
    imp = impacts(index)
    slots = r.paragraphs[np.argsort(-r.paragraph_bm25, kind="stable")[:PARAGRAPH_DEPTH]]
    pairs = zip(imp.para_entry[slots].tolist(), imp.para_number[slots].tolist(), strict=True)
    return {(imp.entry_ids[e], n): i + 1 for i, (e, n) in enumerate(pairs)}


def _entry_coverage(
    index: Any, aq: Any, doc: str | None, category: str | None
) -> Callable[[str], float]:
    """The lexical ranking's coverage of an entry id (0 for an entry matching no word)."""
    from faq_bot.search import _ranking

    if aq is None or not aq.terms:
        return lambda _eid: 0.0
    coverage = _ranking(index, aq, doc, category).coverage
    slot = impacts(index).entry_slot
    return lambda eid: float(coverage[slot[eid]]) if eid in slot else 0.0


def _paragraph_rrf(
    lex_rank: dict[tuple[str, int], int], dense: dict[tuple[str, int], float], entries: set[str]
) -> dict[str, float]:
    """Per entry of `entries`: the best RRF of one of its paragraphs over the
    paragraph-level lexical and dense rankings, times `PARAGRAPH_K`."""
    ranked = sorted(dense.items(), key=lambda kv: -kv[1])[:PARAGRAPH_DEPTH]
    dense_rank = {key: i + 1 for i, (key, _s) in enumerate(ranked)}
    out: dict[str, float] = {}
    for key in set(lex_rank) | set(dense_rank):
        if key[0] not in entries:
            continue
        lr, dr = lex_rank.get(key), dense_rank.get(key)
        v = (1 / (PARAGRAPH_K + lr) if lr else 0.0) + (1 / (PARAGRAPH_K + dr) if dr else 0.0)
        if v > out.get(key[0], 0.0):
            out[key[0]] = v
    return {e: v * PARAGRAPH_K for e, v in out.items()}


def dense_within(
    index: Any, dense: DenseScores, doc: str | None = None, category: str | None = None
) -> list[tuple[str, float]]:
    """`dense`'s entries best first, of document `doc` and `category` (a category's name or
    slug, as the lexical ranking takes it) only when given: the build's entry table
    decides, as it does for the lexical ranking (`faq_bot.impacts.Impacts.entry_mask`), so
    a slug filters alike and no entry is read."""
    ranking = dense.ranking()
    if not (doc or category):
        return ranking
    imp = impacts(index)
    mask = imp.entry_mask(doc, slugify(category) if category else None)
    assert mask is not None
    slot = imp.entry_slot
    return [(eid, sim) for eid, sim in ranking if eid in slot and mask[slot[eid]]]


def candidates(
    index: Any,
    aq: Any,
    lexical: list[Any],
    dense: DenseScores,
    doc: str | None = None,
    category: str | None = None,
    known: Callable[[str], float] | None = None,
) -> list[Ranked]:
    """The candidates of both rankings with their features (see the module docstring).
    `aq` is the analyzed query the lexical ranking came from (None: no query terms);
    `known`: ``known_entry`` of an entry id (`faq_bot.known.entry_precedent`)."""
    lex_rank = {s.entry: i + 1 for i, s in enumerate(lexical)}
    lex_para = {s.entry: s.paragraph for s in lexical}
    top_lex = lexical[0].score if lexical and lexical[0].score > 0 else 1.0
    lex_score = {s.entry: s.score / top_lex for s in lexical}
    dense_ranking = dense_within(index, dense, doc, category)
    dense_rank = {eid: i + 1 for i, (eid, _s) in enumerate(dense_ranking)}
    best_dense = dense_ranking[0][1] if dense_ranking else 0.0
    pool = dict.fromkeys(
        [s.entry for s in lexical[:POOL]] + [eid for eid, _s in dense_ranking[:POOL]]
    )
    para_rrf = _paragraph_rrf(
        _paragraph_lex_rank(index, aq, doc, category), dense.paragraph, set(pool)
    )
    from faq_bot.search import QueryCoverage

    query = QueryCoverage.of(index, aq) if aq else QueryCoverage(index, {}, [])
    coverage = _entry_coverage(index, aq, doc, category)
    dense_para: dict[str, tuple[float, int]] = {}  # entry -> its best paragraph
    for (e, n), sim in dense.paragraph.items():
        if e not in dense_para or (sim, n) > dense_para[e]:
            dense_para[e] = (sim, n)
    out = []
    for eid in pool:
        record = index.entry(eid)
        lr, dr = lex_rank.get(eid), dense_rank.get(eid)
        rrf = (1 / (RRF_K + lr) if lr else 0.0) + (1 / (RRF_K + dr) if dr else 0.0)
        titles = title_terms(index, eid)
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
            "paragraph_rrf": para_rrf.get(eid, 0.0),
            "title_coverage": query(titles.every),
            "title_named": _title_named(query, titles.own),
            "known_entry": known(eid) if known is not None else 0.0,
            "coverage": coverage(eid),
        }
        para = lex_para.get(eid)
        if para is None and eid in dense_para:
            para = dense_para[eid][1]
        out.append(Ranked(eid, f["rrf"], para, f))
    return out
