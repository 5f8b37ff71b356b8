"""What the chat showed: an earlier turn kept as it was shown, and shown again
without retrieval.

The chat page without JavaScript (``/ask``, `faq_bot.web.ask`) keeps the
conversation in the page itself: each earlier turn travels as one form field
``t`` (a *turn token*, below), and the server renders it again from the index by
id. It never searches or embeds for an earlier turn: only the new question is
answered, with the earlier turns as its history (`Turn`), so a page request
computes at most one query embedding however long the conversation is.

``Shown.parse(token) -> Shown`` / ``Shown.token() -> str``
    A turn token: ``<head>[_<item>]...~<question>``, everything before the first
    ``~`` ASCII, the question (normalised, at most `MAX_QUESTION_LENGTH`) after it.
    ``<head>`` is what the turn answered: ``<entry>.<paragraph>.<start>.<end>``
    (the entry and paragraph of the passage and the key sentence's offsets in the
    passage as shown), ``-`` (declined), ``x`` (its entry is gone from the index)
    or ``q`` (an earlier question from an old link that only carried questions,
    never answered again). Each ``<item>`` is a related entry as listed under the
    answer: ``l.<entry>`` (a cross reference) or ``s.<entry>[.<paragraph>]``
    (similar, with the paragraph its link jumps to). Entry ids are URL slugs
    (`ENTRY_ID`). E.g. ``227-pfund-bombe-basisausbau.2.0.57_s.flakbatterie.3~Wer
    bezahlt, wenn meine 227er gekontert wird?``. `parse` raises `QuestionError`
    (German) for anything else.
``shown_of(data) -> Shown``
    The turn an answer's JSON (`Answer.to_json`) shows.
``show(index, shown, before) -> tuple[Answer, Shown]``
    The turn rendered again as an `Answer` (for the same template as a new
    answer), read with the earlier turns `before` (for its "Im Zusammenhang mit"
    line), and the turn as it is shown now: an answer whose entry or paragraph
    the index no longer has becomes ``x`` and says so (`GONE`) instead of failing.
    Runs no search and no embedding; only the spelling suggestion is read again
    (the query analysis, lexical).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from faq_bot.dense import dense_mode
from faq_bot.index import EntryRecord, Index
from faq_bot.question import (
    MAX_QUESTION_LENGTH,
    QUESTION_PATTERN,
    QuestionError,
    check_question,
)
from faq_bot.search import QueryError, analyze_query
from faq_bot.stack.link import check_url_for
from faq_bot.text import citation

from .answer import Answer, _hit, _related_item, declined_message, found_message
from .history import MAX_HISTORY, Turn, context_turns
from .passage import Passage, with_neighbours

__all__ = [
    "DECLINED",
    "ENTRY_ID",
    "GONE",
    "MAX_TOKEN",
    "TOKEN_PATTERN",
    "UNANSWERED",
    "Shown",
    "parse_conversation",
    "show",
    "shown_of",
]

ANSWERED, DECLINED, GONE, UNANSWERED = "answered", "-", "x", "q"
GONE_MESSAGE = (
    "Dieser Eintrag ist nicht mehr vorhanden oder wurde seitdem geändert. "
    "Stellen Sie die Frage bei Bedarf noch einmal."
)
UNANSWERED_MESSAGE = "Frühere Frage aus einem älteren Link: die Antwort wird hier nicht wiederholt."

MAX_ITEMS = 16  # related entries a token keeps (an answer lists at most 5 similar + its links)
MAX_HEAD = 240  # characters of a token before its question
MAX_TOKEN = MAX_HEAD * (1 + MAX_ITEMS) + 1 + MAX_QUESTION_LENGTH
ENTRY_ID = r"[a-z0-9][a-z0-9-]{0,199}"  # `faq_bot.text.slugify`
_ANSWER_PATTERN = rf"({ENTRY_ID})\.(\d{{1,4}})\.(\d{{1,6}})\.(\d{{1,6}})"
_ITEM_PATTERN = rf"([ls])\.({ENTRY_ID})(?:\.(\d{{1,4}}))?"
_ANSWER = re.compile(_ANSWER_PATTERN)
_ITEM = re.compile(_ITEM_PATTERN)
# a token's shape as a regular expression (for the OpenAPI description; `Shown.parse`
# checks more: the question, the order of the key sentence's offsets)
TOKEN_PATTERN = (
    rf"^(?:[-xq]|{_ANSWER_PATTERN})(?:_{_ITEM_PATTERN}){{0,{MAX_ITEMS}}}~.*{QUESTION_PATTERN}"
)
_REASONS = {"l": "link", "s": "similar"}
_LETTERS = {v: k for k, v in _REASONS.items()}


@dataclass(frozen=True)
class Shown:
    """One earlier turn as the page showed it."""

    question: str
    kind: str = UNANSWERED  # ANSWERED, DECLINED, GONE or UNANSWERED
    entry: str | None = None
    paragraph: int = 0
    highlight: tuple[int, int] = (0, 0)
    related: tuple[tuple[str, str, int | None], ...] = ()  # (reason, entry, paragraph)

    @classmethod
    def parse(cls, token: str) -> Shown:
        """The turn a token names; `QuestionError` (German) when it is not one."""
        if len(token) > MAX_TOKEN:
            raise QuestionError(f"zu lang (höchstens {MAX_TOKEN} Zeichen).")
        head, sep, question = token.partition("~")
        if not sep:
            raise QuestionError("kein Gesprächsschritt dieser Seite (es fehlt „~“ vor der Frage).")
        text = check_question(question)
        answer, *items = head.split("_")
        if len(items) > MAX_ITEMS:
            raise QuestionError(f"zu viele verwandte Einträge (höchstens {MAX_ITEMS}).")
        related = []
        for item in items:
            m = _ITEM.fullmatch(item)
            if m is None:
                raise QuestionError(f"„{item[:60]}“ ist kein verwandter Eintrag.")
            paragraph = int(m[3]) if m[3] is not None else None
            related.append((_REASONS[m[1]], m[2], paragraph))
        if answer in (DECLINED, GONE, UNANSWERED):
            return cls(text, answer, related=tuple(related))
        m = _ANSWER.fullmatch(answer)
        if m is None:
            raise QuestionError(f"„{answer[:60]}“ ist keine Antwort (Eintrag.Absatz.Von.Bis).")
        start, end = int(m[3]), int(m[4])
        if start > end:
            raise QuestionError("der Kernsatz endet vor seinem Anfang.")
        return cls(text, ANSWERED, m[1], int(m[2]), (start, end), tuple(related))

    def token(self) -> str:
        if self.kind == ANSWERED:
            head = f"{self.entry}.{self.paragraph}.{self.highlight[0]}.{self.highlight[1]}"
        else:
            head = self.kind
        items = [
            f"{_LETTERS[reason]}.{entry}" + ("" if paragraph is None else f".{paragraph}")
            for reason, entry, paragraph in self.related
        ]
        return "_".join([head, *items]) + "~" + self.question

    def turn(self) -> Turn:
        """What a follow-up is read with (as chat.js sends it to ``/api/ask``)."""
        return Turn(self.question, self.entry if self.kind == ANSWERED else None)


def parse_conversation(questions: list[str], tokens: list[str]) -> list[Shown]:
    """The earlier turns of a chat form, oldest first: `questions` (the plain
    questions of old links, field ``h``, taken as older) then `tokens` (field ``t``).
    `QuestionError` (German) when one is malformed or there are more than
    `MAX_HISTORY`."""
    if len(questions) + len(tokens) > MAX_HISTORY:
        raise QuestionError(
            f"Der Verlauf ist zu lang (höchstens {MAX_HISTORY} frühere Fragen). "
            "Bitte ein neues Gespräch beginnen."
        )
    out = []
    for i, value in enumerate([*questions, *tokens], 1):
        try:
            if i <= len(questions):
                out.append(Shown(check_question(value)))
            else:
                out.append(Shown.parse(value))
        except QuestionError as exc:
            raise QuestionError(f"Verlauf, Eintrag {i}: {exc}") from None
    return out


def shown_of(data: dict[str, Any]) -> Shown:
    """The turn an answer's JSON shows (what the page carries on)."""
    related = tuple(
        (r["reason"], r["id"], r.get("paragraph"))
        for r in data.get("related") or []
        if r.get("reason") in _LETTERS and re.fullmatch(ENTRY_ID, r["id"])
    )[:MAX_ITEMS]
    found = data.get("answer")
    if not found:
        return Shown(data["question"], DECLINED, related=related)
    entry = found["entry"]["id"]
    if not re.fullmatch(ENTRY_ID, entry):  # cannot happen with slug ids: then not kept
        return Shown(data["question"], UNANSWERED)
    span = (found["highlight"]["start"], found["highlight"]["end"])
    return Shown(data["question"], ANSWERED, entry, found["paragraph"], span, related)


