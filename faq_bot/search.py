"""Stage 3: ranked search over the index.

``search(index, query, *, n=10, doc=None, category=None) -> SearchResult``
    Ranked entries for a question or keywords as users type them. The query is
    analyzed with the index's own analyzer (see `faq_bot.analysis`); it is never
    parsed as query syntax, so quotes, ``AND``, ``*`` and brackets are just
    characters. Words that are not in the corpus (five letters or more) are
    corrected at edit distance 1, and the corrected query is offered as
    ``suggestion``. Raises `QueryError` (German message) for an empty query or
    one longer than `MAX_QUERY_LENGTH`.

``search_paragraphs(index, query, *, n=10, doc=None) -> list[ParagraphHit]``
    Ranked single paragraphs (for the chatbot).

``suggest_titles(index, prefix, n=8) -> list[dict]``
    Titles and aliases for as-you-type suggestions: ``{"title", "id", "url"}``.

Building blocks (used by the chatbot in `faq_bot.answer`)
---------------------------------------------------------
``analyze_query(index, query) -> AnalyzedQuery``
    The corrected query as weighted index terms, grouped by query word
    (``AnalyzedQuery.words``).

``unknown_words(index, query) -> list[str]``
    Words of the query the corpus does not know and no correction fixes.

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
    Safe HTML of ``text`` cut around the first match, matched words in <mark>.

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
(`EXTRA_WEIGHTS`). The numbers are not tuned to single questions.
"""

from __future__ import annotations

import html
import math
import re
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from whoosh import query as wq

from faq_bot.analysis import (
    MIN_FUZZY_LENGTH,
    correct_word,
    edits1,
    fold,
    load_stopwords,
    load_synonyms,
)
from faq_bot.corpus import slugify
from faq_bot.index import Index

__all__ = [
    "CANDIDATES",
    "ENTRY_FIELDS",
    "MAX_QUERY_LENGTH",
    "PARAGRAPH_FIELDS",
    "AnalyzedQuery",
    "Hit",
    "ParagraphHit",
    "QueryError",
    "QueryRow",
    "ScoredEntry",
    "SearchResult",
    "analyze_query",
    "highlight",
    "kind_filter",
    "rank_entries",
    "run_query",
    "search",
    "search_paragraphs",
    "suggest_titles",
    "term_query",
    "unknown_words",
]

MAX_QUERY_LENGTH = 500
CANDIDATES = 200  # entries and paragraphs fetched before reranking
# Weight of terms the analyzer adds to a word, by the filter that added them: an
# infinitive or an abbreviation's meaning is nearly the word itself; a compound
# part or a digit run matches only part of it.
EXTRA_WEIGHTS = {"verb": 0.9, "synonym": 0.9, "part": 0.5, "digits": 0.5}
ENTRY_FIELDS = ("title", "aliases", "category", "section", "body")
PARAGRAPH_FIELDS = ("heading", "body")
SNIPPET_CHARS = 240

_WORD = re.compile(r"\w+")
_MARK = re.compile(r"</?mark>")
_CACHE_LOCK = threading.Lock()


class QueryError(ValueError):
    """The query cannot be searched; the message (German) says why."""


@dataclass(frozen=True)
class Hit:
    id: str
    doc: str
    title: str
    url: str
    score: float
    snippet: str  # safe HTML: text escaped, matched words in <mark>
    text: str
    category: str | None = None
    doc_title: str | None = None
    paragraph: int | None = None  # the paragraph the snippet comes from

    @property
    def snippet_text(self) -> str:
        """The snippet as plain text (marks removed, entities decoded)."""
        return html.unescape(_MARK.sub("", self.snippet))

    def to_json(self, *, with_text: bool = True) -> dict[str, Any]:
        data = {
            "id": self.id,
            "doc": self.doc,
            "title": self.title,
            "url": self.url,
            "score": round(self.score, 4),
            "snippet": self.snippet,
            "category": self.category,
            "doc_title": self.doc_title,
            "paragraph": self.paragraph,
        }
        if with_text:
            data["text"] = self.text
        return data


@dataclass(frozen=True)
class SearchResult:
    query: str
    hits: list[Hit]
    total: int
    suggestion: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "total": self.total,
            "suggestion": self.suggestion,
            "hits": [h.to_json() for h in self.hits],
        }


