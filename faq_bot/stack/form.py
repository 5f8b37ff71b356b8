"""The checker's form as data: rows of fields <-> scenario JSON, and the result as a view.

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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from itertools import islice
from typing import Any

from faq_bot.corpus.splitters import slugify, unique_id
from faq_bot.stack import result_to_json
from faq_bot.stack.catalog import find_card, load_catalog
from faq_bot.stack.explain import (
    EFFECT_DE,
    ERROR_DE,
    OUTCOME_DE,
    REASON_DE,
    ZONE_DE,
    describe_entry,
)
from faq_bot.stack.model import (
    AMOUNT_EFFECTS,
    CARD_TARGET_EFFECTS,
    EffectType,
    Kind,
    Phase,
    Result,
    Scenario,
    Zone,
)
from faq_bot.stack.names import card_name, entry_name
from faq_bot.stack.read import ScenarioFormatError, field_label, scenario_schema
from faq_bot.text import clean_input

MIN_ROWS = {"players": 2, "cards": 1, "stack": 1}  # rows the form shows at least
MAX_ROWS = 200  # the reader's limit per list
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
ROW_NOUN = {"players": "Spieler", "cards": "Karte", "stack": "Eintrag"}  # as the legends say
FIRST_FIELD = {"players": "name", "cards": "name", "stack": "source"}  # a row's first field
_KEY = re.compile(r"^([pcs])-(\d{1,4})-([a-z_]+)$")
_PREFIX_GROUP = {prefix: group for group, (prefix, _) in GROUP_FIELDS.items()}
TARGET_EFFECTS = frozenset(CARD_TARGET_EFFECTS | {EffectType.COUNTER})

KIND_DE = {
    Kind.BASE: "Basisausbau",
    Kind.LAND: "Landausbau",
    Kind.UNIT: "Einheit",
    Kind.ACTION: "Aktionskarte",
    Kind.COUNTRY: "Länderkarte",
}
ZONE_LABEL = {Zone.HAND: "Hand", Zone.PLAY: "im Spiel", Zone.SCRAP: "Schrottplatz"}
EFFECT_LABEL = EFFECT_DE  # the form's effect choices (German; values stay English)
OUTCOME_CLASS = {
    "resolved": "ok",
    "prevented": "warn",
    "countered": "warn",
    "fizzled": "bad",
}


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
    return str(value)


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
    state["phase"] = form.get("phase", "").strip() or Phase.BAUPHASE.value
    for group, kept in _kept_rows(form).items():
        state[group].extend(row for _number, row in kept)
    return state


def _kept_rows(form: Mapping[str, str]) -> dict[str, list[tuple[int, dict[str, Any]]]]:
    """Per group, the posted rows that are not blank, as (posted number, row) in order."""
    rows: dict[str, dict[int, dict[str, Any]]] = {g: {} for g in GROUP_FIELDS}
    for key, value in form.items():
        match = _KEY.match(key)
        if not match:
            continue
        group = _PREFIX_GROUP[match.group(1)]
        field = match.group(3)
        if field not in GROUP_FIELDS[group][1]:
            continue
        row = rows[group].setdefault(int(match.group(2)), {})
        # as the reader reads every scenario text (`faq_bot.stack.read`): invisible format
        # characters dropped, so the notes and the rows shown again carry none either
        row[field] = (
            value not in ("", "0", "false") if field in FLAGS else clean_input(value).strip()
        )
    kept: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for group, (_, fields) in GROUP_FIELDS.items():
        kept[group] = []
        for number in sorted(rows[group]):
            row = {f: (False if f in FLAGS else "") for f in fields} | rows[group][number]
            if not _blank(row):
                kept[group].append((number, row))
    return kept


def _is_number(text: str) -> bool:
    """A row number of a builder button: ASCII digits only ("²" is a digit to
    `str.isdigit` but not to `int`)."""
    return text.isascii() and text.isdigit() and len(text) <= 9


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
    elif kind == "move" and len(parts) == 3 and parts[0] == "stack":
        group, at = "stack", 1
    elif kind == "announce" and len(parts) == 1:
        group, at = "cards", 0
    else:
        return action
    if not _is_number(parts[at]):
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
    otherwise) numbers the state's rows themselves."""
    prefix = GROUP_FIELDS[group][0]
    if not any(_KEY.match(key) and key.startswith(f"{prefix}-") for key in form):
        return number
    numbers = [n for n, _row in _kept_rows(form)[group]]
    return numbers.index(number) if number in numbers else None


