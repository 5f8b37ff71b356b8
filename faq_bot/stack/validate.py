"""Could this stack have been announced? Rule violations as data, never raised.

`validate(scenario)` returns every violation it finds as an `Error` with a
stable `code` (the table in `stack-scenarios.md`), the entry it concerns, a
German message and the titles of the FAQ entries that state the rule it breaks
(`Error.cites`: decided here, where the violation and its reason are known;
`resolve` only looks the titles up). An empty tuple means the stack is legal and
can be resolved.
"""

from __future__ import annotations

from collections.abc import Mapping

from faq_bot.stack.catalog import CatalogCard, find_card
from faq_bot.stack.explain import EFFECT_DE
from faq_bot.stack.model import (
    IN_PLAY_TARGET_EFFECTS,
    NO_ACTION_CARD_PHASES,
    Card,
    EffectType,
    Error,
    ErrorCode,
    Kind,
    Phase,
    Scenario,
    StackEntry,
    Zone,
)
from faq_bot.stack.names import card_name, entry_name
from faq_bot.stack.titles import (
    ABWERFEN,
    AKTIONSKARTEN,
    AKTIONSSTAPEL,
    ANGRIFFSDEKLARATIONSPHASE,
    SCHADEN,
    SPERREN,
    TECHNOLOGIEWERTE,
)
from faq_bot.text import said_back

_ZONE_DE = {Zone.HAND: "auf der Hand", Zone.PLAY: "im Spiel", Zone.SCRAP: "auf dem Schrottplatz"}

# What the FAQ entries say that an illegal stack breaks, by violation (a judge settling a
# dispute wants the ruling most of all here); `bad_target` by what the entry does
# (`_TARGET_RULES`, else the source card's own entry), `source_unavailable` by why (at the
# error); a reference to nothing or another's card cites none
ERROR_RULES: Mapping[ErrorCode, tuple[str, ...]] = {
    # "Karten dürfen nur einmal im Aktionsstapel vorkommen"
    ErrorCode.DUPLICATE_CARD: (AKTIONSSTAPEL,),
    # "Aktionskarten können in jeder Phase einer Runde gespielt werden (Ausnahme: …)"
    ErrorCode.ACTION_CARD_FORBIDDEN_IN_PHASE: (AKTIONSKARTEN,),
    # "Kann eine Angriffsdeklaration als Reaktion auf ein Sperren erfolgen? Antwort: Nein."
    ErrorCode.DECLARATION_NOT_REACTION: (ANGRIFFSDEKLARATIONSPHASE,),
    # the second example of Aktionsstapel: what the player holds at the announcement
    ErrorCode.INSUFFICIENT_TW: (AKTIONSSTAPEL, TECHNOLOGIEWERTE),
}
_TARGET_RULES: Mapping[EffectType, tuple[str, ...]] = {
    EffectType.DAMAGE: (SCHADEN,),  # "Es darf NIE Schaden auf eigene Einheiten …"
    EffectType.PREVENT_DAMAGE: (SCHADEN,),
    EffectType.DISCARD: (ABWERFEN,),
    EffectType.LOCK: (SPERREN,),
    EffectType.UNLOCK: (SPERREN,),
    EffectType.COUNTER: (AKTIONSSTAPEL,),
}


def validate(
    scenario: Scenario, catalog: tuple[CatalogCard, ...] | None = None
) -> tuple[Error, ...]:
    """Every rule the stack breaks; `catalog` (the cards' FAQ entries, the shipped one
    by default) names what a card may target when its effect has no general rule."""
    errors: list[Error] = []
    players = {p.name for p in scenario.players}
    for card in scenario.cards:
        if card.owner not in players:
            errors.append(
                Error(
                    ErrorCode.UNKNOWN_REFERENCE,
                    None,
                    f"Karte {card_name(scenario, card.id)}: Besitzer "
                    f"{said_back(card.owner)} ist kein Spieler des Szenarios.",
                )
            )
    sources: dict[str, str] = {}  # card id -> first entry that uses it
    for index, entry in enumerate(scenario.stack):
        errors.extend(_entry_errors(scenario, index, entry, players, sources, catalog))
        if entry.source is not None:
            sources.setdefault(entry.source, entry.id)
    return tuple(errors)