@dataclass(frozen=True)
class ParagraphHit:
    entry: str
    paragraph: int
    text: str
    score: float
    title: str = ""
    doc: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "entry": self.entry,
            "paragraph": self.paragraph,
            "text": self.text,
            "score": round(self.score, 4),
            "title": self.title,
            "doc": self.doc,
        }


@dataclass
class AnalyzedQuery:
    """A query after correction and analysis (see `analyze_query`).

    ``text`` is the corrected query, ``terms`` maps each index term to its weight
    (1 for a word's own term, less for terms a filter added, see `EXTRA_WEIGHTS`),
    ``suggestion`` is the corrected query if a word was corrected, and ``words``
    holds one set of terms per query word (the word's own term and the terms
    added for it), so a word can be counted once however it matched.
    """

    text: str
    terms: dict[str, float] = field(default_factory=dict)  # term -> weight
    suggestion: str | None = None
    words: list[frozenset[str]] = field(default_factory=list)  # the terms of each query word


# --- query analysis -----------------------------------------------------------------


def _check(query: Any) -> str:
    if not isinstance(query, str):
        raise QueryError("Die Suchanfrage muss Text sein.")
    query = query.strip()
    if not query:
        raise QueryError("Bitte einen Suchbegriff eingeben.")
    if len(query) > MAX_QUERY_LENGTH:
        raise QueryError(
            f"Die Suchanfrage ist zu lang ({len(query)} Zeichen, höchstens {MAX_QUERY_LENGTH})."
        )
    return query


def _analyzer(index: Index):
    return index.analyzer


def _known(index: Index, word: str) -> bool:
    """Whether folded `word` needs no correction."""
    if word in index.vocabulary or word in load_synonyms() or word in load_stopwords():
        return True
    if not word.isalpha():
        return True
    reader = index.searcher().reader()
    for term in _terms(index, word):
        if reader.doc_frequency("body", term) or reader.doc_frequency("title", term):
            return True
    return False


def _stem_surfaces(index: Index) -> dict[str, str]:
    """Index term -> the most frequent corpus word that analyzes to it."""
    with _CACHE_LOCK:
        found = index.cache.get("stem_surfaces")
        if found is None:
            found = {}
            analyzer = _analyzer(index)
            for word, _count in sorted(index.vocabulary.items(), key=lambda kv: -kv[1]):
                for t in analyzer(word, mode="query"):
                    if not getattr(t, "extra", False):
                        found.setdefault(t.text, index.surface.get(word, word))
                    break
            index.cache["stem_surfaces"] = found
        return found


def _correct(index: Index, folded: str) -> str | None:
    """A corpus word for an unknown word one edit away (as written or as a stem)."""
    fix = correct_word(folded, index.vocabulary)
    if fix is not None:
        return index.surface.get(fix, fix)
    main = [t for t, extra, _pos in _terms(index, folded) if not extra]
    if not main or len(main[0]) < MIN_FUZZY_LENGTH:
        return None
    surfaces = _stem_surfaces(index)
    candidates = {c for c in edits1(main[0]) if c in surfaces}
    if not candidates:
        return None
    reader = index.searcher().reader()
    best = max(sorted(candidates), key=lambda c: reader.doc_frequency("body", c))
    return surfaces[best]


def _terms(index: Index, text: str) -> list[tuple[str, str, int]]:
    """(term, extra, position) of `text`: extra when the term was added by a filter
    (a compound part, an abbreviation's meaning, an infinitive) at the word's position."""
    return [
        (t.text, getattr(t, "extra", "") or "", t.pos)
        for t in _analyzer(index)(text, mode="query", positions=True)
    ]


def analyze_query(index: Index, query: str) -> AnalyzedQuery:
    """Correct unknown words and turn `query` into weighted index terms."""
    query = _check(query)
    corrected: list[str] = []
    changed = False
    last = 0
    for m in _WORD.finditer(query):
        word = m.group()
        folded = fold(word)
        replacement = None
        if not _known(index, folded):
            replacement = _correct(index, folded)
        corrected.append(query[last : m.start()])
        corrected.append(replacement if replacement else word)
        changed = changed or replacement is not None
        last = m.end()
    corrected.append(query[last:])
    text = "".join(corrected)
    terms: dict[str, float] = {}
    words: dict[int, set[str]] = {}
    for term, extra, pos in _terms(index, text):
        weight = EXTRA_WEIGHTS.get(extra, 0.5) if extra else 1.0
        terms[term] = max(terms.get(term, 0.0), weight)
        words.setdefault(pos, set()).add(term)
    groups = list({frozenset(g): None for g in words.values()})
    return AnalyzedQuery(text=text, terms=terms, suggestion=text if changed else None, words=groups)


