"""German sentences that say what happened to one stack entry and why.

`resolve` records each entry's fate as an `Event` (outcome, reason, payment,
what happened to the source, and which entry caused it); `explain_step` turns
that into the sentence a player reads. Card and entry ids are used as names,
because two cards often share a name (two 227-Pfund Bomben).
"""

from __future__ import annotations

from dataclasses import dataclass

from faq_bot.stack.model import EffectType, Outcome, Reason, Scenario, StackEntry, Zone

OUTCOME_DE = {
    Outcome.RESOLVED: "ausgeführt",
    Outcome.PREVENTED: "ohne Wirkung (verhindert)",
    Outcome.COUNTERED: "gekontert",
    Outcome.FIZZLED: "verpufft",
}
REASON_DE = {
    Reason.SOURCE_GONE: "Quelle nicht mehr vorhanden",
    Reason.SOURCE_LOCKED: "Quelle inzwischen gesperrt",
    Reason.TARGET_GONE: "Ziel nicht mehr vorhanden oder nicht mehr zulässig",
    Reason.CANNOT_PAY: "nicht mehr bezahlbar",
}
ZONE_DE = {Zone.HAND: "auf der Hand", Zone.PLAY: "im Spiel", Zone.SCRAP: "auf dem Schrottplatz"}
EFFECT_DE = {
    EffectType.DESTROY: "zerstören",
    EffectType.LOCK: "sperren",
    EffectType.UNLOCK: "entsperren",
    EffectType.DISCARD: "abwerfen lassen",
    EffectType.COUNTER: "kontern",
    EffectType.PROTECT: "schützen",
    EffectType.DRAW: "Karten ziehen",
    EffectType.PRODUCE_TW: "TW erzeugen",
    EffectType.DAMAGE: "Schaden zufügen",
    EffectType.PREVENT_DAMAGE: "Schaden verhindern",
    EffectType.DECLARE_ATTACK: "Angriff deklarieren",
    EffectType.OTHER: "sonstiger Effekt",
}
# What an executed effect does: {t} is the target, {by} the player, {n} the amount,
# {cards} and {tw} the amount as cards or TW. A prevented destruction and OTHER
# (the scenario's own text) are worded in `_effect`.
EFFECT_DONE_DE = {
    EffectType.DESTROY: "{t} wird zerstört.",
    EffectType.LOCK: "{t} wird gesperrt.",
    EffectType.UNLOCK: "{t} wird entsperrt.",
    EffectType.DISCARD: "{t} wird abgeworfen und kommt auf den Schrottplatz.",
    EffectType.COUNTER: "der Effekt von {t} wird gekontert.",
    EffectType.PROTECT: "{t} ist vor jeder später abgehandelten Zerstörung geschützt.",
    EffectType.DRAW: "{by} zieht {cards}.",
    EffectType.PRODUCE_TW: "{by} erhält {tw}; TW-Produktion kann nicht verhindert werden.",
    EffectType.DAMAGE: "{n} Schaden auf {t} wird vermerkt und erst am Ende der Phase abgerechnet.",
    EffectType.PREVENT_DAMAGE: (
        "{n} Schaden an {t} wird verhindert; das wirkt erst am Ende der Phase."
    ),
    EffectType.DECLARE_ATTACK: "der Angriff ist deklariert.",
}


@dataclass(frozen=True)
class Event:
    """What happened to one entry; `cause` is the entry that brought it about, if any."""

    outcome: Outcome
    reason: Reason | None
    paid: int
    cause: str | None = None
    locked_source: bool = False
    sacrificed: bool = False
    discarded_source: bool = False  # an action card put on the scrap pile
    counter_extra: int = 0  # the countered card's play cost a counter pays
    needed: int = 0  # for cannot_pay
    available: int = 0


def tw(n: int) -> str:
    return f"{n} TW"


def cards(n: int) -> str:
    return "1 Karte" if n == 1 else f"{n} Karten"


def describe_entry(entry: StackEntry) -> str:
    """A short German label: "A, bombA: bombB zerstören"."""
    effect = entry.effect
    what = EFFECT_DE[effect.type]
    if effect.type is EffectType.DRAW:
        what = f"{cards(effect.amount or 0)} ziehen"
    elif effect.type is EffectType.PRODUCE_TW:
        what = f"{tw(effect.amount or 0)} erzeugen"
    elif effect.type in (EffectType.DAMAGE, EffectType.PREVENT_DAMAGE):
        what = f"{effect.target}: {effect.amount} {what}"
    elif effect.type is EffectType.OTHER and effect.text:
        what = effect.text
    elif effect.target is not None:
        what = f"{effect.target} {what}"
    source = f", {entry.source}" if entry.source else ""
    return f"{entry.by}{source}: {what}"


