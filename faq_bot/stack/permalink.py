"""Shareable links: a scenario as a short URL-safe string and back.

`encode_permalink` writes canonical JSON (sorted keys but the players', whose order is
the rows' order; no spaces), compresses it
with zlib and encodes it base64url without padding. `decode_permalink` undoes
that with limits on the link's length and on the decompressed size, so a
crafted link can neither be huge nor expand into a huge document. Both raise
`PermalinkError` (a `ScenarioFormatError`) with a German message. The packing itself is
`pack_text` / `unpack_text` (also the checker's signed notes, `faq_bot.web.check`).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Mapping
from typing import Any

from faq_bot.stack.read import MAX_INPUT_BYTES, ScenarioFormatError, parse_json

MAX_PERMALINK = 8_000  # characters; keeps /check?s=... below common URL limits
_ALPHABET = re.compile(r"[A-Za-z0-9_-]*")


class PermalinkError(ScenarioFormatError):
    """The link is not a scenario link (or the scenario is too big for one)."""


def canonical_json(data: Any) -> str:
    """`data` as JSON text that does not depend on the order of its keys, except the
    players' names: they are shown in the order they were entered (sorted, a player
    renamed „Zoe“ moved below „B“; a review)."""
    return json.dumps(_canonical(data), ensure_ascii=False, separators=(",", ":"))


def _canonical(value: Any, names: bool = False) -> Any:
    """`value` with the keys of its mappings sorted, those of a "players" mapping (`names`)
    kept in their order."""
    if isinstance(value, Mapping):
        keys = list(value) if names else sorted(value)
        return {key: _canonical(value[key], not names and key == "players") for key in keys}
    if isinstance(value, list | tuple):
        return [_canonical(item) for item in value]
    return value


def pack_text(text: str) -> str:
    """`text` zlib-compressed and base64url-encoded without padding: URL-safe (the
    permalinks, and the checker's signed notes beside them)."""
    packed = zlib.compress(text.encode("utf-8"), 9)
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


# a link that is not a packing at all: said as what happened to it, not how it is packed
# what a decoding error names: the only links decoded are the checker's shared ones
SHARED_LINK = "Der geteilte Link"
BROKEN = f"{SHARED_LINK} ist beschädigt: beim Kopieren wohl abgeschnitten oder verändert."


def unpack_text(packed: str, limit: int) -> bytes:
    """The bytes `pack_text` packed into `packed`, at most `limit` of them; a German
    `PermalinkError` when `packed` is not such a packing, or unpacks to more (a small
    link cannot make the server inflate megabytes)."""
    try:
        data = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
    except (binascii.Error, ValueError):
        raise PermalinkError(BROKEN) from None
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(data, limit + 1)
    except zlib.error:
        raise PermalinkError(BROKEN) from None
    if len(raw) > limit or inflater.unconsumed_tail:
        raise PermalinkError(f"{SHARED_LINK} entpackt zu einem zu großen Szenario.")
    if not inflater.eof:
        raise PermalinkError(f"{SHARED_LINK} ist unvollständig: beim Kopieren wohl abgeschnitten.")
    if inflater.unused_data:  # more after the packing: pasted twice, or words ran into it
        raise PermalinkError(BROKEN)
    return raw


def encode_permalink(scenario_json: Mapping[str, Any] | str) -> str:
    """A URL-safe string for a scenario given as JSON data (or JSON text)."""
    data = parse_json(scenario_json) if isinstance(scenario_json, str) else scenario_json
    if not isinstance(data, Mapping):
        raise PermalinkError("Nur ein JSON-Objekt (ein Szenario) lässt sich verlinken.")
    try:
        text = canonical_json(data)
    except (TypeError, ValueError) as exc:
        raise PermalinkError(f"Das Szenario ist kein JSON ({exc}).") from None
    link = pack_text(text)
    if len(link) > MAX_PERMALINK:
        raise PermalinkError(
            f"Das Szenario ist zu groß für einen Link ({len(link)} Zeichen, erlaubt sind "
            f"{MAX_PERMALINK})."
        )
    return link


def decode_permalink(link: str) -> dict[str, Any]:
    """The scenario JSON data behind a link made by `encode_permalink`."""
    if not isinstance(link, str) or not link:
        raise PermalinkError(f"{SHARED_LINK} enthält kein Szenario.")
    if len(link) > MAX_PERMALINK:
        raise PermalinkError(f"{SHARED_LINK} ist zu lang (höchstens {MAX_PERMALINK} Zeichen).")
    if not _ALPHABET.fullmatch(link):
        raise PermalinkError(
            f"{SHARED_LINK} enthält Zeichen, die in einem Szenario-Link nicht vorkommen."
        )
    raw = unpack_text(link, MAX_INPUT_BYTES)
    try:
        data = parse_json(raw)
    except ScenarioFormatError as exc:
        raise PermalinkError(f"{SHARED_LINK} enthält kein gültiges Szenario-JSON: {exc}") from None
    if not isinstance(data, dict):
        raise PermalinkError(f"{SHARED_LINK} enthält kein Szenario (kein JSON-Objekt).")
    return data
