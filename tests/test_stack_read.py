"""Reading scenarios: what is not a scenario raises ScenarioFormatError naming the field."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from test_stack_validate import entry, scenario

from faq_bot.stack import (
    EffectType,
    Kind,
    Phase,
    ScenarioFormatError,
    Zone,
    read_scenario,
    scenario_to_json,
)
from faq_bot.stack.read import MAX_ITEMS, MAX_VALUES

EXAMPLE2 = Path(__file__).parent / "data" / "scenarios" / "example2_bomb_on_bomb.json"


def with_stack(*stack: dict) -> dict:
    return scenario(*stack)


def card(**fields) -> dict:
    return {"id": "x", "name": "X", "owner": "A", "kind": "base", **fields}


BAD = [
    ("{", "kein gültiges JSON"),
    (b"\xff\xfe", "kein UTF-8"),
    ("[]", "Szenario: muss ein JSON-Objekt sein"),
    ('"Bauphase"', "Szenario: muss ein JSON-Objekt"),
    ({"players": {"A": {"tw": 1}}, "cards": []}, "Feld stack: fehlt"),
    ({"cards": [], "stack": []}, "Feld players: fehlt"),
    ({"players": {}, "cards": [], "stack": []}, "Feld players: nennt keinen Spieler"),
    ({"players": {"A": {"tw": -1}}, "cards": [], "stack": []}, "players.A.tw: darf nicht"),
    ({"players": {"A": {"tw": True}}, "cards": [], "stack": []}, "players.A.tw: muss eine ganze"),
    ({"players": {"A": {"tw": 1.5}}, "cards": [], "stack": []}, "players.A.tw"),
    ({"players": {"A": {}}, "cards": [], "stack": []}, "players.A.tw: fehlt"),
    ({"players": {"A": {"tw": 1}}, "cards": {}, "stack": []}, "Feld cards: muss eine JSON-Liste"),
    # the field named once, the value in German quotes (a QA review: 'Phase: Phase "…"')
    ({**scenario(), "phase": "Teepause"}, "Feld phase: Phase: „Teepause“ ist unbekannt"),
    ({**scenario(), "extra": 1}, "Feld extra: ist unbekannt"),
    ({**scenario(), "cards": [card(kind="monster")]}, "cards[0].kind"),
    ({**scenario(), "cards": [card(zone="deck")]}, "cards[0].zone"),
    ({**scenario(), "cards": [card(locked="ja")]}, "cards[0].locked"),
    ({**scenario(), "cards": [card(defense=-2)]}, "cards[0].defense"),
    # an HTTP probe: 10**30 was "muss eine ganze Zahl ab 0 sein", though it is one
    (
        {**scenario(), "cards": [card(defense=10**30)]},
        "cards[0].defense: muss leer oder eine ganze Zahl von 0 bis 1000000 sein",
    ),
    ({**scenario(), "cards": [card(id="")]}, "cards[0].id"),
    (
        {**scenario(), "cards": [card(), card()]},
        "Karte 2 › Kürzel: das Kürzel „x“ kommt mehrfach vor (Feld cards[1].id)",
    ),
    ({**scenario(), "cards": [{"id": "x", "owner": "A", "kind": "base"}]}, "cards[0].name: fehlt"),
    (with_stack({"id": "s1", "by": "A", "source": "bombA"}), "stack[0].effect: fehlt"),
    (with_stack(entry("s1", "A", "bombA", "zaubern")), "stack[0].effect.type: Effekttyp"),
    (with_stack(entry("s1", "A", "bombA", "destroy")), "stack[0].effect.target: fehlt"),
    (with_stack(entry("s1", "A", "bombA", "draw")), "stack[0].effect.amount: fehlt"),
    (with_stack(entry("s1", "A", "bombA", "draw", amount=1, target="x")), "effect.target: ist"),
    (with_stack(entry("s1", "A", None, "draw", amount=1)), "stack[0].source: fehlt"),
    (with_stack(entry("s1", "A", "bombA", "lock", target=3)), "stack[0].effect.target"),
    (with_stack(entry("s1", "A", "bombA", "other", cost="2")), "stack[0].cost"),
    (with_stack(entry("s1", "A", "bombA", "other", sacrifice=1)), "stack[0].sacrifice"),
    (with_stack(entry("s1", "A", None, "declare_attack", lock_source=True)), "lock_source"),
    (with_stack(entry("s1", "A", "bombA", "other", prio=1)), "stack[0].prio: ist unbekannt"),
    (
        with_stack(entry("s1", "A", "bombA", "other"), entry("s1", "A", "bombB", "other")),
        "Eintrag 2 › Kürzel: das Kürzel „s1“ kommt mehrfach vor (Feld stack[1].id)",
    ),
    (
        {**scenario(), "cards": [card(id=f"c{i}") for i in range(MAX_ITEMS + 1)]},
        f"höchstens {MAX_ITEMS}",
    ),
    (
        with_stack(*[entry(f"s{i}", "A", "bombA", "other") for i in range(MAX_ITEMS + 1)]),
        f"höchstens {MAX_ITEMS}",
    ),
    ("[" * 100_000 + "]" * 100_000, "JSON"),
    # a lone surrogate (an escape such as "\\ud800"): no result naming it can be written
    (with_stack(entry("s1", "A", "bombA", "other", text="x\ud800")), "stack[0].effect.text: "),
    ({**scenario(), "players": {"A\udc80": {"tw": 1}}}, "ungültiges Zeichen"),
    (json.dumps(with_stack(entry("s1", "A\ud800", "bombA", "other"))), "stack[0].by: "),
    ("5", "JSON-Objekt"),
    ("null", "JSON-Objekt"),
    ("true", "JSON-Objekt"),
]


@pytest.mark.parametrize(("data", "message"), BAD, ids=[str(i) for i in range(len(BAD))])
def test_read_refuses_non_scenario_naming_the_field(data, message: str) -> None:
    with pytest.raises(ScenarioFormatError) as info:
        read_scenario(data)
    text = str(info.value)
    if ": " in message:  # "field: problem" -> the field's JSON path and the problem, both named
        field, problem = message.removeprefix("Feld ").split(": ", 1)
        assert field in text and problem in text, text
    else:
        assert message in text


@pytest.mark.parametrize("group", ["players", "cards", "stack"])
def test_read_refuses_thousands_of_items_by_their_count_without_reading_each(group) -> None:
    """A link unpacks to a megabyte and /api/check takes as much: tens of thousands of
    (wrong) items. The schema checked every one before saying there are too many (players'
    errors sorted by a search of all names: 8,000 players took 3.5 s, 60,000 of them
    minutes, 60,000 entries 20 s; a worker may take 30); the count is refused first."""
    n = 60_000  # under the reader's megabyte
    items: object = {f"P{i}": {} for i in range(n)} if group == "players" else [{}] * n
    data = {"phase": "Bauphase", "players": {"A": {"tw": 1}}, "cards": [], "stack": []}
    text = json.dumps({**data, group: items})
    started = time.perf_counter()
    with pytest.raises(ScenarioFormatError) as info:
        read_scenario(text)
    assert time.perf_counter() - started < 3  # was 30 s and more
    assert str(info.value).endswith(
        f": hat {n} Einträge, erlaubt sind höchstens {MAX_ITEMS} (Feld {group})"
    )
    assert info.value.path == (group,)


def _unwalked(monkeypatch) -> None:
    """Reading fails the test if it walks the scenario (normalises or validates it)."""
    from faq_bot.stack import read

    def walked(*_args: object) -> None:
        raise AssertionError("the scenario was walked")

    monkeypatch.setattr(read, "_normalize", walked)
    monkeypatch.setattr(read, "_failures", walked)


@pytest.mark.parametrize("group", ["players", "cards", "stack"])
def test_read_says_a_list_too_long_before_walking_it(monkeypatch, group) -> None:
    # an adversarial probe: 300,000 empty lists as cards kept a worker 4-6 s, most of it
    # walking and normalising what the count refuses
    _unwalked(monkeypatch)
    items: object = {f"P{i}": [] for i in range(20_000)} if group == "players" else [[]] * 300_000
    data = {
        "phase": "Bauphase",
        "players": {"A": {"tw": 1}},
        "cards": [],
        "stack": [],
        group: items,
    }
    with pytest.raises(ScenarioFormatError) as info:
        read_scenario(json.dumps(data, separators=(",", ":")))
    assert info.value.path == (group,)


_MANY = 20_000


@pytest.mark.parametrize(
    "shape",
    [
        {"cards": [{"id": "a", "zone": [[0] * 100] * (_MANY // 100)}]},  # lists in a card
        {f"k{i}": 0 for i in range(_MANY)},  # unknown keys
        {"players": {"A": {"tw": 1, **{f"k{i}": 0 for i in range(_MANY)}}}},  # in a player
    ],
    ids=["nested-lists", "unknown-keys", "player-keys"],
)
def test_read_refuses_too_many_values_in_any_shape_before_walking_them(monkeypatch, shape) -> None:
    _unwalked(monkeypatch)
    data = {"phase": "Bauphase", "players": {"A": {"tw": 1}}, "cards": [], "stack": [], **shape}
    with pytest.raises(ScenarioFormatError) as info:
        read_scenario(json.dumps(data, separators=(",", ":")))
    assert str(info.value) == (
        f"Das JSON der Eingabe enthält mehr als {MAX_VALUES} Werte; ein Szenario hat höchstens "
        "200 Spieler, 200 Karten und 200 Einträge im Stapel."
    )


def test_a_scenario_of_the_most_items_each_with_every_field_is_within_the_value_count() -> None:
    from faq_bot import strictjson

    full_card = {f: "x" for f in ("id", "name", "owner", "kind", "zone", "locked", "defense")}
    effect = {f: "x" for f in ("type", "target", "amount", "text")}
    fields = ("id", "by", "source", "cost", "play_cost", "sacrifice", "lock_source")
    full_entry = {**{f: "x" for f in fields}, "effect": effect}
    largest = {
        "phase": "Bauphase",
        "players": {f"P{i}": {"tw": 1} for i in range(MAX_ITEMS)},
        "cards": [full_card] * MAX_ITEMS,
        "stack": [full_entry] * MAX_ITEMS,
    }
    assert strictjson.flaw(largest, 32, MAX_VALUES) is None
    assert strictjson.flaw(largest, 32, MAX_VALUES // 3) == ("many", [])  # not far off


@pytest.mark.parametrize(
    ("data", "label", "path"),
    [
        (with_stack(entry("s1", "A", "bombA", "zaubern")), "Eintrag 1 › Effekt:", "stack[0]"),
        ({**scenario(), "cards": [card(), card(id="y", kind="x")]}, "Karte 2 › Kartenart:", ""),
        ({"players": {"A": {"tw": -1}}, "cards": [], "stack": []}, "Spieler A › TW übrig:", ""),
        (with_stack(entry("s1", "A", None, "draw", amount=1)), "Eintrag 1 › Quelle: fehlt", ""),
    ],
)
def test_read_error_names_the_field_as_the_form_shows_it(data, label: str, path: str) -> None:
    with pytest.raises(ScenarioFormatError) as info:
        read_scenario(data)
    assert str(info.value).startswith(label)
    assert f"(Feld {path}" in str(info.value)
    assert "unknown_reference" not in str(info.value) and "is a required" not in str(info.value)


def test_read_schema_limits_match_the_reader_constants() -> None:
    from faq_bot.stack.read import MAX_ID, MAX_NUMBER, MAX_TEXT, scenario_schema

    schema = scenario_schema()
    assert schema["$defs"]["name"]["maxLength"] == MAX_ID
    assert schema["$defs"]["count"]["maximum"] == MAX_NUMBER
    assert schema["$defs"]["effect"]["properties"]["text"]["maxLength"] == MAX_TEXT
    assert schema["properties"]["cards"]["maxItems"] == MAX_ITEMS
    assert schema["properties"]["stack"]["maxItems"] == MAX_ITEMS


def test_read_fills_the_spec_defaults() -> None:
    data = {
        "players": {"A": {"tw": 3}},
        "cards": [
            {"id": "b", "name": "227er", "owner": "A", "kind": "base"},
            {"id": "k", "name": "Blitzangriff", "owner": "A", "kind": "action"},
        ],
        "stack": [{"id": "s1", "by": "A", "source": "b", "effect": {"type": "other"}}],
    }
    parsed = read_scenario(json.dumps(data))
    assert parsed.phase is Phase.BAUPHASE
    assert parsed.cards[0].zone is Zone.PLAY and parsed.cards[1].zone is Zone.HAND
    assert parsed.cards[0].kind is Kind.BASE and parsed.cards[0].locked is False
    first = parsed.stack[0]
    assert first.effect.type is EffectType.OTHER
    assert (first.cost, first.play_cost, first.sacrifice, first.lock_source) == (0, 0, False, False)


def test_read_accepts_phase_in_any_case() -> None:
    assert read_scenario({**scenario(), "phase": "blockphase"}).phase is Phase.BLOCKPHASE


def test_read_leaves_unknown_references_to_validation() -> None:
    parsed = read_scenario(with_stack(entry("s1", "Z", "nix", "destroy", target="nirgends")))
    assert parsed.stack[0].by == "Z"


def test_scenario_to_json_round_trips() -> None:
    data = scenario(
        entry("s1", "A", "radarA", "draw", amount=1, cost=2, lock_source=True),
        entry("s2", "B", "abwehrB", "counter", target="s1", play_cost=1),
        entry("s3", "A", "zerstA", "other", text="Verlegen"),
    )
    parsed = read_scenario(data)
    again = scenario_to_json(parsed)
    assert read_scenario(again) == parsed
    assert scenario_to_json(read_scenario(json.dumps(again))) == again


def test_read_error_carries_the_errors_of_other_fields_in_document_order() -> None:
    data = with_stack(
        entry("s1", "A", "bombA", "destroy"),  # no target
        entry("s2", "A", "bombA", "other", cost=-2),
    )
    data["players"]["A"]["tw"] = -1
    with pytest.raises(ScenarioFormatError) as info:
        read_scenario(data)
    paths = [info.value.path, *(more.path for more in info.value.more)]
    assert paths == [("players", "A", "tw"), ("stack", 0, "effect", "target"), ("stack", 1, "cost")]
    assert str(info.value).startswith("Spieler A › TW übrig")  # the message is the first's


def test_schema_messages_name_no_effect_type_by_its_json_code() -> None:
    # the form's users see effect types by their German names ("Angriff deklarieren"), so a
    # message written into the schema must not name one by its JSON value (declare_attack)
    from faq_bot.stack.read import scenario_schema

    def messages(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "x-de":
                    yield from value.values() if isinstance(value, dict) else [value]
                else:
                    yield from messages(value)
        elif isinstance(node, list):
            for item in node:
                yield from messages(item)

    found = list(messages(scenario_schema()))
    assert found
    codes = [t.value for t in EffectType if "_" in t.value]
    assert not [m for m in found if any(code in m for code in codes)]


def test_a_missing_source_names_the_one_effect_that_needs_none_in_german() -> None:
    with pytest.raises(ScenarioFormatError) as info:
        read_scenario(with_stack(entry("s1", "A", None, "draw", amount=1)))
    assert "nur ein Angriff deklariert werden" in str(info.value)


def test_read_drops_invisible_format_characters_so_no_name_turns_a_result_line_around() -> None:
    # a judge's review: U+202E in a card's name showed "zerstören" as "nerötsrez" after it
    data = json.loads(EXAMPLE2.read_text(encoding="utf-8"))
    data["cards"][0]["name"] = "Radar\u202estation"
    data["players"] = {"A\u200b": data["players"]["A"], "B": data["players"]["B"]}
    for card in data["cards"]:
        card["owner"] = "A\u2066" if card["owner"] == "A" else card["owner"]
    for item in data["stack"]:
        item["by"] = "\u200fA" if item["by"] == "A" else item["by"]
    scenario = read_scenario(data)
    assert scenario.cards[0].name == "Radarstation"
    assert [p.name for p in scenario.players] == ["A", "B"]
    assert scenario_to_json(scenario) == scenario_to_json(
        read_scenario(EXAMPLE2.read_text(encoding="utf-8"))
    )


def test_read_refuses_two_names_that_differ_only_by_invisible_characters() -> None:
    data = json.loads(EXAMPLE2.read_text(encoding="utf-8"))
    data["players"]["A\u200b"] = {"tw": 99}  # merged into "A" it would overwrite A's TW
    with pytest.raises(ScenarioFormatError, match="„A“ kommt doppelt vor"):
        read_scenario(data)


def test_read_refuses_two_players_whose_names_differ_only_by_spaces() -> None:
    # a probe: " A " and "A" were two players every explanation named alike
    data = json.loads(EXAMPLE2.read_text(encoding="utf-8"))
    data["players"][" A "] = {"tw": 1}
    with pytest.raises(ScenarioFormatError, match="„A“ kommt doppelt vor"):
        read_scenario(data)


def test_read_squashes_the_spaces_of_every_name_and_reference_alike() -> None:
    data = json.loads(EXAMPLE2.read_text(encoding="utf-8"))
    data["players"] = {" A ": data["players"]["A"], "B": data["players"]["B"]}
    for card in data["cards"]:
        card["owner"] = "A  " if card["owner"] == "A" else card["owner"]
        card["name"] = "  " + card["name"].replace(" ", "   ")
    scenario = read_scenario(data)
    assert scenario_to_json(scenario) == scenario_to_json(
        read_scenario(EXAMPLE2.read_text(encoding="utf-8"))
    )


def test_read_refuses_a_key_the_json_text_repeats_instead_of_keeping_the_last() -> None:
    text = EXAMPLE2.read_text(encoding="utf-8")
    data = json.loads(text)
    assert "A" in data["players"]
    # two players "A" in the text: json.loads would keep the second and drop the first
    twice = text.replace('"players": {', '"players": {"A": {"tw": 99}, ', 1)
    assert twice != text
    with pytest.raises(ScenarioFormatError, match="„A“ kommt in einem Objekt zweimal vor"):
        read_scenario(twice)
    with pytest.raises(ScenarioFormatError, match="„A“ kommt in einem Objekt zweimal vor"):
        read_scenario(twice.encode("utf-8"))
    assert read_scenario(text)  # a text without repeats reads as before


def test_read_refuses_an_integer_too_long_to_convert_in_german() -> None:
    """A QA review: Python's English "Exceeds the limit (4300 digits) ..." reached the
    message of /api/check and of the form's JSON view."""
    text = '{"phase": "Bauphase", "players": {"A": {"tw": ' + "9" * 5000 + "}}}"
    with pytest.raises(ScenarioFormatError) as caught:
        read_scenario(text)
    assert str(caught.value) == (
        "Die Eingabe enthält eine Zahl mit zu vielen Stellen; so große Werte kommen in keinem "
        "Szenario vor."
    )


