"""The checker's form as data (faq_bot.stack.form, formsteps, formview): builder actions,
labels, share preview."""

from __future__ import annotations

import copy
import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from faq_bot.stack import check, read_scenario
from faq_bot.stack.form import (
    MAX_ROWS,
    ActionError,
    draft_text,
    load_samples,
    missing_kind_reason,
    pad_state,
    scenario_from_state,
    starting_state,
    state_action,
    state_from_form,
    state_from_json,
)
from faq_bot.stack.formsteps import (
    Feedback,
    action_feedback,
    apply_action,
    complete_ids,
    entries_filled,
    move_arrows,
)
from faq_bot.stack.formview import (
    field_labels,
    field_title,
    form_choices,
    form_field,
    share_preview,
)
from faq_bot.stack.read import ScenarioFormatError

STATE = {
    "phase": "Bauphase",
    "players": [{"name": "A", "tw": "4"}, {"name": "B", "tw": "2"}],
    "cards": [],
    "stack": [],
}


def build() -> dict:
    state = copy.deepcopy(STATE)
    apply_action(state, "pick:Radarstation", {"pick_owner": "A"})
    apply_action(state, "pick:227er", {"pick_owner": "A"})
    apply_action(state, "pick:227-Pfund Bombe", {"pick_owner": "B"})
    for card in (0, 2, 1):
        apply_action(state, f"announce:{card}", {})
    state["stack"][1]["target"] = state["cards"][0]["id"]
    state["stack"][2]["target"] = state["cards"][2]["id"]
    return state


def test_form_builder_makes_the_faqs_example_2_from_chips_and_announcements() -> None:
    data, notes = scenario_from_state(build())
    result = check(data)
    assert result.ok
    assert [(s.outcome.value, s.paid) for s in result.steps] == [
        ("resolved", 2),
        ("fizzled", 0),
        ("resolved", 2),
    ]
    assert any("Effekt zerstören, opfern, Kosten 2" in note for note in notes)


def test_form_choices_offer_the_scenarios_own_cards_and_entries_as_targets() -> None:
    choices = form_choices(build())
    assert choices["cards"] == [
        ("radarstation", "Radarstation"),
        ("227-pfund-bombe", "A: 227-Pfund Bombe"),
        ("227-pfund-bombe-2", "B: 227-Pfund Bombe"),
    ]
    assert ("s2", "Eintrag 2 (B: 227-Pfund Bombe)") in choices["entry_targets"][2]
    assert choices["players"] == [("A", "A"), ("B", "B")]


def test_a_pickers_label_names_the_owner_first_so_a_cut_option_still_shows_it() -> None:
    # a select shows the start of its label: at 200 % text on a phone "227-Pfun…" hid
    # "von A"; the owner first keeps the one thing that tells two copies apart visible
    choices = form_choices(build())
    labels = [label for _id, label in choices["cards"]] + [
        label for _id, label in choices["entry_targets"][-1]
    ]
    owned = [label for label in labels if "227" in label]
    assert owned and all(
        re.match(r"^(?:Eintrag \d+ \()?[AB]: 227-Pfund Bombe\)?$", label) for label in owned
    ), owned


def test_form_move_swaps_entries_and_keeps_their_ids() -> None:
    state = build()
    apply_action(state, "move:stack:2:up", {})
    assert [row["id"] for row in state["stack"]] == ["s1", "s3", "s2"]
    apply_action(state, "move:stack:0:up", {})  # nothing below the bottom entry
    assert [row["id"] for row in state["stack"]] == ["s1", "s3", "s2"]


@pytest.mark.parametrize("action", ["remove:players:9", "remove:cards:3", "move:stack:3:up"])
def test_form_a_row_the_state_lacks_is_refused_as_announcing_it_is(action) -> None:
    """A QA review: "remove:players:999" was ignored (200), "announce:999" refused (400)."""
    with pytest.raises(ValueError):
        apply_action(build(), action, {})
    with pytest.raises(ValueError):
        apply_action(build(), "announce:3", {})