def _entry_errors(
    scenario: Scenario,
    index: int,
    entry: StackEntry,
    players: set[str],
    sources: dict[str, str],
    catalog: tuple[CatalogCard, ...] | None,
) -> list[Error]:
    errors: list[Error] = []

    def error(code: ErrorCode, message: str, cites: tuple[str, ...] = ()) -> None:
        """`cites`: what this violation breaks beyond its code's rules (`ERROR_RULES`)."""
        cited = tuple(dict.fromkeys((*ERROR_RULES.get(code, ()), *cites)))
        errors.append(Error(code, entry.id, f"{entry_name(scenario, entry.id)}: {message}", cited))

    def name(card_id: str | None) -> str:
        return card_name(scenario, card_id)

    player = scenario.player(entry.by)
    if player is None:
        error(
            ErrorCode.UNKNOWN_REFERENCE,
            f"Spieler {said_back(entry.by)} ist nicht im Szenario definiert.",
        )
    source = scenario.card(entry.source)
    if entry.source is not None and source is None:
        error(
            ErrorCode.UNKNOWN_REFERENCE,
            f"Die Quellkarte {said_back(entry.source)} ist nicht definiert.",
        )
    effect = entry.effect
    target_card: Card | None = None
    target_entry: StackEntry | None = None
    if effect.type is EffectType.COUNTER:
        target_entry = scenario.entry(effect.target)
        if target_entry is None:
            error(
                ErrorCode.UNKNOWN_REFERENCE,
                f"Der gekonterte Eintrag {said_back(effect.target or '')} ist nicht im "
                "Aktionsstapel.",
            )
    elif effect.target is not None:
        target_card = scenario.card(effect.target)
        if target_card is None and scenario.entry(effect.target) is not None:
            # picked from the form's one list of cards and entries: named as the form names it
            # (still `unknown_reference`: no card has that id, stack-scenarios.md)
            error(
                ErrorCode.UNKNOWN_REFERENCE,
                f"Ziel ist {entry_name(scenario, effect.target)} im Aktionsstapel, aber "
                f"„{EFFECT_DE[effect.type]}“ zielt auf eine Karte; nur Kontern zielt auf "
                "einen Eintrag.",
            )
        elif target_card is None:
            error(
                ErrorCode.UNKNOWN_REFERENCE,
                f"Die Zielkarte {said_back(effect.target)} ist nicht definiert.",
            )

    if source is not None:
        if source.id in sources:
            error(
                ErrorCode.DUPLICATE_CARD,
                f"{name(source.id)} ist schon Quelle von "
                f"{entry_name(scenario, sources[source.id])}; Karten dürfen nur einmal im "
                "Aktionsstapel vorkommen.",
            )
        if player is not None and source.owner != entry.by:
            error(
                ErrorCode.NOT_OWNER,
                f"{entry.by} sagt {name(source.id)} an, die Karte gehört aber {source.owner}.",
            )
        if source.zone is Zone.SCRAP:
            # "Erst wenn eine Aktion … an die Reihe kommt und noch existent ist"
            error(
                ErrorCode.SOURCE_UNAVAILABLE,
                f"{name(source.id)} liegt auf dem Schrottplatz.",
                (AKTIONSSTAPEL,),
            )
        elif entry.lock_source and source.locked:
            error(
                ErrorCode.SOURCE_UNAVAILABLE,
                f"{name(source.id)} ist schon gesperrt und kann nicht zum Einsatz gesperrt werden.",
                (SPERREN,),
            )
        elif source.kind is Kind.ACTION and source.zone is not Zone.HAND:
            error(
                ErrorCode.SOURCE_UNAVAILABLE,
                f"Die Aktionskarte {name(source.id)} ist nicht auf der Hand, sondern "
                f"{_ZONE_DE[source.zone]}.",
                (AKTIONSKARTEN,),
            )
        if source.kind is Kind.ACTION and scenario.phase in NO_ACTION_CARD_PHASES:
            error(
                ErrorCode.ACTION_CARD_FORBIDDEN_IN_PHASE,
                f"Aktionskarten dürfen in der {scenario.phase.value} nicht gespielt werden.",
            )

    needed = entry.cost + entry.play_cost
    opponent_cost = ""
    if target_entry is not None and target_entry.play_cost:
        # Erfolgreiche Abwehr: "1 TW + die Kosten des Gegners zum Ausspielen"
        needed += target_entry.play_cost
        opponent_cost = (
            f" (davon {target_entry.play_cost} TW Ausspielkosten des gekonterten Eintrags)"
        )
    if player is not None and player.tw < needed:
        error(
            ErrorCode.INSUFFICIENT_TW,
            f"{entry.by} hat {player.tw} TW, der Eintrag kostet aber {needed} TW{opponent_cost}.",
        )

    if target_card is not None:
        problem = _card_target_problem(scenario, entry, source, target_card)
        if problem:
            error(ErrorCode.BAD_TARGET, problem, _target_rules(entry, source, catalog))
    if target_entry is not None:
        below = scenario.stack.index(target_entry) < index
        if not below:
            error(
                ErrorCode.BAD_TARGET,
                "Konterbar ist nur ein früher angesagter Eintrag; "
                f"{entry_name(scenario, target_entry.id)} liegt "
                "nicht darunter.",
                _target_rules(entry, source, catalog),
            )

    if effect.type is EffectType.DECLARE_ATTACK:
        if index != 0:
            error(
                ErrorCode.DECLARATION_NOT_REACTION,
                "Eine Angriffsdeklaration eröffnet einen eigenen Aktionsstapel und ist nie "
                "eine Reaktion.",
            )
        if scenario.phase is not Phase.ANGRIFFSDEKLARATIONSPHASE:
            error(
                ErrorCode.DECLARATION_NOT_REACTION,
                f"Angriffe werden nur in der Angriffsdeklarationsphase deklariert, nicht in der "
                f"{scenario.phase.value}.",
            )
    return errors