def unknown_words(index: Index, query: str) -> list[str]:
    """The words of `query` (as typed) that the corpus does not know and that no
    correction at edit distance 1 turns into a corpus word."""
    out = []
    for m in _WORD.finditer(query):
        word = m.group()
        folded = fold(word)
        if not _known(index, folded) and _correct(index, folded) is None:
            out.append(word)
    return out


# --- ranking ------------------------------------------------------------------------


def _idf(index: Index, term: str) -> float:
    """BM25's inverse document frequency over all documents (entries and paragraphs).

    Always positive: the frequency is counted among the same documents as the total.
    """
    reader = index.searcher().reader()
    total = reader.doc_count_all()
    df = min(total, max(reader.doc_frequency(f, term) for f in ("body", "title", "aliases")))
    return math.log(1 + (total - df + 0.5) / (df + 0.5))


class _Coverage:
    """The share of the query's words a document matches, each word weighted by the
    inverse document frequency of its best term (a word counts once, whether it
    matched as typed, by a compound part or by an abbreviation's meaning)."""

    def __init__(self, index: Index, aq: AnalyzedQuery):
        self.weight = {t: _idf(index, t) * w for t, w in aq.terms.items()}
        self.words = [w for w in aq.words if w]
        self.total = sum(max(self.weight[t] for t in w) for w in self.words) or 1.0

    def __call__(self, matched: set[str]) -> float:
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
    searcher = index.searcher()
    results = searcher.search(q, filter=flt, limit=limit, terms=True)
    out = []
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


def rank_entries(
    index: Index, aq: AnalyzedQuery, doc: str | None = None, category: str | None = None
) -> list[ScoredEntry]:
    """All entries matching `aq` (of source document `doc` and `category` if given),
    best first, scored as the module docstring describes."""
    if not aq.terms:
        return []
    coverage_of = _Coverage(index, aq)

    entry_rows = run_query(
        index, term_query(aq.terms, ENTRY_FIELDS), kind_filter("entry", doc, category), CANDIDATES
    )
    para_rows = run_query(
        index,
        term_query(aq.terms, PARAGRAPH_FIELDS),
        kind_filter("paragraph", doc, category),
        CANDIDATES,
    )
    entry_score: dict[str, float] = {}
    entry_terms: dict[str, set[str]] = defaultdict(set)
    for fields, score, matched in entry_rows:
        entry_score[fields["entry"]] = score
        entry_terms[fields["entry"]] |= matched
    best_para: dict[str, tuple[float, int, set[str]]] = {}
    for fields, score, matched in para_rows:
        eid = fields["entry"]
        value = score * coverage_of(matched)
        if eid not in best_para or value > best_para[eid][0]:
            best_para[eid] = (value, fields["paragraph"], matched)

    top_entry = max(entry_score.values(), default=1.0) or 1.0
    top_para = max((v[0] for v in best_para.values()), default=1.0) or 1.0
    scored = []
    for eid in set(entry_score) | set(best_para):
        coverage = coverage_of(entry_terms.get(eid, set()))
        e = entry_score.get(eid, 0.0) / top_entry
        p = best_para[eid][0] / top_para if eid in best_para else 0.0
        score = (0.5 * e + 0.5 * p) * (coverage + 0.05)
        scored.append(ScoredEntry(eid, score, best_para[eid][1] if eid in best_para else None))
    order = {r.id: i for i, r in enumerate(index.entries())}
    scored.sort(key=lambda s: (-s.score, order.get(s.entry, 0)))
    return scored


# --- snippets -----------------------------------------------------------------------


