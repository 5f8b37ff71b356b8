"""The checker's form as data: rows of fields <-> scenario JSON (the builder's buttons
are `faq_bot.stack.formsteps`, what the page shows `faq_bot.stack.formview`).

No web framework here: `faq_bot.web.check` only calls these. The form is the
scenario schema (`scenario.schema.json`) laid out as rows: its enums are the
choices, its titles the labels (`field_labels`). Rows are dicts of strings (and
booleans for the check boxes) in three groups, ``players``, ``cards`` and
``stack``; posted field names are ``p-<n>-name``, ``c-<n>-kind``, ``s-<n>-type`` …

Form rows that are left blank are skipped. What is filled in for the person
(and said on the page, `scenario_from_state`'s notes):

- a card without id gets one made from its name (``227-pfund-bombe``, ``-2`` …),
  a stack entry without id gets ``s1``, ``s2`` … by its position;
- a card whose name is in the catalog (`faq_bot/data/cards.toml`) and whose
  kind is left blank gets the catalog's kind;
- a stack entry whose effect is left blank takes the source card's catalog
  effect with its amount, cost, play cost, sacrifice and lock flags; with the
  catalog's effect chosen, blank amount/cost/play cost come from the catalog;
- a stack entry without ``by`` is announced by the owner of its source card.
"""

from __future__ import annotations

import json
import re
import secrets
from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from itertools import islice
from typing import Any

from faq_bot.corpus.splitters import slugify, unique_id
from faq_bot.errors import InputError
from faq_bot.stack.catalog import find_card, meant_note
from faq_bot.stack.explain import (
    EFFECT_DE,
    KIND_DE,
)
from faq_bot.stack.model import (
    AMOUNT_EFFECTS,
    CARD_TARGET_EFFECTS,
    EffectType,
    Phase,
)
from faq_bot.stack.read import MAX_TEXT, SEPARATOR, ScenarioFormatError, enum_value
from faq_bot.text import clean_input, said_back

MIN_ROWS = {"players": 2, "cards": 1, "stack": 1}  # rows the form shows at least
MAX_ROWS = 200  # the reader's limit per list
GROUP_NAMES = {"players": "Spieler", "cards": "Karten", "stack": "Stapeleinträge"}
FAQ_DOC = "how-faq"

GROUP_FIELDS = {
    "players": ("p", ("name", "tw")),
    "cards": ("c", ("id", "name", "owner", "kind", "zone", "locked", "defense")),
    "stack": (
        "s",
        (
            "id",
            "by",
            "source",
            "type",
            "target",
            "amount",
            "text",
            "cost",
            "play_cost",
            "sacrifice",
            "lock_source",
        ),
    ),
}
FLAGS = {"locked", "sacrifice", "lock_source"}
# a row of a group as other rows name it (its key field) and the fields that do: a card by
# its id (an entry's source or target), a player by name (a card's owner, an entry's
# announcer), an entry by its id (a counter's target)
REFERENCES = {
    "cards": ("id", (("stack", "source"), ("stack", "target"))),
    "players": ("name", (("cards", "owner"), ("stack", "by"))),
    "stack": ("id", (("stack", "target"),)),
}
# the hidden field of a player row with the name it was shown with (`renamed_players`)
SHOWN_NAME = "was"
ROW_NOUN = {"players": "Spieler", "cards": "Karte", "stack": "Eintrag"}  # as the legends say
FIRST_FIELD = {"players": "name", "cards": "name", "stack": "source"}  # a row's first field
# read with fullmatch: one spelling per row ("p-01-name" is not row 1; no line break)
FIELD_KEY = re.compile(r"([pcs])-(0|[1-9][0-9]{0,3})-([a-z_]+)")
PREFIX_GROUP = {prefix: group for group, (prefix, _) in GROUP_FIELDS.items()}
TARGET_EFFECTS = frozenset(CARD_TARGET_EFFECTS | {EffectType.COUNTER})

EFFECT_LABEL = EFFECT_DE  # the form's effect choices (German; values stay English)


