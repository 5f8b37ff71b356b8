"""What a card's FAQ entry says about its target where the contract's rules allow more
(`faq_bot.stack.hints`): said beside the result, never an error (stack-scenarios.md)."""

from __future__ import annotations

import pytest
from test_stack_resolve import RULES
from test_stack_validate import CARDS, entry, scenario

from faq_bot.stack import check, result_to_json

# cards the FAQ entries aim at one kind only, next to targets of another kind
MORE = [
    {"id": "zerstB", "name": "Zerstörer", "owner": "B", "kind": "unit"},
    {"id": "infA", "name": "Infanterie", "owner": "A", "kind": "unit"},
    {"id": "flakA", "name": "Flakscheinwerfer", "owner": "A", "kind": "land"},
]
RADAR = entry("s1", "A", "radarA", "draw", amount=1, cost=2, lock_source=True)


def result(*stack: dict) -> dict:
    return result_to_json(check(scenario(*stack, cards=[*CARDS, *MORE]), RULES))


@pytest.mark.parametrize(
    ("stack", "message", "rules"),
    [
        # "Die 227-Pfund Bombe …": a Basisausbau, never a unit (a QA review: resolved silently)
        (
            [entry("s1", "B", "bombB", "destroy", target="infA", cost=2, sacrifice=True)],
            "Eintrag 1: Laut FAQ zielt 227-Pfund Bombe auf einen Basisausbau; Infanterie ist "
            "eine Einheit.",
            ["227-pfund-bombe-basisausbau"],
        ),
        (
            [entry("s1", "B", "bombB", "destroy", target="flakA", cost=2, sacrifice=True)],
            "Flakscheinwerfer ist ein Landausbau.",
            ["227-pfund-bombe-basisausbau"],
        ),
        # Zerstörer: "einen gegnerischen Basisausbau zu sperren"
        (
            [entry("s1", "B", "zerstB", "lock", target="infA")],
            "Laut FAQ zielt Zerstörer auf einen Basisausbau",
            ["zerstoerer"],
        ),
        # Erfolgreiche Abwehr counters "eine andere Aktionskarte", not a base's ability
        (
            [RADAR, entry("s2", "B", "abwehrB", "counter", target="s1", cost=1)],
            "Eintrag 2: Laut FAQ kontert Erfolgreiche Abwehr eine Aktionskarte; Eintrag 1 "
            "(Radarstation) stammt von einem Basisausbau.",
            ["erfolgreiche-abwehr-aktionskarte"],
        ),
    ],
    ids=["bomb-on-unit", "bomb-on-land", "destroyer-locks-unit", "abwehr-counters-base"],
)
def test_a_target_the_cards_faq_entry_rules_out_gets_a_hint_citing_it(stack, message, rules):
    checked = result(*stack)
    assert checked["ok"]  # the contract's rules allow it: resolved as given
    assert checked["steps"]
    [hint] = checked["hints"]
    assert message in hint["message"]
    assert hint["message"].endswith("Abgehandelt wird der Eintrag wie angegeben.")
    assert hint["rules"] == rules
    assert hint["entry"] == stack[-1]["id"]


@pytest.mark.parametrize(
    "stack",
    [
        # what the FAQ describes
        [entry("s1", "B", "bombB", "destroy", target="radarA", cost=2, sacrifice=True)],
        [entry("s1", "B", "zerstB", "lock", target="radarA")],
        [
            entry("s1", "A", "blitzA", "destroy", target="lagerB"),
            entry("s2", "B", "abwehrB", "counter", target="s1", cost=1),
        ],
        # a card used otherwise than its entry describes: its entry says nothing about it
        [entry("s1", "B", "bombB", "other", text="Hausregel")],
        # a card the catalog does not know
        [entry("s1", "B", "panzerB", "damage", target="infA", amount=1)],
    ],
    ids=["bomb-on-base", "destroyer-locks-base", "abwehr-counters-action", "other", "unknown"],
)
def test_a_target_the_faq_allows_gets_no_hint(stack):
    assert result(*stack)["hints"] == []


def test_a_target_the_contract_rules_out_is_an_error_not_also_a_hint():
    checked = result(entry("s1", "B", "feuerB", "protect", target="feuerB"))
    assert [e["code"] for e in checked["errors"]] == ["bad_target"]
    assert checked["hints"] == []


def test_an_illegal_stack_keeps_the_hints_of_its_other_entries():
    checked = result(
        entry("s1", "B", "bombB", "destroy", target="infA", cost=2, sacrifice=True),
        entry("s2", "B", "feuerB", "protect", target="feuerB"),
    )
    assert not checked["ok"]
    assert [h["entry"] for h in checked["hints"]] == ["s1"]