def _target_rules(
    entry: StackEntry, source: Card | None, catalog: tuple[CatalogCard, ...] | None
) -> tuple[str, ...]:
    """What a wrong target breaks: the effect's entry (Schaden, Abwerfen, …), else the
    source card's own (Feuerwehr protects only another base)."""
    general = _TARGET_RULES.get(entry.effect.type, ())
    if general:
        return general
    card = find_card(source.name, catalog) if source is not None else None
    return (card.faq,) if card is not None and card.faq else ()


def _card_target_problem(
    scenario: Scenario, entry: StackEntry, source: Card | None, target: Card
) -> str | None:
    kind = entry.effect.type
    t = card_name(scenario, target.id)
    s = card_name(scenario, source.id) if source is not None else ""
    if kind in IN_PLAY_TARGET_EFFECTS and target.zone is not Zone.PLAY:
        return f"Ziel {t} ist nicht im Spiel, sondern {_ZONE_DE[target.zone]}."
    if kind is EffectType.DISCARD and target.zone is not Zone.HAND:
        return f"Abwerfen kann man nur Handkarten; {t} ist {_ZONE_DE[target.zone]}."
    if kind is EffectType.DAMAGE and target.owner == entry.by:
        # FAQ Schaden: "Es darf NIE Schaden auf eigene Einheiten oder Landausbauten oder
        # andere eigene Karten verteilt werden."
        return f"{t} gehört {entry.by}; Schaden auf eigene Karten ist nie erlaubt."
    if kind is EffectType.LOCK and target.locked:
        return f"{t} ist bereits gesperrt und damit kein zulässiges Ziel."
    if kind is EffectType.PROTECT:
        if source is not None and target.id == source.id:
            return f"{s} kann sich nicht selbst schützen, nur andere Basisausbauten."
        if target.kind is not Kind.BASE:
            return f"Schützen lässt sich nur ein Basisausbau; {t} ist keiner."
        if source is not None and target.owner != source.owner:
            return f"{t} gehört nicht {source.owner}; geschützt werden nur eigene Basisausbauten."
    return None
