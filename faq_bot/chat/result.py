"""What the chatbot answers (`Answer`) and its JSON (`Answer.to_json`, the body of ``POST
/api/ask``); `faq_bot.chat.answer` reads a question and makes one."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from faq_bot.corpus.model import ShownTable
from faq_bot.hits import longer_json
from faq_bot.query import MAX_QUERY_LENGTH
from faq_bot.search import Hit
from faq_bot.text import entry_path, sentence_link, sentence_window

from .passage import Passage
from .wording import rest_of

__all__ = ["EXCERPT_CHARS", "Answer"]

# A paragraph longer than this is shown as the sentences around its key sentence first (the
# passage issue 9 asks for, "<= ~700 characters"), the whole paragraph a tap away
EXCERPT_CHARS = 700


@dataclass
class Answer:
    question: str
    confident: bool
    confidence: float
    message: str
    passage: Passage | None  # the best passage found; presented only when confident
    entry: Hit | None
    sources: list[Hit] = field(default_factory=list)
    related: list[dict[str, Any]] = field(default_factory=list)
    suggestion: str | None = None
    check_url: str | None = None
    followup: bool = False
    context: str | None = None
    # read with the newest answered turn, the declined turns after it left out (`context`
    # names that turn; the page's turn token keeps it, `shown_of`, and a history sends it
    # back, so a follow-up of this turn reads on from there)
    back: bool = False
    # shaped like a follow-up but read on its own, not with the (declined) question before
    # it: the chat says so („Für sich gelesen …“, templates/ask/_turn.html, static/chat.js)
    alone: bool = False
    doc_title: str | None = None
    date_text: str | None = None
    citation: str | None = None  # without its URL: `to_json` adds it (absolute)
    # the path of the answering paragraph's permalink (`EntryRecord.permalink`)
    permalink: str | None = None
    scope: str | None = None  # the one document the answer was limited to (`answer`'s doc)
    signals: dict[str, float] = field(default_factory=dict)  # what confidence is computed from
    # of the calibration questions answered with about this confidence, the share whose
    # passage was right (`faq_bot.chat.confidence.reliability`; None: not calibrated)
    reliability: float | None = None
    caution: str | None = None  # said under the message when that share is under SURE
    # a declined answer: the search's first hits not in `related` (`searched_first`)
    search_first: list[dict[str, Any]] = field(default_factory=list)
    # a declined answer: the entry of the last turn answered with confidence (`earlier_item`)
    earlier: dict[str, Any] | None = None
    # a declined answer: the question's nouns no document mentions (`unmentioned_words`),
    # which its message names (`unmentioned_note`)
    unmentioned: list[str] = field(default_factory=list)
    # of those, the ones the documents hold only in longer words, with those words
    # (`faq_bot.query.longer_words_of`), which its message names too
    longer: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # the answering paragraph's table when it is shown alone (`passage_table`)
    table: ShownTable | None = None

    def to_json(self, base_url: str = "") -> dict[str, Any]:
        """The answer JSON; `base_url` (e.g. ``https://host``) makes its ``absolute_url``,
        ``paragraph_url`` and the citation's URL absolute."""
        answer = None
        if self.confident and self.passage is not None and self.entry is not None:
            p = self.passage
            start, end = p.highlight
            low, high = sentence_window(p.text, start, end, EXCERPT_CHARS)
            url = entry_path(p.entry, p.paragraph)
            base = base_url.rstrip("/")
            page = self.permalink or url
            link = base + page  # the paragraph's permalink
            answer = {
                "text": p.text,
                "paragraph": p.paragraph,
                "fragment": f"p{p.paragraph}",
                "url": url,
                "absolute_url": base + url,
                "paragraph_url": link,
                # the pages' source link, relative like `url`: the permalink, scrolled to the
                # key sentence and marked where the browser knows text fragments (a table's
                # text runs its cells together)
                "sentence_url": page
                if self.table
                else sentence_link(page, p.text[start:end], before=p.text[:start]),
                "highlight": {"text": p.text[start:end], "start": start, "end": end},
                "excerpt": {"start": low, "end": high},
                "entry": self.entry.to_json(with_text=False),
                "title": self.entry.title,
                "doc_title": self.doc_title,
                "date_text": self.date_text,
                "citation": f"{self.citation}{link}",
                "via": p.via,
                # a table's rows, header first (its text runs the cells together), and
                # the prose before it in its paragraph
                "table": [list(row) for row in self.table.rows] if self.table else None,
                "table_lead": (self.table.lead or None) if self.table else None,
                # the items of a list too long to show whole: how many, where they begin
                "rest": rest_of(p),
            }
        return {
            "question": self.question,
            "confident": self.confident,
            "confidence": round(self.confidence, 4),
            "message": self.message,
            "answer": answer,
            "sources": [h.to_json() for h in self.sources],
            "related": self.related,
            "suggestion": self.suggestion,
            "check_url": self.check_url,
            "followup": self.followup,
            "context": self.context,
            "alone": self.alone,
            "back": self.back,
            "scope": self.scope,
            "search_query": self.search_query,
            "search_first": self.search_first,
            "earlier": self.earlier,
            "unmentioned": list(self.unmentioned),
            "longer_words": longer_json(self.longer),
            "reliability": None if self.reliability is None else round(self.reliability, 2),
            "caution": self.caution,
        }

    @property
    def search_query(self) -> str:
        """What "In der Suche nachsehen" searches: a follow-up with the earlier question it
        was read with ("und mit einem Fahrzeug?" alone finds nothing), when both fit in a
        search query."""
        both = f"{self.context} {self.question}" if self.context else self.question
        return both if len(both) <= MAX_QUERY_LENGTH else self.question
