"""Every rule-violation code of stack-scenarios.md, as data (never raised)."""

from __future__ import annotations

import copy

import pytest

from faq_bot.stack import ErrorCode, check, read_scenario, validate
from faq_bot.stack.titles import (
    AKTIONSKARTEN,
    AKTIONSSTAPEL,
    SCHADEN,
    TECHNOLOGIEWERTE,
)

PLAYERS = {"A": {"tw": 5}, "B": {"tw": 5}}
CARDS = [
    {"id": "radarA", "name": "Radarstation", "owner": "A", "kind": "base"},
    {"id": "bombA", "name": "227-Pfund Bombe", "owner": "A", "kind": "base"},
    {"id": "bombB", "name": "227-Pfund Bombe", "owner": "B", "kind": "base"},
    {"id": "feuerB", "name": "Feuerwehr", "owner": "B", "kind": "base"},
    {"id": "lagerB", "name": "Ölfeld", "owner": "B", "kind": "base"},
    {"id": "lockedB", "name": "Hafen", "owner": "B", "kind": "base", "locked": True},
    {"id": "scrapA", "name": "Flughafen", "owner": "A", "kind": "base", "zone": "scrap"},
    {"id": "zerstA", "name": "Zerstörer", "owner": "A", "kind": "unit"},
    {"id": "panzerB", "name": "Panzer IV", "owner": "B", "kind": "unit", "defense": 3},
    {"id": "handB", "name": "Schlachtschiff", "owner": "B", "kind": "unit", "zone": "hand"},
    {"id": "blitzA", "name": "Blitzangriff", "owner": "A", "kind": "action"},
    {"id": "playedA", "name": "Blitzangriff", "owner": "A", "kind": "action", "zone": "play"},
    {"id": "abwehrB", "name": "Erfolgreiche Abwehr", "owner": "B", "kind": "action"},
]


def entry(id: str, by: str, source: str | None, type: str, **fields) -> dict:
    effect = {"type": type}
    for key in ("target", "amount", "text"):
        if key in fields:
            effect[key] = fields.pop(key)
    return {"id": id, "by": by, "source": source, "effect": effect, **fields}


def scenario(*stack: dict, phase: str = "Bauphase", cards=None, players=None) -> dict:
    return {
        "phase": phase,
        "players": copy.deepcopy(players or PLAYERS),
        "cards": copy.deepcopy(cards or CARDS),
        "stack": list(stack),
    }


def codes(data: dict) -> list[tuple[str, str | None]]:
    return [(e.code.value, e.entry) for e in validate(read_scenario(data))]


LONG = "X" * 200  # the longest id or name the reader takes


@pytest.mark.parametrize(
    "data",
    [
        scenario(entry("s1", LONG, "bombA", "destroy", target="bombB")),
        scenario(entry("s1", "A", LONG, "draw", amount=1)),
        scenario(entry("s1", "A", "bombA", "destroy", target=LONG)),
        scenario(entry("s1", "B", "abwehrB", "counter", target=LONG)),
        scenario(cards=[*CARDS, {"id": "fremd", "name": "X", "owner": LONG, "kind": "base"}]),
    ],
    ids=["player", "source", "target_card", "target_entry", "owner"],
)
def test_an_unknown_reference_is_said_back_cut(data) -> None:
    # a probe: 200-character ids were quoted whole, messages of ~450 characters
    (error,) = validate(read_scenario(data))
    assert error.code is ErrorCode.UNKNOWN_REFERENCE
    assert "X" * 80 not in error.message and "X" * 79 + "…" in error.message


BOMB_ON_RADAR = entry("s1", "B", "bombB", "destroy", target="radarA", cost=2, sacrifice=True)

