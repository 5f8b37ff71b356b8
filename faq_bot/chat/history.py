"""The conversation: earlier questions a follow-up is read with.

``parse_history(value) -> list[Turn]``
    The conversation so far, oldest first: a list of strings (earlier
    questions) or objects ``{"question": str, "entry": str | null, "back": bool}``
    (``entry``: the id of the entry that answered it; ``back``: it was read with the
    last answered question before it, the declined ones between left out, as its
    answer's ``back`` said). At most `MAX_HISTORY` items; other
    keys of an object are ignored. Nothing is stored on the server: the client
    sends the history with every question. Raises `QuestionError` (German) when
    malformed.
``with_entries(index, turns) -> list[Turn]``
    The turns with each entry as the index names it (an alias or an older id of an entry
    gives its id, an id the index lacks gives None), so that every reader of a turn's entry
    reads the same one (`faq_bot.chat.answer`; a turn shown again from its token has the
    entry its token names, or none when the index lost it).
``last_answered(turns) -> int | None``
    The position of the newest turn that has an entry (None: none was answered).
``context_turns(turns, question, always=False) -> list[Turn]``
    The earlier turns a follow-up is read with, newest first (empty for a
    question that is not shaped like a follow-up, unless `always`: the other
    reading `faq_bot.chat.answer` weighs for such a question); from a turn that was
    read with the last answered one before it (``back``) the chain goes on there.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from faq_bot.question import QuestionError, check_question, is_followup, tidy_question

if TYPE_CHECKING:
    from faq_bot.index import Index

__all__ = [
    "MAX_CONTEXT",
    "MAX_HISTORY",
    "Turn",
    "context_turns",
    "last_answered",
    "parse_history",
    "with_entries",
]

MAX_HISTORY = 20
MAX_ENTRY_ID = 200
MAX_CONTEXT = 3  # earlier turns a chain of follow-ups may reach back


@dataclass(frozen=True)
class Turn:
    """One earlier question of the conversation and the entry that answered it:
    `question` as it is read (normalised, `check_question`), `asked` in the asker's words
    (`tidy_question`; empty: the same), what an answer shows of it."""

    question: str
    entry: str | None = None
    asked: str = field(default="", compare=False)  # shown only: turns equal as they are read
    # read with the last answered turn before it, the declined ones between left out
    # (`faq_bot.chat.answer._after_declined`): a chain of follow-ups goes on from there
    back: bool = False

    @property
    def shown(self) -> str:
        return self.asked or self.question


def parse_history(value: Any) -> list[Turn]:
    """The conversation so far as `Turn`s; `QuestionError` (German) when malformed."""
    if value is None:
        return []
    if isinstance(value, tuple):
        value = list(value)
    if isinstance(value, list) and all(isinstance(t, Turn) for t in value):
        return list(value)  # already parsed (also: no history)
    if not isinstance(value, list):
        raise QuestionError("Der Verlauf (history) muss eine Liste sein.")
    if len(value) > MAX_HISTORY:
        raise QuestionError(
            f"Der Verlauf ist zu lang ({len(value)} Einträge, höchstens {MAX_HISTORY})."
        )
    turns = []
    for i, item in enumerate(value, 1):
        where = f"Verlauf, Eintrag {i}"
        entry, back = None, False
        if isinstance(item, dict):
            if "question" not in item:
                raise QuestionError(f"{where}: „question“ (die frühere Frage) fehlt.")
            question = item.get("question")
            entry = item.get("entry")
            if entry is not None and not isinstance(entry, str):
                raise QuestionError(f"{where}: „entry“ muss eine Eintrags-ID (Text) sein.")
            back = item.get("back", False)
            if not isinstance(back, bool):
                raise QuestionError(f"{where}: „back“ muss true oder false sein.")
            if entry is not None and len(entry) > MAX_ENTRY_ID:
                # it was told „muss eine Eintrags-ID (Text) sein“: text it was (an API probe)
                raise QuestionError(
                    f"{where}: „entry“ ist zu lang ({len(entry)} Zeichen, eine Eintrags-ID hat "
                    f"höchstens {MAX_ENTRY_ID})."
                )
        elif isinstance(item, str):
            question = item
        else:
            raise QuestionError(
                f"{where}: erwartet wird eine frühere Frage (Text) oder ein Objekt mit „question“."
            )
        try:
            text = check_question(question)
        except QuestionError as exc:
            raise QuestionError(f"{where}: {exc}") from None
        turns.append(Turn(text, entry or None, tidy_question(str(question)), back))
    return turns


def with_entries(index: Index, turns: Sequence[Turn]) -> list[Turn]:
    """`turns` with each entry as `index` names it: an alias or an older id of an entry
    gives its id, an id the index lacks gives None (the history comes from the client: a
    page rendered before a rebuild may send an older id)."""
    return [
        t if t.entry is None else dataclasses.replace(t, entry=_entry_id(index, t.entry))
        for t in turns
    ]


def _entry_id(index: Index, entry: str) -> str | None:
    if index.entry(entry) is not None:
        return entry
    found = index.canonical_id(entry)
    return found if found is not None and index.entry(found) is not None else None


def context_turns(turns: Sequence[Turn], question: str, always: bool = False) -> list[Turn]:
    """The earlier turns `question` is read with, newest first; `always`: also when
    `question` is not shaped like a follow-up (the chain further back still is)."""
    if not turns or not (always or is_followup(question)):
        return []
    out: list[Turn] = []
    i = len(turns) - 1
    while i >= 0:
        turn = turns[i]
        out.append(turn)
        if len(out) >= MAX_CONTEXT or not is_followup(turn.question):
            break
        if not turn.back:
            i -= 1
            continue
        # read with the last answered turn before it: on from there, or nowhere when a
        # shortened history lost it (not the declined turn it was read without)
        answered = last_answered(turns[:i])
        if answered is None:
            break
        i = answered
    return out


def last_answered(turns: Sequence[Turn]) -> int | None:
    """The position of the newest of `turns` that has an entry (as `with_entries` names
    it: an entry the index lost is None), or None when none was answered."""
    return next((i for i in range(len(turns) - 1, -1, -1) if turns[i].entry), None)
