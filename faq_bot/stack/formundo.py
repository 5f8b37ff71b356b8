"""„Rückgängig“ after the checker builder removed a row: what the removal says (the row
and the fields it empties, `removal_said`), the token the page carries for the undo, and
the undo itself (`undo_removal`: the row back into the rows as posted) and how the page
offers it (`undo_offer`, `keeps_undo`). No web framework here: `faq_bot.web.check` only
calls these.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from faq_bot.stack.form import (
    GROUP_FIELDS,
    MAX_ROWS,
    REFERENCES,
    ROW_NOUN,
    UNCHANGED,
    ActionError,
    is_number,
)
from faq_bot.stack.formsteps import Feedback, blank_row, complete_ids, refuse_when_full
from faq_bot.stack.formview import field_labels
from faq_bot.stack.permalink import PermalinkError, pack_text, unpack_text
from faq_bot.text import said_back

# „Rückgängig“ after a row was removed (a judge-workflow review: a removed player took the
# Besitzer of their cards and the „Wer sagt an“ of their entries along, said nothing of it,
# and nothing brought them back): the button's action, and the hidden field that carries
# the removed row and the fields its removal emptied (`removal_said`), packed as the share
# links are. „Rückgängig“ puts them back into the rows as posted then, so what was typed
# after the removal stays (a code review: the whole form of before lost it). It is offered
# until a step that moves rows (`KEEPS_UNDO`): one step back, not a history.
UNDO = "undo"
UNDO_GONE = (
    "Rückgängig geht hier nicht mehr: Die Angaben zur entfernten Zeile fehlen oder sind "
    "beschädigt. " + UNCHANGED
)
# the steps after which „Rückgängig“ is still offered: they leave every row where it is (a
# move, another removal, an undo or a resolve end it)
KEEPS_UNDO = ("refresh", "pick", "add", "announce")
MAX_UNDO_BYTES = 64 * 1024  # a row and the references to it unpack to far less


def removal_losses(state: Mapping[str, Any], action: str) -> list[tuple[str, int, str]]:
    """The fields a ``remove:<group>:<n>`` (as `state_action` numbers it) empties in
    `state` (the form before the step) as ``(group, row, field)``, the rows numbered as the
    form will number them after it (`apply_action` empties what named the removed row)."""
    kind, _, rest = action.partition(":")
    group, _, number = rest.partition(":")
    if kind != "remove" or group not in REFERENCES or not is_number(number):
        return []
    index = int(number)
    if index >= len(state[group]):
        return []
    key, naming = REFERENCES[group]
    value = state[group][index][key]
    if not value:
        return []
    lost = []
    for other, field in naming:
        for i, row in enumerate(state[other]):
            if (other, i) != (group, index) and row[field] == value:
                lost.append((other, i - 1 if other == group and i > index else i, field))
    order = list(GROUP_FIELDS)
    return sorted(lost, key=lambda t: (order.index(t[0]), t[1]))


def _lost_said(lost: list[tuple[str, int, str]]) -> str:
    """`removal_losses` as a message lists them: „Karte 2 › Besitzer, Eintrag 1 › Wer sagt an“."""
    labels = field_labels()
    return ", ".join(
        f"{ROW_NOUN[group]} {row + 1} › {labels[f'{GROUP_FIELDS[group][0]}-{field}']}"
        for group, row, field in lost
    )


def _row_said(group: str, number: int, row: Mapping[str, Any]) -> str:
    """Row `number` (from 1) of `group` as a message names it: „Spieler 2 „B““."""
    name = str(row.get("name", "")) if group != "stack" else ""
    return f"{ROW_NOUN[group]} {number}" + (f" {said_back(name, 40)}" if name.strip() else "")


def removal_said(state: Mapping[str, Any], action: str, posted: str) -> tuple[str, str] | None:
    """For a ``remove:<group>:<n>`` (`action` as `state_action` numbers it, `posted` as the
    button showed it) in `state`, the form before the step: what the step says (the row
    with its name, „Spieler 2 „B“ entfernt.“, and the fields it empties) and the token
    `undo_removal` reads for „Rückgängig“. None for any other step."""
    kind, _, rest = action.partition(":")
    group, _, number = rest.partition(":")
    if kind != "remove" or group not in GROUP_FIELDS or not is_number(number):
        return None
    index = int(number)
    if index >= len(state[group]):
        return None
    shown = posted.rpartition(":")[2]
    said_as = int(shown) + 1 if is_number(shown) else index + 1  # as the button showed it
    message = f"{_row_said(group, said_as, state[group][index])} entfernt."
    lost = removal_losses(state, action)
    if lost:
        message += f" Leer sind jetzt: {_lost_said(lost)}."
    data = {"group": group, "row": index, "values": state[group][index], "emptied": lost}
    return message, pack_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def _read_undo(token: str) -> tuple[str, int, dict[str, Any], list[tuple[str, int, str]]]:
    """The removed row's group, index and values and the fields emptied, from `token`; a
    German `ActionError` when it is none (cut, altered, or another page's)."""
    try:
        data = json.loads(unpack_text(token.strip(), MAX_UNDO_BYTES)) if token.strip() else None
    except (PermalinkError, ValueError):
        data = None
    if not isinstance(data, dict) or data.get("group") not in GROUP_FIELDS:
        raise ActionError(UNDO_GONE)
    group: str = data["group"]
    row, values, emptied = data.get("row"), data.get("values"), data.get("emptied")
    fields = GROUP_FIELDS[group][1]
    valid = (
        isinstance(row, int)
        and not isinstance(row, bool)
        and 0 <= row < MAX_ROWS
        and isinstance(values, dict)
        and all(k in fields and isinstance(v, str | bool) for k, v in values.items())
        and isinstance(emptied, list)
        and len(emptied) <= 2 * MAX_ROWS
        and all(
            isinstance(e, list)
            and len(e) == 3
            and e[0] in GROUP_FIELDS
            and isinstance(e[1], int)
            and not isinstance(e[1], bool)
            and 0 <= e[1] < MAX_ROWS
            and e[2] in GROUP_FIELDS[e[0]][1]
            for e in emptied
        )
    )
    if not valid or not isinstance(row, int) or not isinstance(values, dict):
        raise ActionError(UNDO_GONE)
    return group, row, values, [(g, i, f) for g, i, f in emptied or []]


def undo_removal(state: dict[str, Any], token: str) -> Feedback:
    """„Rückgängig“: the row `token` (`removal_said`) holds put back into `state` (the rows
    as posted now) at its place, and the fields its removal emptied filled again where they
    are still empty; what the page then says. A German `ActionError` when `token` is none,
    the form is full, or the row's name or id is in use again."""
    group, row, values, emptied = _read_undo(token)
    refuse_when_full(state, group)
    rows = state[group]
    restored = blank_row(group) | values
    key = REFERENCES[group][0]
    value = restored[key]
    if value and any(r[key] == value for r in rows):
        raise ActionError(
            f"{said_back(value, 40)} gibt es inzwischen wieder: Rückgängig würde es doppelt "
            "anlegen. Bitte den neuen Eintrag umbenennen oder entfernen, dann noch einmal "
            "„Rückgängig“. " + UNCHANGED
        )
    at = min(row, len(rows))
    rows.insert(at, restored)
    for other, i, field in emptied:
        j = i + 1 if other == group and i >= at else i
        if value and j < len(state[other]) and not state[other][j][field]:
            state[other][j][field] = value
    complete_ids(state)
    return Feedback(
        f"{_row_said(group, at + 1, restored)} ist wieder da.",
        button=f"remove:{group}:{at}",
        group=group,
    )


@dataclass(frozen=True)
class UndoOffer:
    """„Rückgängig“ as the page offers it: the token (`removal_said`), the rows it is shown
    among and its accessible name, which says what it brings back."""

    token: str
    group: str
    label: str


def undo_offer(token: str) -> UndoOffer | None:
    """The „Rückgängig“ `token` offers, or None when there is none or it does not read."""
    if not token.strip():
        return None
    try:
        group, row, values, _ = _read_undo(token)
    except ActionError:
        return None
    row_said = _row_said(group, row + 1, values)
    return UndoOffer(token.strip(), group, f"Rückgängig: {row_said} wieder einfügen")


def keeps_undo(action: str) -> bool:
    """Whether a builder step `action` (as posted) keeps „Rückgängig“ offered."""
    return action.partition(":")[0] in KEEPS_UNDO