def test_read_refuses_a_number_read_as_zero_that_is_none() -> None:
    # a probe: "tw": 2e-400 is read as 0.0 by Python's json and passed as the integer 0
    text = '{"phase": "Bauphase", "players": {"A": {"tw": 2e-400}}}'
    with pytest.raises(ScenarioFormatError) as caught:
        read_scenario(text)
    assert str(caught.value) == (
        "Die Eingabe enthält eine Zahl, die so nah an 0 ist, dass sie nicht lesbar ist."
    )


@pytest.mark.parametrize("depth", [40, 2000])
def test_read_says_too_deep_alike_below_and_beyond_what_the_parser_follows(depth) -> None:
    """2,000 levels stop Python's parser (RecursionError), 40 only the reader's limit: a
    review found the two said differently."""
    with pytest.raises(ScenarioFormatError) as caught:
        read_scenario("[" * depth + "]" * depth)
    assert (
        str(caught.value) == "Das JSON der Eingabe ist zu tief verschachtelt (höchstens 32 Ebenen)."
    )


def test_the_surrogate_check_is_cheap_on_a_deep_wide_scenario() -> None:
    """A megabyte of zeros nested 30 deep (the web's depth limit) with a lone surrogate at
    the end: finding it copied a path for every item (3.8 s and 240 MB a request). A
    scenario that large is refused by its count of values now; the walk that finds the
    surrogate serves every JSON body (`faq_bot.web.body.check_tree`), uncounted."""
    import tracemalloc

    from faq_bot import strictjson

    inner = "[" * 29 + ",".join(["0"] * 100_000) + ',"x\\ud800"' + "]" * 29
    head = '{"phase": "Bauphase", "players": {"A": {"tw": 1}}, "stack": [], "cards": ['
    value = json.loads(head + inner + "]}")
    tracemalloc.start()
    started = time.perf_counter()
    found = strictjson.flaw(value, 32)
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert found == ("surrogate", ["cards", 0, *[0] * 28, 100_000])
    assert peak < 20_000_000, (peak, elapsed)  # memory, not time: this machine is shared


@pytest.mark.parametrize(
    "place",
    ["top", "card", "player"],
)
def test_an_unknown_key_is_said_back_cut_short(place: str) -> None:
    """An API probe: an unknown key of 990,000 characters came back whole twice, in the
    field's label and in its JSON path (a 2 MB error); values were already cut."""
    key = "k" * 50_000
    data = scenario()
    if place == "top":
        data[key] = 1
    elif place == "card":
        data["cards"] = [card() | {key: 1}]
    else:
        data["players"]["A"][key] = 1
    with pytest.raises(ScenarioFormatError) as info:
        read_scenario(data)
    text = str(info.value)
    assert "ist unbekannt" in text and "k" * 20 in text, text[:300]
    assert len(text) < 600, len(text)
    assert len(info.value.brief) < 300, info.value.brief[:300]
