"""Resolve a legal stack last-in first-out, the way the FAQ entry Aktionsstapel says.

`resolve(scenario, rules)` validates first; an illegal scenario comes back as a
`Result` with its errors and no steps. Otherwise every entry, from the top of
the stack down, goes through the steps of `stack-scenarios.md`:

1. source gone -> fizzled (`source_gone`)        (not for `produce_tw`)
2. `lock_source` and source locked meanwhile -> fizzled (`source_locked`)
3. target gone or no longer legal -> fizzled (`target_gone`)
4. countered by an earlier-resolved `counter` -> countered (pays `play_cost` only)
5. pay `cost` + `play_cost` (a counter also its target's `play_cost`), or fizzle
   (`cannot_pay`); then lock / sacrifice / scrap the source and apply the effect,
   `prevented` when a `protect` shields the target of a `destroy`.

Damage is only recorded and settled at the end of the phase. The function is
pure: the scenario is never changed, and `rules` (rule title -> corpus entry
id, see `faq_bot.stack.rules`) only decorates the steps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from faq_bot.stack.catalog import CatalogCard, find_card, load_catalog
from faq_bot.stack.explain import Event, explain_step
from faq_bot.stack.hints import hints, off_target
from faq_bot.stack.model import (
    CardState,
    EffectType,
    EndOfPhase,
    FinalState,
    Kind,
    Outcome,
    PlayerState,
    Reason,
    Result,
    Scenario,
    StackEntry,
    Step,
    Zone,
)
from faq_bot.stack.titles import (
    ABWERFEN,
    AKTIONEN,
    AKTIONSKARTEN,
    AKTIONSSTAPEL,
    ANGRIFFSDEKLARATIONSPHASE,
    GENERAL_RULE_TITLES,
    OPFERN,
    SCHADEN,
    SPERREN,
    TECHNOLOGIEWERTE,
)
from faq_bot.stack.validate import validate


def rule_titles(catalog: tuple[CatalogCard, ...] | None = None) -> tuple[str, ...]:
    """Every rule title a step can cite: the general ones and each catalog card's entry."""
    cards = load_catalog() if catalog is None else catalog
    titles = list(GENERAL_RULE_TITLES)
    for card in cards:
        if card.faq and card.faq not in titles:
            titles.append(card.faq)
    return tuple(titles)


@dataclass
class _State:
    """The changing part of a scenario while its stack resolves (local to `resolve`)."""

    zone: dict[str, Zone]
    locked: dict[str, bool]
    tw: dict[str, int]
    drawn: dict[str, int]
    countered: dict[str, str] = field(default_factory=dict)  # entry -> counter entry
    protected: dict[str, str] = field(default_factory=dict)  # card -> protect entry
    scrapped_by: dict[str, str] = field(default_factory=dict)  # card -> entry that did it
    locked_by: dict[str, str] = field(default_factory=dict)  # card -> entry that did it
    damage: dict[str, int] = field(default_factory=dict)
    prevented: dict[str, int] = field(default_factory=dict)

    def scrap(self, card: str, by: str) -> None:
        if self.zone[card] is not Zone.SCRAP:
            self.zone[card] = Zone.SCRAP
            self.locked[card] = False  # nothing lies locked on the scrap pile
            self.scrapped_by[card] = by


def resolve(
    scenario: Scenario,
    rules: Mapping[str, str] | None = None,
    catalog: tuple[CatalogCard, ...] | None = None,
) -> Result:
    """Validate, then resolve the stack LIFO. `rules` maps rule titles to entry ids;
    `catalog` (the shipped one by default) names the cards' FAQ entries and gives the
    `hints` of a legal or illegal stack."""
    cards = load_catalog() if catalog is None else catalog
    errors = validate(scenario, cards)
    rules = rules or {}
    found = tuple(replace(h, rules=_ids(h.cites, rules)) for h in hints(scenario, cards, errors))
    if errors:
        return Result(
            errors=tuple(replace(e, rules=_ids(e.cites, rules)) for e in errors), hints=found
        )
    state = _State(
        zone={c.id: c.zone for c in scenario.cards},
        locked={c.id: c.locked for c in scenario.cards},
        tw={p.name: p.tw for p in scenario.players},
        drawn={p.name: 0 for p in scenario.players},
    )
    steps = []
    for entry in reversed(scenario.stack):
        event = _resolve_entry(scenario, entry, state)
        steps.append(
            Step(
                entry=entry.id,
                outcome=event.outcome,
                reason=event.reason,
                paid=event.paid,
                explanation=explain_step(scenario, entry, event),
                rules=_rule_ids(scenario, entry, event, rules, cards),
            )
        )
    end = _end_of_phase(scenario, state)
    final = FinalState(
        players=tuple(
            PlayerState(p.name, state.tw[p.name], state.drawn[p.name]) for p in scenario.players
        ),
        cards=tuple(CardState(c.id, state.zone[c.id], state.locked[c.id]) for c in scenario.cards),
    )
    return Result(
        errors=(),
        order=tuple(e.id for e in reversed(scenario.stack)),
        steps=tuple(steps),
        end_of_phase=end,
        final=final,
        hints=found,
    )