@pytest.mark.parametrize(
    ("group", "action"),
    [("cards", "pick:Radarstation"), ("stack", "announce:0"), ("players", "add:players")],
)
def test_form_a_builder_button_past_the_row_limit_is_refused_and_keeps_the_form(
    group, action
) -> None:
    """A review: „Übernehmen“ and „Ansagen“ added a 201st row, and the form posted next was
    refused whole (a 400 page without the form): the reader takes `MAX_ROWS` a group."""
    state = build()
    filler = {"cards": {"name": "X", "owner": "A"}, "stack": {"source": "radarstation"}}
    while len(state[group]) < MAX_ROWS:
        state[group].append(dict(state[group][0]) | filler.get(group, {"name": "P"}))
    if group == "stack":  # announce a card that is not on the stack yet
        state["cards"].append({"name": "Neu", "owner": "A", "kind": "", "id": "neu"})
        action = f"announce:{len(state['cards']) - 1}"
    before = copy.deepcopy(state)
    with pytest.raises(ActionError, match=rf"höchstens {MAX_ROWS}"):
        apply_action(state, action, {"pick_owner": "A"})
    assert state == before


def test_form_removing_a_card_the_stack_uses_leaves_its_fields_to_choose_again() -> None:
    """A QA review: removing the Radarstation of „Zwei Zerstörer sperren die Radarstation“ left
    the entries pointing at its id; the stack's fields read „radar (unbekannt)“ and the
    result „Die Zielkarte „radar“ ist nicht definiert“, an id the judge never typed, as a
    rules violation. The entries' fields that named the card are emptied: the form then
    asks for them like any empty field, each with its link to the field."""
    sample = next(s for s in load_samples() if s["name"] == "example4_two_destroyers")
    state = state_from_json(sample["scenario"])
    used = [i for i, e in enumerate(state["stack"]) if "radar" in (e["source"], e["target"])]
    assert used
    apply_action(state, "remove:cards:0", {})
    assert all("radar" not in (e["source"], e["target"]) for e in state["stack"])
    assert [e["target"] for i, e in enumerate(state["stack"]) if i in used] == [""] * len(used)
    data, _notes = scenario_from_state(state)
    with pytest.raises(ScenarioFormatError) as caught:
        read_scenario(data)
    assert "radar" not in str(caught.value) and "Ziel: fehlt" in str(caught.value)


def test_form_removing_a_player_leaves_the_fields_that_named_them_to_choose_again() -> None:
    """As for a removed card: the cards B owned and the entries B announced kept „B“, an
    owner no longer on the form (the select showed it as unknown). Those fields are
    emptied; resolving then asks for them like any empty field, with a link to each."""
    sample = next(s for s in load_samples() if s["name"] == "example4_two_destroyers")
    state = state_from_json(sample["scenario"])
    gone = state["players"][1]["name"]
    owned = [i for i, c in enumerate(state["cards"]) if c["owner"] == gone]
    announced = [i for i, e in enumerate(state["stack"]) if e["by"] == gone]
    assert owned and announced
    apply_action(state, "remove:players:1", {})
    assert [state["cards"][i]["owner"] for i in owned] == [""] * len(owned)
    assert [state["stack"][i]["by"] for i in announced] == [""] * len(announced)
    assert all(gone not in (c["owner"], e["by"]) for c in state["cards"] for e in state["stack"])
    data, _notes = scenario_from_state(state)
    with pytest.raises(ScenarioFormatError) as caught:
        read_scenario(data)
    assert f"„{gone}“" not in str(caught.value) and "fehlt" in str(caught.value)


def test_form_removing_an_entry_leaves_a_counter_aimed_at_it_to_choose_again() -> None:
    """A code review: removing the entry a counter answers left the counter's target at its
    id („Der gekonterte Eintrag „s1“ ist nicht im Aktionsstapel“)."""
    sample = next(s for s in load_samples() if s["name"] == "example6_erfolgreiche_abwehr")
    state = state_from_json(sample["scenario"])
    gone = state["stack"][0]["id"]
    aimed = [i for i, e in enumerate(state["stack"]) if e["target"] == gone]
    assert aimed
    apply_action(state, "remove:stack:0", {})
    assert all(e["target"] != gone for e in state["stack"])
    assert [state["stack"][i - 1]["target"] for i in aimed] == [""] * len(aimed)


