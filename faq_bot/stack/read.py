"""Read a scenario: JSON (text, bytes or already parsed) -> `Scenario`, and back.

Anything that is not a scenario in the sense of `stack-scenarios.md` raises
`ScenarioFormatError` with a German message that names the offending field
(`stack[2].effect.type`). Nothing here judges the rules: an unknown card id in
a target, a wrong owner or a stack that could not have been announced is the
validator's business and comes back as data.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from faq_bot.stack.model import (
    AMOUNT_EFFECTS,
    CARD_TARGET_EFFECTS,
    Card,
    Effect,
    EffectType,
    Kind,
    Phase,
    Player,
    Scenario,
    StackEntry,
    Zone,
)

MAX_ITEMS = 200  # cards, stack entries and players each
MAX_INPUT_BYTES = 1_000_000
MAX_NUMBER = 1_000_000
MAX_ID = 200  # characters of an id, player name or card name
MAX_TEXT = 2_000  # characters of an `other` effect's text


class ScenarioFormatError(ValueError):
    """The input is not a scenario; the message (German) names the field."""


_TOP = {"phase", "players", "cards", "stack"}
_PLAYER = {"tw"}
_CARD = {"id", "name", "owner", "kind", "zone", "locked", "defense"}
_ENTRY = {"id", "by", "source", "effect", "cost", "play_cost", "sacrifice", "lock_source"}


def _fail(path: str, problem: str) -> ScenarioFormatError:
    return ScenarioFormatError(f"Feld {path}: {problem}")


def _choices(values: Any) -> str:
    return ", ".join(str(v) for v in values)


def _object(value: Any, path: str, allowed: set[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(path, "muss ein JSON-Objekt sein")
    unknown = sorted(str(k) for k in value if k not in allowed)
    if unknown:
        raise _fail(
            f"{path}.{unknown[0]}" if path != "Szenario" else unknown[0],
            f"ist unbekannt (erlaubt: {_choices(sorted(allowed))})",
        )
    return value


def _required(obj: Mapping[str, Any], key: str, path: str) -> Any:
    if key not in obj:
        raise _fail(path, "fehlt")
    return obj[key]


def _string(value: Any, path: str, limit: int = MAX_ID) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(path, "muss ein nicht leerer Text sein")
    if len(value) > limit:
        raise _fail(path, f"ist zu lang (höchstens {limit} Zeichen)")
    return value


def _count(value: Any, path: str) -> int:
    # bool is an int in Python, but `true` is no number of TW
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(path, "muss eine ganze Zahl sein")
    if value < 0:
        raise _fail(path, "darf nicht negativ sein")
    if value > MAX_NUMBER:
        raise _fail(path, f"ist zu groß (höchstens {MAX_NUMBER})")
    return value


def _flag(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(path, "muss true oder false sein")
    return value


def _enum(enum: Any, value: Any, path: str, what: str) -> Any:
    if isinstance(value, str):
        for member in enum:
            if member.value.casefold() == value.strip().casefold():
                return member
    raise _fail(
        path,
        f"{what} {json.dumps(value, ensure_ascii=False)[:80]} ist unbekannt "
        f"(erlaubt: {_choices(m.value for m in enum)})",
    )


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(path, "muss eine JSON-Liste sein")
    if len(value) > MAX_ITEMS:
        raise _fail(path, f"hat {len(value)} Einträge, erlaubt sind höchstens {MAX_ITEMS}")
    return value


def parse_json(data: str | bytes) -> Any:
    """JSON text -> Python value, every failure as `ScenarioFormatError`."""
    if isinstance(data, bytes):
        if len(data) > MAX_INPUT_BYTES:
            raise ScenarioFormatError(f"Die Eingabe ist größer als {MAX_INPUT_BYTES} Bytes.")
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ScenarioFormatError(
                f"Die Eingabe ist kein UTF-8 (ungültiges Byte an Stelle {exc.start})."
            ) from None
    if len(data.encode("utf-8", "surrogatepass")) > MAX_INPUT_BYTES:
        raise ScenarioFormatError(f"Die Eingabe ist größer als {MAX_INPUT_BYTES} Bytes.")
    try:
        return json.loads(data.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        raise ScenarioFormatError(
            f"Die Eingabe ist kein gültiges JSON (Zeile {exc.lineno}, Spalte {exc.colno}: "
            f"{exc.msg})."
        ) from None
    except (ValueError, RecursionError) as exc:  # over-long integers, absurd nesting
        raise ScenarioFormatError(f"Die Eingabe ist kein brauchbares JSON ({exc}).") from None


def read_scenario(data: str | bytes | Mapping[str, Any]) -> Scenario:
    """A scenario from JSON text/bytes or an already parsed JSON object.

    Raises `ScenarioFormatError` for anything that is not a scenario.
    """
    raw = parse_json(data) if isinstance(data, str | bytes) else data
    top = _object(raw, "Szenario", _TOP)

    phase = Phase.BAUPHASE
    if "phase" in top:
        phase = _enum(Phase, top["phase"], "phase", "Phase")

    players_raw = _required(top, "players", "players")
    if not isinstance(players_raw, Mapping):
        raise _fail("players", 'muss ein JSON-Objekt Name -> {"tw": n} sein')
    if not players_raw:
        raise _fail("players", "nennt keinen Spieler")
    if len(players_raw) > MAX_ITEMS:
        raise _fail("players", f"nennt mehr als {MAX_ITEMS} Spieler")
    players = []
    for name, value in players_raw.items():
        path = f"players.{name}"
        _string(name, f"players ({name!r})")
        obj = _object(value, path, _PLAYER)
        players.append(Player(name, _count(_required(obj, "tw", f"{path}.tw"), f"{path}.tw")))

    cards = tuple(
        _card(value, f"cards[{i}]")
        for i, value in enumerate(_list(_required(top, "cards", "cards"), "cards"))
    )
    _unique((c.id for c in cards), "cards", "Karten-id")

    stack = tuple(
        _entry(value, f"stack[{i}]")
        for i, value in enumerate(_list(_required(top, "stack", "stack"), "stack"))
    )
    _unique((e.id for e in stack), "stack", "Eintrags-id")

    return Scenario(phase=phase, players=tuple(players), cards=cards, stack=stack)


def _unique(ids: Any, path: str, what: str) -> None:
    seen: set[str] = set()
    for i, item in enumerate(ids):
        if item in seen:
            raise _fail(f"{path}[{i}].id", f"die {what} {item!r} kommt mehrfach vor")
        seen.add(item)


def _card(value: Any, path: str) -> Card:
    obj = _object(value, path, _CARD)
    kind = _enum(Kind, _required(obj, "kind", f"{path}.kind"), f"{path}.kind", "Kartenart")
    default_zone = Zone.HAND if kind is Kind.ACTION else Zone.PLAY
    zone = _enum(Zone, obj["zone"], f"{path}.zone", "Zone") if "zone" in obj else default_zone
    defense = obj.get("defense")
    return Card(
        id=_string(_required(obj, "id", f"{path}.id"), f"{path}.id"),
        name=_string(_required(obj, "name", f"{path}.name"), f"{path}.name"),
        owner=_string(_required(obj, "owner", f"{path}.owner"), f"{path}.owner"),
        kind=kind,
        zone=zone,
        locked=_flag(obj.get("locked", False), f"{path}.locked"),
        defense=None if defense is None else _count(defense, f"{path}.defense"),
    )


def _effect(value: Any, path: str) -> Effect:
    if not isinstance(value, Mapping):
        raise _fail(path, 'muss ein JSON-Objekt mit "type" sein')
    kind = _enum(EffectType, _required(value, "type", f"{path}.type"), f"{path}.type", "Effekttyp")
    allowed = {"type"}
    if kind in CARD_TARGET_EFFECTS or kind is EffectType.COUNTER:
        allowed.add("target")
    if kind in AMOUNT_EFFECTS:
        allowed.add("amount")
    if kind is EffectType.OTHER:
        allowed.add("text")
    _object(value, path, allowed)
    target = amount = text = None
    if "target" in allowed:
        target = _string(_required(value, "target", f"{path}.target"), f"{path}.target")
    if "amount" in allowed:
        amount = _count(_required(value, "amount", f"{path}.amount"), f"{path}.amount")
    if kind is EffectType.OTHER and value.get("text") is not None:
        text = _string(value["text"], f"{path}.text", MAX_TEXT)
    return Effect(type=kind, target=target, amount=amount, text=text)


def _entry(value: Any, path: str) -> StackEntry:
    obj = _object(value, path, _ENTRY)
    effect = _effect(_required(obj, "effect", f"{path}.effect"), f"{path}.effect")
    source = obj.get("source")
    if source is None:
        if effect.type is not EffectType.DECLARE_ATTACK:
            raise _fail(f"{path}.source", "fehlt (ohne Quelle ist nur declare_attack erlaubt)")
    else:
        source = _string(source, f"{path}.source")
    sacrifice = _flag(obj.get("sacrifice", False), f"{path}.sacrifice")
    lock_source = _flag(obj.get("lock_source", False), f"{path}.lock_source")
    if source is None and (sacrifice or lock_source):
        name = "sacrifice" if sacrifice else "lock_source"
        raise _fail(f"{path}.{name}", "braucht eine Quelle (source)")
    return StackEntry(
        id=_string(_required(obj, "id", f"{path}.id"), f"{path}.id"),
        by=_string(_required(obj, "by", f"{path}.by"), f"{path}.by"),
        source=source,
        effect=effect,
        cost=_count(obj.get("cost", 0), f"{path}.cost"),
        play_cost=_count(obj.get("play_cost", 0), f"{path}.play_cost"),
        sacrifice=sacrifice,
        lock_source=lock_source,
    )


def scenario_to_json(scenario: Scenario) -> dict[str, Any]:
    """The scenario as JSON data, every default written out; `read_scenario` reads it back."""
    cards = []
    for c in scenario.cards:
        card: dict[str, Any] = {
            "id": c.id,
            "name": c.name,
            "owner": c.owner,
            "kind": c.kind.value,
            "zone": c.zone.value,
            "locked": c.locked,
        }
        if c.defense is not None:
            card["defense"] = c.defense
        cards.append(card)
    stack = []
    for e in scenario.stack:
        effect: dict[str, Any] = {"type": e.effect.type.value}
        if e.effect.target is not None:
            effect["target"] = e.effect.target
        if e.effect.amount is not None:
            effect["amount"] = e.effect.amount
        if e.effect.text is not None:
            effect["text"] = e.effect.text
        stack.append(
            {
                "id": e.id,
                "by": e.by,
                "source": e.source,
                "effect": effect,
                "cost": e.cost,
                "play_cost": e.play_cost,
                "sacrifice": e.sacrifice,
                "lock_source": e.lock_source,
            }
        )
    return {
        "phase": scenario.phase.value,
        "players": {p.name: {"tw": p.tw} for p in scenario.players},
        "cards": cards,
        "stack": stack,
    }
