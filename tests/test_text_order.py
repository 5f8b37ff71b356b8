"""Lists a reader scans (a FAQ's A–Z contents, the checker's card names, the categories)
are in German dictionary order (DIN 5007-1, `faq_bot.text.collation_key`): an umlaut
sorts as its base letter, not after „z“ as its code point does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from faq_bot.text import alphabetical, collation_key


def test_an_umlaut_sorts_as_its_base_letter():
    names = ["Zug", "Opfern", "Ölfeld", "Ast", "Obertyp", "Äpfel"]
    assert alphabetical(names) == ["Äpfel", "Ast", "Obertyp", "Ölfeld", "Opfern", "Zug"]


def test_sharp_s_sorts_as_ss_and_case_is_no_rank():
    assert alphabetical(["Strasse", "straße", "Strom", "stab"]) == [
        "stab",
        "Strasse",
        "straße",
        "Strom",
    ]


def test_a_word_and_its_umlaut_form_keep_the_plain_one_first():
    assert alphabetical(["Schäden", "Schaden", "Schadenverteilung"]) == [
        "Schaden",
        "Schäden",
        "Schadenverteilung",
    ]


@given(st.lists(st.text(max_size=12), max_size=12))
def test_the_order_never_depends_on_the_order_given(names: list[str]):
    assert alphabetical(names) == alphabetical(list(reversed(names)))
    assert alphabetical(names) == sorted(names, key=collation_key)