def _passage(index: Index, shown: Shown) -> tuple[EntryRecord, Passage] | None:
    """The passage an answered turn showed, as the index has it now (or None)."""
    record = index.entry(shown.entry or "")
    if record is None or shown.paragraph >= len(record.plain_paragraphs):
        return None
    text = record.plain_paragraphs[shown.paragraph]
    passage = Passage(record.id, shown.paragraph, text, 0.0, 1.0, (0, 0))
    if dense_mode(index) == "hybrid":  # as `answer` shows it with the embedder
        passage = with_neighbours(record, passage)
    if shown.highlight[1] > len(passage.text):
        return None
    return record, Passage(record.id, shown.paragraph, passage.text, 0.0, 1.0, shown.highlight)


def _suggestion(index: Index, question: str) -> str | None:
    try:
        return analyze_query(index, question).suggestion
    except QueryError:
        return None


def show(index: Index, shown: Shown, before: list[Turn]) -> tuple[Answer, Shown]:
    """`shown` rendered again without retrieval, read with the turns `before` it,
    and the turn as shown now (an answer the index lost becomes `GONE`)."""
    found = _passage(index, shown) if shown.kind == ANSWERED else None
    if shown.kind == ANSWERED and found is None:
        shown = Shown(shown.question, GONE)
    related = []
    for reason, entry, paragraph in shown.related:
        if (other := index.entry(entry)) is not None:
            related.append(_related_item(index, other, paragraph, reason))
    context = context_turns(before, shown.question)
    result = Answer(
        question=shown.question,
        confident=found is not None,
        confidence=1.0 if found is not None else 0.0,
        message={GONE: GONE_MESSAGE, UNANSWERED: UNANSWERED_MESSAGE}.get(shown.kind, ""),
        passage=None,
        entry=None,
        related=related,
        suggestion=_suggestion(index, shown.question),
        check_url=check_url_for(shown.question),
        followup=bool(context),
        context=context[0].question if context else None,
    )
    if shown.kind == DECLINED:
        result.message = declined_message(related)
    if found is not None:
        record, passage = found
        doc = index.document(record.doc) or {}
        result.message = found_message(record, doc)
        result.passage = passage
        result.entry = _hit(index, record, passage.paragraph, {}, 0.0)
        result.sources = [result.entry]
        result.doc_title, result.date_text = doc.get("title"), doc.get("date_text")
        result.citation = citation(record.title, doc)
    return result, shown