def test_form_a_player_who_takes_no_part_needs_no_tw() -> None:
    """A QA review: a judge tried one card of A's; „Auflösen“ said „Spieler B › TW übrig:
    fehlt“ for the form's second player, who owned nothing and announced nothing. Such a
    player gets 0 TW, said in the notes; a player who takes part still needs TW."""
    state = copy.deepcopy(STATE)
    apply_action(state, "pick:Radarstation", {"pick_owner": "A"})
    apply_action(state, "announce:0", {})
    state["players"][0]["tw"] = "3"
    state["players"][1]["tw"] = ""
    data, notes = scenario_from_state(state)
    assert check(data).ok
    assert data["players"]["B"] == {"tw": 0}
    assert "Spieler B: 0 TW (keine Karte, kein Eintrag)" in notes
    state["players"][0]["tw"] = ""  # A takes part: still asked for
    data, _ = scenario_from_state(state)
    with pytest.raises(ScenarioFormatError, match="Spieler A › TW übrig: fehlt"):
        read_scenario(data)


def test_form_announcing_a_card_already_on_the_stack_is_refused_and_says_where_it_is() -> None:
    """A phone review: a double tap on „Ansagen“ put the card on the stack twice (the
    second tap is sent once the first one's form is in), which the checker then called
    illegal. A card lies on the stack once; a judge who wants to try it twice picks it as
    an entry's source."""
    state = build()
    before = copy.deepcopy(state)
    with pytest.raises(ActionError, match=r"schon auf dem Stapel \(Eintrag 1\)"):
        apply_action(state, "announce:0", {})
    assert state == before
    assert form_choices(state)["announced"] == {
        state["cards"][0]["id"]: 1,
        state["cards"][2]["id"]: 2,
        state["cards"][1]["id"]: 3,
    }


@pytest.mark.parametrize("name", ["", "   "])
def test_form_a_card_without_a_name_is_not_announced_and_says_why(name) -> None:
    """A QA review: a card row with no name was announced (a crafted post), and the page
    said „ von A angesagt (Eintrag 1).“ An entry needs its card: the step is refused,
    naming the row, and the form is unchanged. (An earlier review: its empty id had
    matched an entry without a source, „ ist schon auf dem Stapel“.)"""
    state = copy.deepcopy(STATE)
    state["cards"] = [{"id": "", "name": name, "owner": "A", "kind": "", "zone": "",
                       "locked": False, "defense": ""}]  # fmt: skip
    state["stack"] = [{"id": "s1", "by": "A", "source": "", "type": "", "target": "",
                       "amount": "", "text": "", "cost": "", "play_cost": "",
                       "sacrifice": False, "lock_source": False}]  # fmt: skip
    before = copy.deepcopy(state)
    with pytest.raises(ActionError, match=r"^Karte 1 hat noch keinen Namen"):
        apply_action(state, "announce:0", {})
    assert state == before


@given(st.text(max_size=40))
def test_form_unknown_actions_raise_only_value_error(action: str) -> None:
    state = starting_state()
    try:
        apply_action(state, action, {})
    except ValueError:
        pass


def step(state: dict, action: str, form: dict | None = None) -> Feedback | None:
    """`action` applied to `state`, and what the page says about it."""
    apply_action(state, action, form or {})
    return action_feedback(state, action)


def test_form_step_picking_a_card_names_card_player_and_row_and_goes_to_its_name() -> None:
    state = build()
    said = step(state, "pick:Zerstörer", {"pick_owner": "B"})
    assert said == Feedback("Zerstörer für B angelegt (Karte 4).", field="c-3-name", group="cards")


def test_form_step_announcing_a_card_names_the_new_entry_and_goes_to_its_source() -> None:
    state = build()
    step(state, "pick:Radarstation", {"pick_owner": "B"})
    said = step(state, "announce:3")
    assert said == Feedback(
        "Radarstation von B angesagt (Eintrag 4).", field="s-3-source", group="stack"
    )


@pytest.mark.parametrize("card", ["Zerstörer", "Erfolgreiche Abwehr"])
def test_form_step_announcing_a_card_that_needs_a_target_asks_for_it_there(card) -> None:
    """A phone review: „Ansagen“ left a card whose effect needs a target with its Ziel empty
    and said nothing until „Auflösen“ answered „Ziel: fehlt“."""
    state = build()
    step(state, f"pick:{card}", {"pick_owner": "B"})
    said = step(state, "announce:3")
    assert said == Feedback(
        f"{card} von B angesagt (Eintrag 4). Die Karte braucht ein Ziel: bitte im Feld "
        "„Ziel“ wählen.",
        field="s-3-target",
        group="stack",
        reveal=True,
    )