@lru_cache(maxsize=1)
def load_samples() -> tuple[dict[str, Any], ...]:
    """The FAQ's worked examples shipped as package data (`faq_bot/data/samples/*.json`).

    Each: ``name`` (file stem), ``title`` and ``description`` (German), ``scenario``.
    """
    folder = resources.files("faq_bot").joinpath("data/samples")
    samples = []
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if not item.name.endswith(".json"):
            continue
        data = json.loads(item.read_text(encoding="utf-8"))
        samples.append(
            {
                "name": item.name.removesuffix(".json"),
                "title": data["title"],
                "description": data["description"],
                "scenario": data["scenario"],
            }
        )
    return tuple(samples)


def _text(value: Any) -> str:
    if value is None or isinstance(value, dict | list):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return _held(str(value))


def _held(text: str) -> str:
    """A value as the form holds it: cut one character past the reader's longest limit
    (`MAX_TEXT`), so one too long is refused as such when sent again, but a short link's
    value of a megabyte is not shown in full, in a field and in each select offering it
    (an API probe: a 1,332-character link made a 3 MB page)."""
    return text[: MAX_TEXT + 1]


def empty_state() -> dict[str, Any]:
    return {"phase": Phase.BAUPHASE.value, "players": [], "cards": [], "stack": []}


def starting_state() -> dict[str, Any]:
    """The empty form: two players, A and B, whose TW are still to be entered."""
    state = empty_state()
    state["players"] = [{"name": "A", "tw": ""}, {"name": "B", "tw": ""}]
    return state


def state_from_json(data: Any) -> dict[str, Any]:
    """Form rows from scenario JSON data (tolerant: it may not be a valid scenario), at
    most `MAX_ROWS` per group: the reader refuses more (and says so), and a short link can
    pack thousands of rows, each offering every card and earlier entry as its target (the
    page would grow with the square of the rows)."""
    state = empty_state()
    if not isinstance(data, Mapping):
        return state
    if data.get("phase") is not None:
        state["phase"] = _text(data.get("phase"))
    players = data.get("players")
    if isinstance(players, Mapping):
        for name, value in islice(players.items(), MAX_ROWS):
            tw = value.get("tw") if isinstance(value, Mapping) else None
            state["players"].append({"name": _text(name), "tw": _text(tw)})
    cards = data.get("cards")
    # a list item that is not an object keeps its row (blank), so rows and the reader's
    # error paths keep their positions (`form_field`)
    for item in cards[:MAX_ROWS] if isinstance(cards, list) else []:
        card: Mapping[str, Any] = item if isinstance(item, Mapping) else {}
        row: dict[str, Any] = {
            f: _text(card.get(f)) for f in GROUP_FIELDS["cards"][1] if f not in FLAGS
        }
        row["locked"] = card.get("locked") is True
        state["cards"].append(row)
    stack = data.get("stack")
    for item in stack[:MAX_ROWS] if isinstance(stack, list) else []:
        entry: Mapping[str, Any] = item if isinstance(item, Mapping) else {}
        raw_effect = entry.get("effect")
        effect: Mapping[str, Any] = raw_effect if isinstance(raw_effect, Mapping) else {}
        state["stack"].append(
            {
                "id": _text(entry.get("id")),
                "by": _text(entry.get("by")),
                "source": _text(entry.get("source")),
                "type": _text(effect.get("type")),
                "target": _text(effect.get("target")),
                "amount": _text(effect.get("amount")),
                "text": _text(effect.get("text")),
                "cost": _text(entry.get("cost")),
                "play_cost": _text(entry.get("play_cost")),
                "sacrifice": entry.get("sacrifice") is True,
                "lock_source": entry.get("lock_source") is True,
            }
        )
    return state


