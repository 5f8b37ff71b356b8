"""The scenario checker on the web: ``/check`` (form, German) and ``POST /api/check`` (JSON).

- ``POST /api/check``: a scenario (``stack-scenarios.md``) as JSON gives the
  checker's result JSON (200, also for an illegal scenario: ``ok`` false with
  ``errors``). Not JSON: 415; not a scenario: 400; a body over `MAX_BODY`
  bytes: 413; always the one error shape ``{"error", "detail"}``.
- ``GET /api/cards?q=``: catalog cards whose name starts with ``q`` (all without
  ``q``), for the form's pre-filling.
- ``GET /check``: the empty form; ``GET /check?s=<permalink>`` the filled form
  and its result (a link that cannot be read gives a 400 page).
- ``POST /check``: the form without JavaScript. The ``action`` button decides:
  ``check`` resolves, ``add:<group>`` adds a row, ``remove:<group>:<n>`` drops
  one. A non-empty ``json`` field (the JSON view) always wins over the rows.
  With the header ``X-Check-Fragment: 1`` (sent by ``check.js``) only the
  checker part of the page is rendered, so the script swaps it in without a
  reload.

Form rows that are left blank are skipped. What the server fills in for the
person (and says so on the page):

- a card without id gets one made from its name (``227-pfund-bombe``, ``-2`` …),
  a stack entry without id gets ``s1``, ``s2`` … by its position;
- a card whose name is in the catalog (`faq_bot/data/cards.toml`) and whose
  kind is left blank gets the catalog's kind;
- a stack entry whose effect is left blank takes the source card's catalog
  effect with its amount, cost, play cost, sacrifice and lock flags; with the
  catalog's effect chosen, blank amount/cost/play cost come from the catalog;
- a stack entry without ``by`` is announced by the owner of its source card.

Rule ids come from the index the pages link to (computed once per index build,
cached in ``Index.cache``); without an index, from the corpus folder (once per
process).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from functools import lru_cache
from importlib import resources
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import RequestEntityTooLarge, UnsupportedMediaType

from faq_bot.corpus.splitters import slugify, unique_id
from faq_bot.stack import (
    PermalinkError,
    Result,
    Scenario,
    ScenarioFormatError,
    catalog_card_to_json,
    catalog_suggestions,
    decode_permalink,
    encode_permalink,
    find_card,
    load_catalog,
    read_scenario,
    resolve,
    result_to_json,
    rule_titles,
    scenario_to_json,
)
from faq_bot.stack.explain import EFFECT_DE, OUTCOME_DE, REASON_DE, ZONE_DE, describe_entry
from faq_bot.stack.model import AMOUNT_EFFECTS, CARD_TARGET_EFFECTS, EffectType, Kind, Phase, Zone
from faq_bot.stack.read import parse_json
from faq_bot.web.common import IndexUnavailable, bad_request, current_index
from faq_bot.web.openapi import add_schema, describe, error_responses, html_body, json_body

log = logging.getLogger("faq_bot.web")

bp = Blueprint("check", __name__)

MAX_BODY = 256 * 1024  # bytes of a scenario sent to /api/check or /check
MIN_ROWS = {"players": 3, "cards": 4, "stack": 4}  # rows the form shows at least
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


# ---------------------------------------------------------------- rules and titles


def rules_from_index(index: Any) -> dict[str, str]:
    """Rule title -> entry id, looked up like `rule_ids_from_corpus` but in the index.

    A title the index lacks is left out (its steps then cite fewer rules).
    """
    ids: dict[str, str] = {}
    for title in rule_titles():
        for doc in (FAQ_DOC, None):
            found = index.find_by_title(title, doc)
            if found is not None:
                ids[title] = found.id
                break
    return ids


@lru_cache(maxsize=4)
def _rules_from_corpus(corpus_dir: str) -> Mapping[str, str]:
    from faq_bot.corpus import CorpusError
    from faq_bot.stack.rules import MissingRuleError, load_rules

    try:
        return load_rules(corpus_dir)
    except (CorpusError, MissingRuleError) as exc:
        log.warning("scenario checker without rule links: %s", exc)
        return {}


def _index_or_none() -> Any:
    try:
        return current_index()
    except IndexUnavailable:
        return None


def current_rules() -> Mapping[str, str]:
    """The rule ids for the current index build (computed once per build)."""
    index = _index_or_none()
    if index is None:
        return _rules_from_corpus(str(current_app.config["CORPUS_DIR"]))
    return index.state.once("stack.rules", lambda: rules_from_index(index))


def rule_links(rule_ids: tuple[str, ...] | list[str]) -> list[dict[str, str]]:
    """Each rule id with the title of its entry and its page URL."""
    index = _index_or_none()
    links = []
    for rule_id in rule_ids:
        record = index.entry(rule_id) if index is not None else None
        links.append(
            {
                "id": rule_id,
                "title": record.title if record is not None else rule_id,
                "url": url_for("pages.entry", entry_id=rule_id),
            }
        )
    return links


# ---------------------------------------------------------------- samples


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


def sample_links() -> list[dict[str, str]]:
    return [
        {
            "name": s["name"],
            "title": s["title"],
            "description": s["description"],
            "url": url_for("check.page", s=encode_permalink(s["scenario"])),
        }
        for s in load_samples()
    ]


# ---------------------------------------------------------------- form <-> scenario


def _text(value: Any) -> str:
    if value is None or isinstance(value, dict | list):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def empty_state() -> dict[str, Any]:
    return {"phase": Phase.BAUPHASE.value, "players": [], "cards": [], "stack": []}


def state_from_json(data: Any) -> dict[str, Any]:
    """Form rows from scenario JSON data (tolerant: it may not be a valid scenario)."""
    state = empty_state()
    if not isinstance(data, Mapping):
        return state
    if data.get("phase") is not None:
        state["phase"] = _text(data.get("phase"))
    players = data.get("players")
    if isinstance(players, Mapping):
        for name, value in players.items():
            tw = value.get("tw") if isinstance(value, Mapping) else None
            state["players"].append({"name": _text(name), "tw": _text(tw)})
    cards = data.get("cards")
    for card in cards if isinstance(cards, list) else []:
        if isinstance(card, Mapping):
            row: dict[str, Any] = {
                f: _text(card.get(f)) for f in GROUP_FIELDS["cards"][1] if f not in FLAGS
            }
            row["locked"] = card.get("locked") is True
            state["cards"].append(row)
    stack = data.get("stack")
    for entry in stack if isinstance(stack, list) else []:
        if not isinstance(entry, Mapping):
            continue
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


def state_from_form(
    form: MultiDict[str, str], skip: tuple[str, int] | None = None
) -> dict[str, Any]:
    """Form rows from posted fields ``p-<n>-name``, ``c-<n>-kind``, ``s-<n>-type`` …

    Rows keep their posted order (by number); rows left entirely blank are
    dropped, and so is the row `skip` (group, number) that was asked to go.
    """
    state = empty_state()
    state["phase"] = form.get("phase", "").strip() or Phase.BAUPHASE.value
    rows: dict[str, dict[int, dict[str, Any]]] = {g: {} for g in GROUP_FIELDS}
    for key, value in form.items(multi=False):
        match = _KEY.match(key)
        if not match:
            continue
        group = _PREFIX_GROUP[match.group(1)]
        field = match.group(3)
        if field not in GROUP_FIELDS[group][1]:
            continue
        if skip == (group, int(match.group(2))):
            continue
        row = rows[group].setdefault(int(match.group(2)), {})
        row[field] = value not in ("", "0", "false") if field in FLAGS else value.strip()
    for group, (_, fields) in GROUP_FIELDS.items():
        for number in sorted(rows[group]):
            row = {f: (False if f in FLAGS else "") for f in fields} | rows[group][number]
            if not _blank(row):
                state[group].append(row)
    return state


def _blank(row: Mapping[str, Any]) -> bool:
    return not any(v for v in row.values())


def _number(value: str) -> Any:
    """A form number: digits become an int; anything else is passed on for the reader to refuse."""
    return int(value) if value.isdigit() and len(value) <= 9 else value


def scenario_from_state(state: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Scenario JSON data from form rows, plus German notes on what was filled in.

    Only the spec's fields are written (the reader refuses any other); effect
    fields that do not belong to the chosen effect type are left out.
    """
    notes: list[str] = []  # "what: values", each filled in from the catalog or made up
    players: dict[str, Any] = {}
    for i, row in enumerate(state["players"]):
        name = row["name"]
        if not name:
            raise ScenarioFormatError(f"Feld players (Zeile {i + 1}): der Name fehlt")
        if name in players:
            raise ScenarioFormatError(f"Feld players.{name}: der Spieler kommt mehrfach vor")
        players[name] = {"tw": _number(row["tw"])} if row["tw"] else {}

    taken = {row["id"] for row in state["cards"] if row["id"]}
    cards: list[dict[str, Any]] = []
    names: dict[str, str] = {}  # card id -> name, for the stack's catalog look-ups
    owners: dict[str, str] = {}  # card id -> owner: who announces an entry left blank
    for row in state["cards"]:
        card: dict[str, Any] = {}
        card_id = row["id"]
        if not card_id and row["name"]:
            card_id = unique_id(slugify(row["name"]), taken)
            notes.append(f"Karte „{row['name']}“: id {card_id}")
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
                notes.append(f"Karte {card_id}: Kartenart {KIND_DE[known.kind]}")
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
            notes.append(f"Eintrag {entry_id} ({known.name}): {', '.join(filled)}")
        if not values["by"] and owners.get(values["source"]):
            values["by"] = owners[values["source"]]
            notes.append(
                f"Eintrag {entry_id}: sagt {values['by']} an (Besitzer von {values['source']})"
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
    return data, notes


# ---------------------------------------------------------------- views of a result


def result_view(scenario: Scenario, result: Result) -> dict[str, Any]:
    """What the result part of the page shows (German labels; values escaped by Jinja)."""
    steps = []
    for number, step in enumerate(result.steps, 1):
        entry = scenario.entry(step.entry)
        steps.append(
            {
                "number": number,
                "entry": step.entry,
                "by": entry.by if entry else "",
                "label": describe_entry(entry) if entry else step.entry,
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
                    "name": card.name if card else "",
                    "zone": ZONE_DE[state.zone],
                    "locked": state.locked,
                    "changed": changed,
                }
            )
    end = result.end_of_phase
    return {
        "ok": result.ok,
        "errors": [
            {"code": e.code.value, "entry": e.entry, "message": e.message} for e in result.errors
        ],
        "steps": steps,
        "damage": list(end.damage) if end else [],
        "destroyed": list(end.destroyed) if end else [],
        "players": players,
        "cards": cards,
        "json": json.dumps(result_to_json(result), ensure_ascii=False, indent=2),
    }


def _pad(state: dict[str, Any], extra: Mapping[str, int] | None = None) -> dict[str, Any]:
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


def _choices() -> dict[str, Any]:
    catalog_names = sorted(
        {n for card in load_catalog() for n in (card.name, *card.aliases)}, key=str.casefold
    )
    return {
        "phases": [p.value for p in Phase],
        "kinds": [(k.value, KIND_DE[k]) for k in Kind],
        "zones": [(z.value, ZONE_LABEL[z]) for z in Zone],
        "effects": [(t.value, EFFECT_LABEL[t]) for t in EffectType],
        "catalog_names": catalog_names,
    }


def _render(
    state: dict[str, Any],
    *,
    status: int = 200,
    error: str | None = None,
    notes: list[str] | None = None,
    view: dict[str, Any] | None = None,
    permalink: str | None = None,
    json_text: str | None = None,
    extra_rows: Mapping[str, int] | None = None,
    share_error: str | None = None,
) -> Response:
    """The check page (or only its checker part for ``check.js``)."""
    padded = _pad(state, extra_rows)
    if json_text is None:
        try:
            json_text = json.dumps(scenario_from_state(state)[0], ensure_ascii=False, indent=2)
        except ScenarioFormatError:
            json_text = ""
    context = {
        "form": padded,
        "error": error,
        "notes": notes or [],
        "view": view,
        "permalink": permalink,
        "share_error": share_error,
        "permalink_url": url_for("check.page", s=permalink, _external=True) if permalink else None,
        "json_text": json_text,
        "player_names": [r["name"] for r in state["players"] if r["name"]],
        "card_ids": [r["id"] for r in state["cards"] if r["id"]],
        "entry_ids": [r["id"] for r in state["stack"] if r["id"]],
        "samples": sample_links(),
        "max_rows": MAX_ROWS,
        **_choices(),
    }
    fragment = request.headers.get("X-Check-Fragment") == "1"
    html = render_template("check/_checker.html" if fragment else "check/page.html", **context)
    response = current_app.response_class(html, status=status, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store" if request.method == "POST" else "no-cache"
    response.headers["Vary"] = "X-Check-Fragment"
    return response


def _check_and_render(data: Any, state: dict[str, Any], notes: list[str]) -> Response:
    """Read, validate, resolve and show; a non-scenario renders the form with a 400."""
    try:
        scenario = read_scenario(data)
    except ScenarioFormatError as exc:
        return _render(state, status=400, error=str(exc), notes=notes)
    result = resolve(scenario, current_rules())
    canonical = scenario_to_json(scenario)
    permalink: str | None = None
    share_error: str | None = None
    try:
        permalink = encode_permalink(canonical)
    except PermalinkError as exc:
        share_error = str(exc)
    return _render(
        state_from_json(canonical),
        notes=notes,
        share_error=share_error,
        view=result_view(scenario, result),
        permalink=permalink,
        json_text=json.dumps(canonical, ensure_ascii=False, indent=2),
    )


def _limit_body() -> None:
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise RequestEntityTooLarge(
            description=f"Die Anfrage ist zu groß ({request.content_length} Bytes); "
            f"erlaubt sind höchstens {MAX_BODY} Bytes."
        )


# ---------------------------------------------------------------- routes


@bp.get("/check")
def page() -> Response:
    link = request.args.get("s")
    if link is None:
        return _render(empty_state())
    try:
        data = decode_permalink(link)
    except PermalinkError as exc:
        return _render(empty_state(), status=400, error=f"Der geteilte Link ist ungültig. {exc}")
    return _check_and_render(data, state_from_json(data), [])


@bp.post("/check")
def submit() -> Response:
    _limit_body()
    form = request.form
    action = form.get("action", "check")
    json_text = form.get("json", "")
    if json_text.strip():  # the JSON view always wins over the rows
        try:
            data = parse_json(json_text)
        except ScenarioFormatError as exc:
            return _render(empty_state(), status=400, error=str(exc), json_text=json_text)
        return _check_and_render(data, state_from_json(data), [])

    if action.startswith("add:"):
        group = action.removeprefix("add:")
        if group not in GROUP_FIELDS:
            raise bad_request(f"Unbekannte Aktion „{action}“.")
        return _render(state_from_form(form), extra_rows={group: 1})
    if action.startswith("remove:"):
        parts = action.split(":")
        if len(parts) != 3 or parts[1] not in GROUP_FIELDS or not parts[2].isdigit():
            raise bad_request(f"Unbekannte Aktion „{action}“.")
        return _render(state_from_form(form, skip=(parts[1], int(parts[2]))))
    if action != "check":
        raise bad_request(f"Unbekannte Aktion „{action}“.")
    state = state_from_form(form)
    try:
        data, notes = scenario_from_state(state)
    except ScenarioFormatError as exc:
        return _render(state, status=400, error=str(exc))
    return _check_and_render(data, state, notes)


@bp.post("/api/check")
def api_check() -> Any:
    _limit_body()
    if not request.is_json:
        raise UnsupportedMediaType(
            description="Bitte das Szenario als JSON senden (Content-Type: application/json)."
        )
    body = request.stream.read(MAX_BODY + 1)
    if len(body) > MAX_BODY:
        raise RequestEntityTooLarge(
            description=f"Die Anfrage ist zu groß; erlaubt sind höchstens {MAX_BODY} Bytes."
        )
    try:
        scenario = read_scenario(body)
    except ScenarioFormatError as exc:
        raise bad_request(f"Kein Szenario: {exc}") from None
    response = jsonify(result_to_json(resolve(scenario, current_rules())))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/api/cards")
def api_cards() -> Any:
    query = (request.args.get("q") or "").strip()
    if len(query) > 100:
        raise bad_request("Der Kartenname ist zu lang (höchstens 100 Zeichen).")
    cards = [catalog_card_to_json(card) for card in catalog_suggestions(query)]
    response = jsonify(query=query, cards=cards)
    response.headers["Cache-Control"] = "public, max-age=300"
    return response


# ---------------------------------------------------------------- OpenAPI

add_schema(
    "CheckResult",
    {
        "type": "object",
        "description": "Ergebnis des Prüfers (stack-scenarios.md)",
        "required": ["ok", "errors", "order", "steps", "end_of_phase", "final"],
        "properties": {
            "ok": {"type": "boolean"},
            "errors": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "code": {"type": "string"},
                        "entry": {"type": "string", "nullable": True},
                        "message": {"type": "string"},
                    },
                },
            },
            "order": {"type": "array", "items": {"type": "string"}},
            "steps": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "entry": {"type": "string"},
                        "outcome": {
                            "type": "string",
                            "enum": ["resolved", "prevented", "countered", "fizzled"],
                        },
                        "reason": {"type": "string", "nullable": True},
                        "paid": {"type": "integer"},
                        "explanation": {"type": "string"},
                        "rules": {"type": "array", "items": {"type": "string"}},
                    },
                },
            },
            "end_of_phase": {"type": "object", "nullable": True},
            "final": {"type": "object", "nullable": True},
        },
    },
)

