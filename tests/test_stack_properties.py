"""Property tests over generated legal stacks and arbitrary (mostly broken) input."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from faq_bot.stack import (
    ScenarioFormatError,
    check,
    decode_permalink,
    encode_permalink,
    read_scenario,
    result_to_json,
    scenario_to_json,
    validate,
)

PLAYERS = ("A", "B")


@st.composite
def legal_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """A scenario whose stack could have been announced (the generator must get this right)."""
    tw = {p: draw(st.integers(0, 8)) for p in PLAYERS}
    cards: list[dict[str, Any]] = []
    for p in PLAYERS:
        for i in range(draw(st.integers(1, 4))):
            cards.append(
                {
                    "id": f"{p}base{i}",
                    "name": "Basis",
                    "owner": p,
                    "kind": "base",
                    "locked": draw(st.booleans()),
                }
            )
        for i in range(draw(st.integers(0, 2))):
            cards.append(
                {
                    "id": f"{p}unit{i}",
                    "name": "Einheit",
                    "owner": p,
                    "kind": "unit",
                    "defense": draw(st.integers(1, 4)),
                    "locked": draw(st.booleans()),
                }
            )
        for i in range(draw(st.integers(0, 3))):
            cards.append({"id": f"{p}ak{i}", "name": "Aktionskarte", "owner": p, "kind": "action"})
        if draw(st.booleans()):
            cards.append(
                {"id": f"{p}scrap", "name": "Alt", "owner": p, "kind": "land", "zone": "scrap"}
            )
    in_play = [
        c for c in cards if c.get("zone", "play" if c["kind"] != "action" else "hand") == "play"
    ]
    in_hand = [c for c in cards if c["kind"] == "action"]
    sources = [c for c in cards if c in in_play or c in in_hand]
    chosen = draw(st.lists(st.sampled_from(sources), unique_by=lambda c: c["id"], max_size=8))
    phase = draw(st.sampled_from(["Bauphase", "Schadenverteilungsphase", "Endphase"]))
    stack: list[dict[str, Any]] = []
    for n, source in enumerate(chosen):
        by = source["owner"]
        is_action = source["kind"] == "action"
        options = ["draw", "produce_tw", "other", "destroy", "damage", "prevent_damage", "unlock"]
        unlocked = [c for c in in_play if not c.get("locked")]
        if unlocked:
            options.append("lock")
        own_other_bases = [
            c
            for c in in_play
            if c["kind"] == "base" and c["owner"] == by and c["id"] != source["id"]
        ]
        if own_other_bases:
            options.append("protect")
        if in_hand:
            options.append("discard")
        if stack:
            options.append("counter")
        kind = draw(st.sampled_from(options))
        effect: dict[str, Any] = {"type": kind}
        foreign = [c for c in in_play if c["owner"] != by]
        if kind == "damage" and not foreign:
            kind = "draw"  # damage never goes on one's own cards (FAQ Schaden)
            effect["type"] = kind
        if kind == "damage":
            effect["target"] = draw(st.sampled_from(foreign))["id"]
        elif kind in ("destroy", "prevent_damage", "unlock"):
            effect["target"] = draw(st.sampled_from(in_play))["id"]
        elif kind == "lock":
            effect["target"] = draw(st.sampled_from(unlocked))["id"]
        elif kind == "protect":
            effect["target"] = draw(st.sampled_from(own_other_bases))["id"]
        elif kind == "discard":
            effect["target"] = draw(st.sampled_from(in_hand))["id"]
        elif kind == "counter":
            effect["target"] = draw(st.sampled_from(stack))["id"]
        if kind in ("draw", "produce_tw", "damage", "prevent_damage"):
            effect["amount"] = draw(st.integers(0, 5))
        budget = tw[by]
        if kind == "counter":  # a counter also needs the countered entry's play cost
            countered = next(e for e in stack if e["id"] == effect["target"])
            budget -= countered["play_cost"]
            if budget < 0:
                kind = "other"
                effect = {"type": kind}
                budget = tw[by]
        play_cost = draw(st.integers(0, min(2, budget))) if is_action else 0
        cost = draw(st.integers(0, budget - play_cost))
        entry = {
            "id": f"s{n + 1}",
            "by": by,
            "source": source["id"],
            "effect": effect,
            "cost": cost,
            "play_cost": play_cost,
            "sacrifice": draw(st.booleans()) if not is_action else False,
            "lock_source": draw(st.booleans()) if not source.get("locked") else False,
        }
        stack.append(entry)
    return {
        "phase": phase,
        "players": {p: {"tw": tw[p]} for p in PLAYERS},
        "cards": cards,
        "stack": stack,
    }


@given(legal_scenarios())
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_property_legal_stack_resolves_lifo_with_one_outcome_each(data: dict) -> None:
    scenario = read_scenario(data)
    assert validate(scenario) == ()
    result = check(data)
    assert result.ok
    announced = [e["id"] for e in data["stack"]]
    assert list(result.order) == announced[::-1]
    assert [s.entry for s in result.steps] == list(result.order)


@given(legal_scenarios())
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_property_nobody_pays_more_than_they_have(data: dict) -> None:
    result = result_to_json(check(data))
    entries = {e["id"]: e for e in data["stack"]}
    money = {p: v["tw"] for p, v in data["players"].items()}
    for step in result["steps"]:
        entry = entries[step["entry"]]
        assert 0 <= step["paid"] <= money[entry["by"]]
        money[entry["by"]] -= step["paid"]
        if entry["effect"]["type"] == "produce_tw" and step["outcome"] == "resolved":
            money[entry["by"]] += entry["effect"]["amount"]
        if step["outcome"] == "fizzled":
            assert step["paid"] == 0
    assert {p: v["tw"] for p, v in result["final"]["players"].items()} == money


@given(legal_scenarios())
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_property_scrap_pile_holds_no_locked_card(data: dict) -> None:
    final = result_to_json(check(data))["final"]
    for card_id, state in final["cards"].items():
        if state["zone"] == "scrap":
            assert state["locked"] is False, card_id


@given(legal_scenarios())
@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_property_same_scenario_same_result(data: dict) -> None:
    first = result_to_json(check(data))
    assert result_to_json(check(json.dumps(data))) == first
    assert result_to_json(check(scenario_to_json(read_scenario(data)))) == first


@given(legal_scenarios())
@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_property_permalink_round_trips(data: dict) -> None:
    assert decode_permalink(encode_permalink(data)) == data


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=30,
)


@given(JSON)
@settings(max_examples=examples(300), deadline=None)
def test_property_arbitrary_json_parses_or_raises_format_error(value: Any) -> None:
    try:
        check(value if isinstance(value, dict) else json.dumps(value))
    except ScenarioFormatError:
        pass


@given(st.text(max_size=200) | st.binary(max_size=200))
@settings(max_examples=examples(300), deadline=None)
def test_property_arbitrary_text_parses_or_raises_format_error(text: str | bytes) -> None:
    try:
        check(text)
    except ScenarioFormatError:
        pass


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


@given(legal_scenarios(), st.data())
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_property_mutated_scenario_parses_or_raises_format_error(data: dict, pick) -> None:
    """Replace one field of a legal scenario by arbitrary JSON: never a crash."""
    paths = [p for p in _paths(data) if p]
    path = pick.draw(st.sampled_from(paths))
    replacement = pick.draw(JSON | st.sampled_from(["s1", "Abase0", "A", "B", "nix", -1, 0]))
    mutated = json.loads(json.dumps(data))
    node = mutated
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = replacement
    try:
        result = check(mutated)
    except ScenarioFormatError:
        return
    result_to_json(result)  # an illegal or legal scenario both serialise
    assert result.ok == (not validate(read_scenario(mutated)))


@given(st.text(max_size=300))
@settings(max_examples=examples(300), deadline=None)
def test_property_any_link_decodes_or_raises_format_error(link: str) -> None:
    try:
        decode_permalink(link)
    except ScenarioFormatError:
        pass
