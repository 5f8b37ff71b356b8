"""German sentences that say what happened to one stack entry and why.

`resolve` records each entry's fate as an `Event` (outcome, reason, payment,
what happened to the source, and which entry caused it); `explain_step` turns
that into the sentence a player reads. Cards are named by name (with the owner
where two share a name) and entries as "Eintrag N" (`faq_bot.stack.names`):
ids read like amounts. Each sentence says what the FAQ sentence behind it says;
the comments name that sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from faq_bot.stack.model import (
    EffectType,
    ErrorCode,
    Kind,
    Outcome,
    Reason,
    Scenario,
    StackEntry,
    Zone,
)
from faq_bot.stack.names import card_name, entry_by_source, entry_name, entry_with_source

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
ERROR_DE = {
    ErrorCode.UNKNOWN_REFERENCE: "Unbekannter Verweis",
    ErrorCode.DUPLICATE_CARD: "Karte mehrfach im Stapel",
    ErrorCode.NOT_OWNER: "Nicht der Besitzer",
    ErrorCode.SOURCE_UNAVAILABLE: "Quelle nicht verfügbar",
    ErrorCode.ACTION_CARD_FORBIDDEN_IN_PHASE: "Aktionskarte in dieser Phase verboten",
    ErrorCode.INSUFFICIENT_TW: "Zu wenig TW",
    ErrorCode.BAD_TARGET: "Unzulässiges Ziel",
    # the code covers both: as a reaction and outside the Angriffsdeklarationsphase
    ErrorCode.DECLARATION_NOT_REACTION: "Angriffsdeklaration hier nicht zulässig",
}
ZONE_DE = {Zone.HAND: "auf der Hand", Zone.PLAY: "im Spiel", Zone.SCRAP: "auf dem Schrottplatz"}
KIND_DE = {
    Kind.BASE: "Basisausbau",
    Kind.LAND: "Landausbau",
    Kind.UNIT: "Einheit",
    Kind.ACTION: "Aktionskarte",
    Kind.COUNTRY: "Länderkarte",
}
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
    EffectType.COUNTER: "der Effekt von {t} wird gekontert.",  # {t}: "Eintrag N (card)"
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
    # target_gone: why the target is no longer legal: "scrap", "locked" or "countered"
    target_state: str | None = None
    ignored_counter: str | None = None  # a counter aimed at TW production, without effect


def tw(n: int) -> str:
    return f"{n} TW"


def cards(n: int) -> str:
    return "1 Karte" if n == 1 else f"{n} Karten"


def entries(n: int, dative: bool = False) -> str:
    """ "1 Eintrag", "2 Einträge"; dative: "(mit) 2 Einträgen"."""
    return "1 Eintrag" if n == 1 else f"{n} Einträge{'n' if dative else ''}"


def describe_entry(scenario: Scenario, entry: StackEntry) -> str:
    """A short German label: "A, 227-Pfund Bombe von A: 227-Pfund Bombe von B zerstören"."""
    effect = entry.effect
    what = EFFECT_DE[effect.type]
    target = _target_name(scenario, entry)
    if effect.type is EffectType.DRAW:
        what = f"{cards(effect.amount or 0)} ziehen"
    elif effect.type is EffectType.PRODUCE_TW:
        what = f"{tw(effect.amount or 0)} erzeugen"
    elif effect.type in (EffectType.DAMAGE, EffectType.PREVENT_DAMAGE):
        what = f"{target}: {effect.amount} {what}"
    elif effect.type is EffectType.OTHER and effect.text and effect.text.strip():
        what = effect.text.strip()
    elif effect.target is not None:
        what = f"{target} {what}"
    source = f", {card_name(scenario, entry.source)}" if entry.source else ""
    return f"{entry.by}{source}: {what}"


def _target_name(scenario: Scenario, entry: StackEntry) -> str:
    if entry.effect.type is EffectType.COUNTER:
        return entry_with_source(scenario, entry.effect.target)
    return card_name(scenario, entry.effect.target)


def explain_step(scenario: Scenario, entry: StackEntry, event: Event) -> str:
    by = entry.by
    src = card_name(scenario, entry.source)
    me = entry_name(scenario, entry.id)
    by_cause = f" (durch {_cause(scenario, event)})" if event.cause else ""
    if event.outcome is Outcome.FIZZLED:
        if event.reason is Reason.SOURCE_GONE:
            # Aktionsstapel/227er: "da die Radarstation ja nicht zum Einsatz kam" - nichts zu zahlen
            return (
                f"{src} liegt inzwischen auf dem Schrottplatz{by_cause}, daher verpufft "
                f"{me}; {by} bezahlt nichts."
            )
        if event.reason is Reason.SOURCE_LOCKED:
            # Aktionsstapel, 1. Beispiel: "Diese kann nicht mehr eine Karte ziehen"
            return (
                f"{src} wurde inzwischen gesperrt{by_cause} und kann nicht mehr eingesetzt "
                f"werden; {me} verpufft, {by} bezahlt nichts."
            )
        if event.reason is Reason.TARGET_GONE:
            return _target_gone(scenario, entry, event)
        return _cannot_pay(scenario, entry, event)
    if event.outcome is Outcome.COUNTERED:
        # Aktionskarten: gekonterte Aktionskarten "müssen nur noch die Ausspielkosten im
        # grauen Kästchen bezahlen" und kommen "auch dann" auf den Schrottplatz
        scrap = f" und {src} kommt auf den Schrottplatz" if event.discarded_source else ""
        if event.paid:
            paid = f"{by} bezahlt nur die Ausspielkosten von {tw(event.paid)}{scrap}"
        else:
            paid = f"{by} bezahlt nichts{scrap}"
        return f"Der Effekt von {me} wird durch {_cause(scenario, event)} gekontert; {paid}."
    return f"{_payment(scenario, entry, event)}; {_effect(scenario, entry, event)}"


def _cause(scenario: Scenario, event: Event) -> str:
    """The entry that caused an outcome, with its source card: "Eintrag 2 mit Feuerwehr"."""
    return entry_by_source(scenario, event.cause)


def _kept(scenario: Scenario, entry: StackEntry) -> str:
    """What does not happen to the source of an entry that fizzles (nothing is paid)."""
    src = card_name(scenario, entry.source)
    source = scenario.card(entry.source)
    kept = ""
    if entry.lock_source:  # Aktionsstapel: "so wird sie wieder entsperrt"
        kept += f", {src} bleibt ungesperrt"
    if entry.sacrifice:  # 227er: nur wer seine Aktion durchführt, bezahlt und opfert
        kept += f", {src} wird nicht geopfert"
    if source is not None and source.kind is Kind.ACTION:
        # Aktionskarten: erst wenn sie an die Reihe kommt und bezahlt wird, gilt sie als
        # ausgespielt, "d.h. im Spiel und nicht mehr auf der Hand befindlich"
        kept += f", {src} bleibt auf der Hand"
    return kept


def _target_gone(scenario: Scenario, entry: StackEntry, event: Event) -> str:
    effect = entry.effect
    by_cause = f" (durch {_cause(scenario, event)})" if event.cause else ""
    target = _target_name(scenario, entry)
    if effect.type is EffectType.COUNTER:
        if event.target_state == "countered":
            # the countered entry still comes up and pays its play cost; only its effect is gone
            what = f"Der Effekt von {target} ist bereits gekontert{by_cause}"
        else:
            countered = scenario.entry(effect.target)
            gone = card_name(scenario, countered.source if countered else None)
            what = (
                f"{target} kommt ohnehin nicht mehr zum Zug, denn {gone} liegt bereits auf "
                f"dem Schrottplatz{by_cause}"
            )
    elif event.target_state == "locked":
        # Aktionsstapel, 1. Beispiel: "da sie bereits nun gesperrt ist, findet der erste
        # Zerstörer kein Ziel mehr"
        what = f"Das Ziel {target} ist bereits gesperrt{by_cause}"
    else:
        what = f"Das Ziel {target} liegt bereits auf dem Schrottplatz{by_cause}"
    me = entry_name(scenario, entry.id)
    return f"{what}; {me} verpufft, {entry.by} bezahlt nichts{_kept(scenario, entry)}."


def _cannot_pay(scenario: Scenario, entry: StackEntry, event: Event) -> str:
    # Aktionsstapel, 2. Beispiel: "Da nun aber nicht mehr genügend TW vorhanden sind ...,
    # bleibt die Radarstation doch entsperrt und hat gar keine Wirkung."
    me = entry_name(scenario, entry.id)
    lack = f"{entry.by} hat nur noch {tw(event.available)}, bräuchte aber {tw(event.needed)}"
    if event.cause is not None:  # countered, and not even the play cost can be paid
        lack = (
            f"Der Effekt von {me} ist durch {_cause(scenario, event)} gekontert; {lack} "
            "für die Ausspielkosten"
        )
    text = f"{lack}; {me} verpufft{_kept(scenario, entry)}"
    if entry.effect.type is EffectType.PRODUCE_TW:
        text += ", es wird kein TW erzeugt"
    return text + "."


def _payment(scenario: Scenario, entry: StackEntry, event: Event) -> str:
    src = card_name(scenario, entry.source)
    text = f"{entry.by} bezahlt {tw(event.paid)}" if event.paid else f"{entry.by} bezahlt nichts"
    if event.counter_extra:
        # Erfolgreiche Abwehr: "1 TW + die Kosten des Gegners zum Ausspielen"
        target = entry_name(scenario, entry.effect.target)
        text += f" (davon {tw(event.counter_extra)} Ausspielkosten von {target})"
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
    t = _target_name(scenario, entry)
    n = effect.amount or 0
    if effect.type is EffectType.DESTROY and event.outcome is Outcome.PREVENTED:
        # Feuerwehr: "die 227er muss dennoch bezahlt und geopfert werden - für null Resultat"
        prevented = f"die Zerstörung von {t} wird durch {_cause(scenario, event)} verhindert"
        if entry.sacrifice:
            return f"{prevented} – bezahlt und geopfert wird trotzdem, für null Resultat."
        return f"{prevented}."
    if effect.type is EffectType.COUNTER:
        countered = scenario.entry(effect.target)
        if countered is not None and countered.effect.type is EffectType.PRODUCE_TW:
            # Aktionen 3) / Technologiewerte: TW-Produktion "kann nicht verhindert werden"
            return (
                f"{t} erzeugt TW, und TW-Produktion kann nicht verhindert werden: "
                "Der Konter bleibt ohne Wirkung."
            )
        if countered is not None and countered.effect.type is EffectType.DECLARE_ATTACK:
            # Flakscheinwerfer: "so findet der Angriff nicht statt"
            return f"die Angriffsdeklaration ({t}) wird gekontert, der Angriff findet nicht statt."
    if effect.type is EffectType.PRODUCE_TW and event.ignored_counter is not None:
        return (
            f"{entry.by} erhält {tw(n)}; TW-Produktion kann nicht verhindert werden, auch nicht "
            f"durch {entry_by_source(scenario, event.ignored_counter)}."
        )
    if effect.type is EffectType.OTHER:
        # one full stop, whatever dots and spaces the text was typed with („Effekttext .“)
        said = re.sub(r"[\s.]+$", "", effect.text or "").strip()
        return f"{said}." if said else "der Effekt tritt ein."
    return EFFECT_DONE_DE[effect.type].format(t=t, by=entry.by, n=n, cards=cards(n), tw=tw(n))
