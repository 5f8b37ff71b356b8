"""What an answer says in words: its message above the passage, its citation, the
caution of an unsure answer and the note when it comes from another game. The answer
as asked (`faq_bot.chat.answer`) and as shown again from a turn token
(`faq_bot.chat.shown`) both say it with these.

``found_message(record, doc, unsure, note)``, ``declined_message(related, unmentioned)``
(naming ``unmentioned_words(index, question)`` with ``unmentioned_note(words)``),
``search_first_heading(related)``, ``cited(record, doc, paragraph)``,
``caution_note(reliability)`` (when ``is_unsure(reliability)``),
``other_game_note(index, entry_id, turns)`` (and
``note_other_game``, which adds it to an answer's message), ``rest_of(passage)`` (the
list items a passage leaves out: the line and link that say so).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeGuard

from faq_bot.hits import listed, longer_note
from faq_bot.index import EntryRecord, Index
from faq_bot.question import FILLER, normalize_question
from faq_bot.text import citation, entry_path, fold

from . import confidence as conf
from .history import Turn, last_answered
from .passage import Passage

if TYPE_CHECKING:
    from .result import Answer

__all__ = [
    "NOT_CONFIDENT",
    "caution_note",
    "cited",
    "declined_message",
    "found_message",
    "game_of",
    "is_unsure",
    "note_other_game",
    "other_game_note",
    "rest_of",
    "search_first_heading",
    "unmentioned_note",
    "unmentioned_words",
]

NOT_CONFIDENT = "Dazu habe ich keine sichere Antwort gefunden."


def found_message(
    record: EntryRecord, doc: dict[str, Any], unsure: bool = False, note: str | None = None
) -> str:
    """What a confident answer says above its passage (`doc`: the entry's document);
    `unsure`: its confidence was right for fewer than `SURE` of the calibration questions.
    The document is named in quotes, not in brackets: its title may hold its own
    ("Rundenregeln (Tabletop)"). Its game is named too where the title does not name it
    (a judge asking across all documents may not know „Spielrundenübersicht“), unless
    `note` (`other_game_note`, which ends the message) names it."""
    title = str(doc.get("title", record.doc))
    game = str(doc.get("game") or "")
    plain = not note and game and game.casefold() not in title.casefold()
    named = f", Spiel: {game}" if plain else ""
    stand = f", Stand: {doc['date_text']}" if doc.get("date_text") else ""
    lead = "Wahrscheinlich steht das unter" if unsure else "Das steht unter"
    message = f"{lead} „{record.title}“ in „{title}“{named}{stand}."
    return f"{message} {note}" if note else message


def cited(record: EntryRecord, doc: dict[str, Any], paragraph: int) -> str:
    """How an answer cites its paragraph, without the URL (`Answer.to_json` adds the
    permalink): „title“, Absatz n – document, Stand: date (`paragraph` 0-based, n from 1)."""
    return citation(record.title, doc, paragraph=paragraph + 1)


def note_other_game(index: Index, result: Answer, turns: Sequence[Turn]) -> None:
    """End a confident `result`'s message with `other_game_note` when it has one (the
    answer as asked, and as shown again from a conversation's tokens); the message is
    said again with the note, so that it names the new game once."""
    if not result.confident or result.passage is None:
        return
    note = other_game_note(index, result.passage.entry, turns)
    record = index.entry(result.passage.entry)
    if note and record is not None:
        doc = index.document(record.doc) or {}
        unsure = result.caution is not None
        result.message = found_message(record, doc, unsure=unsure, note=note)


def other_game_note(index: Index, entry_id: str, turns: Sequence[Turn]) -> str | None:
    """What an answer says when it comes from another game than the conversation's last
    answer (a judge reading along may not notice the document's name change)."""
    answered = last_answered(turns)
    earlier = turns[answered].entry if answered is not None else None
    record, before = index.entry(entry_id), index.entry(earlier) if earlier else None
    if record is None or before is None:
        return None
    game, previous = game_of(index, record.doc), game_of(index, before.doc)
    if not game or not previous or game == previous:
        return None
    # no brackets around the names: a game's name may hold its own ("Tabletop (10. Edition)")
    return (
        f"Achtung, anderes Spiel: Diese Regel gilt für {game}, die vorige Antwort für {previous}."
    )


def game_of(index: Index, doc_id: str) -> str:
    return str((index.document(doc_id) or {}).get("game") or "")


def is_unsure(reliability: float | None) -> TypeGuard[float]:
    """Whether an answer of this reliability says it is unsure (under `conf.SURE`)."""
    return reliability is not None and reliability < conf.SURE


def caution_note(reliability: float) -> str:
    """What an unsure answer says under its message: what answers like it were worth."""
    share = round(reliability * 100)
    return (
        f"Bitte den Absatz prüfen: Bei Testfragen stimmten nur {share} von 100 ähnlich sicheren "
        "Antworten."
    )


def search_first_heading(related: Sequence[Any]) -> str:
    """The heading of a declined answer's search hits (`Answer.search_first`): they leave
    out the closest entries `related` lists above them, so with those they are „außerdem“,
    not the search's first."""
    return "Die Suche findet außerdem:" if related else "Die Suche findet zuerst:"


def declined_message(
    related: list[dict[str, Any]],
    unmentioned: Sequence[str] = (),
    longer: Sequence[tuple[str, Sequence[str]]] = (),
) -> str:
    """What a declined answer says (above the closest entries, if any): that it found no
    sure answer, which of the question's words no document mentions or holds only in longer
    words (`unmentioned_note`), and what follows."""
    said = " ".join(filter(None, (NOT_CONFIDENT, unmentioned_note(unmentioned, longer))))
    if len(related) == 1:
        return f"{said} Dieser Eintrag kommt Ihrer Frage am nächsten:"
    if related:
        return f"{said} Diese Einträge kommen Ihrer Frage am nächsten:"
    return said


UNMENTIONED_NAMED = 3  # words a declined answer names; more are counted
# words a question may open or close with that name nothing it asks about (besides the
# fillers a question is phrased with, `faq_bot.question.FILLER`): greetings, interjections
_NOT_TOPICS = FILLER | frozenset(
    fold(w)
    for w in (
        "moin",
        "servus",
        "hey",
        "huhu",
        "tach",
        "grüß",
        "gott",
        "leute",
        "okay",
        "sorry",
        "achso",
        "inwiefern",
        "hilfe",
        "gruß",
        "grüße",
    )
)


def unmentioned_words(index: Index, question: str) -> list[str]:
    """The nouns of `question` no document mentions and no correction reaches
    (`faq_bot.chat.confidence.foreign_nouns` of the question as it is searched,
    `normalize_question`: slang spelled out, full-width letters read), without greetings
    and words that only phrase a question (`_NOT_TOPICS`). One reading for the answer as
    asked and as shown again from its token."""
    text = normalize_question(question)
    return [w for w in conf.foreign_nouns(index, text) if fold(w) not in _NOT_TOPICS]


def unmentioned_note(words: Sequence[str], longer: Sequence[tuple[str, Sequence[str]]] = ()) -> str:
    """That no document mentions `words` (each named once, in order; past
    `UNMENTIONED_NAMED` counted), or "" for none: „„Rochade“ und „Schach“ kommen in keinem
    der Dokumente vor.“ A judge learns why nothing answered, and which word to put
    otherwise. A word `longer` pairs with longer corpus words (`faq_bot.query.longer_words_of`)
    is said to stand only in those: „„Fernkampf“ steht in den Dokumenten nur in längeren
    Wörtern: „Fernkampfphase“.“ (told it is nowhere, a judge would stop looking)."""
    within = {w: found for w, found in longer if found}
    named = [f"„{w}“" for w in dict.fromkeys(words) if w not in within]
    said = [_nowhere(named)] if named else []
    said += [longer_note(w, found) for w, found in list(within.items())[:UNMENTIONED_NAMED]]
    return " ".join(said)


def _nowhere(named: list[str]) -> str:
    if len(named) == 1:
        return f"{named[0]} kommt in keinem der Dokumente vor."
    if len(named) > UNMENTIONED_NAMED:
        more = len(named) - UNMENTIONED_NAMED
        named = [*named[:UNMENTIONED_NAMED], f"{more} weitere" if more > 1 else "ein weiteres"]
        named[-1] += " Wörter" if more > 1 else " Wort"
    return f"{listed(named)} kommen in keinem der Dokumente vor."


def rest_of(passage: Passage) -> dict[str, Any] | None:
    """The items of a list a passage shows in part (`Passage.rest`): how many, a link to
    the first of them and the line that says so; None when it shows all."""
    if passage.rest is None:
        return None
    first, count = passage.rest
    noun = "weiterer Punkt" if count == 1 else "weitere Punkte"
    return {
        "count": count,
        "url": entry_path(passage.entry, first),
        "label": f"… und {count} {noun} der Liste im Eintrag",
    }