def state_from_form(form: Mapping[str, str]) -> dict[str, Any]:
    """Form rows from posted fields ``p-<n>-name``, ``c-<n>-kind``, ``s-<n>-type`` …

    Rows keep their posted order (by number); rows left entirely blank are dropped (a
    builder button names its row as the form showed it: `state_action`).
    """
    state = empty_state()
    # a known phase as the reader spells it, so the form selects it ("endphase" too)
    state["phase"] = enum_value(Phase, _held(form.get("phase", "").strip()) or Phase.BAUPHASE.value)
    for group, kept in _kept_rows(form).items():
        state[group].extend(row for _number, row in kept)
    renamed = renamed_players(form)
    _key, naming = REFERENCES["players"]
    for group, field in naming:
        for row in state[group]:
            row[field] = renamed.get(row[field], row[field])
    return state


def renamed_players(form: Mapping[str, str]) -> dict[str, str]:
    """{name a player row was shown with: its name as posted} for the rows renamed in this
    post, so their cards, entries and the card picker's player follow the row (they kept
    the old name, „B (unbekannt)“: a review). Each row carries the name it was shown with
    in a hidden ``p-<n>-was``; a name two rows were shown with, one cleared, or one another
    row is posted with too, is left."""
    shown: dict[str, str] = {}
    posted: dict[str, str] = {}
    for key, value in form.items():
        match = FIELD_KEY.fullmatch(key)
        if match and match.group(1) == "p" and match.group(3) in (SHOWN_NAME, "name"):
            names = shown if match.group(3) == SHOWN_NAME else posted
            names[match.group(2)] = _held(clean_input(value).strip())
    # counted once (`count` per row took seconds for thousands of posted fields)
    olds, news = Counter(shown.values()), Counter(posted.values())
    return {
        old: posted[row]
        for row, old in shown.items()
        if old
        and olds[old] == 1
        and posted.get(row)
        and posted[row] != old
        # a rename to another player's name merged them for good (a code review)
        and news[posted[row]] == 1
    }


def pick_owner(form: Mapping[str, str]) -> str:
    """The player the card picker's „Für“ names, renamed as its row was in this post."""
    owner = _held(clean_input(form.get("pick_owner", "")).strip())
    return renamed_players(form).get(owner, owner)


def _kept_rows(form: Mapping[str, str]) -> dict[str, list[tuple[int, dict[str, Any]]]]:
    """Per group, the posted rows that are not blank, as (posted number, row) in order."""
    rows: dict[str, dict[int, dict[str, Any]]] = {g: {} for g in GROUP_FIELDS}
    for key, value in form.items():
        match = FIELD_KEY.fullmatch(key)
        if not match:
            continue
        group = PREFIX_GROUP[match.group(1)]
        field = match.group(3)
        if field not in GROUP_FIELDS[group][1]:
            continue
        row = rows[group].setdefault(int(match.group(2)), {})
        # as the reader reads every scenario text (`faq_bot.stack.read`): invisible format
        # characters dropped, so the notes and the rows shown again carry none either
        row[field] = (
            value not in ("", "0", "false") if field in FLAGS else _held(clean_input(value).strip())
        )
    kept: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for group, (_, fields) in GROUP_FIELDS.items():
        kept[group] = []
        for number in sorted(rows[group]):
            row = {f: (False if f in FLAGS else "") for f in fields} | rows[group][number]
            if not _blank(row):
                kept[group].append((number, row))
        if len(kept[group]) > MAX_ROWS:  # before anything offers each row every other
            raise TooManyRows(
                f"Das Formular hat {len(kept[group])} {GROUP_NAMES[group]}; erlaubt sind "
                f"höchstens {MAX_ROWS}. Bitte die Eingabe kürzen."
            )
    return kept


class TooManyRows(InputError):
    """A posted form with more rows in a group than the reader takes (`MAX_ROWS`)."""


def nothing_entered(state: Mapping[str, Any]) -> bool:
    """No card, no stack entry and no player's TW: at most the players' names, as the
    starting form shows them."""
    return not state["cards"] and not state["stack"] and not any(p["tw"] for p in state["players"])


