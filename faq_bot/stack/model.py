"""The values the scenario checker passes around: immutable, hashable, no behaviour.

A `Scenario` is what `read_scenario` makes of the JSON contract in
`stack-scenarios.md`; a `Result` is what `resolve` gives back. Both are plain
frozen dataclasses and enums, so the same scenario always compares equal and
always resolves to an equal result.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Phase(StrEnum):
    """The phases of a round, as the FAQ entry Phasen names them."""

    KARTENZIEHPHASE = "Kartenziehphase"
    BASISAUSBAUPHASE = "Basisausbauphase"
    BAUPHASE = "Bauphase"
    VERLEGUNGSPHASE = "Verlegungsphase"
    ANGRIFFSDEKLARATIONSPHASE = "Angriffsdeklarationsphase"
    BLOCKPHASE = "Blockphase"
    SCHADENVERTEILUNGSPHASE = "Schadenverteilungsphase"
    RUECKZUGSPHASE = "Rückzugsphase"
    SIEGPHASE = "Siegphase"
    ENDPHASE = "Endphase"


#: Phases in which action cards may not be played (FAQ: Aktionen, Aktionskarten).
NO_ACTION_CARD_PHASES = frozenset({Phase.ANGRIFFSDEKLARATIONSPHASE, Phase.BLOCKPHASE})


class Kind(StrEnum):
    BASE = "base"  # Basisausbau
    LAND = "land"  # Landausbau
    UNIT = "unit"  # Einheit
    ACTION = "action"  # Aktionskarte
    COUNTRY = "country"  # Länderkarte


class Zone(StrEnum):
    HAND = "hand"
    PLAY = "play"
    SCRAP = "scrap"  # Schrottplatz


class EffectType(StrEnum):
    DESTROY = "destroy"
    LOCK = "lock"
    UNLOCK = "unlock"
    DISCARD = "discard"
    COUNTER = "counter"
    PROTECT = "protect"
    DRAW = "draw"
    PRODUCE_TW = "produce_tw"
    DAMAGE = "damage"
    PREVENT_DAMAGE = "prevent_damage"
    DECLARE_ATTACK = "declare_attack"
    OTHER = "other"


#: Effects whose `target` is a card id (for `counter` it is an entry id).
CARD_TARGET_EFFECTS = frozenset(
    {
        EffectType.DESTROY,
        EffectType.LOCK,
        EffectType.UNLOCK,
        EffectType.DISCARD,
        EffectType.PROTECT,
        EffectType.DAMAGE,
        EffectType.PREVENT_DAMAGE,
    }
)
#: Effects that need an `amount`.
AMOUNT_EFFECTS = frozenset(
    {EffectType.DRAW, EffectType.PRODUCE_TW, EffectType.DAMAGE, EffectType.PREVENT_DAMAGE}
)
#: Card-target effects whose target must be in play.
IN_PLAY_TARGET_EFFECTS = CARD_TARGET_EFFECTS - {EffectType.DISCARD}


class Outcome(StrEnum):
    RESOLVED = "resolved"
    PREVENTED = "prevented"
    COUNTERED = "countered"
    FIZZLED = "fizzled"


class Reason(StrEnum):
    SOURCE_GONE = "source_gone"
    SOURCE_LOCKED = "source_locked"
    TARGET_GONE = "target_gone"
    CANNOT_PAY = "cannot_pay"


class ErrorCode(StrEnum):
    UNKNOWN_REFERENCE = "unknown_reference"
    DUPLICATE_CARD = "duplicate_card"
    NOT_OWNER = "not_owner"
    SOURCE_UNAVAILABLE = "source_unavailable"
    ACTION_CARD_FORBIDDEN_IN_PHASE = "action_card_forbidden_in_phase"
    INSUFFICIENT_TW = "insufficient_tw"
    BAD_TARGET = "bad_target"
    DECLARATION_NOT_REACTION = "declaration_not_reaction"


@dataclass(frozen=True)
class Player:
    name: str
    tw: int


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    owner: str
    kind: Kind
    zone: Zone
    locked: bool = False
    defense: int | None = None


@dataclass(frozen=True)
class Effect:
    type: EffectType
    target: str | None = None  # a card id, or an entry id for `counter`
    amount: int | None = None
    text: str | None = None  # only for `other`


@dataclass(frozen=True)
class StackEntry:
    id: str
    by: str
    source: str | None
    effect: Effect
    cost: int = 0
    play_cost: int = 0
    sacrifice: bool = False
    lock_source: bool = False


@dataclass(frozen=True)
class Scenario:
    """A whole scenario; `stack` is in announcement order (index 0 is the bottom)."""

    phase: Phase
    players: tuple[Player, ...]
    cards: tuple[Card, ...]
    stack: tuple[StackEntry, ...]

    def player(self, name: str) -> Player | None:
        return next((p for p in self.players if p.name == name), None)

    def card(self, card_id: str | None) -> Card | None:
        return next((c for c in self.cards if c.id == card_id), None)

    def entry(self, entry_id: str | None) -> StackEntry | None:
        return next((e for e in self.stack if e.id == entry_id), None)


@dataclass(frozen=True)
class Error:
    """A rule the stack breaks; `entry` is the stack entry id, or None for a card;
    `cites`: the titles of the FAQ entries that state it (`validate` decides them);
    `rules`: the ids of those the corpus has (`resolve` looks them up)."""

    code: ErrorCode
    entry: str | None
    message: str
    cites: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class Hint:
    """What a card's FAQ entry says about an entry that the contract's rules still allow
    (`faq_bot.stack.hints`): `entry` is the stack entry id; `cites` the titles of the FAQ
    entries that say it; `rules` the ids of those the corpus has (`resolve` looks them up)."""

    entry: str
    message: str
    cites: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class Step:
    entry: str
    outcome: Outcome
    reason: Reason | None
    paid: int
    explanation: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class PlayerState:
    name: str
    tw: int
    drawn: int


@dataclass(frozen=True)
class CardState:
    id: str
    zone: Zone
    locked: bool


@dataclass(frozen=True)
class EndOfPhase:
    damage: tuple[tuple[str, int], ...]  # (card id, damage minus prevented damage)
    destroyed: tuple[str, ...]


@dataclass(frozen=True)
class FinalState:
    players: tuple[PlayerState, ...]
    cards: tuple[CardState, ...]


@dataclass(frozen=True)
class Result:
    """The checker's answer. An illegal scenario has `errors`, no steps and no final state."""

    errors: tuple[Error, ...]
    order: tuple[str, ...] = ()
    steps: tuple[Step, ...] = ()
    end_of_phase: EndOfPhase | None = None
    final: FinalState | None = None
    hints: tuple[Hint, ...] = ()  # legal or not: what the cards' FAQ entries say besides

    @property
    def ok(self) -> bool:
        return not self.errors
