"""What a search gives: its hits (`Hit`: an entry with a marked snippet), the result
(`SearchResult`) and single paragraphs (`ParagraphHit`), each with its JSON form;
`faq_bot.search` ranks them."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from faq_bot.text import said_back

__all__ = [
    "UNWORDED",
    "Hit",
    "ParagraphHit",
    "SearchResult",
    "listed",
    "longer_json",
    "quoted_list",
    "read_words",
    "read_note",
    "longer_note",
]

# the label of a hit that holds no word of the query (`Hit.matched` False), wherever a hit
# is listed: the search page, the chat's search hits, the terminal
UNWORDED = "ohne Suchwort, nur inhaltlich ähnlich"


def longer_note(word: str, words: Sequence[str]) -> str:
    """That the documents hold `word` only in the longer `words`
    (`faq_bot.query.longer_words`), as the chat and `faq-bot search` say it."""
    return f"„{word}“ steht in den Dokumenten nur in längeren Wörtern: {quoted_list(words)}."


def listed(items: Sequence[str]) -> str:
    """`items` as German lists them: „A“, „A und B“, „A, B und C“."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} und {items[-1]}"


def quoted_list(words: Sequence[str]) -> str:
    """`words` in German quotes, `listed`: „„A“, „B“ und „C““."""
    return listed([f"„{w}“" for w in words])


_WORDS = re.compile(r"\w+")


def read_words(query: str, suggestion: str) -> list[tuple[str, str]]:
    """The words of `query` the search read as other words, each with its reading: the
    suggestion replaces words one for one (`faq_bot.query.analyze_query`), so a question
    with a slip is said back as that word („„pasiert“ wurde gelesen als „passiert““), not
    as the whole question twice (a phone review: four lines on a 320 px screen); a slip
    typed twice, once. [] when the words do not line up."""
    typed, read = _WORDS.findall(query), _WORDS.findall(suggestion)
    if len(typed) != len(read):
        return []
    return list(dict.fromkeys((t, r) for t, r in zip(typed, read, strict=True) if t != r))


def read_note(query: str, suggestion: str) -> str:
    """How the search read `query` (as cleaned for the search, `faq_bot.text.read_as`), as
    `faq-bot search` says it: the words read otherwise (`read_words`), in the search page's
    words, or the whole query and its reading where the words do not line up. A question
    with one slip printed the whole question back, cut at 80 characters, so the slip could
    fall behind the cut."""
    pairs = read_words(query, suggestion)
    if not pairs:
        return f"{said_back(query)} wurde gelesen als {said_back(suggestion)}."
    said = [
        f"{said_back(typed, 40)}{'' if place else ' wurde gelesen'} als {said_back(read, 40)}"
        for place, (typed, read) in enumerate(pairs)
    ]
    return ", ".join(said) + "."


def longer_json(pairs: Sequence[tuple[str, Sequence[str]]]) -> list[dict[str, Any]]:
    """`longer_words` of a search result or an answer: each word with the longer ones."""
    return [{"word": word, "words": list(words)} for word, words in pairs]


_MARK = re.compile(r"</?mark>")


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
    # whether the entry holds a word of the query (False: listed by the dense retriever for
    # its meaning alone; the search page says so)
    matched: bool = True
    # the entry is nothing but a reference („Kampf“: „s. bei Beispielkampf“): its words and
    # the target's path, {"lead", "text", "tail", "target", "url"} (`faq_bot.links.pointer`);
    # a hit list links the target instead of the snippet. The pages' alone, not the API's.
    see: Mapping[str, str] | None = field(default=None, compare=False)
    # the text directive (``text=…``, `faq_bot.text.text_directive`) naming the snippet's
    # sentence: the pages' link opens the ruling scrolled to it, where a paragraph is long
    # (a phone review: the matched words stood 743 px down a 568 px screen). None for a hit
    # close in meaning alone, a table (its text runs the cells together) and an entry that
    # is only a reference (`see`), and unless the search was asked for it (`fragments`): the
    # pages' alone, not the API's.
    fragment: str | None = field(default=None, compare=False)

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
            "matched": self.matched,
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
    mode: str = "lexical"  # the search mode that ranked the hits
    # how many entries hold a word of the query (the lexical ranking's entries; in hybrid
    # mode the rest of `total` are close in meaning only)
    matched: int = 0
    # the query's words no document holds on their own, each with the corpus words that
    # hold it (`faq_bot.query.longer_words`): (("Fernkampf", ("Fernkampfphase",)),)
    longer: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "mode": self.mode,
            "total": self.total,
            "matched": self.matched,
            "suggestion": self.suggestion,
            "longer_words": longer_json(self.longer),
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
