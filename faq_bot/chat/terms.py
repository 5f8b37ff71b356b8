"""What the chatbot compares: analyzed terms of entries and the coverage of a question.

``entry_terms(index, record) -> EntryTerms``
    The analyzed terms of an entry's heading (title and aliases), its headword
    (their own words, no compound parts or expansions), paragraphs and
    sentences; cached per build.
``Coverage(index, terms, words)``
    The IDF-weighted share of a query's words found in sets of terms
    (``coverage(*found)``), whether the query names a headword (``names``) and
    how many distinctive words it matches (``evidence``).
``reference_target(index, record) -> EntryRecord | None``
    The entry a reference-only entry ("s. Multiplayer-Spiel") points to.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from faq_bot.index import WARMERS, EntryRecord, Index
from faq_bot.search import QueryCoverage
from faq_bot.text import split_sentences

__all__ = [
    "HEADWORD_MIN_IDF",
    "Coverage",
    "EntryTerms",
    "entry_terms",
    "reference_target",
]

HEADWORD_MIN_IDF = 2.0  # a distinctive word: not everywhere ("Spiel", "Karte" are)
MIN_STEM_PREFIX = 6  # a term this long names a headword term it begins (or that begins it)

_REFERENCE_ONLY = re.compile(r"^\s*(s\.|siehe|vgl\.)", re.IGNORECASE)


@dataclass(frozen=True)
class EntryTerms:
    heading: frozenset[str]
    headword: frozenset[str]  # the title's and aliases' own words (no parts, no expansions)
    paragraphs: tuple[frozenset[str], ...]
    sentences: tuple[tuple[tuple[int, int, frozenset[str]], ...], ...]


def _analyze(index: Index, text: str) -> frozenset[str]:
    return frozenset(t.text for t in index.analyzer(text, mode="index"))


def entry_terms(index: Index, record: EntryRecord) -> EntryTerms:
    """The analyzed terms of an entry's heading, paragraphs and sentences (cached)."""
    cache = index.state.entry_terms
    found = cache.get(record.id)
    if found is not None:
        return found
    names = " ".join((record.title, *record.aliases))
    heading = _analyze(index, names)
    headword = frozenset(
        t.text for t in index.analyzer(names, mode="index") if not getattr(t, "extra", None)
    )
    paragraphs = []
    sentences = []
    for text in record.plain_paragraphs:
        spans = tuple((s, e, _analyze(index, text[s:e])) for s, e in split_sentences(text))
        sentences.append(spans)
        paragraphs.append(frozenset().union(*(t for _s, _e, t in spans)) if spans else frozenset())
    found = EntryTerms(heading, headword, tuple(paragraphs), tuple(sentences))
    return cache.put(record.id, found)


def _warm_entry_terms(index: Index) -> None:
    """The entries' analyzed terms when a build opens (~0.4 s CPU at x1), so no question
    pays for them; no more entries than their cache holds (a x100 corpus has more)."""
    for record in itertools.islice(index.iter_entries(), index.state.entry_terms.size):
        entry_terms(index, record)


WARMERS.append(_warm_entry_terms)


def reference_target(index: Index, record: EntryRecord) -> EntryRecord | None:
    """The entry a reference-only entry ("s. Multiplayer-Spiel") points to, else None."""
    if len(record.plain_paragraphs) != 1 or len(record.text) > 80:
        return None
    if not _REFERENCE_ONLY.match(record.text):
        return None
    for link in record.links:
        target = index.entry(link["target"]) if link.get("target") else None
        if target is not None and target.id != record.id:
            return target
    return None


def same_stem(a: str, b: str) -> bool:
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= MIN_STEM_PREFIX and long.startswith(short)


class Coverage(QueryCoverage):
    """The question's coverage (`faq_bot.search.QueryCoverage`), with what the
    chatbot asks of it besides: the headword named, the distinctive words found,
    the most specific word missing."""

    def __init__(self, index: Index, terms: dict[str, float], words: Sequence[frozenset[str]]):
        super().__init__(index, terms, words)
        self.typed = dict(terms)

    def names(self, headword: frozenset[str]) -> bool:
        """Whether a word of the query, as typed, is a distinctive word of `headword`
        (or one begins with the other: "Erschütterungstest" names "Erschütterung")."""
        return any(
            self.typed.get(t, 0.0) >= 0.9
            and self.idf[t] >= HEADWORD_MIN_IDF
            and any(same_stem(t, h) for h in headword)
            for word in self.words
            for t in word
        )

    def evidence(self, *found: frozenset[str]) -> int:
        """How many distinctive words of the query (IDF >= `HEADWORD_MIN_IDF`) are found."""
        return sum(
            1
            for word in self.words
            if any(self.idf[t] >= HEADWORD_MIN_IDF and any(t in f for f in found) for t in word)
        )

    def missing(self, *found: frozenset[str]) -> float:
        """The highest IDF of a query word none of whose terms is found (0 if none is
        missing): a specific thing the question names that the passage does not."""
        return max(
            (
                max(self.idf[t] for t in word)
                for word in self.words
                if not any(t in f for t in word for f in found)
            ),
            default=0.0,
        )