@pytest.mark.parametrize(
    ("name", "meant"),
    [("Zerstörerr", " (meinten Sie „Zerstörer“?)"), ("Schachbrett", "")],
)
def test_form_step_announcing_a_card_the_catalog_lacks_asks_for_its_kind(name, meant) -> None:
    """A phone review: a card name typed with a slip was announced without a word, and
    „Auflösen“ answered „Kartenart: fehlt“ with no hint of the name it meant."""
    state = build()
    step(state, "pick:Radarstation", {"pick_owner": "B"})
    state["cards"][3]["name"], state["cards"][3]["kind"] = name, ""
    said = step(state, "announce:3")
    assert said == Feedback(
        f"{name} von B angesagt (Eintrag 4). „{name}“ steht nicht im Kartenkatalog{meant}; "
        "bitte die Kartenart wählen und beim Eintrag 4 den Effekt.",
        field="c-3-kind",
        group="cards",
        reveal=True,
    )
    given = build()  # a Kartenart given by hand: nothing to ask
    step(given, "pick:Radarstation", {"pick_owner": "B"})
    given["cards"][3]["name"], given["cards"][3]["kind"] = name, "unit"
    assert step(given, "announce:3").field == "s-3-source"


@pytest.mark.parametrize(
    ("group", "message", "field"),
    [
        ("players", "Neue leere Zeile: Spieler 3.", "p-2-name"),
        ("cards", "Neue leere Zeile: Karte 4.", "c-3-name"),
        ("stack", "Neue leere Zeile: Eintrag 4.", "s-3-source"),
    ],
)
def test_form_step_adding_a_row_goes_to_the_first_field_of_the_first_blank_row(
    group, message, field
) -> None:
    assert step(build(), f"add:{group}") == Feedback(message, field=field, group=group)


@pytest.mark.parametrize(
    ("action", "message", "button"),
    [
        # the row that moved up into its place; the last one: the row before it
        ("remove:stack:1", "Eintrag 2 entfernt.", "remove:stack:1"),
        ("remove:players:0", "Spieler 1 entfernt.", "remove:players:0"),
        ("remove:cards:2", "Karte 3 entfernt.", "remove:cards:2"),  # the last: the spare's
    ],
)
def test_form_step_removing_a_row_goes_to_the_remove_button_of_its_neighbour(
    action, message, button
) -> None:
    group = action.split(":")[1]  # where the page lands without JavaScript
    assert step(build(), action) == Feedback(message, button=button, group=group)


@pytest.mark.parametrize(
    ("action", "message", "button"),
    [
        # the moved entry's same button, so pressing again moves it further
        ("move:stack:2:up", "Eintrag 3 früher angesagt, jetzt Eintrag 2.", "move:stack:1:up"),
        (
            "move:stack:0:down",
            "Eintrag 1 später angesagt, jetzt Eintrag 2.",
            "move:stack:1:down",
        ),
        # at the bottom now: that row has no "up" button, its "down" one takes the focus
        (
            "move:stack:1:up",
            "Eintrag 2 früher angesagt, jetzt Eintrag 1.",
            "move:stack:0:down",
        ),
        ("move:stack:0:up", "Eintrag 1 wird schon als erster angesagt.", "move:stack:0:down"),
    ],
)
def test_form_step_moving_an_entry_follows_it_with_the_focus(action, message, button) -> None:
    assert step(build(), action) == Feedback(message, button=button, group="stack")


def test_form_step_refresh_says_nothing() -> None:
    assert step(build(), "refresh") is None


@pytest.mark.parametrize(
    ("field", "title"),
    [
        ("p-1-tw", "Spieler B › TW übrig"),
        ("p-1-name", "Spieler 2 › Name"),
        ("c-2-owner", "Karte 3 (227-Pfund Bombe) › Besitzer"),
        ("c-2-name", "Karte 3 › Name"),
        ("s-1-target", "Eintrag 2 › Ziel"),
        ("s-0-cost", "Eintrag 1 › Kosten (TW)"),
        ("phase", "Phase"),
    ],
)
def test_form_field_title_names_a_field_out_of_context(field, title) -> None:
    assert field_title(field, build()) == title


