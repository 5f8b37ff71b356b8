"""How a person reads cards and entries: by name, never by id.

An id such as ``8`` or ``s3`` reads like an amount in a German sentence ("Der
Effekt von 8 wird durch 9 …"), so every text the checker writes names a card by
its name, adds the owner when two cards share the name ("227-Pfund Bombe von A"),
and the id only when even name and owner are shared ("Zerstörer von B „z2“").
A stack entry is "Eintrag N", its position counted from the bottom, as the form
numbers its rows.
"""

from __future__ import annotations

from faq_bot.stack.model import Scenario


def card_name(scenario: Scenario, card_id: str | None) -> str:
    card = scenario.card(card_id)
    if card is None:
        return str(card_id)
    same_name = [c for c in scenario.cards if c.name == card.name]
    if len(same_name) == 1:
        return card.name
    if sum(1 for c in same_name if c.owner == card.owner) == 1:
        return f"{card.name} von {card.owner}"
    return f"{card.name} von {card.owner} „{card.id}“"


def entry_number(scenario: Scenario, entry_id: str | None) -> int | None:
    for number, entry in enumerate(scenario.stack, 1):
        if entry.id == entry_id:
            return number
    return None


def entry_name(scenario: Scenario, entry_id: str | None) -> str:
    """ "Eintrag 3" (bottom = 1); an id the stack lacks stays as it is."""
    number = entry_number(scenario, entry_id)
    return f"Eintrag {number}" if number is not None else f"Eintrag „{entry_id}“"


def entry_with_source(scenario: Scenario, entry_id: str | None) -> str:
    """ "Eintrag 3 (227-Pfund Bombe von A)", or "Eintrag 1" for an entry without a source."""
    entry = scenario.entry(entry_id)
    name = entry_name(scenario, entry_id)
    if entry is None or entry.source is None:
        return name
    return f"{name} ({card_name(scenario, entry.source)})"


def entry_by_source(scenario: Scenario, entry_id: str | None) -> str:
    """ "Eintrag 3 mit 227-Pfund Bombe von A": who caused something, inside parentheses."""
    entry = scenario.entry(entry_id)
    name = entry_name(scenario, entry_id)
    if entry is None or entry.source is None:
        return name
    return f"{name} mit {card_name(scenario, entry.source)}"
