"""Stage 3: ranked search over the index.

``search(index, query, *, n=10, doc=None, category=None, mode="lexical", dense=None,
fragments=False, correct=True) -> SearchResult``
    Ranked entries for a question or keywords as users type them. The query is
    checked, corrected (unless ``correct`` is False) and analyzed by
    `faq_bot.query.analyze_query` (never parsed as query syntax); the corrected query is
    offered as ``suggestion``.
    Raises `faq_bot.query.QueryError` (German message) for an empty query, one
    longer than `faq_bot.query.MAX_QUERY_LENGTH` or a mode the build lacks.
    ``dense``: the query's dense scores when the caller already has them (the
    chatbot's declined answer searches its question: not embedded a second time).

``search_paragraphs(index, query, *, n=10, doc=None) -> list[ParagraphHit]``
    Ranked single paragraphs (for the chatbot).

(As-you-type title suggestions are `faq_bot.suggest`'s; the hit and result types are
`faq_bot.hits`'s.)

Building blocks (used by the chatbot in `faq_bot.chat`)
---------------------------------------------------------
The query analysis (`analyze_query`, `unknown_words`) is `faq_bot.query`'s.

``rank_entries(index, aq, doc=None, category=None) -> list[ScoredEntry]``
    Every matching entry with its combined score and best paragraph, best
    first (the ranking `search` uses, see below).

``term_query(terms, fields) -> whoosh Query``
    Any of the weighted ``terms`` in any of ``fields``.

``kind_filter(kind, doc=None, category=None) -> whoosh Query``
    Only documents of one kind (``"entry"`` or ``"paragraph"``), optionally of
    one source document and one category.

``run_query(index, q, flt, limit) -> list[QueryRow]``
    The best ``limit`` index documents for ``q`` within ``flt``, each with its
    stored fields, BM25 score and the terms it matched.

``highlight(index, text, terms, limit) -> str``
    Safe HTML of ``text`` cut around the passage with the most matched terms,
    matched words in <mark> (hits cut theirs around the passage with the most
    query words: `faq_bot.snippets`).

Ranking
-------
Every query term is looked up in the title, alias, category, section and body
fields of entry documents and in the paragraph documents (BM25, title and alias
terms boosted at index time). An entry's score combines its own BM25 score with
the score of its best paragraph, and is scaled by the share of the query's
words the entry covers (each word weighted by the inverse document frequency
of its best matching term; a word counts once whether it matched as typed, by
an infinitive, a compound part or an abbreviation's meaning), so an entry that
matches many distinct words of a question beats one that repeats one word.
Terms the analyzer adds to a word weigh less than the word itself
(`faq_bot.query.EXTRA_WEIGHTS`). The numbers are not tuned to single questions.

In hybrid mode the lexical ranking is fused with the dense one (`faq_bot.hybrid`).
A query that is an entry's title, alias or id as a whole ("Endphase", "ziehen karte")
puts that entry first: the learned ranking is fitted on questions, not on headwords.
When no entry matches a word of the query, only entries close in meaning are
listed (dense similarity at least `faq_bot.hybrid.related_floor`): made-up words
find nothing, as in lexical mode, instead of the nearest entries of whatever is
there.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from whoosh import query as wq

from faq_bot.corpus import slugify
from faq_bot.corpus.model import paragraph_table
from faq_bot.hits import UNWORDED, Hit, ParagraphHit, SearchResult
from faq_bot.impacts import impacts
from faq_bot.index import WARMERS, Index
from faq_bot.links import pointer
from faq_bot.names import category_slug, named_entry
from faq_bot.query import AnalyzedQuery, QueryError, analyze_query, longer_words_of
from faq_bot.retrieval import (
    Candidate,
    ModeUnavailable,
    PreparedQuery,
    check_mode,
    fuse,
    retrievers_for,
)
from faq_bot.snippets import SNIPPET_CHARS, marked_sentence, snippet, token_spans
from faq_bot.suggest import suggest_titles
from faq_bot.text import entry_path, text_directive

if TYPE_CHECKING:
    from faq_bot.dense import DenseScores

__all__ = [
    "CANDIDATES",
    "FUSE_DEPTH",
    "Hit",
    "LexicalRetriever",
    "ParagraphHit",
    "QueryCoverage",
    "QueryRow",
    "ScoredEntry",
    "SearchResult",
    "UNWORDED",
    "highlight",
    "kind_filter",
    "named_first",
    "prepare_query",
    "rank",
    "rank_entries",
    "run_query",
    "search",
    "search_paragraphs",
    "term_idf",
    "term_query",
]

CANDIDATES = 200  # entries and paragraphs fetched before reranking


# --- ranking ------------------------------------------------------------------------


def term_idf(index: Index, term: str) -> float:
    """BM25's inverse document frequency over all documents (entries and paragraphs).

    Always positive: the frequency is counted among the same documents as the total.
    Cached per build (bounded).
    """
    found = index.state.idf.get(term)
    if found is None:
        imp = impacts(index)
        total = imp.doc_count
        df = min(total, max(imp.doc_frequency(f, term) for f in ("body", "title", "aliases")))
        found = index.state.idf.put(term, math.log(1 + (total - df + 0.5) / (df + 0.5)))
    return found


class QueryCoverage:
    """The share of a query's words a text matches, each word weighted by the inverse
    document frequency of its best term (a word counts once, whether it matched as
    typed, by a compound part or by an abbreviation's meaning). Search weighs its
    impacts with it; the ranking's title features and the chatbot
    (`faq_bot.chat.terms.Coverage`) measure coverage with it."""

    def __init__(self, index: Index, terms: dict[str, float], words: Sequence[frozenset[str]]):
        self.idf = {t: term_idf(index, t) for t in terms}
        self.weight = {t: self.idf[t] * w for t, w in terms.items()}
        self.words = [w & self.weight.keys() for w in words]
        self.words = [w for w in self.words if w]
        self.total = sum(max(self.weight[t] for t in w) for w in self.words)

    @classmethod
    def of(cls, index: Index, aq: AnalyzedQuery) -> QueryCoverage:
        return cls(index, aq.terms, aq.words)

    def __call__(self, *found: frozenset[str] | set[str]) -> float:
        """The covered share of the query's words with a term in any of `found`."""
        if self.total <= 0:
            return 0.0
        matched = found[0] if len(found) == 1 else frozenset().union(*found)
        got = 0.0
        for word in self.words:
            hits = word & matched
            if hits:
                got += max(self.weight[t] for t in hits)
        return got / self.total


def kind_filter(kind: str, doc: str | None = None, category: str | None = None) -> wq.Query:
    """Only index documents of `kind` ("entry" or "paragraph"), and if given only
    those of source document `doc` and of `category` (a category name or slug)."""
    parts: list[wq.Query] = [wq.Term("kind", kind)]
    if doc:
        parts.append(wq.Term("doc", doc))
    if category:
        parts.append(wq.Term("category_id", slugify(category)))
    return wq.And(parts) if len(parts) > 1 else parts[0]


def term_query(terms: dict[str, float], fields: tuple[str, ...]) -> wq.Query:
    """Any of `terms` (term -> boost) in any of `fields`."""
    return wq.Or(
        [wq.Term(f, t, boost=w) for t, w in terms.items() for f in fields],
    )


class QueryRow(NamedTuple):
    """One index document found by `run_query`."""

    fields: dict[str, Any]  # its stored fields
    score: float  # BM25
    matched: set[str]  # the query terms it contains


def run_query(index: Index, q: wq.Query, flt: wq.Query, limit: int) -> list[QueryRow]:
    """The best `limit` index documents for `q` among those `flt` lets through."""
    out = []
    with index.searching() as searcher:
        results = searcher.search(q, filter=flt, limit=limit, terms=True)
        for hit in results:
            matched = {
                t.decode("utf-8") if isinstance(t, bytes) else t for _f, t in hit.matched_terms()
            }
            out.append(QueryRow(hit.fields(), hit.score, matched))
    return out


@dataclass
class ScoredEntry:
    """An entry as ranked by `rank_entries`."""

    entry: str  # entry id
    score: float
    paragraph: int | None  # its best matching paragraph, if a paragraph matched


def warm_up(index: Index) -> None:
    """Load what the first query of a build would otherwise pay for."""
    impacts(index)
    suggest_titles(index, "a")
    # in the build's best mode: a hybrid build also loads the embedder, the known questions
    # and their twin cosine (~0.2 s the first hybrid query would otherwise pay)
    search(index, "Aktionsstapel Karte", n=1, mode=None)
    # snippet spans of the paragraphs (~0.2 s CPU at x1); no more than their cache holds,
    # so a large corpus neither pays for spans it would evict nor evicts the first ones
    texts = (t for record in index.iter_entries() for t in record.plain_paragraphs)
    for text in itertools.islice(texts, index.state.spans.size):
        token_spans(index, text)


WARMERS.append(warm_up)


class Ranking(NamedTuple):
    """Every matching entry, best first, as arrays over the build's entry slots."""

    order: np.ndarray  # entry slots, best first
    score: np.ndarray  # combined score per entry slot
    paragraph: np.ndarray  # best paragraph per entry slot (-1: none)
    paragraphs: np.ndarray  # paragraph slots that matched
    paragraph_bm25: np.ndarray  # their raw BM25F scores
    matched: np.ndarray  # per entry slot: it holds a word of the query (the slots of `order`)
    coverage: np.ndarray  # per entry slot: the IDF-weighted share of the query's words it holds


def _rank(
    index: Index, aq: AnalyzedQuery, doc: str | None = None, category: str | None = None
) -> Ranking:
    imp = impacts(index)
    cov = QueryCoverage.of(index, aq)
    words = [({t: cov.weight[t] for t in w}, max(cov.weight[t] for t in w)) for w in cov.words]
    e_score, e_cov = imp.score("entry", aq.terms, words)
    p_score, p_cov = imp.score("paragraph", aq.terms, words)
    e_match = e_cov > 0
    p_match = p_cov > 0
    mask = imp.entry_mask(doc, slugify(category) if category else None)
    if mask is not None:
        e_match &= mask
        p_match &= mask[imp.para_entry]
    p_idx = np.nonzero(p_match)[0]
    value = p_score[p_idx] * p_cov[p_idx]
    pe = imp.para_entry[p_idx]
    n_entries = len(imp.entry_ids)
    p_rel = np.zeros(n_entries)
    para_of = np.full(n_entries, -1, dtype=np.int64)
    if len(p_idx):
        # an entry's best paragraph: highest value, then highest BM25F, then first
        by = np.lexsort((p_idx, -p_score[p_idx], -value, pe))
        first = by[np.r_[True, pe[by][1:] != pe[by][:-1]]]
        top_p = float(value.max()) or 1.0
        p_rel[pe[first]] = value[first] / top_p
        para_of[pe[first]] = imp.para_number[p_idx[first]]
    top_e = float(e_score[e_match].max()) if e_match.any() else 1.0
    top_e = top_e or 1.0
    matched = e_match.copy()
    matched[pe] = True
    e_rel = np.where(e_match, e_score / top_e, 0.0)
    score = (0.5 * e_rel + 0.5 * p_rel) * (np.where(e_match, e_cov, 0.0) + 0.05)
    idx = np.nonzero(matched)[0]
    order = idx[np.lexsort((idx, -score[idx]))]
    coverage = np.where(e_match, e_cov, 0.0)
    return Ranking(order, score, para_of, p_idx, p_score[p_idx], matched, coverage)


def _scored(index: Index, r: Ranking, limit: int | None = None) -> list[ScoredEntry]:
    ids = impacts(index).entry_ids
    order = r.order if limit is None else r.order[: max(0, limit)]
    return [
        ScoredEntry(ids[e], float(r.score[e]), int(r.paragraph[e]) if r.paragraph[e] >= 0 else None)
        for e in order
    ]


def rank_entries(
    index: Index,
    aq: AnalyzedQuery,
    doc: str | None = None,
    category: str | None = None,
    limit: int | None = None,
) -> list[ScoredEntry]:
    """All entries matching `aq` (of source document `doc` and `category` if given),
    best first (the first `limit` if given), scored as the module docstring describes.
    The raw paragraph scores of the same query are kept for `paragraph_scores`."""
    if not aq.terms:
        return []
    r = _ranking(index, aq, doc, category)
    return _scored(index, r, limit)


def _ranking(index: Index, aq: AnalyzedQuery, doc: str | None, category: str | None) -> Ranking:
    key = (
        tuple(sorted(aq.terms.items())),
        tuple(sorted(tuple(sorted(w)) for w in aq.words)),
        doc,
        category,
    )
    found = index.state.rankings.get(key)
    if found is None:
        found = index.state.rankings.put(key, _rank(index, aq, doc, category))
    return found


def paragraph_scores(index: Index, aq: AnalyzedQuery) -> dict[tuple[str, int], float]:
    """The BM25F score of every paragraph matching `aq`: (entry id, paragraph) -> score.
    Reuses the ranking `rank_entries` computed for the same query."""
    if not aq.terms:
        return {}
    r = _ranking(index, aq, None, None)
    imp = impacts(index)
    ids = imp.entry_ids
    return {
        (ids[e], int(n)): float(v)
        for e, n, v in zip(
            imp.para_entry[r.paragraphs],
            imp.para_number[r.paragraphs],
            r.paragraph_bm25,
            strict=True,
        )
    }


# --- snippets -----------------------------------------------------------------------


def highlight(index: Index, text: str, terms: set[str] | dict, limit: int = SNIPPET_CHARS) -> str:
    """Safe HTML of `text` cut to about `limit` characters around the passage with the
    most distinct matched `terms`, matched words in <mark> (`faq_bot.snippets.snippet`
    with each term counted on its own; `search` counts query words instead)."""
    return snippet(index, text, [frozenset([t]) for t in terms], limit)


# --- public functions ---------------------------------------------------------------


class LexicalRetriever:
    """The BM25F ranking of `rank_entries` as a `faq_bot.retrieval.Retriever`."""

    name = "lexical"

    def __init__(self, index: Index):
        self.index = index

    def retrieve(self, query: PreparedQuery, n: int, doc: str | None = None) -> list[Candidate]:
        scored = rank_entries(self.index, query.analyzed, doc, query.category)
        return [Candidate(s.entry, s.score, i, s.paragraph) for i, s in enumerate(scored[:n], 1)]


def prepare_query(
    index: Index, query: str, category: str | None = None, *, correct: bool = True
) -> PreparedQuery:
    """`query` checked, corrected (unless `correct` is False) and analyzed once for every
    retriever."""
    aq = analyze_query(index, query, correct=correct)
    return PreparedQuery(
        raw=query.strip(), text=aq.text, analyzed=aq, category=category, correct=correct
    )


FUSE_DEPTH = 100  # entries each retriever contributes to a hybrid ranking


def rank(
    index: Index,
    pq: PreparedQuery,
    mode: str = "lexical",
    doc: str | None = None,
    limit: int | None = None,
    dense: DenseScores | None = None,
) -> tuple[list[ScoredEntry], int]:
    """The first `limit` entries for `pq` in `mode` (see `faq_bot.retrieval`), best
    first, and how many entries matched (the ``total``); `dense`: the hybrid mode's dense
    scores of the query when the caller has them (else the query is embedded). An entry
    the query names (`named_entry`), as typed or as corrected, comes first, at the best
    score."""
    if not pq.analyzed.terms:
        return [], 0
    named = named_entry(index, pq.raw, doc, pq.category)
    if named is None and pq.text != pq.raw:  # a headword typed with a slip: "Endfase"
        named = named_entry(index, pq.text, doc, pq.category)
    if named is None:
        return _ranked(index, pq, mode, doc, limit, dense)
    entries, total = _ranked(index, pq, mode, doc, None, dense)
    entries = named_first(entries, named)
    return (entries if limit is None else entries[: max(0, limit)]), total


def named_first(entries: list[ScoredEntry], named: str | None) -> list[ScoredEntry]:
    """`entries` with the `named` one (`named_entry`) first, at the best score (scores
    still descend); unchanged when it is not among them or already first."""
    first = [s for s in entries if s.entry == named]
    if not first or entries[0].entry == named:
        return entries
    best = max(first[0].score, entries[0].score)
    return [replace(first[0], score=best)] + [s for s in entries if s.entry != named]


def _ranked(
    index: Index,
    pq: PreparedQuery,
    mode: str,
    doc: str | None,
    limit: int | None,
    dense: DenseScores | None,
) -> tuple[list[ScoredEntry], int]:
    r = _ranking(index, pq.analyzed, doc, pq.category)
    if mode == "lexical":
        return _scored(index, r, limit), len(r.order)
    lexical = _scored(index, r, FUSE_DEPTH)
    if "dense" in retrievers_for(index):  # the learned fusion of `faq_bot.hybrid`
        from faq_bot.hybrid import dense_scores, fused_ranking, related_floor

        if dense is None:
            dense = dense_scores(index, pq.text, correct=pq.correct)
        if dense is None:  # the embedder failed for this query: asked once, not again
            return _scored(index, r, limit), len(r.order)
        fused_entries, _sure = fused_ranking(
            index, pq.text, lexical, doc, pq.category, dense=dense, aq=pq.analyzed
        )
        if not len(r.order):
            # no entry matches a word of the query ("xyzzy"): only entries close in
            # meaning, not the nearest of whatever is there
            floor = related_floor()
            fused_entries = [s for s in fused_entries if dense.entry(s.entry) >= floor]
        total = _total(index, r, fused_entries)
        return (fused_entries if limit is None else fused_entries[: max(0, limit)]), total
    rankings: dict[str, list[Candidate]] = {
        "lexical": [
            Candidate(s.entry, s.score, i, s.paragraph)
            for i, s in enumerate(lexical[:FUSE_DEPTH], 1)
        ]
    }
    weights = {"lexical": 1.0}
    wanted = slugify(pq.category) if pq.category else None
    for name, (retriever, weight) in retrievers_for(index).items():
        found = retriever.retrieve(pq, FUSE_DEPTH, doc)
        if wanted is not None:
            found = [c for c in found if category_slug(index, c.entry) == wanted]
        rankings[name] = found
        weights[name] = weight
    fused = fuse(rankings, weights)
    out = [ScoredEntry(c.entry, c.score, c.paragraph) for c in fused]
    total = _total(index, r, out)
    return (out if limit is None else out[: max(0, limit)]), total


def _total(index: Index, r: Ranking, fused: list[ScoredEntry]) -> int:
    """How many entries a hybrid ranking found: those that hold a word of the query (`r`,
    beyond the depth fused too) and those of `fused` close in meaning only."""
    return len(r.order) + len(fused) - len(_worded(index, r, [s.entry for s in fused]))


def _worded(index: Index, r: Ranking, entries: list[str]) -> set[str]:
    """Those of `entries` that hold a word of the query ranked as `r`."""
    slot = impacts(index).entry_slot
    return {e for e in entries if e in slot and r.matched[slot[e]]}


def search(
    index: Index,
    query: str,
    *,
    n: int = 10,
    doc: str | None = None,
    category: str | None = None,
    mode: str | None = "lexical",
    dense: DenseScores | None = None,
    fragments: bool = False,
    correct: bool = True,
) -> SearchResult:
    """Ranked entries for `query` (see the module docstring) in search `mode`
    (``lexical``, ``hybrid``; None: the best the build offers, see `faq_bot.retrieval`);
    `dense`: the query's dense scores when the caller has them (hybrid mode reads them
    instead of embedding the query); `fragments`: each hit's `Hit.fragment` too (what the
    search page links; it made a 50-hit search 2.7 times as slow for the API and eval,
    which do not read it); `correct=False`: the words as typed, no spelling correction (the
    embedder too). Raises `QueryError` for a bad query or a mode the build does not
    offer."""
    try:
        mode = check_mode(index, mode)
    except ModeUnavailable as exc:
        raise QueryError(str(exc)) from None
    pq = prepare_query(index, query, category, correct=correct)
    aq = pq.analyzed
    scored, total = rank(index, pq, mode, doc, limit=n, dense=dense)
    # the lexical ranking `rank` read (cached): which hits hold a word of the query
    r = _ranking(index, aq, doc, pq.category) if aq.terms else None
    worded = _worded(index, r, [s.entry for s in scored[: max(0, n)]]) if r else set()
    hits = []
    for s in scored[: max(0, n)]:
        record = index.entry(s.entry)
        if record is None:
            continue
        paragraphs = record.plain_paragraphs
        para = s.paragraph if s.paragraph is not None and s.paragraph < len(paragraphs) else None
        source = paragraphs[para] if para is not None else (paragraphs[0] if paragraphs else "")
        document = index.document(record.doc) or {}
        see = _see(record.plain_paragraphs, record.links)
        fragment = None
        if fragments and para is not None and record.id in worded and see is None:
            fragment = _fragment(index, record, para, aq)
        hits.append(
            Hit(
                id=record.id,
                doc=record.doc,
                title=record.title,
                url=entry_path(record.id),
                score=s.score,
                snippet=snippet(index, source, aq.words),
                text=record.text,
                category=record.category,
                doc_title=document.get("title"),
                paragraph=para,
                matched=record.id in worded,
                see=see,
                fragment=fragment,
            )
        )
    return SearchResult(
        query=query.strip(),
        hits=hits,
        total=total,
        suggestion=aq.suggestion,
        mode=mode,
        matched=len(r.order) if r else 0,
        longer=longer_words_of(index, aq.unknown, doc, pq.category),
    )


def _fragment(index: Index, record: Any, para: int, aq: AnalyzedQuery) -> str | None:
    """`Hit.fragment`: the text directive naming the sentence of paragraph `para` that the
    hit's snippet is about (`marked_sentence`), with the words before it as its prefix; None
    for a table."""
    if paragraph_table(record.paragraphs[para], record.markup) is not None:
        return None
    source = record.plain_paragraphs[para]
    span = marked_sentence(index, source, aq.words)
    if span is None:
        return None
    return text_directive(source[span[0] : span[1]], before=source[: span[0]])


def _see(paragraphs: Sequence[str], links: Sequence[Any]) -> dict[str, str] | None:
    """`Hit.see`: the reference an entry is nothing but, with its target's path."""
    reference = pointer(paragraphs, links)
    return {**reference, "url": entry_path(reference["target"])} if reference else None


def search_paragraphs(
    index: Index, query: str, *, n: int = 10, doc: str | None = None
) -> list[ParagraphHit]:
    """The best single paragraphs for `query` (BM25F times coverage), best first."""
    aq = analyze_query(index, query)
    if not aq.terms:
        return []
    imp = impacts(index)
    cov = QueryCoverage.of(index, aq)
    words = [({t: cov.weight[t] for t in w}, max(cov.weight[t] for t in w)) for w in cov.words]
    score, coverage = imp.score("paragraph", aq.terms, words)
    value = score * coverage
    if doc:
        mask = imp.entry_mask(doc, None)
        if mask is not None:
            value = np.where(mask[imp.para_entry], value, 0.0)
    idx = np.nonzero(value > 0)[0]
    best = idx[np.lexsort((idx, -value[idx]))][: max(0, n)]
    out = []
    for p in best:
        record = index.entry(imp.entry_ids[imp.para_entry[p]])
        if record is None:
            continue
        number = int(imp.para_number[p])
        out.append(
            ParagraphHit(
                entry=record.id,
                paragraph=number,
                text=record.plain_paragraphs[number],
                score=float(value[p]),
                title=record.title,
                doc=record.doc,
            )
        )
    return out