def test_form_labels_come_from_the_schema_titles() -> None:
    labels = field_labels()
    assert labels["s-cost"] == "Kosten (TW)"
    assert labels["s-target"] == "Ziel"
    assert labels["c-owner"] == "Besitzer"
    assert labels["p-tw"] == "TW übrig"


@pytest.mark.parametrize(
    ("tw", "fizzled"),
    [
        ({"A": "4", "B": "2"}, "Verpufft: Eintrag 2."),
        ({"A": "3", "B": "2"}, "Verpufft: Eintrag 2, Eintrag 1."),
    ],
)
def test_form_share_preview_says_what_resolves_first_fizzles_and_who_pays(tw, fizzled) -> None:
    state = build()
    for row in state["players"]:
        row["tw"] = tw[row["name"]]
    data, _ = scenario_from_state(state)
    scenario = read_scenario(data)
    preview = share_preview(scenario, check(data))
    assert preview["title"].startswith("Aktionsstapel: zuerst Eintrag 3 (227-Pfund Bombe von A)")
    assert fizzled in preview["description"]
    assert "Es zahlen: A " in preview["description"]


@pytest.mark.parametrize("legal", [True, False])
def test_form_share_preview_of_one_entry_says_eintrag_not_eintraege(legal) -> None:
    """A QA review: a one-entry link was previewed as "Aktionsstapel mit 1 Einträgen" and
    "1 Einträge, abgehandelt …" in a forum."""
    state = build()
    state["stack"] = state["stack"][:1]
    if not legal:
        for row in state["players"]:
            row["tw"] = "0"  # the entry cannot be paid
    data, _ = scenario_from_state(state)
    result = check(data)
    assert result.ok is legal
    preview = " ".join(share_preview(read_scenario(data), result).values())
    assert "1 Eintr" in preview
    assert "1 Einträge" not in preview


def test_form_share_preview_of_an_empty_stack_claims_no_result() -> None:
    """A link to a scenario with nothing announced (the chat's link for one card) is
    previewed as the page shows it: nothing to resolve yet, not "es passiert nichts",
    which a judge reads as the answer."""
    state = build()
    state["stack"] = []
    data, _ = scenario_from_state(state)
    preview = share_preview(read_scenario(data), check(data))
    assert preview["title"] == "Noch nichts auf dem Aktionsstapel"
    assert "nichts aufzulösen" in preview["description"]
    assert "passiert nichts" not in " ".join(preview.values())


@pytest.mark.parametrize(
    ("path", "field"),
    [
        (("phase",), "phase"),
        (("players",), "p-0-name"),
        (("players", "B", "tw"), "p-1-tw"),
        (("players", "B"), "p-1-name"),
        (("players", 1), "p-1-name"),  # the form's own errors name the row
        (("players", "Z", "tw"), None),  # no row of that name
        (("cards", 2), "c-2-name"),
        (("cards", 1, "defense"), "c-1-defense"),
        (("cards", 7, "kind"), None),  # the form has no such row
        (("stack", 1, "effect"), "s-1-type"),
        (("stack", 1, "effect", "target"), "s-1-target"),
        (("stack", 0, "cost"), "s-0-cost"),
        (("stack", 2), "s-2-source"),
        (("stack", 0, "id"), None),  # an entry's id is a hidden field
        (("stack", 0, "bogus"), None),
        (("stack", 1, "effect", "target", 0), None),
        (("cards", 0, "effect"), None),  # "effect" is an entry's, not a card's
        (("players", "A", "extra"), None),  # a key the form has no field for
        (("cards",), None),  # the whole list: no one field
        (("stack",), None),
        (None, None),
        ((), None),
    ],
)
def test_form_field_is_the_field_an_error_path_names(path, field) -> None:
    assert form_field(path, build()) == field


def test_form_field_finds_the_form_field_of_a_reader_error_in_the_rows() -> None:
    state = build()
    state["stack"][1]["cost"] = "-3"
    data, _ = scenario_from_state(state)
    with pytest.raises(ScenarioFormatError) as caught:
        read_scenario(data)
    assert caught.value.path == ("stack", 1, "cost")
    assert form_field(caught.value.path, state) == "s-1-cost"


