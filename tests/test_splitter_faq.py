"""The FAQ splitter on the real HoW FAQ and on generated FAQ-shaped texts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from faq_bot.corpus.splitters import faq

FAQ_FILE = Path(__file__).resolve().parent.parent / "corpus" / "000_6dfd36dc833f0c3c.txt"
SEPARATOR = "\n\n\xa0\n\n"
# counted by hand: 157 separator blocks, 2 pure preamble blocks, 3 continuation blocks
FAQ_ENTRY_COUNT = 152


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _rebuild(split: faq.Split) -> str:
    parts = [*split.preamble]
    for entry in split.entries:
        parts.extend((entry.title, *entry.paragraphs))
    return " ".join(parts)


@pytest.fixture(scope="module")
def text() -> str:
    return FAQ_FILE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def split(text):
    return faq.split(text, doc_id="how-faq", id_prefix="")


@pytest.fixture(scope="module")
def by_title(split):
    return {e.title: e for e in split.entries}


def test_faq_entry_count_is_one_per_headword(split):
    assert len(split.entries) == FAQ_ENTRY_COUNT


def test_faq_first_entry_is_227_pfund_bombe_with_category_and_alias(split):
    first = split.entries[0]
    assert first.title == "227-Pfund Bombe (Basisausbau)"
    assert first.category == "Basisausbau"
    assert first.aliases == ("227-Pfund Bombe",)
    assert first.name == "227-Pfund Bombe"
    assert first.id == "227-pfund-bombe-basisausbau"
    assert first.alias_ids == ("227-pfund-bombe",)
    assert first.position == 0
    assert first.markup == "text"
    assert first.doc == "how-faq"
    assert first.paragraphs[0].startswith("Die 227-Pfund Bombe führt am häufigsten")


def test_faq_last_entry_is_ziehen_karte(split):
    last = split.entries[-1]
    assert last.title == "Ziehen, Karte"
    assert last.id == "ziehen-karte"
    assert last.position == FAQ_ENTRY_COUNT - 1


def test_faq_preamble_holds_title_precedence_date_and_last_change(split):
    assert split.preamble == (
        "FAQ",
        "DIE HIER GENANNTEN REGELN HABEN IMMER VORRANG VOR DEM REGELWERK, "
        "DA SIE NEUEREN DATUMS SIND!!!",
        "STAND: 30. November 2012",
        "Letzte erfasste Änderung bei: Behelfsflugplatz (Landausbau)",
    )


def test_faq_positions_follow_document_order(split):
    assert [e.position for e in split.entries] == list(range(FAQ_ENTRY_COUNT))


def test_faq_list_after_separator_continues_ausschlusslaender(by_title):
    text = "\n".join(by_title["Ausschlussländer"].paragraphs)
    assert "- Alam Halfa (keine Einheiten mit 3 Siegfahnen)" in text
    assert "- Schwarzes Meer (keine Landeinheiten)" in text
    assert "Franz. Alpen" in text
    assert "positiv formulierte Länder" in text


def test_faq_global_domination_section_stays_in_multiplayer_spiel(by_title):
    paragraphs = by_title["Multiplayer-Spiel"].paragraphs
    assert "- Global Domination -" in paragraphs
    assert "- gerade Spieleranzahl -" in paragraphs
    assert any("Eine Variante des Multiplayer-Games" in p for p in paragraphs)


def test_faq_example_block_stays_in_explosive_landung(by_title):
    paragraphs = by_title["Explosive Landung (Aktionskarte)"].paragraphs
    assert paragraphs[-1].startswith("Ein Beispiel dazu: Mein Gegenüber grinst sadistisch")


def test_faq_no_title_is_a_list_item_or_sentence(split):
    for entry in split.entries:
        assert not entry.title.startswith(("- ", "Ein Beispiel")), entry.title
        assert not entry.title.endswith((".", ":")), entry.title
    assert "- Global Domination -" not in {e.title for e in split.entries}


def test_faq_quoted_headword_alias_drops_quotes(by_title):
    entry = by_title["“Einmalig” (Fähigkeiten-Schlüsselwort)"]
    assert entry.category == "Fähigkeiten-Schlüsselwort"
    assert entry.aliases == ("Einmalig",)
    assert entry.id == "einmalig-faehigkeiten-schluesselwort"
    assert entry.alias_ids == ("einmalig",)


@pytest.mark.parametrize("title", ["Besatzungsmacht!", "Tarnung!", "Vorteil!", "Initiative!"])
def test_faq_exclamation_headwords_are_entries(by_title, title):
    assert by_title[title].paragraphs


def test_faq_inverted_title_is_an_entry(by_title):
    assert by_title["Ziehen, Karte"].paragraphs[0].startswith("Wenn ein Effekt")
    assert by_title["Karte ziehen"].paragraphs == ("s. Ziehen, Karte",)


@pytest.mark.parametrize(
    ("title", "body"),
    [
        ("3-Spieler-Spiel", "s. Multiplayer-Spiel"),
        ("Blockerdeklaration", "s. Deklarationen"),
        ("Bombermontage (Basisausbau)", "s. bei Montagen"),
        ("Kampf", "s. bei Beispielkampf"),
        (
            "Global Domination (Spielvariante)",
            "s.im entsprechenden Abschnitt unter Multiplayer-Spielen",
        ),
    ],
)
def test_faq_reference_only_entries_keep_the_reference_as_body(by_title, title, body):
    assert by_title[title].paragraphs == (body,)


@pytest.mark.parametrize(
    ("title", "category", "aliases"),
    [
        ("Montagen (Basisausbauten)", "Basisausbau", ("Montagen",)),
        ("Autoblinda 41 (Landeinheit)", "Landeinheit", ("Autoblinda 41",)),
        ("Sturm! (Fähigkeit)", "Fähigkeit", ("Sturm!",)),
        ("Kreta (Länderkarte)", "Länderkarte", ("Kreta",)),
        ("Shinshu Maru (Schiff)", "Schiff", ("Shinshu Maru",)),
        ("Opfern (Spielmechanismus)", "Spielmechanismus", ("Opfern",)),
        ("Obertyp (Bezeichnung)", "Bezeichnung", ("Obertyp",)),
        ("Technologiewerte (TWs)", None, ("Technologiewerte", "TWs")),
        ("Sperrschaden (Artillerie im Direktkampf)", None, ()),
        ("Sperrschaden (in der Rückzugsphase)", None, ()),
        ("Phasen", None, ()),
    ],
)
def test_faq_parenthesis_becomes_category_alias_or_stays_in_name(
    by_title, title, category, aliases
):
    entry = by_title[title]
    assert (entry.category, entry.aliases) == (category, aliases)


def test_faq_sperrschaden_entries_stay_distinguishable(split):
    ids = [e.id for e in split.entries if e.title.startswith("Sperrschaden")]
    assert ids == ["sperrschaden-artillerie-im-direktkampf", "sperrschaden-in-der-rueckzugsphase"]


def test_faq_see_also_target_on_next_line_is_body_not_headword(by_title):
    assert "Aktionsstapel" in by_title  # the real entry exists once ...
    last = by_title["227-Pfund Bombe (Basisausbau)"].paragraphs[-1]
    assert last.endswith("s. auch unter Aktionsstapel")
    assert by_title["Aktionen"].paragraphs[1].endswith("s. auch unter Aktionsstapel")
    assert by_title["Aktionen"].paragraphs[2].startswith("2) (Auch) solcher Schaden")


@pytest.mark.parametrize(
    ("title", "joined"),
    [
        ("Schadenverteilungsphase", "(auch aufgeteilt) unter den blockenden Einheiten aus."),
        ("Schadenverteilungsphase", "in HoW. s.auch bei Beispielkampf."),
        ("Depot", "dass dieses nicht regelkonform ist"),
        ("Länderkarten", "die in der Siegphase Auswirkungen entfalten"),
        ("Siegphase", "im Land befindlichen Siegfahnen"),
        ("Sturm! (Fähigkeit)", "wodurch der Schaden einer Sturm!-Einheit"),
        ("Spielzonen", "Landausbaukarten und Einheitenkarten befinden"),
    ],
)
def test_faq_hard_wrapped_lines_are_joined(by_title, title, joined):
    assert any(joined in p for p in by_title[title].paragraphs)


def test_faq_list_items_are_not_joined(by_title):
    paragraphs = by_title["Phasen"].paragraphs
    assert "- Kartenziehphase (gemeinsam)" in paragraphs
    assert "- Endphase (gemeinsam)" in paragraphs


def test_faq_paragraphs_have_no_blank_or_nbsp_edges(split):
    for entry in split.entries:
        for paragraph in entry.paragraphs:
            assert paragraph and paragraph == paragraph.strip(" \t\xa0")


def test_faq_loses_and_duplicates_no_text(text, split):
    assert _collapse(_rebuild(split)) == _collapse(text)


def test_faq_ids_unique_and_slugs_of_titles(split):
    ids = [e.id for e in split.entries]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", i) for i in ids)


def test_faq_ids_stable_when_an_entry_is_inserted(text, split):
    marker = "\n\nBasis\n"
    assert marker in text
    extra = "\n\nAbwehrfeuer\nEin neuer Eintrag mitten im Alphabet.\n\n\xa0\n" + marker[2:]
    changed = faq.split(text.replace(marker, "\n" + extra, 1), doc_id="how-faq", id_prefix="")
    before = {e.title: e.id for e in split.entries}
    after = {e.title: e.id for e in changed.entries}
    assert len(changed.entries) == len(split.entries) + 1
    assert after.pop("Abwehrfeuer") == "abwehrfeuer"
    assert after == before


def test_faq_duplicate_headwords_get_distinct_ids():
    text = "Tarnung\nErster Text.\n\n\xa0\n\nTarnung\nZweiter Text."
    entries = faq.split(text, doc_id="d", id_prefix="p").entries
    assert [e.id for e in entries] == ["p-tarnung", "p-tarnung-2"]


def test_faq_id_prefix_applies_to_ids_and_alias_ids():
    entry = faq.split("Hafen (Basisausbau)\nText.", doc_id="d", id_prefix="x").entries[0]
    assert (entry.id, entry.alias_ids) == ("x-hafen-basisausbau", ("x-hafen",))


def test_faq_text_without_headword_is_all_preamble():
    split = faq.split("Nur ein Satz ohne Eintrag.\n\nNoch einer.", doc_id="d", id_prefix="")
    assert split.entries == ()
    assert split.preamble == ("Nur ein Satz ohne Eintrag.", "Noch einer.")


# --- generated FAQ-shaped texts ---------------------------------------------------------

_word = st.from_regex(r"[A-ZÄÖÜ][a-zäöüß]{2,9}", fullmatch=True)
_lower = st.from_regex(r"[a-zäöüß]{1,9}", fullmatch=True)
_headword = st.builds(
    lambda words, sep, suffix: sep.join(words) + suffix,
    st.lists(_word, min_size=1, max_size=3),
    st.sampled_from([" ", "-"]),
    st.sampled_from(["", "!", " (Basisausbau)", " (Aktionskarte)", " (TWs)", " (im Kampf)"]),
)
_sentence = st.builds(
    lambda first, rest, end: " ".join([first, *rest]) + end,
    _word,
    st.lists(
        st.one_of(_word, _lower, st.sampled_from(["s.", "z.B.", "(vgl.", "-", "“x”"])), max_size=12
    ),
    st.sampled_from([".", "!", "?", ":", "", ")"]),
)
_body_line = st.one_of(
    _sentence,
    st.builds(lambda s: "- " + s, _sentence),
    st.builds(lambda n, s: f"{n}) {s}", st.integers(1, 9), _sentence),
    st.builds(lambda s: s[0].lower() + s[1:], _sentence),  # a wrapped continuation
)
_body = st.lists(st.lists(_body_line, min_size=1, max_size=3), min_size=1, max_size=3)
_entry = st.tuples(_headword, _body, st.lists(st.builds(lambda s: "- " + s, _sentence), max_size=2))


@settings(max_examples=examples(75), deadline=None)  # 0.3 s each
@given(
    preamble=st.lists(_sentence, max_size=3),
    entries=st.lists(_entry, min_size=1, max_size=6),
)
def test_faq_generated_texts_keep_headwords_in_order_and_all_text(preamble, entries):
    blocks = []
    for headword, groups, continuations in entries:
        body = "\n\n".join("\n".join(group) for group in groups)
        blocks.append(f"{headword}\n{body}")
        blocks.extend(continuations)  # list blocks that continue the entry
    text = "\n\n".join(preamble) + ("\n\n" if preamble else "") + SEPARATOR.join(blocks)

    split = faq.split(text, doc_id="d", id_prefix="")

    assert [e.title for e in split.entries] == [h for h, _, _ in entries]
    assert split.preamble == tuple(preamble)
    assert _collapse(_rebuild(split)) == _collapse(text)
    assert len({e.id for e in split.entries}) == len(entries)
