"""The checker builder's buttons: what a step does to the form's rows (`apply_action`:
add, remove, move, pick a catalog card, announce a card) and what the page then tells and
where the keyboard goes (`action_feedback` -> `Feedback`), and which move arrows a stack
row has (`move_arrows`). No web framework here: `faq_bot.web.check` only calls these.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from faq_bot.corpus.splitters import slugify, unique_id
from faq_bot.stack.catalog import find_card, meant_note
from faq_bot.stack.form import (
    FIRST_FIELD,
    FLAGS,
    GROUP_FIELDS,
    GROUP_NAMES,
    MAX_ROWS,
    MISSING_ROW,
    REFERENCES,
    ROW_NOUN,
    TARGET_EFFECTS,
    UNCHANGED,
    ActionError,
    announced,
    is_number,
    pad_state,
    pick_owner,
    unknown_card_note,
)
from faq_bot.text import said_back


def entries_filled(stack: list[Mapping[str, Any]]) -> int:
    """How many stack rows hold an entry: up to the last one with anything in it besides its
    id (a row „Eintrag hinzufügen“ just added is blank, as the spare row is)."""
    for n in range(len(stack), 0, -1):
        if any(value for key, value in stack[n - 1].items() if key != "id"):
            return n
    return 0


def move_arrows(row: int, filled: int) -> tuple[str, ...]:
    """The move buttons stack row `row` (0-based) shows when `filled` rows hold an entry:
    "up" but in the first row, "down" but in the last entry; the blank rows after the
    entries have none (a phone review: ↑ on the spare row moved nothing and lost the
    focus). The page draws these and a step's focus goes to one of them."""
    if row >= filled:
        return ()
    return tuple(d for d, shows in (("up", row > 0), ("down", row < filled - 1)) if shows)


def complete_ids(state: dict[str, Any]) -> list[str]:
    """Give every named card without id one made from its name, and every entry its
    ``s<n>``, so selects can refer to them; returns notes on what was made up."""
    notes = []
    taken = {row["id"] for row in state["cards"] if row["id"]}
    for row in state["cards"]:
        if not row["id"] and row["name"]:
            row["id"] = unique_id(slugify(row["name"]), taken)
            notes.append(f"Karte „{row['name']}“: Kürzel {row['id']}")
    entry_ids = {row["id"] for row in state["stack"] if row["id"]}
    for i, row in enumerate(state["stack"]):
        if not row["id"]:
            row["id"] = unique_id(f"s{i + 1}", entry_ids)
    return notes


def refuse_when_full(state: Mapping[str, Any], group: str) -> None:
    """A German `ActionError` when `group` of `state` holds `MAX_ROWS` rows already: the
    reader takes no more (a step that adds one, an undo that puts one back)."""
    if len(state[group]) >= MAX_ROWS:
        raise ActionError(
            f"Das Formular hat schon {len(state[group])} {GROUP_NAMES[group]}; erlaubt sind "
            f"höchstens {MAX_ROWS}. {UNCHANGED}"
        )


def blank_row(group: str) -> dict[str, Any]:
    return {f: (False if f in FLAGS else "") for f in GROUP_FIELDS[group][1]}


