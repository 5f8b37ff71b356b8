"""What a card's FAQ entry says it may target, where the contract's rules allow more.

`stack-scenarios.md` makes a `bad_target` of what no card may target (a card not in
play, one's own card for damage, …). The FAQ entries of some cards narrow that further
(the 227-Pfund Bombe destroys a Basisausbau, Erfolgreiche Abwehr counters an action card:
the catalog's `target_kind`). A scenario that goes against only those is still resolved
as the contract says (a scenario's own fields win over the catalog), with a `Hint` that
says what the FAQ says and cites the card's entry: a judge sees the ruling, not a bare
"ausgeführt" (a QA review found a bomb on a unit resolved without a word).

`hints(scenario, catalog)` is pure; `resolve` looks up the cited titles.
"""

from __future__ import annotations

from faq_bot.stack.catalog import CatalogCard, find_card
from faq_bot.stack.explain import KIND_DE
from faq_bot.stack.model import (
    CARD_TARGET_EFFECTS,
    EffectType,
    Error,
    ErrorCode,
    Hint,
    Kind,
    Scenario,
    StackEntry,
)
from faq_bot.stack.names import card_name, entry_name, entry_with_source

# the kinds' grammatical gender: the catalog's targets are named with an article
_MASCULINE = frozenset({Kind.BASE, Kind.LAND})


def _accusative(kind: Kind) -> str:
    return f"{'einen' if kind in _MASCULINE else 'eine'} {KIND_DE[kind]}"


def _nominative(kind: Kind) -> str:
    return f"{'ein' if kind in _MASCULINE else 'eine'} {KIND_DE[kind]}"


def _dative(kind: Kind) -> str:
    return f"{'einem' if kind in _MASCULINE else 'einer'} {KIND_DE[kind]}"


def hints(
    scenario: Scenario, catalog: tuple[CatalogCard, ...], errors: tuple[Error, ...] = ()
) -> tuple[Hint, ...]:
    """A `Hint` for each entry whose source card (by name, `find_card`) the FAQ lets
    target only one kind of card when the entry aims at another kind; none for an
    entry that `errors` already call a wrong target."""
    wrong_target = {e.entry for e in errors if e.code is ErrorCode.BAD_TARGET}
    found = []
    for entry in scenario.stack:
        if entry.id in wrong_target:
            continue
        hint = _hint(scenario, entry, catalog)
        if hint is not None:
            found.append(hint)
    return tuple(found)


def _hint(scenario: Scenario, entry: StackEntry, catalog: tuple[CatalogCard, ...]) -> Hint | None:
    source = scenario.card(entry.source)
    card = find_card(source.name, catalog) if source is not None else None
    if card is None or card.target_kind is None or entry.effect.type is not card.effect:
        return None  # a card used otherwise than the FAQ describes says nothing here
    cites = (card.faq,) if card.faq else ()
    name = entry_name(scenario, entry.id)
    if entry.effect.type is EffectType.COUNTER:
        countered = scenario.entry(entry.effect.target)
        if countered is None:
            return None  # an unknown reference: validate's error says so
        origin = scenario.card(countered.source)
        if origin is not None and origin.kind is card.target_kind:
            return None
        what = f"stammt von {_dative(origin.kind)}" if origin else "hat keine Quellkarte"
        return Hint(
            entry.id,
            f"{name}: Laut FAQ kontert {card.name} {_accusative(card.target_kind)}; "
            f"{entry_with_source(scenario, countered.id)} {what}. Abgehandelt wird der "
            "Eintrag wie angegeben.",
            cites,
        )
    if entry.effect.type not in CARD_TARGET_EFFECTS:
        return None
    target = scenario.card(entry.effect.target)
    if target is None or target.kind is card.target_kind:
        return None
    return Hint(
        entry.id,
        f"{name}: Laut FAQ zielt {card.name} auf {_accusative(card.target_kind)}; "
        f"{card_name(scenario, target.id)} ist {_nominative(target.kind)}. Abgehandelt wird "
        "der Eintrag wie angegeben.",
        cites,
    )