def highlight(index: Index, text: str, terms: set[str] | dict, limit: int = SNIPPET_CHARS) -> str:
    """Safe HTML of `text` (cut to about `limit` characters around the first match)
    with the words whose terms are in `terms` wrapped in <mark>."""
    spans: list[tuple[int, int]] = []
    for t in _analyzer(index)(text, mode="index", chars=True, removestops=False):
        if t.text in terms and (not spans or spans[-1] != (t.startchar, t.endchar)):
            spans.append((t.startchar, t.endchar))
    start, end = 0, len(text)
    if len(text) > limit:
        first = spans[0][0] if spans else 0
        start = max(0, first - limit // 4)
        # start at a word boundary
        if start > 0:
            space = text.rfind(" ", 0, start)
            start = space + 1 if space >= 0 else start
        end = min(len(text), start + limit)
        space = text.rfind(" ", start, end)
        if end < len(text) and space > start:
            end = space
    out: list[str] = ["…" if start > 0 else ""]
    pos = start
    for s, e in spans:
        if s < pos or e > end:
            continue
        out.append(html.escape(text[pos:s]))
        out.append(f"<mark>{html.escape(text[s:e])}</mark>")
        pos = e
    out.append(html.escape(text[pos:end]))
    if end < len(text):
        out.append(" …")
    return "".join(out)


# --- public functions ---------------------------------------------------------------


def search(
    index: Index,
    query: str,
    *,
    n: int = 10,
    doc: str | None = None,
    category: str | None = None,
    dense: bool = True,
) -> SearchResult:
    """Ranked entries for `query` (see the module docstring)."""
    aq = analyze_query(index, query)
    scored = rank_entries(index, aq, doc, category)
    if dense:
        from faq_bot.hybrid import hybrid_rank

        scored = hybrid_rank(index, query.strip(), scored, doc, category)
    hits = []
    for s in scored[: max(0, n)]:
        record = index.entry(s.entry)
        if record is None:
            continue
        paragraphs = record.plain_paragraphs
        para = s.paragraph if s.paragraph is not None and s.paragraph < len(paragraphs) else None
        source = paragraphs[para] if para is not None else (paragraphs[0] if paragraphs else "")
        document = index.document(record.doc) or {}
        hits.append(
            Hit(
                id=record.id,
                doc=record.doc,
                title=record.title,
                url=f"/entry/{record.id}",
                score=s.score,
                snippet=highlight(index, source, aq.terms),
                text=record.text,
                category=record.category,
                doc_title=document.get("title"),
                paragraph=para,
            )
        )
    return SearchResult(query=query.strip(), hits=hits, total=len(scored), suggestion=aq.suggestion)


def search_paragraphs(
    index: Index, query: str, *, n: int = 10, doc: str | None = None
) -> list[ParagraphHit]:
    """The best single paragraphs for `query`, best first."""
    aq = analyze_query(index, query)
    if not aq.terms:
        return []
    coverage_of = _Coverage(index, aq)
    rows = run_query(
        index, term_query(aq.terms, PARAGRAPH_FIELDS), kind_filter("paragraph", doc), CANDIDATES
    )
    out = []
    for fields, score, matched in rows:
        coverage = coverage_of(matched)
        record = index.entry(fields["entry"])
        if record is None:
            continue
        n_para = fields["paragraph"]
        out.append(
            ParagraphHit(
                entry=record.id,
                paragraph=n_para,
                text=record.plain_paragraphs[n_para],
                score=score * coverage,
                title=record.title,
                doc=record.doc,
            )
        )
    out.sort(key=lambda h: -h.score)
    return out[: max(0, n)]


def suggest_titles(index: Index, prefix: str, n: int = 8) -> list[dict[str, str]]:
    """Titles and aliases starting with (then containing a word starting with) `prefix`."""
    wanted = " ".join(fold(w) for w in _WORD.findall(prefix or ""))
    if not wanted:
        return []
    starts: list[tuple[str, str]] = []
    inner: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for record in index.entries():
        for name in dict.fromkeys((record.title, *record.aliases)):
            key = (name, record.id)
            if key in seen:
                continue
            folded = " ".join(fold(w) for w in _WORD.findall(name))
            if folded.startswith(wanted):
                starts.append(key)
                seen.add(key)
            elif f" {wanted}" in f" {folded}":
                inner.append(key)
                seen.add(key)
    ranked = sorted(starts, key=lambda k: (len(k[0]), k[0])) + sorted(inner, key=lambda k: k[0])
    return [{"title": t, "id": i, "url": f"/entry/{i}"} for t, i in ranked[: max(0, n)]]
