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
            # named as the checker names it: the scenario has two bombs
            "Eintrag 1: Laut FAQ zielt 227-Pfund Bombe von B auf einen Basisausbau; Infanterie "
            "ist eine Einheit.",
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
            "Laut FAQ zielt Zerstörer von B auf einen Basisausbau",
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


def test_an_illegal_stack_keeps_the_hints_of_its_other_entries_without_resolving_them():
    checked = result(
        entry("s1", "B", "bombB", "destroy", target="infA", cost=2, sacrifice=True),
        entry("s2", "B", "feuerB", "protect", target="feuerB"),
    )
    assert not checked["ok"]
    [hint] = checked["hints"]
    assert hint["entry"] == "s1"
    assert hint["message"] == (
        "Eintrag 1: Laut FAQ zielt 227-Pfund Bombe von B auf einen Basisausbau; Infanterie ist "
        "eine Einheit."  # an illegal stack is not resolved: nothing "abgehandelt"
    )


def test_a_counter_of_an_entry_without_a_source_card_says_so():
    checked = result(
        entry("s1", "A", None, "declare_attack"),
        entry("s2", "B", "abwehrB", "counter", target="s1", cost=1),
    )
    [hint] = checked["hints"]
    assert (
        "kontert Erfolgreiche Abwehr eine Aktionskarte; Eintrag 1 hat keine Quellkarte."
        in (hint["message"])
    )


def test_a_counter_of_an_unknown_source_is_an_error_not_a_hint():
    ghost = entry("s1", "A", "ghost", "draw", amount=1)
    checked = result(ghost, entry("s2", "B", "abwehrB", "counter", target="s1", cost=1))
    assert "unknown_reference" in [e["code"] for e in checked["errors"]]
    assert checked["hints"] == []


def test_a_hint_names_the_card_as_the_scenario_does():
    """Every text of the checker names a card as the scenario does ("227er")."""
    data = scenario(
        entry("s1", "B", "b227", "destroy", target="infA", cost=2, sacrifice=True),
        cards=[*CARDS, *MORE, {"id": "b227", "name": "227er", "owner": "B", "kind": "base"}],
    )
    [hint] = result_to_json(check(data, RULES))["hints"]
    assert hint["message"].startswith("Eintrag 1: Laut FAQ zielt 227er auf einen Basisausbau;")
    assert hint["rules"] == ["227-pfund-bombe-basisausbau"]


def test_the_step_of_an_entry_against_its_cards_entry_does_not_cite_that_entry():
    """The entry says otherwise: the hint cites it, the step's justification does not."""
    bomb = entry("s1", "B", "bombB", "destroy", target="infA", cost=2, sacrifice=True)
    [step] = result(bomb)["steps"]
    assert "227-pfund-bombe-basisausbau" not in step["rules"]
    on_base = entry("s1", "B", "bombB", "destroy", target="radarA", cost=2, sacrifice=True)
    [step] = result(on_base)["steps"]
    assert "227-pfund-bombe-basisausbau" in step["rules"]


def test_a_card_named_like_a_catalog_card_but_none_gets_a_hint_citing_the_one_meant():
    """A phone review: „Flakbaterie“ (a slip), its Kartenart chosen by hand as the form asked,
    resolved with „A bezahlt nichts“ though the Flakbatterie costs 1 TW; the result and its
    share link said nothing of the catalog."""
    data = scenario(
        entry("s1", "A", "flakA", "other", text="Flak"),
        cards=[*CARDS, {"id": "flakA", "name": "Flakbaterie", "owner": "A", "kind": "base"}],
    )
    rules = {**RULES, "Flakbatterie": "flakbatterie-basisausbau"}
    checked = result_to_json(check(data, rules))
    assert checked["ok"]
    [hint] = checked["hints"]
    assert hint["message"] == (
        "Eintrag 1: „Flakbaterie“ steht nicht im Kartenkatalog (meinten Sie „Flakbatterie“?). "
        "Gerechnet wird nur mit den Angaben im Szenario, nicht mit denen der Karte im Katalog: "
        "Kosten ohne Angabe sind 0."
    )
    assert hint["rules"] == ["flakbatterie-basisausbau"]  # the FAQ entry of the card meant
    # a card of its own, named like none of the catalog's: no hint
    own = scenario(
        entry("s1", "A", "ownA", "other", text="Eigenes"),
        cards=[*CARDS, {"id": "ownA", "name": "Schachbrett", "owner": "A", "kind": "base"}],
    )
    assert result_to_json(check(own, RULES))["hints"] == []