def apply_action(state: dict[str, Any], action: str, form: Mapping[str, str]) -> dict[str, Any]:
    """A builder button: ``add:<group>``, ``remove:<group>:<n>``, ``move:stack:<n>:up|down``,
    ``pick:<catalog card>`` (a card for the player in ``pick_owner``), ``announce:<n>``
    (card row n goes on the stack, announced by its owner), ``refresh`` (only re-render).
    Raises `ActionError` (German) otherwise, before changing anything."""
    kind, _, rest = action.partition(":")
    parts = rest.split(":")
    grows = {"add": rest, "pick": "cards", "announce": "stack"}.get(kind)
    if grows in GROUP_FIELDS:
        refuse_when_full(state, grows)
    if action == "refresh":  # check.js after a card's name or owner changed: new choices
        pass
    elif kind == "add" and rest in GROUP_FIELDS:
        state[rest].append(blank_row(rest))
    elif kind == "remove" and len(parts) == 2 and parts[0] in GROUP_FIELDS and is_number(parts[1]):
        rows = state[parts[0]]
        if int(parts[1]) >= len(rows):
            raise ActionError(MISSING_ROW)
        removed = rows.pop(int(parts[1]))
        # the fields that named the removed row ask for it again, as an empty field does
        # (a card's entries read „radar (unbekannt)“, and the result called the id a rules
        # violation; a player's cards and entries kept an owner no longer on the form; a
        # counter kept aiming at a removed entry)
        key, naming = REFERENCES[parts[0]]
        for group, field in naming:
            for row in state[group]:
                if removed[key] and row[field] == removed[key]:
                    row[field] = ""
    elif kind == "move" and len(parts) == 3 and parts[0] == "stack" and is_number(parts[1]):
        if parts[2] not in ("up", "down"):
            raise ActionError(_unknown(action))
        rows, i = state["stack"], int(parts[1])
        if i >= len(rows):
            raise ActionError(MISSING_ROW)
        j = i - 1 if parts[2] == "up" else i + 1
        if 0 <= j < len(rows):  # the first row up, the last down: nothing to move
            rows[i], rows[j] = rows[j], rows[i]
    elif kind == "pick":
        card = find_card(rest)
        if card is None:
            note = meant_note(rest)
            meant = f" {note[0].upper()}{note[1:]}" if note else ""  # a sentence of its own
            raise ActionError(
                f"Die Karte {said_back(rest)} steht nicht im Kartenkatalog.{meant} {UNCHANGED}"
            )
        owners = [r["name"] for r in state["players"] if r["name"]]
        owner = pick_owner(form) or (owners[0] if owners else "")
        row = blank_row("cards") | {"name": card.name, "owner": owner, "kind": card.kind.value}
        state["cards"].append(row)
    elif kind == "announce" and is_number(rest):
        if int(rest) >= len(state["cards"]):
            raise ActionError(MISSING_ROW)
        if not state["cards"][int(rest)]["name"].strip():  # an entry needs its card
            raise ActionError(
                f"Karte {int(rest) + 1} hat noch keinen Namen: bitte erst den Namen "
                f"eintragen, dann ansagen. {UNCHANGED}"
            )
        complete_ids(state)
        card = state["cards"][int(rest)]
        entry = announced(state).get(card["id"]) if card["id"] else None
        if entry is not None:  # a double tap; picking it as a source still can
            raise ActionError(
                f"{said_back(card['name'] or card['id'])} ist schon auf dem Stapel "
                f"(Eintrag {entry}); eine Karte liegt nur einmal dort. {UNCHANGED}"
            )
        state["stack"].append(blank_row("stack") | {"source": card["id"], "by": card["owner"]})
    else:
        raise ActionError(_unknown(action))
    complete_ids(state)
    return state


def _unknown(action: str) -> str:
    return f"Unbekannte Aktion {said_back(action)}. {UNCHANGED}"


@dataclass(frozen=True)
class Feedback:
    """What a builder step did, as the page tells it (`message`, German, in a status), and
    where the keyboard goes next: a field (its ``id``) or a builder button (its ``value``)."""

    message: str
    field: str | None = None
    button: str | None = None
    # the rows the step changed (`action_group`): where the page lands after a round trip
    # without JavaScript, which repeats `message` there since the status above is then
    # out of view
    group: str | None = None
    # the field is what the judge must fill next (an announced card's Ziel): brought into
    # sight even after a tap, which otherwise leaves the page where the thumb is
    reveal: bool = False
    # after a row was removed: the row and what its removal emptied
    # (`faq_bot.stack.formundo.removal_said`), for „Rückgängig“
    undo: str | None = None


def action_group(action: str) -> str:
    """The rows a builder `action` changes ("players", "cards", "stack"): where the form's
    page lands after it without JavaScript (its button's ``#rows-<group>``,
    `templates/check/_rows.html`), and where the page repeats what it did (`Feedback`)."""
    kind, _, rest = action.partition(":")
    if kind == "pick":
        return "cards"
    group = rest.partition(":")[0]
    return group if kind in ("add", "remove") and group in GROUP_FIELDS else "stack"


def _first_field(group: str, row: int) -> str:
    return f"{GROUP_FIELDS[group][0]}-{row}-{FIRST_FIELD[group]}"


def action_feedback(
    state: Mapping[str, Any],
    action: str,
    posted: str | None = None,
    removal: tuple[str, str] | None = None,
) -> Feedback | None:
    """`_feedback`, with the rows the step changed (`action_group` of the button pressed)
    unless the step says where it lands itself (an announced card the catalog lacks: its
    Kartenart, among the cards); a removal's message and undo (`formundo.removal_said`, read before
    the step) said instead of its own."""
    said = _feedback(state, action, posted)
    pressed = posted if posted is not None else action
    if said is None:
        return None
    if removal is not None:
        said = replace(said, message=removal[0], undo=removal[1])
    return replace(said, group=said.group or action_group(pressed))