def test_form_rows_from_json_are_at_most_max_rows_per_group() -> None:
    """The reader refuses more (and says so); the form never holds more rows than it shows."""
    n = MAX_ROWS * 3
    data = {
        "players": {f"P{i}": {"tw": 1} for i in range(n)},
        "cards": [{"id": f"c{i}"} for i in range(n)],
        "stack": [{"id": f"s{i}"} for i in range(n)],
    }
    state = state_from_json(data)
    assert [len(state[g]) for g in ("players", "cards", "stack")] == [MAX_ROWS] * 3
    assert state["cards"][-1]["id"] == f"c{MAX_ROWS - 1}"  # the first ones, in order


def test_form_rows_from_json_keep_the_positions_of_items_that_are_not_objects() -> None:
    bomb = {"id": "b", "name": "227-Pfund Bombe", "owner": "A", "kind": "base"}
    radar = {"id": "r", "name": "Radarstation", "owner": "A", "kind": "base"}
    data = {
        "phase": "Bauphase",
        "players": {"A": {"tw": 4}, "B": {"tw": 2}},
        "cards": [radar, "x", bomb],
        "stack": [7, {"id": "s"}],
    }
    state = state_from_json(data)
    assert [row["id"] for row in state["cards"]] == ["r", "", "b"]
    assert [row["id"] for row in state["stack"]] == ["", "s"]
    with pytest.raises(ScenarioFormatError) as caught:
        read_scenario(data)
    assert caught.value.path == ("cards", 1)
    assert form_field(caught.value.path, state) == "c-1-name"  # the blank row, not the bomb's


def test_form_field_of_a_bad_player_name_is_that_players_row() -> None:
    state = build()
    state["players"].append({"name": "x" * 300, "tw": "1"})
    data, _ = scenario_from_state(state)
    with pytest.raises(ScenarioFormatError) as caught:
        read_scenario(data)
    assert form_field(caught.value.path, state) == "p-2-name"


def test_a_stack_row_offers_only_the_entries_announced_before_it_as_targets() -> None:
    shown = pad_state(build())  # the rows the form shows, blank ones too
    choices = form_choices(shown)
    assert len(choices["entry_targets"]) == len(shown["stack"])
    entries = [[e for e, _label in row if e.startswith("s")] for row in choices["entry_targets"]]
    assert entries[0] == []  # the bottom entry counters nothing
    assert entries[1] == ["s1"]
    assert entries[2] == ["s1", "s2"]
    assert all(e == ["s1", "s2", "s3"] for e in entries[3:])  # empty rows to fill in
    cards = [c for c, _label in choices["cards"]]
    assert all([e for e, _l in row][: len(cards)] == cards for row in choices["entry_targets"])


def test_a_row_keeps_its_own_or_a_later_entry_while_it_is_its_target() -> None:
    # so the checker says why it is no target instead of the choice silently vanishing
    state = build()
    state["stack"][0]["target"] = "s2"
    choices = form_choices(state)
    assert ("s2", "Eintrag 2 (B: 227-Pfund Bombe)") in choices["entry_targets"][0]


@pytest.mark.parametrize(
    ("action", "players", "stack_ids"),
    [
        ("remove:players:2", ["A"], ["s1", "s2"]),  # C, the row pressed, not the blank one
        ("remove:players:1", ["A", "C"], ["s1", "s2"]),  # the blank row: nothing else goes
        ("move:stack:2:up", ["A", "C"], ["s2", "s1"]),  # entry 3 as shown, past the blank
        ("announce:2", ["A", "C"], ["s1", "s2"]),  # the card shown third: C's (taken off)
    ],
)
def test_form_buttons_act_on_the_row_they_were_shown_with_blank_rows_between(
    blank_rows_form, action, players, stack_ids
) -> None:
    """Blank rows are dropped when the form is read, so row numbers of the posted form and
    of the state differ after one; a button names a row as the form showed it."""
    form = blank_rows_form
    if action.startswith("announce"):  # a card lies on the stack once: take it off first
        form = {k: v for k, v in form.items() if not k.startswith("s-2-")}
    state = state_from_form(form)
    complete_ids(state)
    apply_action(state, state_action(action, form), form)
    assert [row["name"] for row in state["players"]] == players
    assert [row["id"] for row in state["stack"]] == stack_ids
    if action.startswith("announce"):
        assert state["stack"][-1]["source"] == "227-pfund-bombe"