def is_number(text: str) -> bool:
    """A row number of a builder button: ASCII digits only ("²" is a digit to
    `str.isdigit` but not to `int`)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


class ActionError(InputError):
    """A builder button the form cannot apply (a made-up action, a row or catalog card
    that is not there): its German message says which; the form stays as it was."""


UNCHANGED = "Das Formular ist unverändert."
MISSING_ROW = f"Die Zeile dieser Schaltfläche gibt es nicht (mehr). {UNCHANGED}"


def state_action(action: str, form: Mapping[str, str]) -> str:
    """`action` as posted with `form`, its row number turned into the row's index in the
    state `state_from_form` reads from it (``remove:<group>:<n>``, ``move:stack:<n>:…``,
    ``announce:<n>``): blank rows are dropped when the form is read, so after one the
    numbers the form showed and the state's differ. A button of a blank row only
    re-renders (``refresh``): its row is gone already. Other actions are returned as
    they are."""
    kind, _, rest = action.partition(":")
    parts = rest.split(":")
    if kind == "remove" and len(parts) == 2 and parts[0] in GROUP_FIELDS:
        group, at = parts[0], 1
    elif kind == "move" and len(parts) == 3 and parts[0] == "stack" and parts[2] in ("up", "down"):
        # (another direction is refused naming the action as posted, not renumbered)
        group, at = "stack", 1
    elif kind == "announce" and len(parts) == 1:
        group, at = "cards", 0
    else:
        return action
    if not is_number(parts[at]):
        return action
    index = _row_index(form, group, int(parts[at]))
    if index is None:
        return "refresh"
    parts[at] = str(index)
    return f"{kind}:{':'.join(parts)}"


def _row_index(form: Mapping[str, str], group: str, number: int) -> int | None:
    """The index in the state read from `form` of the row the form showed as `number`
    (blank rows are dropped when it is read, so the two differ after one); None for a
    blank row. A form that posts no row of `group` (an action applied to a state built
    otherwise) numbers the state's rows themselves. ValueError for a row the form did not
    show (a made-up button: "remove:players:999" is refused as "announce:999" is): an
    `ActionError`."""
    prefix = GROUP_FIELDS[group][0]
    posted = {
        int(m.group(2)) for key in form if (m := FIELD_KEY.fullmatch(key)) and m.group(1) == prefix
    }
    if not posted:
        return number
    if number not in posted:
        raise ActionError(MISSING_ROW)
    numbers = [n for n, _row in _kept_rows(form)[group]]
    return numbers.index(number) if number in numbers else None


def _blank(row: Mapping[str, Any]) -> bool:
    return not any(v for v in row.values())


def _number(value: str) -> Any:
    """A form number: digits become an int; anything else is passed on for the reader to
    refuse. More than 9 digits are past every limit of the schema: they become 10**9
    (negative: -10**9), which the reader refuses as too large (or negative), as it does
    the number typed, without reading thousands of digits."""
    found = re.fullmatch(r"(-?)(\d+)", value)
    if found is None:
        return value
    if len(found.group(2).lstrip("0")) <= 9:  # "0000000005" is 5
        return int(value)
    return -(10**9) if found.group(1) else 10**9


def missing_kind_reason(path: Any, state: Mapping[str, Any]) -> str:
    """Why a card row's Kartenart is missing, said after the error about it, when the
    catalog could not fill it: its name is none of the catalog's (a phone review: „Karte 1 ›
    Kartenart: fehlt“ for a card the catalog fills for any other name); "" otherwise."""
    if not (isinstance(path, tuple | list) and len(path) == 3 and path[0] == "cards"):
        return ""
    rows = state.get("cards", [])
    i = path[1]
    if path[2] != "kind" or not isinstance(i, int) or not 0 <= i < len(rows):
        return ""
    if rows[i].get("kind"):
        return ""
    note = unknown_card_note(rows[i].get("name") or "")
    return f" – {note}" if note else ""


def unknown_card_note(name: str) -> str:
    """What the form says of a card `name` the catalog lacks, with the names it most likely
    meant (`cards_near`); "" for none or one it has. Said after the Kartenart's error
    (`missing_kind_reason`) and when such a card is announced."""
    if not name or find_card(name) is not None:
        return ""
    meant = f" ({note})" if (note := meant_note(name)) else ""
    return f"{said_back(name, 40)} steht nicht im Kartenkatalog{meant}; bitte die Kartenart wählen"


def scenario_from_state(state: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Scenario JSON data from form rows, plus German notes on what was filled in.

    Only the spec's fields are written (the reader refuses any other); effect
    fields that do not belong to the chosen effect type are left out.
    """
    data, notes, _players = _scenario(state, lenient=False)
    return data, notes