def _feedback(state: Mapping[str, Any], action: str, posted: str | None = None) -> Feedback | None:
    """What `apply_action` did with `action` to `state` (given as it is after the step),
    and where the focus goes then (None for ``refresh``, which only re-renders). `posted`:
    the action as the form sent it (`state_action` made `action` of it), whose row number
    is the one the pressed button showed; a remove button of a blank row (turned into
    ``refresh``) says that the row was empty and keeps the focus on the remove buttons.

    A new row (a card picked or announced, a row added): its first field; an announced
    card whose catalog effect needs a target: its entry's Ziel, and the message says so. A
    removed row: the remove button of the row now in its place, or of the last row. A moved
    entry: its same button in its new place, so pressing again moves it further (its other
    one at the top of the list)."""
    kind, _, rest = action.partition(":")
    parts = rest.split(":")
    pressed = posted if posted is not None else action  # row numbers as the button showed
    pressed_parts = pressed.partition(":")[2].split(":")
    if kind == "refresh" and pressed.startswith("remove:") and len(pressed_parts) == 2:
        group, number = pressed_parts
        if group in GROUP_FIELDS and is_number(number):
            shown = pad_state(dict(state))
            last = len(shown[group]) - 1
            return Feedback(
                f"{ROW_NOUN[group]} {int(number) + 1} war leer: nichts entfernt.",
                button=f"remove:{group}:{min(int(number), last)}",
            )
    if kind == "pick":
        row = len(state["cards"]) - 1
        card = state["cards"][row]
        owner = f" für {card['owner']}" if card["owner"] else ""
        message = f"{card['name']}{owner} angelegt (Karte {row + 1})."
        return Feedback(message, field=_first_field("cards", row))
    if kind == "announce":
        row = len(state["stack"]) - 1
        card = state["cards"][int(rest)]
        owner = f" von {card['owner']}" if card["owner"] else ""
        message = f"{card['name'] or card['id']}{owner} angesagt (Eintrag {row + 1})."
        known = find_card(card["name"]) if card["name"] else None
        if known is not None and known.effect in TARGET_EFFECTS:
            # the catalog's effect needs one, which only the judge can choose: said now,
            # not first as „Ziel: fehlt“ after „Auflösen“ (a phone review)
            message += " Die Karte braucht ein Ziel: bitte im Feld „Ziel“ wählen."
            return Feedback(message, field=f"s-{row}-target", reveal=True)
        if not card.get("kind") and (note := unknown_card_note(card.get("name") or "")):
            # said now, not first at „Auflösen“ as „Kartenart: fehlt“ (a phone review), where
            # the field is: among the cards (the page without JavaScript lands there too,
            # `unknown_cards`)
            # and the entry's Effekt, which no catalog fills for it either (a phone review:
            # „Auflösen“ then answered „Effekt: fehlt“)
            message += f" {note} und beim Eintrag {row + 1} den Effekt."
            return Feedback(message, field=f"c-{int(rest)}-kind", group="cards", reveal=True)
        return Feedback(message, field=_first_field("stack", row))
    if kind == "add":
        row = len(state[rest]) - 1
        message = f"Neue leere Zeile: {ROW_NOUN[rest]} {row + 1}."
        return Feedback(message, field=_first_field(rest, row))
    shown = pad_state(dict(state))  # the rows the form shows after the step
    if kind == "remove":
        group, row = parts[0], int(parts[1])
        message = f"{ROW_NOUN[group]} {int(pressed_parts[-1]) + 1} entfernt."
        return Feedback(message, button=f"remove:{group}:{min(row, len(shown[group]) - 1)}")
    if kind == "move":
        row, direction = int(parts[1]), parts[2]
        to = row - 1 if direction == "up" else row + 1
        # said as the buttons say it (earlier / later announced): "up" in the list is down in
        # the stack, whose first entry lies at the bottom (templates/check/_checker.html)
        when, place = ("früher", "erster") if direction == "up" else ("später", "letzter")
        shown_number = int(pressed_parts[1]) + 1  # as the button showed it
        if 0 <= row < len(state["stack"]) and 0 <= to < len(state["stack"]):
            message = f"Eintrag {shown_number} {when} angesagt, jetzt Eintrag {to + 1}."
        else:
            to = row
            message = f"Eintrag {shown_number} wird schon als {place} angesagt."
        # the arrows the row has there, as the page draws them; a row without any (the only
        # entry left: another was emptied meanwhile) passes the focus to its remove button
        offered = list(move_arrows(to, entries_filled(state["stack"])))
        same = direction if direction in offered else next(iter(offered), None)
        if same is None:
            return Feedback(message, button=f"remove:stack:{min(to, len(shown['stack']) - 1)}")
        return Feedback(message, button=f"move:stack:{to}:{same}")
    return None
