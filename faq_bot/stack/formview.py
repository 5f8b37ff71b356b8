"""What the checker's page shows of its form and of a result: the selects' choices
(`form_choices`, bounded by `MAX_CHOICE_CHARS`), field labels and titles, the form field
an error is about (`form_field`), the result as a view (`result_view`) and the preview of
a shared link (`share_preview`). German labels; values are escaped by Jinja. No web
framework here: `faq_bot.web.check` only calls these.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from html import escape
from typing import Any

from faq_bot.stack import result_to_json
from faq_bot.stack.catalog import load_catalog
from faq_bot.stack.explain import (
    ERROR_DE,
    OUTCOME_DE,
    REASON_DE,
    ZONE_DE,
    describe_entry,
    entries,
)
from faq_bot.stack.form import (
    EFFECT_LABEL,
    FIELD_KEY,
    GROUP_FIELDS,
    KIND_DE,
    PREFIX_GROUP,
    ROW_NOUN,
    announced,
    unknown_card_note,
)
from faq_bot.stack.model import EffectType, Kind, Result, Scenario, Zone
from faq_bot.stack.names import card_name, entry_name
from faq_bot.stack.read import SEPARATOR, field_label, scenario_schema
from faq_bot.text import alphabetical

ZONE_LABEL = {Zone.HAND: "Hand", Zone.PLAY: "im Spiel", Zone.SCRAP: "Schrottplatz"}

OUTCOME_CLASS = {
    "resolved": "ok",
    "prevented": "warn",
    "countered": "warn",
    "fizzled": "bad",
}


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
            {
                "code": e.code.value,
                "what": ERROR_DE[e.code],
                "message": e.message,
                "rules": rule_links(e.rules),
            }
            for e in result.errors
        ],
        "hints": [{"message": h.message, "rules": rule_links(h.rules)} for h in result.hints],
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


def unknown_cards(state: Mapping[str, Any]) -> frozenset[int]:
    """The card rows whose name the catalog lacks and whose Kartenart is not given: „Ansagen“
    of one asks for its Kartenart (`faq_bot.stack.formsteps`), and the page without
    JavaScript lands at the cards, where it says so above the rows (at the field itself,
    what it says was out of view above, a phone review), not at the stack."""
    return frozenset(
        i
        for i, row in enumerate(state["cards"])
        if row.get("name") and not row.get("kind") and unknown_card_note(row["name"])
    )


def form_choices(state: Mapping[str, Any]) -> dict[str, Any]:
    """Everything a select of the form offers: the schema's enums, the scenario's own
    players, cards and entries (targets are picked, never typed), and the catalog. Given
    the rows the form shows (`pad_state`), ``entry_targets`` has one list per row."""
    schema = scenario_schema()
    card_schema = schema["properties"]["cards"]["items"]["properties"]
    effect_schema = schema["$defs"]["effect"]["properties"]
    catalog_names = alphabetical({n for card in load_catalog() for n in (card.name, *card.aliases)})
    names = [r["name"] for r in state["cards"] if r.get("id")]
    cards = []
    for row in state["cards"]:
        if not row.get("id"):
            continue
        label = row["name"] or row["id"]
        if names.count(row["name"]) > 1 and row["owner"]:
            # owner first: a select shows its label's start, and at large text on a
            # phone "227-Pfund Bombe von A" was cut before the owner
            label = f"{row['owner']}: {label}"
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
        "announced": announced(state),
        "unknown_cards": unknown_cards(state),
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
    """What the rows of `form` (`pad_state`) offer in their selects, in characters as the
    page sends them, escaped (`form_choices`'s options: a card row's owner, an entry row's
    source, target and announcer), compared with `MAX_CHOICE_CHARS`. (An adversarial probe:
    counted before escaping, names of quotation marks, five characters each on the page,
    let ten cards show their rows in a page of about 1 MB.)"""

    def size(options: list[tuple[str, str]]) -> int:
        return sum(
            len(escape(value)) + len(escape(label)) + OPTION_MARKUP for value, label in options
        )

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
            labels[f"{prefix}-{name}"] = field_label([group, 0, name]).split(SEPARATOR)[-1]
    for name in ("type", "target", "amount", "text"):
        labels[f"s-{name}"] = field_label(["stack", 0, "effect", name]).split(SEPARATOR)[-1]
    labels["p-name"] = "Name"
    labels["json"] = "JSON-Text"  # the JSON view's text box (its syntax errors)
    labels["p-tw"] = field_label(["players", "A", "tw"]).split(SEPARATOR)[-1]
    return labels


def field_title(field: str, state: Mapping[str, Any]) -> str:
    """A form field (its ``id``) named so it makes sense out of context, as a link to it
    from the list of errors: its row, then its label, as the error texts name fields
    ("Karte 2 › Besitzer: fehlt"): ``p-1-tw`` -> "Spieler B › TW übrig", ``c-2-owner`` ->
    "Karte 3 (227-Pfund Bombe) › Besitzer", ``s-1-target`` -> "Eintrag 2 › Ziel". A player
    is named by name, a card row by number and name, all else by number."""
    labels = field_labels()
    match = FIELD_KEY.fullmatch(field)
    if not match:
        return labels.get(field, field)
    prefix, number, name = match.groups()
    group, i = PREFIX_GROUP[prefix], int(number)
    rows = state[group]
    shown = rows[i]["name"] if i < len(rows) and group != "stack" and name != "name" else ""
    row = f"{ROW_NOUN[group]} {i + 1}"
    if shown:
        row = f"Spieler {shown}" if group == "players" else f"{row} ({shown})"
    return f"{row}{SEPARATOR}{labels.get(f'{prefix}-{name}', name)}"


def share_preview(scenario: Scenario, result: Result) -> dict[str, str]:
    """Title and description of a shared link (og:title, og:description): which entry
    resolves first, what fizzles, who pays."""
    n = len(scenario.stack)
    if not result.ok:
        return {
            "title": f"Aktionsstapel mit {entries(n, dative=True)}: so nicht zulässig",
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
    parts = [f"{entries(n)}, abgehandelt von oben nach unten."]
    parts.append(f"Verpufft: {', '.join(fizzled)}." if fizzled else "Nichts verpufft.")
    parts.append("Es zahlen: " + ", ".join(f"{p} {tw} TW" for p, tw in paid.items()) + ".")
    return {"title": title, "description": " ".join(parts)}