def draft_text(state: Mapping[str, Any]) -> str:
    """The rows as scenario JSON text (indented) even where they make no scenario: a
    player without a name or named twice, a Kürzel given twice are written as typed (the
    reader then names them again). For the JSON view when the rows are too big to show:
    what was typed stays on the page to mend."""
    data, _notes, players = _scenario(state, lenient=True)
    token = f"players-{secrets.token_hex(8)}"  # a JSON object cannot hold a key twice
    data["players"] = token
    text = json.dumps(data, ensure_ascii=False, indent=2)
    written = ",\n".join(
        f"    {json.dumps(name, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}"
        for name, value in players
    )
    return text.replace(json.dumps(token), "{\n" + written + "\n  }" if players else "{}", 1)


def _scenario(
    state: Mapping[str, Any], *, lenient: bool
) -> tuple[dict[str, Any], list[str], list[tuple[str, Any]]]:
    """(`scenario_from_state`'s data and notes, the players as (name, value) in row
    order); `lenient`: nothing refused (see `draft_text`)."""
    notes: list[str] = []  # "what: values", each filled in from the catalog or made up
    pairs: list[tuple[str, Any]] = []
    for i, row in enumerate(state["players"]):
        name = row["name"]
        if not name and not lenient:
            raise ScenarioFormatError(
                f"Spieler {i + 1}{SEPARATOR}Name: fehlt (Feld players)",
                ("players", i),
                f"Spieler {i + 1}{SEPARATOR}Name: fehlt",
            )
        if any(name == other for other, _value in pairs) and not lenient:
            twice = f"Spieler {i + 1}{SEPARATOR}Name: {said_back(name)} kommt mehrfach vor"
            raise ScenarioFormatError(
                f"{twice} (Feld players.{name})",
                ("players", i),
                twice,
            )
        pairs.append((name, {"tw": _number(row["tw"])} if row["tw"] else {}))
    players = dict(pairs)

    given: dict[str, int] = {}  # Kürzel -> the card row that has it
    for i, row in enumerate(state["cards"]):
        if row["id"] in given and not lenient:  # first: the stack's choices are by Kürzel
            raise ScenarioFormatError(
                f"Karte {i + 1}{SEPARATOR}Kürzel: {said_back(row['id'])} ist schon bei Karte "
                f"{given[row['id']] + 1} vergeben",
                ("cards", i, "id"),
            )
        if row["id"]:
            given[row["id"]] = i
    taken = set(given)
    cards: list[dict[str, Any]] = []
    names: dict[str, str] = {}  # card id -> name, for the stack's catalog look-ups
    owners: dict[str, str] = {}  # card id -> owner: who announces an entry left blank
    for row in state["cards"]:
        card: dict[str, Any] = {}
        card_id = row["id"]
        if not card_id and row["name"]:
            card_id = unique_id(slugify(row["name"]), taken)
            notes.append(f"Karte „{row['name']}“: Kürzel {card_id}")
        if card_id:
            card["id"] = card_id
        if row["name"]:
            card["name"] = row["name"]
        if row["owner"]:
            card["owner"] = row["owner"]
        kind = row["kind"]
        if not kind and row["name"]:
            known = find_card(row["name"])
            if known is not None:
                kind = known.kind.value
                notes.append(f"Karte {row['name']}: Kartenart {KIND_DE[known.kind]}")
        if kind:
            card["kind"] = kind
        if row["zone"]:
            card["zone"] = row["zone"]
        card["locked"] = bool(row["locked"])
        if row["defense"]:
            card["defense"] = _number(row["defense"])
        cards.append(card)
        if card_id:
            names[card_id] = row["name"]
            owners[card_id] = row["owner"]

    entry_ids = {row["id"] for row in state["stack"] if row["id"]}
    stack: list[dict[str, Any]] = []
    for i, row in enumerate(state["stack"]):
        entry_id = row["id"] or unique_id(f"s{i + 1}", entry_ids)
        values = dict(row)
        known = find_card(names[row["source"]]) if names.get(row["source"]) else None
        filled = []
        if known is not None and not values["type"]:
            values["type"] = known.effect.value
            filled.append(f"Effekt {EFFECT_LABEL[known.effect]}")
            for flag, label in (("sacrifice", "opfern"), ("lock_source", "Sperren als Kosten")):
                if getattr(known, flag) and not values[flag]:
                    values[flag] = True
                    filled.append(label)
        if known is not None and values["type"] == known.effect.value:
            for field, label in (
                ("amount", "Anzahl"),
                ("cost", "Kosten"),
                ("play_cost", "Ausspielkosten"),
            ):
                default = getattr(known, field)
                if not values[field] and default is not None:
                    values[field] = str(default)
                    filled.append(f"{label} {default}")
        if filled and known is not None:
            notes.append(f"Eintrag {i + 1} ({known.name}): {', '.join(filled)}")
        if not values["by"] and owners.get(values["source"]):
            values["by"] = owners[values["source"]]
            notes.append(
                f"Eintrag {i + 1}: sagt {values['by']} an (Besitzer von "
                f"{names.get(values['source']) or values['source']})"
            )
        entry: dict[str, Any] = {"id": entry_id}
        if values["by"]:
            entry["by"] = values["by"]
        entry["source"] = values["source"] or None
        effect: dict[str, Any] = {}
        if values["type"]:
            effect["type"] = values["type"]
            kind = next((t for t in EffectType if t.value == values["type"]), None)
            if kind in TARGET_EFFECTS and values["target"]:
                effect["target"] = values["target"]
            if kind in AMOUNT_EFFECTS and values["amount"]:
                effect["amount"] = _number(values["amount"])
            if kind is EffectType.OTHER and values["text"]:
                effect["text"] = values["text"]
        entry["effect"] = effect
        for field in ("cost", "play_cost"):
            if values[field]:
                entry[field] = _number(values[field])
        entry["sacrifice"] = bool(values["sacrifice"])
        entry["lock_source"] = bool(values["lock_source"])
        stack.append(entry)

    # a player who owns no card and announces nothing takes no part (the form's second
    # player while a judge tries one card): 0 TW rather than „TW übrig: fehlt“
    taking_part = {c.get("owner") for c in cards} | {e.get("by") for e in stack}
    for name, value in pairs:
        if name and "tw" not in value and name not in taking_part:
            value["tw"] = 0
            notes.append(f"Spieler {name}: 0 TW (keine Karte, kein Eintrag)")

    data = {"phase": state["phase"], "players": players, "cards": cards, "stack": stack}
    return data, notes, pairs


def announced(state: Mapping[str, Any]) -> dict[str, int]:
    """Card id -> the number of the first stack entry it is the source of (a card lies on
    the stack once: its row says where, and „Ansagen“ is refused for it)."""
    return {
        source: number
        for number, row in reversed(list(enumerate(state["stack"], 1)))
        if (source := row.get("source"))
    }


def pad_state(state: dict[str, Any], extra: Mapping[str, int] | None = None) -> dict[str, Any]:
    """Rows for the form: the filled ones, then blank ones up to the minimum (+ one spare)."""
    padded = dict(state)
    for group, (_, fields) in GROUP_FIELDS.items():
        rows = list(state[group])
        want = max(MIN_ROWS[group], len(rows) + 1) + (extra or {}).get(group, 0)
        want = min(want, MAX_ROWS)
        while len(rows) < want:
            rows.append({f: (False if f in FLAGS else "") for f in fields})
        padded[group] = rows
    return padded