def explain_step(scenario: Scenario, entry: StackEntry, event: Event) -> str:
    by = entry.by
    src = entry.source
    by_cause = f" (durch {_cause(scenario, event)})" if event.cause else ""
    if event.outcome is Outcome.FIZZLED:
        if event.reason is Reason.SOURCE_GONE:
            return (
                f"{src} liegt inzwischen auf dem Schrottplatz{by_cause}, daher verpufft "
                f"{entry.id}; {by} bezahlt nichts."
            )
        if event.reason is Reason.SOURCE_LOCKED:
            return (
                f"{src} wurde inzwischen gesperrt{by_cause} und kann nicht mehr eingesetzt "
                f"werden; {entry.id} verpufft, {by} bezahlt nichts."
            )
        if event.reason is Reason.TARGET_GONE:
            return _target_gone(scenario, entry, event)
        # cannot_pay
        kept = f", {src} bleibt ungesperrt" if entry.lock_source else ""
        return (
            f"{by} hat nur noch {tw(event.available)}, bräuchte aber {tw(event.needed)}; "
            f"{entry.id} verpufft{kept}."
        )
    if event.outcome is Outcome.COUNTERED:
        scrap = f" und {src} kommt auf den Schrottplatz" if event.discarded_source else ""
        if event.paid:
            paid = f"{by} bezahlt nur die Ausspielkosten von {tw(event.paid)}{scrap}"
        else:
            paid = f"{by} bezahlt nichts{scrap}"
        return f"Der Effekt von {entry.id} wird durch {_cause(scenario, event)} gekontert; {paid}."
    return f"{_payment(entry, event)}; {_effect(scenario, entry, event)}"


def _cause(scenario: Scenario, event: Event) -> str:
    """The entry that caused an outcome, with its source card: "s2 mit feuerwehr"."""
    cause = scenario.entry(event.cause)
    if cause is None or cause.source is None:
        return str(event.cause)
    return f"{cause.id} mit {cause.source}"


def _target_gone(scenario: Scenario, entry: StackEntry, event: Event) -> str:
    effect = entry.effect
    by_cause = f" (durch {_cause(scenario, event)})" if event.cause else ""
    if effect.type is EffectType.COUNTER:
        what = f"Der Eintrag {effect.target} kommt ohnehin nicht mehr zum Zug{by_cause}"
    elif effect.type is EffectType.LOCK and _caused_by_lock(scenario, event):
        what = f"Das Ziel {effect.target} ist bereits gesperrt{by_cause}"
    else:
        what = f"Das Ziel {effect.target} liegt bereits auf dem Schrottplatz{by_cause}"
    rest = f"{entry.id} verpufft, {entry.by} bezahlt nichts"
    if entry.lock_source:
        rest += f", {entry.source} bleibt ungesperrt"
    if entry.sacrifice:
        rest += f", {entry.source} wird nicht geopfert"
    return f"{what}; {rest}."


def _caused_by_lock(scenario: Scenario, event: Event) -> bool:
    """A lock's target is gone either by a lock (already locked) or to the scrap pile."""
    cause = scenario.entry(event.cause)
    return cause is None or cause.effect.type is EffectType.LOCK


def _payment(entry: StackEntry, event: Event) -> str:
    src = entry.source
    text = f"{entry.by} bezahlt {tw(event.paid)}" if event.paid else f"{entry.by} bezahlt nichts"
    if event.counter_extra:
        text += f" (darin {tw(event.counter_extra)} Ausspielkosten von {entry.effect.target})"
    doings = []
    if event.locked_source:
        doings.append(f"sperrt {src}")
    if event.sacrificed:
        doings.append(f"opfert {src}")
    if event.discarded_source:
        doings.append(f"legt {src} auf den Schrottplatz")
    if doings:
        text += (" und " if len(doings) == 1 else ", ") + " und ".join(doings)
    return text


def _effect(scenario: Scenario, entry: StackEntry, event: Event) -> str:
    effect = entry.effect
    t = effect.target
    n = effect.amount or 0
    if effect.type is EffectType.DESTROY and event.outcome is Outcome.PREVENTED:
        prevented = f"die Zerstörung von {t} wird durch {_cause(scenario, event)} verhindert"
        if entry.sacrifice:
            return f"{prevented} – bezahlt und geopfert wird trotzdem, für null Resultat."
        return f"{prevented}."
    if effect.type is EffectType.OTHER:
        return f"{effect.text.rstrip('.')}." if effect.text else "der Effekt tritt ein."
    return EFFECT_DONE_DE[effect.type].format(t=t, by=entry.by, n=n, cards=cards(n), tw=tw(n))