def _blank(row: Mapping[str, Any]) -> bool:
    return not any(v for v in row.values())


def _number(value: str) -> Any:
    """A form number: digits become an int; anything else is passed on for the reader to refuse."""
    return int(value) if re.fullmatch(r"-?\d{1,9}", value) else value


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
                f"Spieler {i + 1} › Name: fehlt (Feld players)",
                ("players", i),
                f"Spieler {i + 1} › Name: fehlt",
            )
        if any(name == other for other, _value in pairs) and not lenient:
            raise ScenarioFormatError(
                f"Spieler {i + 1} › Name: {name} kommt mehrfach vor (Feld players.{name})",
                ("players", i),
                f"Spieler {i + 1} › Name: {name} kommt mehrfach vor",
            )
        pairs.append((name, {"tw": _number(row["tw"])} if row["tw"] else {}))
    players = dict(pairs)

    given: dict[str, int] = {}  # Kürzel -> the card row that has it
    for i, row in enumerate(state["cards"]):
        if row["id"] in given and not lenient:  # first: the stack's choices are by Kürzel
            raise ScenarioFormatError(
                f"Karte {i + 1} › Kürzel: „{row['id']}“ ist schon bei Karte "
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

    data = {"phase": state["phase"], "players": players, "cards": cards, "stack": stack}
    return data, notes, pairs


def form_field(path: tuple[str | int, ...] | None, state: Mapping[str, Any]) -> str | None:
    """The form field (its ``id``) an error at `path` of the scenario made from `state` is
    about, so the page can mark it: ``("stack", 1, "effect", "target")`` -> ``"s-1-target"``.

    Rows and list items share their position (`scenario_from_state`, `state_from_json`);
    players are keyed by name in the JSON, so ``("players", "A", "tw")`` is the row named A
    (the form's own errors say ``("players", <row>)``). None when no shown field holds it:
    no path, a row the form does not have, an entry's hidden id.
    """
    if not path:
        return None
    head, rest = path[0], path[1:]
    if head == "phase":
        return "phase"
    if head == "players":
        names = [row["name"] for row in state["players"]]
        if not rest:
            return "p-0-name"  # no players at all: where the first goes
        if isinstance(rest[0], int):
            row = rest[0]
        elif rest[0] in names:
            row = names.index(rest[0])
        else:
            return None
        if rest[1:] not in ((), ("tw",)) or row >= len(names):
            return None  # a key the form has no field for
        return f"p-{row}-{'tw' if rest[1:] else 'name'}"
    if head not in ("cards", "stack") or not rest or not isinstance(rest[0], int):
        return None  # the whole list (not a list, too long): no one field
    prefix, fields = GROUP_FIELDS[str(head)]
    row, tail = rest[0], rest[1:]
    if row >= len(state[str(head)]):
        return None
    if head == "stack" and tail[:1] == ("effect",):
        tail = tail[1:] or ("type",)  # the effect's fields sit in the entry's row
    field = str(tail[0]) if tail else ("name" if head == "cards" else "source")
    if len(tail) > 1 or field not in fields or (head == "stack" and field == "id"):
        return None
    return f"{prefix}-{row}-{field}"


def result_view(
    scenario: Scenario,
    result: Result,
    rule_links: Callable[[tuple[str, ...]], list[dict[str, str]]],
) -> dict[str, Any]:
    """What the result part of the page shows (German labels; values escaped by Jinja).

    `rule_links` turns rule ids into ``{"id", "title", "url"}`` (the web layer's job).
    """
    steps = []
    for number, step in enumerate(result.steps, 1):
        entry = scenario.entry(step.entry)
        steps.append(
            {
                "number": number,
                "entry": step.entry,
                "entry_name": entry_name(scenario, step.entry),
                "by": entry.by if entry else "",
                "label": describe_entry(scenario, entry) if entry else step.entry,
                "outcome": step.outcome.value,
                "outcome_de": OUTCOME_DE[step.outcome],
                "reason_de": REASON_DE[step.reason] if step.reason else None,
                "css": OUTCOME_CLASS[step.outcome.value],
                "paid": step.paid,
                "explanation": step.explanation,
                "rules": rule_links(step.rules),
            }
        )
    start_tw = {p.name: p.tw for p in scenario.players}
    players = []
    cards = []
    if result.final is not None:
        players = [
            {"name": p.name, "start": start_tw.get(p.name, 0), "tw": p.tw, "drawn": p.drawn}
            for p in result.final.players
        ]
        for state in result.final.cards:
            card = scenario.card(state.id)
            changed = card is not None and (card.zone, card.locked) != (state.zone, state.locked)
            cards.append(
                {
                    "id": state.id,
                    "name": card_name(scenario, state.id),
                    "zone": ZONE_DE[state.zone],
                    "locked": state.locked,
                    "changed": changed,
                }
            )
    end = result.end_of_phase
    return {
        "ok": result.ok,
        "errors": [
            {"code": e.code.value, "what": ERROR_DE[e.code], "message": e.message}
            for e in result.errors
        ],
        "steps": steps,
        # cards by name, as every text of the checker names them (`faq_bot.stack.names`)
        "damage": [
            (card_name(scenario, card), amount, card in end.destroyed)
            for card, amount in end.damage
        ]
        if end
        else [],
        "players": players,
        "cards": cards,
        "json": json.dumps(result_to_json(result), ensure_ascii=False, indent=2),
        "preview": share_preview(scenario, result),
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


def form_choices(state: Mapping[str, Any]) -> dict[str, Any]:
    """Everything a select of the form offers: the schema's enums, the scenario's own
    players, cards and entries (targets are picked, never typed), and the catalog. Given
    the rows the form shows (`pad_state`), ``entry_targets`` has one list per row."""
    schema = scenario_schema()
    card_schema = schema["properties"]["cards"]["items"]["properties"]
    effect_schema = schema["$defs"]["effect"]["properties"]
    catalog_names = sorted(
        {n for card in load_catalog() for n in (card.name, *card.aliases)}, key=str.casefold
    )
    names = [r["name"] for r in state["cards"] if r.get("id")]
    cards = []
    for row in state["cards"]:
        if not row.get("id"):
            continue
        label = row["name"] or row["id"]
        if names.count(row["name"]) > 1 and row["owner"]:
            label = f"{label} von {row['owner']}"
        cards.append((row["id"], label))
    entries = []
    labels = dict(cards)
    for number, row in enumerate(state["stack"], 1):
        if row.get("id"):
            source = labels.get(row["source"], row["source"])
            entries.append((row["id"], f"Eintrag {number}" + (f" ({source})" if source else "")))
    # what each stack row may target (one list per row of `state`, padded or not: blank
    # rows have no id): the cards and the entries announced before it (only those can be
    # countered); a row's own or a later entry only while it is its target, so the
    # checker still explains why it is none instead of the choice vanishing
    position = {row.get("id"): i for i, row in enumerate(state["stack"]) if row.get("id")}
    entry_targets = [
        cards
        + [
            (eid, label)
            for eid, label in entries
            if position[eid] < i or eid == (row.get("target") or None)
        ]
        for i, row in enumerate(state["stack"])
    ]
    return {
        "phases": list(schema["properties"]["phase"]["enum"]),
        "kinds": [(k, KIND_DE[Kind(k)]) for k in card_schema["kind"]["enum"]],
        "zones": [(z, ZONE_LABEL[Zone(z)]) for z in card_schema["zone"]["enum"]],
        "effects": [(t, EFFECT_LABEL[EffectType(t)]) for t in effect_schema["type"]["enum"]],
        "players": [(r["name"], r["name"]) for r in state["players"] if r["name"]],
        "cards": cards,
        "entry_targets": entry_targets,
        "catalog_names": catalog_names,
        "chips": [card.name for card in load_catalog()],
        "labels": field_labels(),
    }


# characters the rows' selects may offer in all (each option's value and label, plus its
# markup): every row offers every player, card and earlier entry, so the page grows with
# the rows times the choices (MAX_ROWS of each, long names: 79 MB from a link of 6,000
# characters). A form above it shows no rows, and the scenario in its JSON view instead.
MAX_CHOICE_CHARS = 300_000
OPTION_MARKUP = len('<option value=""></option>') + 6


def choices_size(form: Mapping[str, Any], choices: Mapping[str, Any]) -> int:
    """What the rows of `form` (`pad_state`) offer in their selects, in characters
    (`form_choices`'s options: a card row's owner, an entry row's source, target and
    announcer), compared with `MAX_CHOICE_CHARS`."""

    def size(options: list[tuple[str, str]]) -> int:
        return sum(len(value) + len(label) + OPTION_MARKUP for value, label in options)

    players, cards = size(choices["players"]), size(choices["cards"])
    entry_rows = sum(players + cards + size(targets) for targets in choices["entry_targets"])
    return len(form["cards"]) * players + entry_rows


@lru_cache(maxsize=1)
def field_labels() -> dict[str, str]:
    """Form field -> label, from the schema's titles ("cost" -> "Kosten (TW)")."""
    schema = scenario_schema()
    labels = {"phase": field_label(["phase"])}
    for group, prefix in (("cards", "c"), ("stack", "s")):
        for name in schema["properties"][group]["items"]["properties"]:
            labels[f"{prefix}-{name}"] = field_label([group, 0, name]).split(" › ")[-1]
    for name in ("type", "target", "amount", "text"):
        labels[f"s-{name}"] = field_label(["stack", 0, "effect", name]).split(" › ")[-1]
    labels["p-name"] = "Name"
    labels["p-tw"] = field_label(["players", "A", "tw"]).split(" › ")[-1]
    return labels


def field_title(field: str, state: Mapping[str, Any]) -> str:
    """A form field (its ``id``) named so it makes sense out of context, as a link to it
    from the list of errors: its row, then its label, as the error texts name fields
    ("Karte 2 › Besitzer: fehlt"): ``p-1-tw`` -> "Spieler B › TW übrig", ``c-2-owner`` ->
    "Karte 3 (227-Pfund Bombe) › Besitzer", ``s-1-target`` -> "Eintrag 2 › Ziel". A player
    is named by name, a card row by number and name, all else by number."""
    labels = field_labels()
    match = _KEY.match(field)
    if not match:
        return labels.get(field, field)
    prefix, number, name = match.groups()
    group, i = _PREFIX_GROUP[prefix], int(number)
    rows = state[group]
    shown = rows[i]["name"] if i < len(rows) and group != "stack" and name != "name" else ""
    row = f"{ROW_NOUN[group]} {i + 1}"
    if shown:
        row = f"Spieler {shown}" if group == "players" else f"{row} ({shown})"
    return f"{row} › {labels.get(f'{prefix}-{name}', name)}"


# ---------------------------------------------------------------- builder actions


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


def _blank_row(group: str) -> dict[str, Any]:
    return {f: (False if f in FLAGS else "") for f in GROUP_FIELDS[group][1]}


def apply_action(state: dict[str, Any], action: str, form: Mapping[str, str]) -> dict[str, Any]:
    """A builder button: ``add:<group>``, ``remove:<group>:<n>``, ``move:stack:<n>:up|down``,
    ``pick:<catalog card>`` (a card for the player in ``pick_owner``), ``announce:<n>``
    (card row n goes on the stack, announced by its owner), ``refresh`` (only re-render).
    Raises ValueError otherwise."""
    kind, _, rest = action.partition(":")
    parts = rest.split(":")
    if action == "refresh":  # check.js after a card's name or owner changed: new choices
        pass
    elif kind == "add" and rest in GROUP_FIELDS:
        state[rest].append(_blank_row(rest))
    elif kind == "remove" and len(parts) == 2 and parts[0] in GROUP_FIELDS and _is_number(parts[1]):
        rows = state[parts[0]]
        if int(parts[1]) < len(rows):
            del rows[int(parts[1])]
    elif kind == "move" and len(parts) == 3 and parts[0] == "stack" and _is_number(parts[1]):
        if parts[2] not in ("up", "down"):
            raise ValueError(action)
        rows, i = state["stack"], int(parts[1])
        j = i - 1 if parts[2] == "up" else i + 1
        if 0 <= i < len(rows) and 0 <= j < len(rows):
            rows[i], rows[j] = rows[j], rows[i]
    elif kind == "pick" and find_card(rest) is not None:
        card = find_card(rest)
        assert card is not None
        owners = [r["name"] for r in state["players"] if r["name"]]
        owner = form.get("pick_owner", "").strip() or (owners[0] if owners else "")
        row = _blank_row("cards") | {"name": card.name, "owner": owner, "kind": card.kind.value}
        state["cards"].append(row)
    elif kind == "announce" and _is_number(rest) and int(rest) < len(state["cards"]):
        complete_ids(state)
        card = state["cards"][int(rest)]
        state["stack"].append(_blank_row("stack") | {"source": card["id"], "by": card["owner"]})
    else:
        raise ValueError(action)
    complete_ids(state)
    return state


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
    state: Mapping[str, Any], action: str, posted: str | None = None
) -> Feedback | None:
    """`_feedback`, with the rows the step changed (`action_group` of the button pressed)."""
    said = _feedback(state, action, posted)
    pressed = posted if posted is not None else action
    return None if said is None else replace(said, group=action_group(pressed))


def _feedback(state: Mapping[str, Any], action: str, posted: str | None = None) -> Feedback | None:
    """What `apply_action` did with `action` to `state` (given as it is after the step),
    and where the focus goes then (None for ``refresh``, which only re-renders). `posted`:
    the action as the form sent it (`state_action` made `action` of it), whose row number
    is the one the pressed button showed; a remove button of a blank row (turned into
    ``refresh``) says that the row was empty and keeps the focus on the remove buttons.

    A new row (a card picked or announced, a row added): its first field. A removed row:
    the remove button of the row now in its place, or of the last row. A moved entry: its
    same button in its new place, so pressing again moves it further (its other one at the
    top of the list)."""
    kind, _, rest = action.partition(":")
    parts = rest.split(":")
    pressed = posted if posted is not None else action  # row numbers as the button showed
    pressed_parts = pressed.partition(":")[2].split(":")
    if kind == "refresh" and pressed.startswith("remove:") and len(pressed_parts) == 2:
        group, number = pressed_parts
        if group in GROUP_FIELDS and _is_number(number):
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
        where = "oben" if direction == "up" else "unten"
        shown_number = int(pressed_parts[1]) + 1  # as the button showed it
        if 0 <= row < len(state["stack"]) and 0 <= to < len(state["stack"]):
            message = f"Eintrag {shown_number} nach {where} verschoben, jetzt Eintrag {to + 1}."
        else:
            to = row
            message = f"Eintrag {shown_number} ist schon ganz {where}."
        # the arrows the row has there (`templates/check/_rows.html`): none "up" in the first
        # row, none "down" in the last
        offered = [
            d for d, shows in (("up", to > 0), ("down", to < len(shown["stack"]) - 1)) if shows
        ]
        same = direction if direction in offered else next(iter(offered), None)
        return Feedback(message, button=f"move:stack:{to}:{same}" if same else None)
    return None


# ---------------------------------------------------------------- share preview


def share_preview(scenario: Scenario, result: Result) -> dict[str, str]:
    """Title and description of a shared link (og:title, og:description): which entry
    resolves first, what fizzles, who pays."""
    n = len(scenario.stack)
    if not result.ok:
        return {
            "title": f"Aktionsstapel mit {n} Einträgen: so nicht zulässig",
            "description": " ".join(e.message for e in result.errors[:2])[:300],
        }
    if not result.steps:
        # as the page says it (templates/check/_checker.html): nothing announced is no result
        return {
            "title": "Noch nichts auf dem Aktionsstapel",
            "description": "Es gibt nichts aufzulösen: Karten ansagen, dann auflösen.",
        }
    first = result.steps[0]
    first_entry = scenario.entry(first.entry)
    first_label = entry_name(scenario, first.entry)
    if first_entry is not None and first_entry.source:
        first_label += f" ({card_name(scenario, first_entry.source)})"
    title = f"Aktionsstapel: zuerst {first_label} – {OUTCOME_DE[first.outcome]}"
    fizzled = [entry_name(scenario, s.entry) for s in result.steps if s.outcome.value == "fizzled"]
    paid: dict[str, int] = {p.name: 0 for p in scenario.players}
    for step in result.steps:
        entry = scenario.entry(step.entry)
        if entry is not None:
            paid[entry.by] = paid.get(entry.by, 0) + step.paid
    parts = [f"{n} Einträge, abgehandelt von oben nach unten."]
    parts.append(f"Verpufft: {', '.join(fizzled)}." if fizzled else "Nichts verpufft.")
    parts.append("Es zahlen: " + ", ".join(f"{p} {tw} TW" for p, tw in paid.items()) + ".")
    return {"title": title, "description": " ".join(parts)}
