"""What the chat showed: an earlier turn kept as it was shown, and shown again
without retrieval.

The chat page without JavaScript (``/ask``, `faq_bot.web.ask`) keeps the
conversation in the page itself: each earlier turn travels as one form field
``t`` (a *turn token*, below), and the server renders it again from the index by
id. It never searches or embeds for an earlier turn: only the new question is
answered, with the earlier turns as its history (`Turn`), so a page request
computes at most one query embedding however long the conversation is.

Tokens are user input (links to ``/ask`` get shared), so the server signs the
tokens it issues and redraws only those as answers: anyone could otherwise
forge a link that presents any paragraph, with any highlight, as the bot's
answer to any question. The key is the service's secret
(`faq_bot.config.turn_secret`, the same in every worker and across restarts).

``Shown.parse(token, key) -> Shown`` / ``Shown.token(key) -> str``
    A turn token: ``<head>[_<item>]...:<signature>~<question>``, everything
    before the first ``~`` ASCII, the question (as asked, tidied: `tidy_question`; at most
    `MAX_QUESTION_LENGTH`) after it. ``<head>`` is what the turn answered:
    ``<entry>.<paragraph>.<start>.<end>.<fingerprint>`` (the entry and paragraph
    of the passage, the key sentence's offsets in the passage as shown and the
    first 8 hex digits of the SHA-256 of that passage text, `fingerprint`),
    ``-`` (declined), ``x`` (its entry is gone from the index or its text
    changed), ``q`` (an earlier question from an old link that only carried
    questions, never answered again) or ``u`` (an earlier turn whose token did
    not verify, below). Each ``<item>`` is a related entry as listed under the
    answer: ``l.<entry>`` (a cross reference) or ``s.<entry>[.<paragraph>]``
    (similar, with the paragraph its link jumps to); then, for a declined answer, each of
    the search's first hits it offered (`Answer.search_first`): ``f.<entry>[.<paragraph>]``
    (at most `SEARCH_FIRST`, shown again as listed, not searched again); ``k.<fingerprint>``
    when the turn was read with an earlier question, the `fingerprint` of that question's
    text (`READ_WITH`: shown again „Im Zusammenhang mit“ it only when the turns before it in
    the link hold it there, so a turn spliced after other turns does not show theirs; placed
    where a version before it skips it); ``a.allein``
    (`ALONE`) when a question shaped like a follow-up was read alone all the same (shown
    again without „Im Zusammenhang mit“; a version before it skips it), or ``a.zurueck``
    (`BACK`) when it was read with the newest answered turn, the declined ones after it
    left out (shown again „Im Zusammenhang mit“ that turn); and when one of
    them holds no word of the search text, ``m.<flags>``: one digit per hit, ``1`` holds a
    word, ``0`` close in meaning only (shown again with its label,
    `faq_bot.search.UNWORDED`; a version before the item skips it as a later version's
    and shows the hits unlabelled); then
    ``r.<percent>`` when the answer
    said it was unsure (`Answer.caution`: the share right of the calibration questions
    answered with about its confidence, so the turn shown again says so too); then
    ``d.<document>`` when
    the answer was limited to one document (its `Answer.scope`, so the turn shown
    again says so and its links keep the limit); a
    last item ``c`` says the
    turn was read with the turns before it (a question not shaped like a
    follow-up can be, `faq_bot.chat.answer`; without ``c`` its shape decides, as
    for tokens from before the mark). Entry ids are URL slugs
    (`ENTRY_ID`). ``<signature>``: `SIGNATURE_LENGTH` base64url characters of the
    HMAC-SHA-256 of everything else (``<head>[_<item>]...[_c]~<question>``). E.g.
    ``227-pfund-bombe-basisausbau.2.0.57.3f1c9a20_s.flakbatterie.3:Jx0…~Wer
    bezahlt, wenn meine 227er gekontert wird?``. `parse` raises `QuestionError`
    (German) for anything malformed. A well-formed token whose signature is
    missing or wrong (forged, altered, or from before tokens were signed) is not
    an error: it becomes ``u``, shown as its question only with
    `UNVERIFIED_MESSAGE` and read as history by its question only. A link ends in its
    last question, whose end a forum may change (a final "?" left out, a "." or ")"
    taken in): a question that verifies once changed back (`as_linked`) is shown as signed.
``shown_of(data) -> Shown``
    The turn an answer's JSON (`Answer.to_json`) shows.
``show(index, shown, before) -> tuple[Answer, Shown]``
    The turn rendered again as an `Answer` (for the same template as a new
    answer), read with the earlier turns `before` (for its "Im Zusammenhang mit"
    line), and the turn as it is shown now: an answer whose entry or paragraph
    the index no longer has, whose passage text differs from the one it showed
    (its fingerprint) or whose key sentence is empty or outside the passage
    becomes ``x`` and says so (`GONE`) instead of failing or highlighting stale
    offsets. A related entry or search hit the index no longer has, or whose paragraph
    it no longer has, is left out (the rest of the turn still stands: the token was
    signed, so the item was listed then). Runs no search and no embedding; only
    the spelling suggestion is read again (the query analysis, lexical).
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import Any

from faq_bot.dense import dense_mode
from faq_bot.index import EntryRecord, Index
from faq_bot.query import QueryError, analyze_query, longer_words_of
from faq_bot.question import (
    MAX_QUESTION_LENGTH,
    QUESTION_PATTERN,
    QuestionError,
    check_question,
    is_followup,
    normalize_question,
    tidy_question,
)
from faq_bot.stack.link import check_url_for
from faq_bot.text import FINGERPRINT_LENGTH, LINK_TAIL, fingerprint, said_back

from .history import MAX_HISTORY, Turn, context_turns, last_answered
from .items import SEARCH_FIRST, earlier_item, related_item, search_item, source_hit
from .passage import Passage, passage_table, with_neighbours
from .result import Answer
from .wording import (
    caution_note,
    cited,
    declined_message,
    found_message,
    note_other_game,
    unmentioned_words,
)

__all__ = [
    "DECLINED",
    "ENTRY_ID",
    "GONE",
    "MAX_TOKEN",
    "SIGNATURE_LENGTH",
    "TOKEN_PATTERN",
    "UNANSWERED",
    "UNVERIFIED",
    "Shown",
    "fingerprint",
    "passage_text",
    "parse_conversation",
    "show",
    "shown_of",
    "sign",
]

ANSWERED, DECLINED, GONE, UNANSWERED, UNVERIFIED = "answered", "-", "x", "q", "u"
GONE_MESSAGE = (
    "Dieser Eintrag ist nicht mehr vorhanden oder wurde seitdem geändert. "
    "Stellen Sie die Frage bei Bedarf noch einmal."
)
UNANSWERED_MESSAGE = "Frühere Frage aus einem älteren Link: Die Antwort wird hier nicht wiederholt."
UNVERIFIED_MESSAGE = "Diese frühere Antwort ließ sich nicht prüfen und wird nicht wiederholt."

MAX_ITEMS = 16  # related entries a token keeps (an answer lists at most 5 similar + its links)
CONTEXT = "c"  # the last item of a turn read with the turns before it
# the item naming the earlier question a turn was read with: ``k.<fingerprint of its text>``
# (signed with the rest, so a turn spliced after other turns does not show their question
# as the one it was read with, an API probe)
READ_WITH = "k"
# the item of a question shaped like a follow-up that was read alone all the same (asked
# after a declined one, `faq_bot.chat.answer._after_declined`): shaped as an item of a later
# version, so an instance from before it skips it rather than refusing the token
ALONE = "a.allein"
# the item of a question shaped like a follow-up that was read with the newest answered turn
# before it, the declined turns since left out (`faq_bot.chat.answer._after_declined`)
BACK = "a.zurueck"
MAX_HEAD = 240  # characters of a token's answer or of one item
SIGNATURE_LENGTH = 16  # base64url characters of the HMAC-SHA-256 kept (96 bits)
SCOPE = "d"  # the item of the one document the answer was limited to
UNSURE = "r"  # the item of an unsure answer's reliability, in percent
FOUND = "f"  # the item of one of the search's first hits a declined answer offered
WORDED = "m"  # the item saying which of those hits hold a word of the search text
# the head, the related items, the search hits and the scope item, each at most MAX_HEAD
# characters
MAX_TOKEN = (
    MAX_HEAD * (2 + MAX_ITEMS + SEARCH_FIRST) + 1 + SIGNATURE_LENGTH + 1 + MAX_QUESTION_LENGTH
)
ENTRY_ID = r"[a-z0-9][a-z0-9-]{0,199}"  # `faq_bot.text.slugify`
# the fingerprint is optional here: tokens from before it was added still parse
# (they carry no signature either, so they are shown as `UNVERIFIED`)
_ANSWER_PATTERN = (
    rf"({ENTRY_ID})\.(\d{{1,4}})\.(\d{{1,6}})\.(\d{{1,6}})"
    rf"(?:\.([0-9a-f]{{{FINGERPRINT_LENGTH}}}))?"
)
_ITEM_PATTERN = rf"([ls{FOUND}])\.({ENTRY_ID})(?:\.(\d{{1,4}}))?"
_SCOPE_PATTERN = rf"{SCOPE}\.({ENTRY_ID})"  # document ids are slugs like entry ids
_UNSURE_PATTERN = rf"{UNSURE}\.(\d{{1,2}})"  # under SURE: at most 89
_ANSWER = re.compile(_ANSWER_PATTERN)
_ITEM = re.compile(_ITEM_PATTERN)
_SCOPE = re.compile(_SCOPE_PATTERN)
_UNSURE = re.compile(_UNSURE_PATTERN)
# an item of a later version: a letter this one does not know, a dot and a slug (with a
# number), skipped, so a token from an instance one version ahead (a rolling deployment,
# a rollback) still shows its turn rather than a 400
_WORDED_PATTERN = rf"{WORDED}\.([01]{{1,{SEARCH_FIRST}}})"
_WORDED = re.compile(_WORDED_PATTERN)
_READ_WITH_PATTERN = rf"{READ_WITH}\.([0-9a-f]{{{FINGERPRINT_LENGTH}}})"
_READ_WITH = re.compile(_READ_WITH_PATTERN)
_LATER_ITEM = re.compile(
    rf"(?![ls{FOUND}{WORDED}dr{READ_WITH}]\.)[a-z]\.{ENTRY_ID}(?:\.\d{{1,4}})?"
)
# a token's shape as a regular expression (for the OpenAPI description; `Shown.parse`
# checks more: the question, the order of the key sentence's offsets; a token
# whose signature is missing or wrong is accepted, and shown as its question only)
TOKEN_PATTERN = (
    rf"^(?:[-xqu]|{_ANSWER_PATTERN})(?:_{_ITEM_PATTERN}){{0,{MAX_ITEMS + SEARCH_FIRST}}}"
    rf"(?:_{_READ_WITH_PATTERN})?(?:_(?:{re.escape(ALONE)}|{re.escape(BACK)}))?"
    rf"(?:_{_WORDED_PATTERN})?(?:_{_UNSURE_PATTERN})?(?:_{_SCOPE_PATTERN})?(?:_{CONTEXT})?"
    rf"(?::[A-Za-z0-9_-]{{0,{SIGNATURE_LENGTH}}})?~.*{QUESTION_PATTERN}"
)
_REASONS = {"l": "link", "s": "similar"}
_LETTERS = {v: k for k, v in _REASONS.items()}


# A chat link ends in its last turn's question. What an autolink may leave out of a link's
# end (GitHub's Markdown drops a final "?", "." or "!"), and what a forum may take into it
# from the sentence after it (`faq_bot.text.LINK_TAIL`, as the permalinks tidy it).
LINK_LOST = "?.!"
_TAKEN = re.compile(LINK_TAIL + "{1,8}$")


def as_linked(question: str) -> list[str]:
    """The questions a link ending in `question` may have been made from: itself, then the
    same with what a forum took in dropped or what an autolink left out put back (each
    only verified against the token's signature, so the turn shows what was signed)."""
    bases = [question, _TAKEN.sub("", question)]
    found = dict.fromkeys(b + end for b in bases for end in ("", *LINK_LOST))
    return [q for q in found if q]


def _signs(key: bytes, signature: str, unsigned: str) -> bool:
    return hmac.compare_digest(signature.encode("utf-8"), sign(key, unsigned).encode("ascii"))


def sign(key: bytes, unsigned: str) -> str:
    """The signature of `unsigned` by `key`: `SIGNATURE_LENGTH` base64url characters of its
    HMAC-SHA-256. A turn token signs ``<head>[_<item>]...~<question>`` (no ``:`` before the
    first ``~``); another use of the key must sign text with a ``:`` before its first ``~``
    (e.g. a prefix ``check-notes:``), so neither signature ever verifies as the other."""
    mac = hmac.new(key, unsigned.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode("ascii")[:SIGNATURE_LENGTH]


@dataclass(frozen=True)
class Shown:
    """One earlier turn as the page showed it."""

    question: str
    kind: str = UNANSWERED  # ANSWERED, DECLINED, GONE, UNANSWERED or UNVERIFIED
    entry: str | None = None
    paragraph: int = 0
    highlight: tuple[int, int] = (0, 0)
    related: tuple[tuple[str, str, int | None], ...] = ()  # (reason, entry, paragraph)
    fingerprint: str = ""  # of the passage text as shown (ANSWERED), `fingerprint`
    with_context: bool = False  # read with the turns before it (`CONTEXT`)
    scope: str | None = None  # the one document the answer was limited to (`SCOPE`)
    unsure: int | None = None  # an unsure answer's reliability in percent (`UNSURE`)
    # a declined answer's search hits as offered: (entry, paragraph, whether it holds a word
    # of the search text) (`FOUND`, `WORDED`)
    search_first: tuple[tuple[str, int | None, bool], ...] = ()
    alone: bool = False  # shaped like a follow-up, read alone all the same (`ALONE`)
    back: bool = False  # read with the newest answered turn, the declined ones left out
    # the fingerprint of the earlier question it was read with (`READ_WITH`; "": none, or a
    # token from before the item)
    read_with: str = ""

    @classmethod
    def parse(cls, token: str, key: bytes) -> Shown:
        """The turn a token names, `UNVERIFIED` unless it carries its signature by
        `key`; `QuestionError` (German) when it is not a turn token at all."""
        if len(token) > MAX_TOKEN:
            raise QuestionError(f"zu lang (höchstens {MAX_TOKEN} Zeichen).")
        head, sep, question = token.partition("~")
        if not sep:
            raise QuestionError("kein Gesprächsschritt dieser Seite (es fehlt „~“ vor der Frage).")
        check_question(question)
        text = tidy_question(question)  # shown in the asker's words, searched normalised
        head, _, signature = head.partition(":")
        shown = cls._parse_head(head, text)
        signed = next(
            (q for q in as_linked(question) if _signs(key, signature, f"{head}~{q}")), None
        )
        if signed is None:
            return cls(text, UNVERIFIED)  # forged, altered or unsigned: its question only
        if signed != question:  # a forum changed the link's end: the question as signed
            check_question(signed)
            return dataclasses.replace(shown, question=tidy_question(signed))
        return shown

    @classmethod
    def _parse_head(cls, head: str, text: str) -> Shown:
        answer, *items = head.split("_")
        with_context = bool(items) and items[-1] == CONTEXT
        if with_context:
            items.pop()
        scope = _SCOPE.fullmatch(items[-1]) if items else None
        if scope is not None:
            items.pop()
        kept = scope[1] if scope is not None else None
        unsure = _UNSURE.fullmatch(items[-1]) if items else None
        if unsure is not None:
            items.pop()
        percent = int(unsure[1]) if unsure is not None else None
        worded = _WORDED.fullmatch(items[-1]) if items else None
        if worded is not None:
            items.pop()
        alone = bool(items) and items[-1] == ALONE
        back = bool(items) and items[-1] == BACK
        if alone or back:
            items.pop()
        read_with = _READ_WITH.fullmatch(items[-1]) if items else None
        if read_with is not None:
            items.pop()
        if len(items) > MAX_ITEMS + SEARCH_FIRST:
            raise QuestionError(
                f"zu viele aufgeführte Einträge (höchstens {MAX_ITEMS} verwandte "
                f"und {SEARCH_FIRST} Treffer der Suche)."
            )
        related: list[tuple[str, str, int | None]] = []
        found: list[tuple[str, int | None, bool]] = []
        for item in items:
            m = _ITEM.fullmatch(item)
            if m is None and _LATER_ITEM.fullmatch(item):
                continue  # an item of a later version (its signature still covers it)
            if m is None:
                raise QuestionError(f"{said_back(item, 60)} ist kein verwandter Eintrag.")
            paragraph = int(m[3]) if m[3] is not None else None
            if m[1] == FOUND:
                found.append((m[2], paragraph, True))
            else:
                related.append((_REASONS[m[1]], m[2], paragraph))
        if len(related) > MAX_ITEMS:
            raise QuestionError(f"zu viele verwandte Einträge (höchstens {MAX_ITEMS}).")
        if len(found) > SEARCH_FIRST:
            raise QuestionError(f"zu viele Treffer der Suche (höchstens {SEARCH_FIRST}).")
        if worded is not None:
            if len(worded[1]) != len(found):
                raise QuestionError("die Angabe zu den Suchwörtern passt nicht zu den Treffern.")
            found = [(e, p, flag == "1") for (e, p, _), flag in zip(found, worded[1], strict=True)]
        if answer in (DECLINED, GONE, UNANSWERED, UNVERIFIED):
            return cls(
                text,
                answer,
                related=tuple(related),
                with_context=with_context,
                scope=kept,
                search_first=tuple(found),
                alone=alone,
                back=back,
                read_with=read_with[1] if read_with is not None else "",
            )
        m = _ANSWER.fullmatch(answer)
        if m is None:
            raise QuestionError(
                f"{said_back(answer, 60)} ist keine Antwort (Eintrag.Absatz.Von.Bis)."
            )
        start, end = int(m[3]), int(m[4])
        if start > end:
            raise QuestionError("der Kernsatz endet vor seinem Anfang.")
        span = (start, end)
        return cls(
            text,
            ANSWERED,
            m[1],
            int(m[2]),
            span,
            tuple(related),
            m[5] or "",
            with_context,
            kept,
            percent,
            tuple(found),
            alone,
            back,
            read_with[1] if read_with is not None else "",
        )

    def token(self, key: bytes) -> str:
        """The turn's token, signed with `key`."""
        if self.kind == ANSWERED:
            head = f"{self.entry}.{self.paragraph}.{self.highlight[0]}.{self.highlight[1]}"
            head += f".{self.fingerprint}" if self.fingerprint else ""
        else:
            head = self.kind
        listed = [
            *((_LETTERS[reason], entry, paragraph) for reason, entry, paragraph in self.related),
            *((FOUND, entry, paragraph) for entry, paragraph, _ in self.search_first),
        ]
        items = [
            f"{letter}.{entry}" + ("" if paragraph is None else f".{paragraph}")
            for letter, entry, paragraph in listed
        ]
        flags = "".join("1" if matched else "0" for _, _, matched in self.search_first)
        worded = [f"{WORDED}.{flags}"] if "0" in flags else []  # all hold a word: no item
        scope = [f"{SCOPE}.{self.scope}"] if self.scope else []
        unsure = [f"{UNSURE}.{self.unsure}"] if self.unsure is not None else []
        # among the items a version before it skips as a later version's (`_LATER_ITEM`):
        # before the ones it takes off the end, which it would otherwise refuse (a rollback
        # showed a 400 for a whole conversation, the code review)
        read_with = [f"{READ_WITH}.{self.read_with}"] if self.read_with else []
        tail = [*worded, *unsure, *scope, *([CONTEXT] if self.with_context else [])]
        alone = [ALONE] if self.alone else [BACK] if self.back else []
        head = "_".join([head, *items, *read_with, *alone, *tail])
        return f"{head}:{sign(key, f'{head}~{self.question}')}~{self.question}"

    def turn(self) -> Turn:
        """What a follow-up is read with (as chat.js sends it to ``/api/ask``, whose
        history is read normalised: slang spelled out, as the question was searched)."""
        entry = self.entry if self.kind == ANSWERED else None
        return Turn(normalize_question(self.question), entry, self.question, self.back)


def parse_conversation(questions: list[str], tokens: list[str], key: bytes) -> list[Shown]:
    """The earlier turns of a chat form, oldest first: `questions` (the plain
    questions of old links, field ``h``, taken as older) then `tokens` (field ``t``,
    checked with `key`). `QuestionError` (German) when one is malformed or there
    are more than `MAX_HISTORY`."""
    if len(questions) + len(tokens) > MAX_HISTORY:
        raise QuestionError(
            f"Der Verlauf ist zu lang (höchstens {MAX_HISTORY} frühere Fragen). "
            "Bitte ein neues Gespräch beginnen."
        )
    out = []
    for i, value in enumerate([*questions, *tokens], 1):
        try:
            if i <= len(questions):
                check_question(value)
                out.append(Shown(tidy_question(value)))
            else:
                out.append(Shown.parse(value, key))
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
    with_context = bool(data.get("followup"))
    # read alone though shaped like a follow-up: shown again without „Im Zusammenhang mit“
    alone = not with_context and is_followup(normalize_question(str(data.get("question") or "")))
    context = data.get("context")
    read_with = fingerprint(context) if with_context and isinstance(context, str) else ""
    # read with the newest answered turn, the declined ones after it left out (`Answer.back`)
    back = data.get("back") is True
    raw_scope = data.get("scope")
    # not kept when it is no slug (a corpus may name a document otherwise): shown without
    scope = raw_scope if isinstance(raw_scope, str) and re.fullmatch(ENTRY_ID, raw_scope) else None
    if not found:
        hits = tuple(
            (s["id"], s.get("paragraph"), s.get("matched") is not False)
            for s in data.get("search_first") or []
            if re.fullmatch(ENTRY_ID, s["id"])
        )[:SEARCH_FIRST]
        return Shown(
            data["question"],
            DECLINED,
            related=related,
            with_context=with_context,
            scope=scope,
            search_first=hits,
            alone=alone,
            back=back and with_context,
            read_with=read_with,
        )
    entry = found["entry"]["id"]
    if not re.fullmatch(ENTRY_ID, entry):  # cannot happen with slug ids: then not kept
        return Shown(data["question"], UNANSWERED)
    span = (found["highlight"]["start"], found["highlight"]["end"])
    mark = fingerprint(found["text"])
    reliability = data.get("reliability")
    unsure = round(reliability * 100) if data.get("caution") and reliability is not None else None
    return Shown(
        data["question"],
        ANSWERED,
        entry,
        found["paragraph"],
        span,
        related,
        mark,
        with_context,
        scope,
        unsure if unsure is not None and 0 <= unsure < 100 else None,
        alone=alone,
        back=back and with_context,
        read_with=read_with,
    )


def passage_text(index: Index, record: EntryRecord, paragraph: int) -> str:
    """The text of paragraph `paragraph` of `record` as an answer shows it (with its
    lead-in or list neighbour when `answer` adds them: with the embedder)."""
    return _shown_passage(index, record, paragraph).text


def _shown_passage(
    index: Index, record: EntryRecord, paragraph: int, whole_lists: bool = True
) -> Passage:
    text = record.plain_paragraphs[paragraph]
    passage = Passage(record.id, paragraph, text, 0.0, 1.0, (0, 0))
    if dense_mode(index) == "hybrid":  # as `answer` shows it with the embedder
        passage = with_neighbours(record, passage, whole_lists=whole_lists)
    return passage


def _passage(index: Index, shown: Shown) -> tuple[EntryRecord, Passage] | None:
    """The passage an answered turn showed, as the index has it now (or None)."""
    record = index.entry(shown.entry or "")
    if record is None or shown.paragraph >= len(record.plain_paragraphs):
        return None
    passage = _shown_passage(index, record, shown.paragraph)
    if fingerprint(passage.text) != shown.fingerprint and dense_mode(index) == "hybrid":
        # a token issued before list items were shown in their whole list (or by an older
        # instance during a rolling deployment) showed the item with its lead-in alone
        older = _shown_passage(index, record, shown.paragraph, whole_lists=False)
        passage = older if fingerprint(older.text) == shown.fingerprint else passage
    start, end = shown.highlight
    if fingerprint(passage.text) != shown.fingerprint or not start < end <= len(passage.text):
        return None  # not the text it showed (a new build), or no key sentence in it
    return record, dataclasses.replace(passage, highlight=shown.highlight)


def _still_there(index: Index, entry: str, paragraph: int | None) -> EntryRecord | None:
    """The entry a listed item links to, or None when the index no longer has it or its
    paragraph (a new build): the item is left out."""
    record = index.entry(entry)
    if record is None or (paragraph is not None and paragraph >= len(record.plain_paragraphs)):
        return None
    return record


def _suggestion(index: Index, question: str) -> str | None:
    try:
        return analyze_query(index, question).suggestion
    except QueryError:
        return None


def _context(shown: Shown, before: list[Turn]) -> list[Turn]:
    """The earlier turns `shown` was read with, as its answer read them: none for a turn
    that shows no answer, and none when they are not the turns its token names (`READ_WITH`:
    a turn spliced after other turns, or whose earlier turns a shortened link lost)."""
    if shown.alone or shown.kind in (UNVERIFIED, UNANSWERED):
        return []
    if shown.back:  # the newest answered turn (gone from a shortened link: none)
        answered = last_answered(before)
        read = before[: answered + 1] if answered is not None else []
        # with its `c`, as the other branch: its shape is judged on the normalised question
        # („Isses teuer?“ is „ist es teuer?“, the code review), which this one is not
        found = context_turns(read, shown.question, always=shown.with_context)
    else:
        found = context_turns(before, shown.question, always=shown.with_context)
    if shown.read_with and (not found or fingerprint(found[0].shown) != shown.read_with):
        return []
    return found


def show(index: Index, shown: Shown, before: list[Turn]) -> tuple[Answer, Shown]:
    """`shown` rendered again without retrieval, read with the turns `before` it,
    and the turn as shown now (an answer the index lost becomes `GONE`)."""
    found = _passage(index, shown) if shown.kind == ANSWERED else None
    if shown.kind == ANSWERED and found is None:
        shown = Shown(
            shown.question,
            GONE,
            with_context=shown.with_context,
            scope=shown.scope,
            alone=shown.alone,
            back=shown.back,
            read_with=shown.read_with,
        )
    related = [
        related_item(index, other, paragraph, reason)
        for reason, entry, paragraph in shown.related
        if (other := _still_there(index, entry, paragraph)) is not None
    ]
    context = _context(shown, before)
    if not context and shown.back:
        # shown without the turn it was read with (a spliced or shortened link): the
        # conversation goes on without it too, as chat.js reads the page (no data-back);
        # its READ_WITH stays, so the next page does not take the turns before it either
        shown = dataclasses.replace(shown, back=False)
    result = Answer(
        question=shown.question,
        confident=found is not None,
        confidence=1.0 if found is not None else 0.0,
        message={
            GONE: GONE_MESSAGE,
            UNANSWERED: UNANSWERED_MESSAGE,
            UNVERIFIED: UNVERIFIED_MESSAGE,
        }.get(shown.kind, ""),
        passage=None,
        entry=None,
        related=related,
        suggestion=_suggestion(index, shown.question),
        check_url=check_url_for(shown.question),
        followup=bool(context),
        context=context[0].shown if context else None,
        alone=shown.alone and bool(before) and shown.kind in (ANSWERED, DECLINED),
        back=shown.back and bool(context),
        # a document a new build no longer has is no limit any more (its links would 400)
        scope=shown.scope if shown.scope and index.document(shown.scope) else None,
    )
    if shown.kind == DECLINED:
        result.unmentioned = unmentioned_words(index, shown.question)  # words only, no search
        result.longer = longer_words_of(index, result.unmentioned)
        result.message = declined_message(related, result.unmentioned, result.longer)
        result.search_first = [
            search_item(index, other, paragraph, matched)
            for entry, paragraph, matched in shown.search_first
            if (other := _still_there(index, entry, paragraph)) is not None
        ]
        result.earlier = earlier_item(index, result, before)  # read from the turns, as asked
    if found is not None:
        record, passage = found
        doc = index.document(record.doc) or {}
        result.message = found_message(record, doc, unsure=shown.unsure is not None)
        if shown.unsure is not None:
            result.reliability = shown.unsure / 100
            result.caution = caution_note(result.reliability)
        result.passage = passage
        result.entry = source_hit(index, record, passage.paragraph, {}, 0.0)
        result.sources = [result.entry]
        result.doc_title, result.date_text = doc.get("title"), doc.get("date_text")
        result.citation = cited(record, doc, passage.paragraph)
        result.permalink = record.permalink(passage.paragraph)
        result.table = passage_table(record, passage)
        note_other_game(index, result, before)
    return result, shown