CASES = {
    "unknown_player": (
        scenario(entry("s1", "C", "bombA", "destroy", target="bombB")),
        [("unknown_reference", "s1")],
    ),
    "unknown_source": (
        scenario(entry("s1", "A", "nix", "draw", amount=1)),
        [("unknown_reference", "s1")],
    ),
    "unknown_target_card": (
        scenario(entry("s1", "A", "bombA", "destroy", target="nix")),
        [("unknown_reference", "s1")],
    ),
    "unknown_target_entry": (
        scenario(entry("s1", "B", "abwehrB", "counter", target="s9")),
        [("unknown_reference", "s1")],
    ),
    "card_owner_not_a_player": (
        scenario(
            cards=[*CARDS, {"id": "fremd", "name": "X", "owner": "Z", "kind": "base"}],
        ),
        [("unknown_reference", None)],
    ),
    "duplicate_card": (
        scenario(
            entry("s1", "A", "radarA", "draw", amount=1, cost=2),
            BOMB_ON_RADAR | {"id": "s2"},
            entry("s3", "A", "radarA", "draw", amount=1),
        ),
        [("duplicate_card", "s3")],
    ),
    "not_owner": (
        scenario(entry("s1", "A", "bombB", "destroy", target="radarA")),
        [("not_owner", "s1")],
    ),
    "source_in_scrap": (
        scenario(entry("s1", "A", "scrapA", "draw", amount=1)),
        [("source_unavailable", "s1")],
    ),
    "lock_source_already_locked": (
        scenario(entry("s1", "B", "lockedB", "draw", amount=1, lock_source=True)),
        [("source_unavailable", "s1")],
    ),
    "action_card_not_in_hand": (
        scenario(entry("s1", "A", "playedA", "destroy", target="lagerB")),
        [("source_unavailable", "s1")],
    ),
    "action_card_in_angriffsdeklarationsphase": (
        scenario(
            entry("s1", "A", "zerstA", "declare_attack"),
            entry("s2", "A", "blitzA", "destroy", target="lagerB"),
            phase="Angriffsdeklarationsphase",
        ),
        [("action_card_forbidden_in_phase", "s2")],
    ),
    "action_card_in_blockphase": (
        scenario(entry("s1", "A", "blitzA", "destroy", target="lagerB"), phase="Blockphase"),
        [("action_card_forbidden_in_phase", "s1")],
    ),
    "insufficient_tw_with_play_cost": (
        scenario(entry("s1", "A", "blitzA", "destroy", target="lagerB", cost=5, play_cost=1)),
        [("insufficient_tw", "s1")],
    ),
    "destroy_card_in_hand": (
        scenario(entry("s1", "A", "bombA", "destroy", target="handB", cost=2)),
        [("bad_target", "s1")],
    ),
    "lock_locked_card": (
        scenario(entry("s1", "A", "zerstA", "lock", target="lockedB")),
        [("bad_target", "s1")],
    ),
    "unlock_card_in_scrap": (
        scenario(entry("s1", "A", "zerstA", "unlock", target="scrapA")),
        [("bad_target", "s1")],
    ),
    "damage_card_in_hand": (
        scenario(entry("s1", "A", "zerstA", "damage", target="handB", amount=1)),
        [("bad_target", "s1")],
    ),
    "prevent_damage_card_in_scrap": (
        scenario(entry("s1", "A", "zerstA", "prevent_damage", target="scrapA", amount=1)),
        [("bad_target", "s1")],
    ),
    "discard_card_in_play": (
        scenario(entry("s1", "A", "blitzA", "discard", target="lagerB")),
        [("bad_target", "s1")],
    ),
    "protect_itself": (
        scenario(entry("s1", "B", "feuerB", "protect", target="feuerB")),
        [("bad_target", "s1")],
    ),
    "protect_a_unit": (
        scenario(entry("s1", "B", "feuerB", "protect", target="panzerB")),
        [("bad_target", "s1")],
    ),
    "protect_opponents_base": (
        scenario(entry("s1", "B", "feuerB", "protect", target="radarA")),
        [("bad_target", "s1")],
    ),
    "counter_entry_above": (
        scenario(
            entry("s1", "B", "abwehrB", "counter", target="s2"),
            entry("s2", "A", "blitzA", "destroy", target="lagerB"),
        ),
        [("bad_target", "s1")],
    ),
    "counter_itself": (
        scenario(entry("s1", "B", "abwehrB", "counter", target="s1")),
        [("bad_target", "s1")],
    ),
    "declaration_as_reaction": (
        scenario(
            entry("s1", "B", "bombB", "destroy", target="radarA", cost=2),
            entry("s2", "A", "zerstA", "declare_attack"),
            phase="Angriffsdeklarationsphase",
        ),
        [("declaration_not_reaction", "s2")],
    ),
    "declaration_outside_its_phase": (
        scenario(entry("s1", "A", None, "declare_attack"), phase="Bauphase"),
        [("declaration_not_reaction", "s1")],
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_validate_reports_violation(name: str) -> None:
    data, want = CASES[name]
    assert codes(data) == want


def test_validate_table_covers_every_error_code() -> None:
    seen = {code for _, want in CASES.values() for code, _ in want}
    assert seen == {c.value for c in ErrorCode}


def test_validate_error_messages_are_german_and_name_the_entry() -> None:
    for name, (data, _) in CASES.items():
        for error in validate(read_scenario(data)):
            assert error.message, name
            if error.entry is not None:  # "Eintrag N", never the bare id
                ids = [e["id"] for e in data["stack"]]
                number = ids.index(error.entry) + 1
                assert error.message.startswith(f"Eintrag {number}: "), name


@pytest.mark.parametrize(
    ("data", "cited"),
    [
        # by the violation's code: the example of Aktionsstapel and Technologiewerte
        (
            scenario(entry("s1", "A", "bombA", "destroy", target="radarA", cost=9)),
            (AKTIONSSTAPEL, TECHNOLOGIEWERTE),
        ),
        # a wrong target by the effect's rule, else by the source card's own entry
        (scenario(entry("s1", "B", "feuerB", "damage", target="panzerB", amount=1)), (SCHADEN,)),
        (scenario(entry("s1", "B", "feuerB", "protect", target="feuerB")), ("Feuerwehr",)),
        # an unavailable source by why it is unavailable
        (scenario(entry("s1", "A", "playedA", "draw", amount=1)), (AKTIONSKARTEN,)),
    ],
    ids=["insufficient-tw", "own-damage", "protect-itself", "action-card-played"],
)
def test_validate_alone_decides_the_faq_entries_an_error_cites(data, cited) -> None:
    """One place decides what an error cites (a review: validate and resolve both did)."""
    assert validate(read_scenario(data))[0].cites == cited


@pytest.mark.parametrize(
    "data",
    [
        # the spec's own example: A's radar and A's bomb each cost 2 of A's 3 TW
        scenario(
            entry("s1", "A", "radarA", "draw", amount=1, cost=2, lock_source=True),
            BOMB_ON_RADAR | {"id": "s2"},
            entry("s3", "A", "bombA", "destroy", target="bombB", cost=2, sacrifice=True),
            players={"A": {"tw": 3}, "B": {"tw": 2}},
        ),
        # an action card may be played in the Schadenverteilungsphase
        scenario(
            entry("s1", "A", "blitzA", "destroy", target="lagerB"),
            phase="Schadenverteilungsphase",
        ),
        # an attack declaration at the bottom, answered by an ability
        scenario(
            entry("s1", "A", None, "declare_attack"),
            entry("s2", "B", "bombB", "destroy", target="radarA", cost=2),
            phase="Angriffsdeklarationsphase",
        ),
        # discarding an announced action card: it is still in its owner's hand
        scenario(
            entry("s1", "A", "blitzA", "destroy", target="lagerB"),
            entry("s2", "B", "abwehrB", "discard", target="blitzA"),
        ),
        scenario(),  # an empty stack is legal
    ],
    ids=[
        "pending_costs_do_not_count",
        "action_card_in_damage_phase",
        "declaration_at_bottom",
        "discard_announced_action_card",
        "empty_stack",
    ],
)
def test_validate_accepts_legal_stack(data: dict) -> None:
    assert codes(data) == []


def test_validate_illegal_scenario_gives_no_steps_and_no_final_state() -> None:
    result = check(CASES["not_owner"][0])
    assert not result.ok
    assert result.steps == () and result.order == ()
    assert result.end_of_phase is None and result.final is None


def test_validate_reports_several_violations_in_stack_order() -> None:
    data = scenario(
        entry("s1", "A", "bombB", "destroy", target="handB", cost=9),
        entry("s2", "C", "bombB", "destroy", target="radarA"),
    )
    assert codes(data) == [
        ("not_owner", "s1"),
        ("insufficient_tw", "s1"),
        ("bad_target", "s1"),
        ("unknown_reference", "s2"),
        ("duplicate_card", "s2"),
    ]


def test_validate_damage_on_own_card_is_bad_target() -> None:
    """FAQ Schaden: "Es darf NIE Schaden auf eigene … Karten verteilt werden" (2026-11-23)."""
    own = scenario(entry("s1", "B", "abwehrB", "damage", target="panzerB", amount=1))
    assert codes(own) == [("bad_target", "s1")]
    (error,) = validate(read_scenario(own))
    assert "eigene Karten" in error.message
    other = scenario(entry("s1", "A", "zerstA", "damage", target="panzerB", amount=1))
    assert codes(other) == []


def test_validate_counter_needs_tw_for_the_countered_play_cost() -> None:
    """Erfolgreiche Abwehr costs "1 TW + die Kosten des Gegners" (2026-11-23)."""
    blitz = entry("s1", "A", "blitzA", "destroy", target="lagerB", play_cost=1, cost=2)
    abwehr = entry("s2", "B", "abwehrB", "counter", target="s1", play_cost=1)
    short = scenario(blitz, abwehr, players={"A": {"tw": 5}, "B": {"tw": 1}})
    assert codes(short) == [("insufficient_tw", "s2")]
    (error,) = validate(read_scenario(short))
    assert "kostet aber 2 TW" in error.message and "Ausspielkosten" in error.message
    enough = scenario(blitz, abwehr, players={"A": {"tw": 5}, "B": {"tw": 2}})
    assert codes(enough) == []


def test_an_entry_picked_as_a_card_s_target_is_named_as_the_form_names_it() -> None:
    # the form offers cards and entries in one list; "Zielkarte „s1“" named an internal id
    data = scenario(
        BOMB_ON_RADAR,
        entry("s2", "A", "bombA", "destroy", target="s1", cost=2, sacrifice=True),
    )
    errors = validate(read_scenario(data))
    assert [(e.code.value, e.entry) for e in errors] == [("unknown_reference", "s2")]
    assert "Eintrag 1 im Aktionsstapel" in errors[0].message
    assert "„zerstören“ zielt auf eine Karte" in errors[0].message
    assert "„s1“" not in errors[0].message
