"""JSON read strictly: an object that names a key twice is refused. `json.loads` keeps the
last value and drops the first without a word (a second player "A" replacing the first in
a scenario, a second "question" replacing the first in a request to the chat API).

``loads(text) -> Any`` raises `RepeatedKeyError` (its ``key`` shortened for a message)
besides what `json.loads` raises.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["RepeatedKeyError", "loads", "unique_keys"]

KEY_SHOWN = 80  # characters of a repeated key a message quotes at most


class RepeatedKeyError(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key if len(key) <= KEY_SHOWN else key[: KEY_SHOWN - 1] + "…"


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


def loads(text: str) -> Any:
    return json.loads(text, object_pairs_hook=unique_keys)