def test_form_row_numbers_are_ascii_digits_only() -> None:
    """A review: "p-١-name" (an Arabic-Indic one) was read as row 1, so its fields mixed
    with those of "p-1-name"."""
    form = {"p-0-name": "A", "p-0-tw": "3", "p-١-name": "B", "p-١-tw": "4", "p-1-name": "C"}
    assert state_from_form(form)["players"] == [{"name": "A", "tw": "3"}, {"name": "C", "tw": ""}]


@pytest.mark.parametrize("key", ["p-01-name", "p-1-name\n", "p-1-name\r\n"])
def test_form_row_keys_are_read_only_as_the_form_writes_them(key) -> None:
    """A review: "p-01-name" was read as row 1 and overwrote its name, and "p-1-name" with
    a trailing line break matched too ($ matches before it)."""
    form = {"p-0-name": "A", "p-0-tw": "3", "p-1-name": "B", "p-1-tw": "4", key: "X"}
    rows = state_from_form(form)["players"]
    assert rows == [{"name": "A", "tw": "3"}, {"name": "B", "tw": "4"}]


def test_form_button_of_an_unknown_move_is_refused_as_posted(blank_rows_form) -> None:
    """A review: "move:stack:2:sideways" past a blank row was refused as
    "move:stack:1:sideways", an action the page never showed."""
    form = blank_rows_form
    state = state_from_form(form)
    with pytest.raises(ActionError, match="„move:stack:2:sideways“"):
        apply_action(state, state_action("move:stack:2:sideways", form), form)


@given(
    st.text(max_size=40),
    st.dictionaries(
        st.sampled_from(["p-0-name", "p-2-name", "c-1-name", "s-3-source", "x"]),
        st.text(max_size=5),
    ),
)
def test_form_state_action_never_raises_and_keeps_unknown_actions(action: str, form: dict) -> None:
    for odd in ("remove:players:²", "announce:١", "move:stack:³:up"):  # digits int() refuses
        assert state_action(odd, {"p-0-name": "A", "c-0-name": "X"}) == odd
    translated = state_action(action, form)
    assert isinstance(translated, str)
    if not action.startswith(("remove:", "move:", "announce:")):
        assert translated == action


NAMES = st.text(alphabet='AB"\\ä{}', max_size=3)


@given(st.lists(st.tuples(NAMES, st.sampled_from(["", "3", "x"])), max_size=4))
def test_draft_text_is_the_scenario_where_the_rows_make_one_else_the_rows_as_typed(players):
    """The JSON view's text for rows too big to show: `scenario_from_state`'s data when the
    rows make a scenario; else every player row kept, blank and repeated names included."""
    state = build()
    state["players"] = [{"name": n, "tw": tw} for n, tw in players]
    text = draft_text(state)
    try:
        data, _notes = scenario_from_state(state)
    except ScenarioFormatError:
        names = [n for n, _tw in players]
        assert "" in names or len(set(names)) < len(names)
        pairs = json.loads(text, object_pairs_hook=list)
        written = dict(pairs)["players"]
        assert [name for name, _value in written] == names  # each row, in order
    else:
        assert json.loads(text) == data


@pytest.mark.parametrize(
    ("tw", "problem"),
    [
        ("99999999999999999999999", "ist zu groß"),
        ("-99999999999999999999999", "nicht negativ"),
        ("1000000000", "ist zu groß"),  # ten digits
        ("-0000000000001", "nicht negativ"),
    ],
)
def test_a_number_too_long_for_any_limit_is_refused_as_too_large_not_as_no_number(tw, problem):
    """A QA review: "TW übrig: muss eine ganze Zahl sein" for a whole number of 23 digits."""
    state = copy.deepcopy(STATE)
    state["players"][0]["tw"] = tw
    data, _notes = scenario_from_state(state)
    with pytest.raises(ScenarioFormatError) as refused:
        read_scenario(data)
    assert problem in str(refused.value) and "ganze Zahl" not in str(refused.value)


