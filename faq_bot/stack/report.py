"""The checker's result as a readable German timeline (for `faq-bot check` without --json)."""

from __future__ import annotations

from faq_bot.stack.explain import (
    ERROR_DE,
    OUTCOME_DE,
    REASON_DE,
    ZONE_DE,
    describe_entry,
    entries,
)
from faq_bot.stack.model import Result, Scenario
from faq_bot.stack.names import card_name


def render_text(scenario: Scenario, result: Result) -> str:
    n = len(scenario.stack)
    head = f"Phase: {scenario.phase.value}; {entries(n)} im Stapel."
    lines = [head]
    for hint in result.hints:  # what the cards' FAQ entries say, legal or not
        lines.append(f"Hinweis: {hint.message}")
        if hint.rules:
            lines.append(f"  Regeln: {', '.join(hint.rules)}")
    if not result.ok:
        lines.append("Das Szenario ist so nicht zulässig:")
        for error in result.errors:
            lines.append(f"  - {ERROR_DE[error.code]} – {error.message}")
            if error.rules:
                lines.append(f"    Regeln: {', '.join(error.rules)}")
        return "\n".join(lines)
    if not result.steps:
        lines.append("Der Aktionsstapel ist leer; es passiert nichts.")
    else:
        lines.append("Abhandlung von oben nach unten (zuletzt Angesagtes zuerst):")
    for number, step in enumerate(result.steps, 1):
        entry = scenario.entry(step.entry)
        label = describe_entry(scenario, entry) if entry else step.entry
        outcome = OUTCOME_DE[step.outcome]
        if step.reason is not None:
            outcome += f": {REASON_DE[step.reason]}"
        payer = entry.by if entry else "?"
        paid = f"{payer} zahlt {step.paid} TW" if step.paid else f"{payer} zahlt nichts"
        lines.append(f"{number:>3}. {step.entry} ({label}) – {outcome}; {paid}")
        lines.append(f"     {step.explanation}")
        if step.rules:
            lines.append(f"     Regeln: {', '.join(step.rules)}")
    end = result.end_of_phase
    if end is not None:
        if end.damage:
            damage = ", ".join(
                f"{card_name(scenario, card)}: {amount}" for card, amount in end.damage
            )
            lines.append(f"Ende der Phase: Schaden {damage}.")
        else:
            lines.append("Ende der Phase: kein Schaden abzurechnen.")
        if end.destroyed:
            gone = ", ".join(card_name(scenario, card) for card in end.destroyed)
            lines.append(f"  Auf den Schrottplatz: {gone}.")
    final = result.final
    if final is not None:
        lines.append("Endstand:")
        for player in final.players:
            drawn = "1 Karte" if player.drawn == 1 else f"{player.drawn} Karten"
            lines.append(f"  {player.name}: {player.tw} TW übrig, {drawn} gezogen")
        for card in final.cards:
            locked = ", gesperrt" if card.locked else ""
            lines.append(f"  {card_name(scenario, card.id)}: {ZONE_DE[card.zone]}{locked}")
    return "\n".join(lines)