def _resolve_entry(scenario: Scenario, entry: StackEntry, st: _State) -> Event:
    effect = entry.effect
    source = scenario.card(entry.source)
    kind = effect.type

    def fizzle(
        reason: Reason,
        cause: str | None = None,
        needed: int = 0,
        available: int = 0,
        target_state: str | None = None,
    ) -> Event:
        return Event(
            Outcome.FIZZLED,
            reason,
            paid=0,
            cause=cause,
            needed=needed,
            available=available,
            target_state=target_state,
        )

    if kind is not EffectType.PRODUCE_TW:
        # 1. the source must still exist
        if source is not None and st.zone[source.id] is Zone.SCRAP:
            return fizzle(Reason.SOURCE_GONE, st.scrapped_by.get(source.id))
        # 2. a source that is to be locked must not have been locked meanwhile
        if source is not None and entry.lock_source and st.locked[source.id]:
            return fizzle(Reason.SOURCE_LOCKED, st.locked_by.get(source.id))
        # 3. the target must still be there and legal
        gone = _target_gone(scenario, entry, st)
        if gone is not None:
            took, state = gone
            return fizzle(Reason.TARGET_GONE, took or None, target_state=state)
        # 4. countered: only the play cost is paid, the effect does not happen
        if entry.id in st.countered:
            if st.tw[entry.by] < entry.play_cost:
                return fizzle(
                    Reason.CANNOT_PAY,
                    st.countered[entry.id],
                    needed=entry.play_cost,
                    available=st.tw[entry.by],
                )
            st.tw[entry.by] -= entry.play_cost
            scrapped = source is not None and source.kind is Kind.ACTION
            if scrapped and source is not None:
                st.scrap(source.id, entry.id)
            return Event(
                Outcome.COUNTERED,
                None,
                paid=entry.play_cost,
                cause=st.countered[entry.id],
                discarded_source=scrapped,
            )

    # 5. pay, then lock / sacrifice / scrap the source, then the effect
    needed = entry.cost + entry.play_cost
    extra = 0
    if kind is EffectType.COUNTER:
        target_entry = scenario.entry(effect.target)
        extra = target_entry.play_cost if target_entry is not None else 0
        needed += extra
    if st.tw[entry.by] < needed:
        return fizzle(Reason.CANNOT_PAY, needed=needed, available=st.tw[entry.by])
    st.tw[entry.by] -= needed

    locked_source = sacrificed = discarded_source = False
    if source is not None and st.zone[source.id] is not Zone.SCRAP:
        if entry.lock_source:
            st.locked[source.id] = True
            st.locked_by[source.id] = entry.id
            locked_source = True
        if entry.sacrifice:
            st.scrap(source.id, entry.id)
            sacrificed = True
        elif source.kind is Kind.ACTION:
            st.scrap(source.id, entry.id)
            discarded_source = True

    outcome, cause = _apply(entry, st)
    return Event(
        outcome,
        None,
        paid=needed,
        cause=cause,
        locked_source=locked_source,
        sacrificed=sacrificed,
        discarded_source=discarded_source,
        counter_extra=extra,
        ignored_counter=st.countered.get(entry.id) if kind is EffectType.PRODUCE_TW else None,
    )


def _target_gone(scenario: Scenario, entry: StackEntry, st: _State) -> tuple[str, str] | None:
    """None if the target is still legal; else (the entry that took it or "", why).

    Why: "scrap" (the target card, or the countered entry's source, is on the scrap
    pile), "locked" (a lock's target is locked already, whatever locked it) or
    "countered" (a counter's target entry is countered already).
    """
    effect = entry.effect
    if effect.type is EffectType.COUNTER:
        target = scenario.entry(effect.target)
        if target is None:
            return "", "scrap"
        if target.id in st.countered:
            return st.countered[target.id], "countered"
        if (
            target.source is not None
            and target.effect.type is not EffectType.PRODUCE_TW
            and st.zone[target.source] is Zone.SCRAP
        ):
            return st.scrapped_by.get(target.source, ""), "scrap"
        return None
    if effect.target is None:
        return None
    card = effect.target
    if st.zone[card] is Zone.SCRAP:
        return st.scrapped_by.get(card, ""), "scrap"
    if effect.type is EffectType.LOCK and st.locked[card]:
        return st.locked_by.get(card, ""), "locked"
    return None


