"""What a card's FAQ entry says it may target, where the contract's rules allow more.

`stack-scenarios.md` makes a `bad_target` of what no card may target (a card not in
play, one's own card for damage, …). The FAQ entries of some cards narrow that further
(the 227-Pfund Bombe destroys a Basisausbau, Erfolgreiche Abwehr counters an action card:
the catalog's `target_kind`). A scenario that goes against only those is still resolved
as the contract says (a scenario's own fields win over the catalog), with a `Hint` that
says what the FAQ says and cites the card's entry: a judge sees the ruling, not a bare
"ausgeführt" (a QA review found a bomb on a unit resolved without a word). The step of
such an entry does not cite the card's entry as its justification (`off_target`, which
`resolve` asks too).

An entry whose card the catalog lacks under its name but holds under a name like it
(„Flakbaterie“: the Flakbatterie) gets a `Hint` too: the scenario's own fields are all the
checker has of that card (its cost is what the form says, 0 when left blank), which a
judge in a hurry did not notice after choosing its Kartenart by hand (a phone review).

`hints(scenario, catalog, errors)` is pure; `resolve` looks up the cited titles.
"""

from __future__ import annotations

from faq_bot.stack.catalog import CatalogCard, cards_near, find_card, meant_note
from faq_bot.stack.explain import KIND_DE
from faq_bot.stack.model import (
    CARD_TARGET_EFFECTS,
    Card,
    EffectType,
    Error,
    ErrorCode,
    Hint,
    Kind,
    Scenario,
    StackEntry,
)
from faq_bot.stack.names import card_name, entry_name, entry_with_source
from faq_bot.text import said_back

# the kinds' grammatical gender: the catalog's targets are named with an article
_MASCULINE = frozenset({Kind.BASE, Kind.LAND})


def _a(kind: Kind, masculine: str, feminine: str) -> str:
    """The kind with its indefinite article in a case: `_a(kind, "einen", "eine")`."""
    return f"{masculine if kind in _MASCULINE else feminine} {KIND_DE[kind]}"


def off_target(scenario: Scenario, entry: StackEntry, card: CatalogCard) -> bool:
    """Whether `entry`, using catalog card `card` as its entry describes it (the same
    effect), aims at another kind of card than that entry allows (`target_kind`): a card
    target of another kind, or a countered entry whose source is of another kind or has
    none. An unknown reference is not (`validate` reports it)."""
    if card.target_kind is None or entry.effect.type is not card.effect:
        return False
    if entry.effect.type is EffectType.COUNTER:
        countered = scenario.entry(entry.effect.target)
        if countered is None:
            return False
        origin = scenario.card(countered.source)
        if origin is None:
            return countered.source is None  # no source at all; an unknown id is an error
        return origin.kind is not card.target_kind
    if entry.effect.type not in CARD_TARGET_EFFECTS:
        return False
    target = scenario.card(entry.effect.target)
    return target is not None and target.kind is not card.target_kind


def hints(
    scenario: Scenario, catalog: tuple[CatalogCard, ...], errors: tuple[Error, ...] = ()
) -> tuple[Hint, ...]:
    """A `Hint` for each entry that is `off_target` by its source card's FAQ entry (the
    card found by name, `find_card`); none for an entry `errors` already call a wrong
    target. A legal stack's hints say the entry is resolved all the same. And one for each
    entry whose source card's name the catalog lacks but most likely meant (`_slip`)."""
    wrong_target = {e.entry for e in errors if e.code is ErrorCode.BAD_TARGET}
    found = []
    for entry in scenario.stack:
        source = scenario.card(entry.source)
        card = find_card(source.name, catalog) if source is not None else None
        if (
            source is not None
            and card is None
            and (slip := _slip(scenario, entry, source, catalog))
        ):
            found.append(slip)
        if entry.id in wrong_target or source is None or card is None:
            continue
        if off_target(scenario, entry, card):
            found.append(_hint(scenario, entry, source, card, resolved=not errors))
    return tuple(found)


def _slip(
    scenario: Scenario, entry: StackEntry, source: Card, catalog: tuple[CatalogCard, ...]
) -> Hint | None:
    """The hint for an entry whose card is named like a catalog card but is none, citing
    the FAQ entry of the card it most likely meant; None for a name like none of them (a
    card of its own)."""
    near = cards_near(source.name or "", 1, catalog)
    if not near:
        return None
    (meant,) = near
    said = (
        f"{entry_name(scenario, entry.id)}: {said_back(source.name)} steht nicht im "
        f"Kartenkatalog ({meant_note(source.name, 1, catalog)}). Gerechnet wird nur mit den "
        "Angaben im Szenario, nicht mit denen der Karte im Katalog: Kosten ohne Angabe sind 0."
    )
    return Hint(entry.id, said, (meant.faq,) if meant.faq else ())


def _hint(
    scenario: Scenario, entry: StackEntry, source: Card, card: CatalogCard, resolved: bool
) -> Hint:
    assert card.target_kind is not None  # `off_target`
    # the card as the scenario names it ("227er"), as every other text of the checker does
    name, wanted = card_name(scenario, source.id), card.target_kind
    if entry.effect.type is EffectType.COUNTER:
        countered = scenario.entry(entry.effect.target)
        assert countered is not None  # `off_target`
        origin = scenario.card(countered.source)
        what = (
            f"stammt von {_a(origin.kind, 'einem', 'einer')}" if origin else "hat keine Quellkarte"
        )
        said = (
            f"Laut FAQ kontert {name} {_a(wanted, 'einen', 'eine')}; "
            f"{entry_with_source(scenario, countered.id)} {what}."
        )
    else:
        target = scenario.card(entry.effect.target)
        assert target is not None  # `off_target`
        said = (
            f"Laut FAQ zielt {name} auf {_a(wanted, 'einen', 'eine')}; "
            f"{card_name(scenario, target.id)} ist {_a(target.kind, 'ein', 'eine')}."
        )
    if resolved:  # an illegal stack is not resolved at all
        said += " Abgehandelt wird der Eintrag wie angegeben."
    return Hint(
        entry.id, f"{entry_name(scenario, entry.id)}: {said}", (card.faq,) if card.faq else ()
    )
