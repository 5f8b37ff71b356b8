"""The card catalog (`faq_bot/data/cards.toml`): what the FAQ says cards do on the stack.

The catalog pre-fills the checker's form and tells the engine which FAQ entry
justifies a card's steps. It never changes a scenario: costs and flags always
come from the scenario itself.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from faq_bot.stack.model import AMOUNT_EFFECTS, EffectType, Kind
from faq_bot.text import collation_key, fold, nearest, said_back, without_format

_FIELDS = {
    "name",
    "aliases",
    "kind",
    "effect",
    "amount",
    "target_kind",
    "cost",
    "play_cost",
    "sacrifice",
    "lock_source",
    "faq",
    "description",
}


class CatalogError(ValueError):
    """The shipped catalog file is malformed (a bug in the data, not user input)."""


@dataclass(frozen=True)
class CatalogCard:
    name: str
    kind: Kind
    effect: EffectType
    description: str
    aliases: tuple[str, ...] = ()
    amount: int | None = None
    target_kind: Kind | None = None
    cost: int | None = None  # None: the FAQ gives no cost
    play_cost: int | None = None
    sacrifice: bool = False
    lock_source: bool = False
    faq: str | None = None  # title of the FAQ entry the behaviour comes from


# hyphens and dashes of every kind (a name copied from a PDF or a word processor: U+2010,
# U+2011 no-break, U+2012-2015, minus U+2212) and spaces, read as one space
_HYPHENS_SPACES = re.compile("[\\s\\-\u2010-\u2015\u2212]+")


def normalize_name(name: str) -> str:
    """Case, umlauts, hyphens and runs of spaces do not matter when naming a card: folded
    as the search folds words (`faq_bot.text.fold`), so „Zerstorer“ and „Zerstoerer“, typed
    on a keyboard without umlauts, name the Zerstörer as the search and the chat read them
    (an API probe: the checker's form said the catalog lacks them)."""
    return _HYPHENS_SPACES.sub(" ", fold(without_format(name))).strip()


def parse_catalog(text: str) -> tuple[CatalogCard, ...]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"cards.toml is not valid TOML: {exc}") from None
    cards = []
    names: dict[str, int] = {}  # a name as `find_card` reads it -> the card that has it
    for i, raw in enumerate(data.get("cards", [])):
        cards.append(card := _card(raw, i))
        for name in (card.name, *card.aliases):
            key = normalize_name(name)
            # a card's own alias may read as its name („Zerstoerer“), another card's not
            if names.setdefault(key, i) != i:
                raise CatalogError(f"cards.toml card #{i + 1}: name {name!r} is used twice")
    if not cards:
        raise CatalogError("cards.toml lists no [[cards]]")
    return tuple(cards)


def _card(raw: dict[str, Any], i: int) -> CatalogCard:
    where = f"cards.toml card #{i + 1}"
    unknown = set(raw) - _FIELDS
    if unknown:
        raise CatalogError(f"{where}: unknown fields {sorted(unknown)}")
    try:
        effect = EffectType(raw["effect"])
        card = CatalogCard(
            name=str(raw["name"]),
            kind=Kind(raw["kind"]),
            effect=effect,
            description=str(raw["description"]),
            aliases=tuple(str(a) for a in raw.get("aliases", ())),
            amount=raw.get("amount"),
            target_kind=Kind(raw["target_kind"]) if "target_kind" in raw else None,
            cost=raw.get("cost"),
            play_cost=raw.get("play_cost"),
            sacrifice=bool(raw.get("sacrifice", False)),
            lock_source=bool(raw.get("lock_source", False)),
            faq=raw.get("faq"),
        )
    except (KeyError, ValueError) as exc:
        raise CatalogError(f"{where}: {exc}") from None
    for name in ("amount", "cost", "play_cost"):
        value = getattr(card, name)
        if value is not None and (not isinstance(value, int) or value < 0):
            raise CatalogError(f"{where}: {name} must be a whole number >= 0")
    if card.amount is not None and effect not in AMOUNT_EFFECTS:
        raise CatalogError(f"{where}: effect {effect.value} takes no amount")
    if card.play_cost is not None and card.kind is not Kind.ACTION:
        raise CatalogError(f"{where}: only action cards have a play_cost")
    return card


@lru_cache(maxsize=1)
def load_catalog() -> tuple[CatalogCard, ...]:
    """Every card of the shipped catalog, in file order."""
    text = resources.files("faq_bot").joinpath("data/cards.toml").read_text(encoding="utf-8")
    return parse_catalog(text)


def find_card(name: str, catalog: tuple[CatalogCard, ...] | None = None) -> CatalogCard | None:
    """The catalog card called `name` or one of its aliases (case-insensitive), or None."""
    wanted = normalize_name(name)
    for card in load_catalog() if catalog is None else catalog:
        if any(normalize_name(n) == wanted for n in (card.name, *card.aliases)):
            return card
    return None


def meant_note(name: str, n: int = 2, catalog: tuple[CatalogCard, ...] | None = None) -> str:
    """„meinten Sie „X“ oder „Y“?“ for a `name` the catalog lacks (`cards_near`), or ""."""
    near = " oder ".join(said_back(card.name) for card in cards_near(name, n, catalog))
    return f"meinten Sie {near}?" if near else ""


def cards_near(
    name: str, n: int = 2, catalog: tuple[CatalogCard, ...] | None = None
) -> list[CatalogCard]:
    """At most `n` catalog cards a `name` the catalog lacks most likely meant (by their
    names and aliases), most similar first („Zerstörerr“ -> the Zerstörer); none for a name
    it has."""
    cards = load_catalog() if catalog is None else catalog
    if not name.strip() or find_card(name, cards) is not None:
        return []
    card_of = {normalize_name(a): c for c in cards for a in (c.name, *c.aliases)}
    return nearest(normalize_name(name), card_of, n)


def catalog_suggestions(
    prefix: str, catalog: tuple[CatalogCard, ...] | None = None
) -> tuple[CatalogCard, ...]:
    """Cards whose name or an alias starts with `prefix` (case-insensitive), by name, then
    those with a later word of it that does ("Bombe" finds the 227-Pfund Bombe: a player
    types the word the card is called by, not always its first).

    An empty prefix gives the whole catalog.
    """
    wanted = normalize_name(prefix)
    first, later = [], []
    for card in load_catalog() if catalog is None else catalog:
        names = [normalize_name(n) for n in (card.name, *card.aliases)]
        if any(n.startswith(wanted) for n in names):
            first.append(card)
        elif any(word.startswith(wanted) for n in names for word in n.split()[1:]):
            later.append(card)
    by_name = sorted(first, key=lambda c: collation_key(c.name))
    return (*by_name, *sorted(later, key=lambda c: collation_key(c.name)))


def catalog_card_to_json(card: CatalogCard) -> dict[str, Any]:
    """A catalog card as JSON for the form (optional values that are unknown are null)."""
    return {
        "name": card.name,
        "aliases": list(card.aliases),
        "kind": card.kind.value,
        "effect": card.effect.value,
        "amount": card.amount,
        "target_kind": card.target_kind.value if card.target_kind else None,
        "cost": card.cost,
        "play_cost": card.play_cost,
        "sacrifice": card.sacrifice,
        "lock_source": card.lock_source,
        "faq": card.faq,
        "description": card.description,
    }