describe(
    "/api/check",
    {
        "post": {
            "summary": "Ein Aktionsstapel-Szenario prüfen (stack-scenarios.md)",
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "required": ["players", "cards", "stack"],
                            "properties": {
                                "phase": {"type": "string"},
                                "players": {"type": "object"},
                                "cards": {"type": "array", "items": {"type": "object"}},
                                "stack": {"type": "array", "items": {"type": "object"}},
                            },
                        }
                    }
                },
            },
            "responses": {
                "200": json_body(
                    {"$ref": "#/components/schemas/CheckResult"},
                    "Ergebnis (auch für ein unzulässiges Szenario: ok false mit errors)",
                ),
                **error_responses(400),
                "413": json_body({"$ref": "#/components/schemas/Error"}, "Anfrage zu groß"),
                "415": json_body({"$ref": "#/components/schemas/Error"}, "Kein JSON"),
            },
        }
    },
)
describe(
    "/api/cards",
    {
        "get": {
            "summary": "Karten des Katalogs, deren Name mit q beginnt (zum Vorausfüllen)",
            "parameters": [
                {
                    "name": "q",
                    "in": "query",
                    "required": False,
                    "description": "Anfang des Kartennamens (leer: alle)",
                    "schema": {"type": "string", "maxLength": 100},
                }
            ],
            "responses": {
                "200": json_body(
                    {
                        "type": "object",
                        "properties": {
                            "query": {"type": "string"},
                            "cards": {"type": "array", "items": {"type": "object"}},
                        },
                    },
                    "Karten",
                ),
                **error_responses(400),
            },
        }
    },
)
describe(
    "/check",
    {
        "get": {
            "summary": "Der Stapel-Prüfer (Formular); mit s=<Link> ausgefüllt und ausgewertet",
            "parameters": [
                {
                    "name": "s",
                    "in": "query",
                    "required": False,
                    "description": "Geteiltes Szenario (Link aus „Link teilen“)",
                    "schema": {"type": "string", "maxLength": 8000},
                }
            ],
            "responses": {
                "200": html_body("Formular und Ergebnis"),
                **error_responses(400, html=True),
            },
        },
        "post": {
            "summary": "Formular ohne JavaScript absenden (prüfen, Zeilen hinzufügen/entfernen)",
            "requestBody": {
                "content": {"application/x-www-form-urlencoded": {"schema": {"type": "object"}}}
            },
            "responses": {
                "200": html_body("Formular und Ergebnis"),
                **error_responses(400, html=True),
                "413": html_body("Anfrage zu groß"),
            },
        },
    },
)
