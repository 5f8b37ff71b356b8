"""Splitters: one per document shape, chosen by the manifest's `splitter` field.

A splitter is a function ``split(text, *, doc_id, id_prefix) -> Split``. It cuts
the text of one document into entries the way the document's own structure
says, and returns the text before the first entry as the preamble. Adding a
document shape means adding a module here and a line to `SPLITTERS`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import NamedTuple, Protocol

from faq_bot.corpus.model import Entry


class Split(NamedTuple):
    preamble: tuple[str, ...]
    entries: tuple[Entry, ...]


class Splitter(Protocol):
    def __call__(self, text: str, *, doc_id: str, id_prefix: str) -> Split: ...


_FOLD = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "ae", "Ö": "oe", "Ü": "ue"})


def slugify(text: str) -> str:
    """A URL slug: lower case ASCII words joined by hyphens ("Ölfeld" -> "oelfeld")."""
    text = text.translate(_FOLD)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "eintrag"


def unique_id(base: str, taken: set[str]) -> str:
    """`base`, or `base-2`, `base-3`, ... when an earlier entry already holds it."""
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    taken.add(candidate)
    return candidate


def prefixed(id_prefix: str, slug: str) -> str:
    return f"{id_prefix}-{slug}" if id_prefix else slug


def _registry() -> dict[str, Callable[..., Split]]:
    from faq_bot.corpus.splitters import faq, headed, numbered, prose, reference_table

    return {
        "faq": faq.split,
        "numbered": numbered.split,
        "headed": headed.split,
        "prose": prose.split,
        "reference_table": reference_table.split,
    }


def get_splitter(name: str) -> Callable[..., Split]:
    registry = _registry()
    try:
        return registry[name]
    except KeyError:
        known = ", ".join(sorted(registry))
        raise KeyError(f"unknown splitter {name!r} (known: {known})") from None