@pytest.mark.parametrize("tw", ["999999999", "00000000000000005", "-0000000000"])
def test_a_number_of_nine_digits_or_with_leading_zeros_is_read_as_typed(tw):
    state = copy.deepcopy(STATE)
    state["players"][0]["tw"] = tw
    data, _notes = scenario_from_state(state)
    assert data["players"]["A"]["tw"] == int(tw)


@pytest.mark.parametrize(
    ("row", "filled", "arrows"),
    [
        (0, 3, ("down",)),
        (1, 3, ("up", "down")),
        (2, 3, ("up",)),
        (3, 3, ()),  # the blank spare row
        (0, 1, ()),  # one entry: nowhere to move it
        (0, 0, ()),
    ],
)
def test_move_arrows_only_where_a_move_is_possible(row, filled, arrows) -> None:
    assert move_arrows(row, filled) == arrows


def test_entries_filled_counts_up_to_the_last_row_with_more_than_its_id() -> None:
    state = build()
    assert entries_filled(state["stack"]) == 3
    apply_action(state, "add:stack", {})  # a row just added: blank, as the spare row
    complete_ids(state)
    assert len(state["stack"]) == 4 and entries_filled(state["stack"]) == 3


def test_a_move_with_nowhere_to_go_passes_the_focus_to_the_rows_remove_button() -> None:
    """A review: one entry left (another emptied meanwhile), its ↓ pressed: no arrow to
    follow, and the focus fell to the page."""
    state = build()
    del state["stack"][1:]
    said = step(state, "move:stack:0:down")
    assert said == Feedback(
        "Eintrag 1 wird schon als letzter angesagt.", button="remove:stack:0", group="stack"
    )


def test_a_value_longer_than_any_limit_is_held_cut_in_the_form():
    """An API probe: a 1,332-character share link held a phase of 990,000 characters, which
    the form showed three times (a 3 MB page). The form keeps a value cut just past every
    limit of the reader, so it is still refused as too long when sent again."""
    from faq_bot.stack.read import MAX_TEXT

    long = "a" * 990_000
    state = state_from_json(
        {"phase": long, "players": {long: {"tw": long}}, "cards": [{"name": long}]}
    )
    assert len(state["phase"]) == MAX_TEXT + 1
    assert len(state["players"][0]["name"]) == MAX_TEXT + 1
    assert len(state["players"][0]["tw"]) == MAX_TEXT + 1
    assert len(state["cards"][0]["name"]) == MAX_TEXT + 1
    posted = state_from_form({"phase": long, "c-0-name": long, "c-0-owner": "A"})
    assert len(posted["phase"]) == MAX_TEXT + 1
    assert len(posted["cards"][0]["name"]) == MAX_TEXT + 1


def test_a_missing_kind_is_explained_only_for_a_name_the_catalog_lacks() -> None:
    """A phone review: „Karte 1 › Kartenart: fehlt“ for a card whose name the catalog does
    not hold, though the catalog fills the Kartenart for any name it knows."""
    state = {
        "cards": [
            {"name": "Schachbrett", "kind": ""},
            {"name": "Radarstation", "kind": ""},
            {"name": "Schachbrett", "kind": "unit"},
            {"name": "", "kind": ""},
            {"name": "Flakbaterie", "kind": ""},
        ]
    }
    said = missing_kind_reason(("cards", 0, "kind"), state)
    assert said == " – „Schachbrett“ steht nicht im Kartenkatalog; bitte die Kartenart wählen"
    slip = missing_kind_reason(("cards", 4, "kind"), state)
    assert slip == (
        " – „Flakbaterie“ steht nicht im Kartenkatalog (meinten Sie „Flakbatterie“?); "
        "bitte die Kartenart wählen"
    )
    assert missing_kind_reason(("cards", 1, "kind"), state) == ""  # the catalog's
    assert missing_kind_reason(("cards", 2, "kind"), state) == ""  # a Kartenart given
    assert missing_kind_reason(("cards", 3, "kind"), state) == ""  # no name to look up
    assert missing_kind_reason(("cards", 0, "owner"), state) == ""
    assert missing_kind_reason(("cards", 9, "kind"), state) == ""
    assert missing_kind_reason(None, state) == ""
