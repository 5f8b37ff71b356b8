"""Read a scenario: JSON (text, bytes or already parsed) -> `Scenario`, and back.

Anything that is not a scenario in the sense of `stack-scenarios.md` raises
`ScenarioFormatError` with a German message that names the offending field as
the form shows it and as JSON ("Eintrag 3 › Effekt: … (Feld stack[2].effect.type)").
The shape of a scenario is the one JSON Schema `scenario.schema.json` (package
data, also served in the OpenAPI document and read by the form); this module
validates against it with `jsonschema` and turns the first error into German,
using the schema's titles and its `x-de` messages. Only what a schema cannot
say is checked here: unique ids. Nothing here judges the rules: an unknown card
id in a target, a wrong owner or a stack that could not have been announced is
the validator's business and comes back as data.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError

from faq_bot import strictjson
from faq_bot.stack.model import (
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
from faq_bot.text import clip, read_as, said_back

MAX_ITEMS = 200  # cards, stack entries and players each
MAX_INPUT_BYTES = 1_000_000
MAX_NUMBER = 1_000_000
MAX_ID = 200  # characters of an id, player name or card name
MAX_TEXT = 2_000  # characters of an `other` effect's text
MAX_DEPTH = 32  # nested objects and lists (a scenario needs four)
# values in all, keys' values and list items at any depth: the largest scenario the schema
# allows holds about 4,600 (200 players, cards and stack entries with every field)
MAX_VALUES = 10_000
MAX_MORE = 4  # further errors a ScenarioFormatError carries (in other fields)
SHOWN_KEY = 40  # characters of a key an error names (longer ones cut with "…")
_TOO_DEEP = f"Das JSON der Eingabe ist zu tief verschachtelt (höchstens {MAX_DEPTH} Ebenen)."
_TOO_MANY_VALUES = (
    f"Das JSON der Eingabe enthält mehr als {MAX_VALUES} Werte; ein Szenario hat höchstens "
    f"{MAX_ITEMS} Spieler, {MAX_ITEMS} Karten und {MAX_ITEMS} Einträge im Stapel."
)


_WHOLE = "Szenario: "  # how an error about the whole input begins


class ScenarioFormatError(ValueError):
    """The input is not a scenario; the message (German) names the field, and `path`, when
    the error is about one field, is where it is in the scenario's JSON
    (``("stack", 1, "effect", "target")``; the form marks that field). `brief` is the
    message without the JSON path it ends in ("(Feld stack[1].effect.target)"), for a form
    that marks the field instead."""

    def __init__(
        self, message: str, path: Sequence[str | int] | None = None, brief: str | None = None
    ) -> None:
        super().__init__(message)
        self.path: tuple[str | int, ...] | None = tuple(path) if path is not None else None
        self.brief = brief if brief is not None else message
        # errors in other fields after this one (document order, at most `MAX_MORE`), so a
        # form can mark them all at once; the message is this one's alone
        self.more: tuple[ScenarioFormatError, ...] = ()

    @property
    def detail(self) -> str:
        """The message after a caller's own "kein Szenario": an error about the whole input
        without its "Szenario: " ("Kein Szenario: Szenario: muss ein JSON-Objekt sein", an
        adversarial probe)."""
        return str(self).removeprefix(_WHOLE)


@lru_cache(maxsize=1)
def scenario_schema() -> dict[str, Any]:
    """The scenario's JSON Schema (`faq_bot/stack/scenario.schema.json`)."""
    text = resources.files("faq_bot.stack").joinpath("scenario.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@lru_cache(maxsize=1)
def _validator() -> Any:
    schema = scenario_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    # the schema's references are local and not recursive: inlined, validation is
    # about thirty times faster than with `referencing` looking each one up
    return jsonschema.Draft202012Validator(_inline(schema))


def _inline(node: Any) -> Any:
    if isinstance(node, Mapping):
        node = _resolve_ref(node)
        return {k: _inline(v) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline(v) for v in node]
    return node


def _resolve_ref(schema: Mapping[str, Any]) -> Mapping[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = scenario_schema()["$defs"][ref.removeprefix("#/$defs/")]
        return {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def json_path(path: Sequence[str | int]) -> str:
    """["stack", 2, "effect", "type"] -> "stack[2].effect.type"."""
    text = ""
    for part in path:
        text += (
            f"[{part}]"
            if isinstance(part, int)
            else (f".{_shown_key(part)}" if text else _shown_key(part))
        )
    return text or "Szenario"


def _shown_key(part: str) -> str:
    """A key of the input as a message names it: cut to `SHOWN_KEY` characters (an unknown
    key of a megabyte was said back whole, twice)."""
    return clip(str(part), SHOWN_KEY)


# between the parts of a field's name ("Eintrag 3 › Effekt"); pages show it, a screen
# reader is not made to say it (`faq_bot.web.render.path_spoken`)
SEPARATOR = " › "


def field_label(path: Sequence[str | int]) -> str:
    """The field as the form names it, from the schema's titles: "Eintrag 3 › Effekt"."""
    schema: Mapping[str, Any] = scenario_schema()
    parts: list[str] = []
    for part in path:
        if isinstance(part, int):
            schema = _resolve_ref(schema.get("items", {}))
            title = str(schema.get("title", "")).replace("{n}", str(part + 1))
            if parts:
                parts.pop()  # "Karte 2" replaces "Karten"
        elif part in schema.get("properties", {}):
            schema = _resolve_ref(schema["properties"][part])
            title = str(schema.get("title", part))
        elif isinstance(schema.get("additionalProperties"), Mapping):
            schema = _resolve_ref(schema["additionalProperties"])
            title = str(schema.get("title", part)).replace("{key}", _shown_key(part))
            if parts:
                parts.pop()  # "Spieler A" replaces "Spieler"
        else:
            schema, title = {}, _shown_key(part)
        if title and (not parts or parts[-1] != title):
            parts.append(title)
    return SEPARATOR.join(parts) or "Szenario"


def _fail(path: Sequence[str | int], problem: str) -> ScenarioFormatError:
    where = json_path(path)
    label = field_label(path)
    if where == "Szenario":
        return ScenarioFormatError(f"{_WHOLE}{problem}")
    return ScenarioFormatError(f"{label}: {problem} (Feld {where})", path, f"{label}: {problem}")


_TYPE_DE = {
    "object": "muss ein JSON-Objekt sein",
    "array": "muss eine JSON-Liste sein",
    "integer": "muss eine ganze Zahl sein",
    "boolean": "muss true oder false sein",
    "string": "muss ein Text sein",
}


def _problem(error: ValidationError) -> tuple[list[str | int], str]:
    """The field an error is about and what is wrong with it, in German."""
    path: list[str | int] = list(error.absolute_path)
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    custom = schema.get("x-de")
    kind = str(error.validator)
    instance = error.instance
    value = error.validator_value
    if isinstance(custom, str):
        return path, custom
    message = custom.get(kind) if isinstance(custom, Mapping) else None
    if kind == "required":
        path.append(next(k for k in value if k not in instance))
        return path, message or "fehlt"
    if message:
        return path, message
    if kind == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        unknown = sorted(str(k) for k in instance if k not in allowed)
        path.append(unknown[0])
        return path, f"ist unbekannt (erlaubt: {', '.join(allowed)})"
    if kind == "type":
        return path, _TYPE_DE.get(str(value), f"muss vom Typ {value} sein")
    if kind == "enum":
        what = str(schema.get("x-what", "Wert"))
        if field_label(path).rsplit(SEPARATOR, 1)[-1] == what:
            what = ""  # "Phase: „Teepause“ ist unbekannt", the field named once
        text = json.dumps(instance, ensure_ascii=False)  # control characters escaped
        if isinstance(instance, str):
            text = text[1:-1]  # in German quotes, not JSON's
        shown = f"{what} {said_back(text)}".lstrip()
        return path, f"{shown} ist unbekannt (erlaubt: {', '.join(map(str, value))})"
    if kind == "minimum":
        return path, "darf nicht negativ sein"
    if kind == "maximum":
        return path, f"ist zu groß (höchstens {value})"
    if kind == "maxLength":
        return path, f"ist zu lang (höchstens {value} Zeichen)"
    if kind in ("minLength", "pattern"):
        return path, "muss ein nicht leerer Text sein"
    if kind in ("maxItems", "maxProperties"):
        return path, _too_many_text(len(instance), value)
    return path, "hat einen ungültigen Wert"


def _too_many_text(count: int, limit: Any) -> str:
    return f"hat {count} Einträge, erlaubt sind höchstens {limit}"


def _too_many(data: Any) -> list[ScenarioFormatError]:
    """The refusal of a list (or of the players) longer than the schema allows, found
    before the schema reads each item: a link unpacks to a megabyte, tens of thousands of
    items, and checking each (a player's errors are sorted by a search of all names) took
    from seconds to minutes, longer than a worker may take."""
    if not isinstance(data, Mapping):
        return []
    for group, schema in scenario_schema()["properties"].items():
        value = data.get(group)
        if isinstance(value, list):
            limit = schema.get("maxItems")
        elif isinstance(value, Mapping):
            limit = schema.get("maxProperties")
        else:
            continue
        if limit is not None and len(value) > limit:
            return [_fail([group], _too_many_text(len(value), limit))]
    return []


def _error_of(error: ValidationError) -> ScenarioFormatError:
    """The German error for a schema error. A bad name of a player (a key, checked by
    ``propertyNames``) is about that player: its `path` ends in the name, so the form
    marks that player's row (the message names the players' field as before)."""
    path, problem = _problem(error)
    failure = _fail(path, problem)
    if "propertyNames" in error.schema_path and isinstance(error.instance, str):
        failure.path = (*path, error.instance)
    return failure


def _failures(data: Any) -> list[ScenarioFormatError]:
    """The schema's errors as German errors in document order: first the first field's
    (within it the most specific complaint, and an unknown key before a missing one: a
    misspelt key explains the missing one), then at most `MAX_MORE` others, one per field
    (none inside or around another)."""
    errors = sorted(_validator().iter_errors(data), key=lambda e: _key(data, e))
    if not errors:
        return []
    kept = [_error_of(errors[0])]
    for error in errors[1:]:
        failure = _error_of(error)
        if failure.path is None or any(_nested(failure.path, k.path) for k in kept):
            continue
        kept.append(failure)
        if len(kept) > MAX_MORE:
            break
    return kept


def _nested(a: tuple[str | int, ...], b: tuple[str | int, ...] | None) -> bool:
    """Whether one path lies inside the other (or they are the same)."""
    return b is None or a[: len(b)] == b or b[: len(a)] == a


def _key(data: Any, error: ValidationError) -> tuple[Any, ...]:
    return (
        _order(data, list(error.absolute_path)),
        -len(error.absolute_path),
        error.validator != "additionalProperties",
    )


def _order(data: Any, path: list[str | int]) -> tuple[int, ...]:
    keys: list[int] = []
    node = data
    for part in path:
        if isinstance(part, int):
            keys.append(part)
            node = node[part]
        else:
            names = list(node) if isinstance(node, Mapping) else []
            keys.append(names.index(part) if part in names else 0)
            node = node.get(part) if isinstance(node, Mapping) else None
    return tuple(keys)


def _visible(node: Any, path: tuple[str | int, ...] = ()) -> Any:
    """Every text of a parsed scenario (keys too) as a user typed it reads
    (`faq_bot.text.clean_input`): invisible format characters dropped, so a right-to-left
    override in a card's name cannot turn the rest of a result line around; spaces
    squashed (the form already strips its fields' ends), so that "A" and " A " are not two
    players every explanation names alike. Two keys that differ only by such characters
    are refused, not merged."""
    if isinstance(node, str):
        return read_as(node)
    if isinstance(node, Mapping):
        out: dict[Any, Any] = {}
        for key, value in node.items():
            seen = _visible(key)
            if seen in out:
                raise _fail(
                    [*path, seen],
                    f"{said_back(seen)} kommt doppelt vor (bis auf Leer- oder unsichtbare Zeichen)",
                )
            out[seen] = _visible(value, (*path, seen))
        return out
    if isinstance(node, list):
        return [_visible(v, (*path, i)) for i, v in enumerate(node)]
    return node


def _normalize(data: Any) -> Any:
    """Enum values in any case and with spaces ("bauphase ") become the spec's spelling;
    texts lose their invisible format characters (`_visible`)."""
    data = _visible(data)
    if not isinstance(data, Mapping):
        return data
    out = dict(data)
    out["phase"] = enum_value(Phase, out["phase"]) if "phase" in out else Phase.BAUPHASE.value
    if isinstance(out.get("cards"), list):
        out["cards"] = [
            {
                **c,
                **{k: enum_value(e, c[k]) for k, e in (("kind", Kind), ("zone", Zone)) if k in c},
            }
            if isinstance(c, Mapping)
            else c
            for c in out["cards"]
        ]
    if isinstance(out.get("stack"), list):
        stack = []
        for entry in out["stack"]:
            effect = entry.get("effect") if isinstance(entry, Mapping) else None
            if isinstance(effect, Mapping) and "type" in effect:
                entry = {
                    **entry,
                    "effect": {**effect, "type": enum_value(EffectType, effect["type"])},
                }
            stack.append(entry)
        out["stack"] = stack
    return out


def enum_value(enum: Any, value: Any) -> Any:
    """`value` as `enum` spells it when it names a member in any case and with spaces
    ("bauphase " -> "Bauphase"), else unchanged (the reader then says it is unknown)."""
    if isinstance(value, str):
        for member in enum:
            if member.value.casefold() == value.strip().casefold():
                return member.value
    return value


# Python's JSON parser's messages (`json.JSONDecodeError.msg`, English) in German; one it
# does not list leaves the place (line, column) alone
def refuse_a_list(text: str) -> None:
    """A scenario is a JSON object: text that opens a list is refused before it is parsed
    (a 1 MB list of nested lists cost seconds of CPU to parse, check and walk, only to be
    told it is no object)."""
    if text.lstrip(" \t\r\n\ufeff")[:1] == "[":
        raise _fail((), _TYPE_DE["object"])


def as_object(value: Any) -> Mapping[str, Any]:
    """Parsed JSON `value` as the object a scenario is; anything else refused as the reader
    refuses it (given a parsed string, the reader would read it as JSON text once more)."""
    if not isinstance(value, Mapping):
        raise _fail((), _TYPE_DE["object"])
    return value


def parse_json(data: str | bytes) -> Any:
    """JSON text -> Python value, every failure as `ScenarioFormatError`; an object naming a
    key twice is refused (`faq_bot.strictjson`; keys that differ only by invisible
    characters are refused later, `_visible`)."""
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
        return strictjson.loads(data.removeprefix("\ufeff"))
    except strictjson.RepeatedKeyError as exc:
        raise ScenarioFormatError(
            f"{exc.said} kommt in einem Objekt zweimal vor (etwa zwei Spieler gleichen "
            "Namens); jeder Name darf dort nur einmal stehen."
        ) from None
    except RecursionError:  # absurd nesting: said as any nesting beyond MAX_DEPTH is
        raise ScenarioFormatError(_TOO_DEEP) from None
    except ValueError as exc:  # a syntax error or more digits than Python converts
        odd = isinstance(exc, strictjson.NonFiniteError) and (exc.constant or exc.tiny)  # NaN
        huge = not isinstance(exc, json.JSONDecodeError) and not odd
        note = "; so große Werte kommen in keinem Szenario vor" if huge else ""
        raise ScenarioFormatError(f"Die Eingabe {strictjson.refusal_german(exc)}{note}.") from None


def read_scenario(data: str | bytes | Mapping[str, Any]) -> Scenario:
    """A scenario from JSON text/bytes or an already parsed JSON object.

    Raises `ScenarioFormatError` for anything that is not a scenario.
    """
    raw = parse_json(data) if isinstance(data, str | bytes) else data
    # a list too long said as such before anything walks it (300,000 cards: 4 s), then
    # any other shape of too many values (lists in lists, unknown keys) by count
    if too_many := _too_many(raw):
        raise too_many[0]
    if (found := strictjson.flaw(raw, MAX_DEPTH, MAX_VALUES)) is not None:
        kind, where = found
        if kind == "deep":  # the later steps recurse; Python's parser stops near a thousand
            raise ScenarioFormatError(_TOO_DEEP)
        if kind == "many":
            raise ScenarioFormatError(_TOO_MANY_VALUES)
        raise _fail(
            where,
            "enthält ein ungültiges Zeichen (ein einzelnes UTF-16-Surrogat wie \\ud800); "
            "bitte nur gültigen Text senden",
        )
    top = _normalize(raw)
    failures = _too_many(top) or _failures(top)
    if failures:
        failures[0].more = tuple(failures[1:])
        raise failures[0]
    players = tuple(Player(name, int(value["tw"])) for name, value in top["players"].items())
    cards = tuple(_card(value) for value in top["cards"])
    _unique([c.id for c in cards], "cards")
    stack = tuple(_entry(value) for value in top["stack"])
    _unique([e.id for e in stack], "stack")
    return Scenario(phase=Phase(top["phase"]), players=players, cards=cards, stack=stack)


def _unique(ids: list[str], group: str) -> None:
    seen: set[str] = set()
    for i, item in enumerate(ids):
        if item in seen:
            raise _fail([group, i, "id"], f"das Kürzel {said_back(item)} kommt mehrfach vor")
        seen.add(item)


def _card(obj: Mapping[str, Any]) -> Card:
    kind = Kind(obj["kind"])
    default_zone = Zone.HAND if kind is Kind.ACTION else Zone.PLAY
    defense = obj.get("defense")
    return Card(
        id=obj["id"],
        name=obj["name"],
        owner=obj["owner"],
        kind=kind,
        zone=Zone(obj["zone"]) if "zone" in obj else default_zone,
        locked=obj.get("locked", False),
        defense=None if defense is None else int(defense),
    )


def _entry(obj: Mapping[str, Any]) -> StackEntry:
    raw = obj["effect"]
    amount = raw.get("amount")
    effect = Effect(
        type=EffectType(raw["type"]),
        target=raw.get("target"),
        amount=None if amount is None else int(amount),
        text=raw.get("text"),
    )
    return StackEntry(
        id=obj["id"],
        by=obj["by"],
        source=obj.get("source"),
        effect=effect,
        cost=int(obj.get("cost", 0)),
        play_cost=int(obj.get("play_cost", 0)),
        sacrifice=obj.get("sacrifice", False),
        lock_source=obj.get("lock_source", False),
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