def _apply(entry: StackEntry, st: _State) -> tuple[Outcome, str | None]:
    effect = entry.effect
    target = effect.target
    amount = effect.amount or 0
    if target is not None and effect.type is not EffectType.COUNTER:
        if st.zone[target] is Zone.SCRAP:
            # the entry's own sacrifice took its target with it: nothing left to act on
            return Outcome.RESOLVED, None
    match effect.type:
        case EffectType.DESTROY:
            assert target is not None
            if target in st.protected:
                return Outcome.PREVENTED, st.protected[target]
            st.scrap(target, entry.id)
        case EffectType.LOCK:
            assert target is not None
            st.locked[target] = True
            st.locked_by[target] = entry.id
        case EffectType.UNLOCK:
            assert target is not None
            st.locked[target] = False
        case EffectType.DISCARD:
            assert target is not None
            st.scrap(target, entry.id)
        case EffectType.COUNTER:
            assert target is not None
            st.countered[target] = entry.id
        case EffectType.PROTECT:
            assert target is not None
            st.protected.setdefault(target, entry.id)
        case EffectType.DRAW:
            st.drawn[entry.by] += amount
        case EffectType.PRODUCE_TW:
            st.tw[entry.by] += amount
        case EffectType.DAMAGE:
            assert target is not None
            st.damage[target] = st.damage.get(target, 0) + amount
        case EffectType.PREVENT_DAMAGE:
            assert target is not None
            st.prevented[target] = st.prevented.get(target, 0) + amount
        case EffectType.DECLARE_ATTACK | EffectType.OTHER:
            pass
    return Outcome.RESOLVED, None


def _end_of_phase(scenario: Scenario, st: _State) -> EndOfPhase:
    damage = []
    destroyed = []
    for card in scenario.cards:
        if card.id not in st.damage:
            continue
        net = max(0, st.damage[card.id] - st.prevented.get(card.id, 0))
        damage.append((card.id, net))
        if (
            card.defense is not None
            and net > 0
            and net >= card.defense
            and st.zone[card.id] is not Zone.SCRAP
        ):
            st.zone[card.id] = Zone.SCRAP
            st.locked[card.id] = False
            destroyed.append(card.id)
    return EndOfPhase(damage=tuple(damage), destroyed=tuple(destroyed))


def _rule_ids(
    scenario: Scenario,
    entry: StackEntry,
    event: Event,
    rules: Mapping[str, str],
    catalog: tuple[CatalogCard, ...],
) -> tuple[str, ...]:
    titles = [AKTIONSSTAPEL]
    source = scenario.card(entry.source)

    def card_entry(of: StackEntry | None) -> None:
        """The FAQ entry of the card behind `of`, if it speaks to what `of` does here."""
        card_source = scenario.card(of.source) if of is not None else None
        card = find_card(card_source.name, catalog) if card_source is not None else None
        if card is None or not card.faq or of is None:
            return
        if off_target(scenario, of, card):
            # e.g. Erfolgreiche Abwehr counters an action card, never a bomb's ability: the
            # entry does not justify this step (its hint cites it, `faq_bot.stack.hints`)
            return
        titles.append(card.faq)

    if source is not None:
        if source.kind is Kind.ACTION:
            titles.append(AKTIONSKARTEN)
        card_entry(entry)
    if event.cause is not None:
        cause = scenario.entry(event.cause)
        if cause is not None:
            card_entry(cause)
            if cause.effect.type is EffectType.DISCARD:
                titles.append(ABWERFEN)
    kind = entry.effect.type
    if event.sacrificed:
        titles.append(OPFERN)
    if event.reason is Reason.CANNOT_PAY:
        titles.append(TECHNOLOGIEWERTE)
    elif kind is EffectType.PRODUCE_TW or (
        kind is EffectType.COUNTER
        and event.outcome is Outcome.RESOLVED
        and _counters_production(scenario, entry)
    ):
        # "Werden durch eine Aktion TW produziert, so kann dies nicht verhindert werden."
        # - said of a production that happens, never of one that could not be paid
        titles += [AKTIONEN, TECHNOLOGIEWERTE]
    if kind in (EffectType.LOCK, EffectType.UNLOCK) or event.target_state == "locked":
        titles.append(SPERREN)
    if kind in (EffectType.DAMAGE, EffectType.PREVENT_DAMAGE):
        titles += [AKTIONEN, SCHADEN]
    if kind is EffectType.DISCARD:
        titles.append(ABWERFEN)
    if kind is EffectType.DECLARE_ATTACK:
        titles.append(ANGRIFFSDEKLARATIONSPHASE)
    return _ids(titles, rules)


def _ids(titles: Sequence[str], rules: Mapping[str, str]) -> tuple[str, ...]:
    """The entry ids of the rule `titles` the corpus has, in order, each once."""
    return tuple(dict.fromkeys(rules[t] for t in titles if t in rules))


def _counters_production(scenario: Scenario, entry: StackEntry) -> bool:
    countered = scenario.entry(entry.effect.target)
    return countered is not None and countered.effect.type is EffectType.PRODUCE_TW
