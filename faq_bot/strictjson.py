"""JSON read strictly: an object that names a key twice is refused. `json.loads` keeps the
last value and drops the first without a word (a second player "A" replacing the first in
a scenario, a second "question" replacing the first in a request to the chat API).

``loads(text) -> Any`` raises `RepeatedKeyError` (its ``said``: the key quoted for a message)
and `NonFiniteError` (``NaN``, ``Infinity``, a number past a float's range: Python reads
them, RFC 8259 has none of them) besides what `json.loads` raises.

``flaw(value, max_depth, max_values=None) -> (kind, path) | None``
    What no later step can take in parsed JSON: ``"deep"`` where objects and lists nest
    more than `max_depth` levels (the later steps recurse), ``"surrogate"`` where a string
    (or an object's key: the object's path) holds a lone surrogate (``"\\ud800"``: nothing
    naming it could be written out), ``"many"`` (path ``[]``) past `max_values` values in
    all, where the walk stops. One walk without recursion; the key itself is never part of
    the path.

``refusal_german(exc) -> str``
    What was wrong with JSON text `loads` refused, in German, to follow a subject ("Die
    Anfrage ist kein gültiges JSON (Zeile 1, Spalte 2: …)", "… enthält eine Zahl mit zu
    vielen Stellen"): the request reader and the scenario reader say it alike.

``where_german(exc) -> str``
    Where a `json.JSONDecodeError` happened and what was wrong, in German ("Zeile 1,
    Spalte 2: Wert erwartet"): the user never reads Python's English.
"""

from __future__ import annotations

import json
import math
from typing import Any

from faq_bot.text import has_surrogate, said_back

__all__ = [
    "NonFiniteError",
    "RepeatedKeyError",
    "flaw",
    "loads",
    "refusal_german",
    "unique_keys",
    "where_german",
]

KEY_SHOWN = 80  # characters of a repeated key a message quotes at most


class RepeatedKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key
        self.said = said_back(key, KEY_SHOWN)  # quoted, for a message


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict, refused when a key comes twice."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise RepeatedKeyError(key)
            seen.add(key)
    return out


class NonFiniteError(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity`` (no JSON; Python's json reads them), or a
    number too large for a float (``1e999999``, read as infinity), or one too close to 0
    for it (`tiny`: ``2e-400``, read as 0.0, which passed as the integer 0)."""

    def __init__(self, token: str, constant: bool, tiny: bool = False) -> None:
        super().__init__(token)
        self.token = token
        self.constant = constant
        self.tiny = tiny


def _constant(name: str) -> Any:
    raise NonFiniteError(name, constant=True)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NonFiniteError(text[:KEY_SHOWN], constant=False)
    if value == 0 and any(c in "123456789" for c in text.lower().partition("e")[0]):
        raise NonFiniteError(text[:KEY_SHOWN], constant=False, tiny=True)
    return value


def loads(text: str) -> Any:
    return json.loads(
        text, object_pairs_hook=unique_keys, parse_constant=_constant, parse_float=_finite
    )


def flaw(
    value: Any, max_depth: int, max_values: int | None = None
) -> tuple[str, list[str | int]] | None:
    """The first flaw of parsed JSON `value`: ("deep", path) nested deeper than `max_depth`,
    ("surrogate", path) a string or key with a lone surrogate, ("many", []) more than
    `max_values` values in all (the walk stops there: a megabyte of empty lists took
    seconds to walk, and what reads it after longer); None when there is none."""
    if isinstance(value, str):
        return ("surrogate", []) if has_surrogate(value) else None
    if not isinstance(value, dict | list):
        return None
    # containers waiting, each with its level and a link to its parent ((link, key) | None):
    # strings are checked where they stand (a path copied for every item of a megabyte of
    # nested zeros cost 240 MB)
    todo: list[tuple[Any, int, Any]] = [(value, 1, None)]
    left = max_values
    while todo:
        item, level, link = todo.pop()
        if level > max_depth:
            return "deep", _path_of(link)
        if left is not None:
            left -= len(item)
            if left < 0:
                return "many", []
        pairs = item.items() if isinstance(item, dict) else enumerate(item)
        for key, sub in pairs:
            if isinstance(key, str) and has_surrogate(key):
                return "surrogate", _path_of(link)
            if isinstance(sub, str):
                if has_surrogate(sub):
                    return "surrogate", _path_of((link, key))
            elif isinstance(sub, dict | list):
                todo.append((sub, level + 1, (link, key)))
    return None


def _path_of(link: Any) -> list[str | int]:
    path: list[str | int] = []
    while link is not None:
        link, key = link
        path.append(key)
    return path[::-1]


JSON_ERRORS_DE = (
    (
        "Expecting property name enclosed in double quotes",
        "Name in doppelten Anführungszeichen erwartet",
    ),
    ("Expecting value", "Wert erwartet"),
    ("Expecting ',' delimiter", "Komma erwartet"),
    ("Expecting ':' delimiter", "Doppelpunkt erwartet"),
    ("Unterminated string", "Text ohne schließendes Anführungszeichen"),
    ("Invalid control character", "Steuerzeichen in einem Text"),
    ("Invalid \\escape", "ungültiges Zeichen nach \\"),
    ("Extra data", "weitere Zeichen nach dem Ende"),
    ("Illegal trailing comma", "Komma vor der schließenden Klammer"),
)


def refusal_german(exc: ValueError) -> str:
    """What was wrong, in German, with JSON text `loads` refused with `exc`, to follow a
    subject ("Die Anfrage …"): the place of a syntax error, or an integer of more digits
    than Python converts (4,300; valid JSON). Nesting is each reader's own limit."""
    if isinstance(exc, json.JSONDecodeError):
        return f"ist kein gültiges JSON ({where_german(exc)})"
    if isinstance(exc, NonFiniteError) and exc.constant:
        return f"ist kein gültiges JSON („{exc.token}“ ist in JSON keine Zahl)"
    if isinstance(exc, NonFiniteError) and exc.tiny:
        return "enthält eine Zahl, die so nah an 0 ist, dass sie nicht lesbar ist"
    if isinstance(exc, NonFiniteError):
        return "enthält eine Zahl, die zu groß ist"
    return "enthält eine Zahl mit zu vielen Stellen"


def where_german(exc: json.JSONDecodeError, *, line: bool = True) -> str:
    """ "Zeile L, Spalte C" of `exc` (without the line when the caller names it), and what
    was wrong when the table knows it."""
    what = next((de for en, de in JSON_ERRORS_DE if exc.msg.startswith(en)), None)
    where = (f"Zeile {exc.lineno}, " if line else "") + f"Spalte {exc.colno}"
    return where + (f": {what}" if what else "")
