"""The four rulebook splitters on the real corpus files and on generated texts of their shape."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from faq_bot.corpus.model import plain
from faq_bot.corpus.splitters import Split, headed, numbered, prose, reference_table

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
SOW = CORPUS / "002_cabdb8510c6358ab.txt"
RUNDE = CORPUS / "003_392c06b39f773588.txt"
BEORDERN = CORPUS / "001_8c9f9c635a966703.txt"
UEBERSICHT = CORPUS / "004_a831eb2562db1898.txt"


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _titles(split: Split) -> list[str]:
    return [e.title for e in split.entries]


def _by_title(split: Split) -> dict:
    return {e.title: e for e in split.entries}


def _source_lines(text: str) -> set[str]:
    return {line.strip() for line in text.split("\n") if line.strip()}


def _rebuild(split: Split) -> str:
    """Preamble, then each entry's title and paragraphs, in order."""
    parts = list(split.preamble)
    for e in split.entries:
        parts.extend((e.title, *e.paragraphs))
    return " ".join(parts)


def _rebuild_flat(split: Split, source: str) -> str:
    """Like _rebuild, but titles that are not a line of `source` (derived ones) are left out."""
    lines = _source_lines(source)
    parts = list(split.preamble)
    for e in split.entries:
        if e.title in lines:
            parts.append(e.title)
        parts.extend(e.paragraphs)
    return " ".join(parts)


def _assert_lines_kept(split: Split, source: str) -> None:
    """Every source line is in the preamble, a paragraph or a title; none is repeated."""
    lines = Counter(line.strip() for line in source.split("\n") if line.strip())
    kept = Counter(p.strip() for p in split.preamble)
    for e in split.entries:
        kept.update(line.strip() for p in e.paragraphs for line in p.split("\n") if line.strip())
    assert not kept - lines, "paragraph text that is not in the source, or repeated"
    assert not (lines - kept) - Counter(e.title for e in split.entries), "source lines lost"


def _rebuild_with_headings(split: Split) -> str:
    """Like _rebuild_flat, but headings are only in `section`: emit each one when it opens."""
    parts = list(split.preamble)
    emitted: list[str] = []
    for e in split.entries:
        path = e.section.split(reference_table.SECTION_SEP) if e.section else []
        common = 0
        while common < min(len(path), len(emitted)) and path[common] == emitted[common]:
            common += 1
        parts.extend(path[common:])
        parts.append(e.title)
        parts.extend(e.paragraphs)
        emitted = [*path, e.title]
    return " ".join(parts)


def _assert_ids_unique(split: Split) -> None:
    ids = [e.id for e in split.entries]
    assert len(ids) == len(set(ids))
    assert [e.position for e in split.entries] == list(range(len(split.entries)))


# --------------------------------------------------------------------------- numbered


@pytest.fixture(scope="module")
def sow_text() -> str:
    return SOW.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sow(sow_text) -> Split:
    return numbered.split(sow_text, doc_id="sow", id_prefix="sow")


NUMBERED_HEADINGS = [
    "1.0 Einleitung",
    "1.1 Spielziel von The Sails of War",
    "1.2 Die Rohstofftabellen",
    "1.3 The Sails of War und BATTLEMIST",
    "1.4 Material",
    "2.0 Spielaufbau SAILS OF WAR",
    "3.0 Plazierung der Seeschlangen",
    "4.0 Phase des Rates der Zauberer",
    "5.0 Bewegung und Angriffe der Seeschlangen",
    "6.0 Der ewige Kampf mit der See",
    "6.1 Der Hafen",
    "6.2 Allgemeine Regeln für Schiffe",
    "6.3 Counterlimit",
    "6.4 Schiffsbewegung",
    "6.5 Schiffstypen",
    "6.6 Seeschlachten",
    "6.7 Seehoheit",
    "7.0 Die Marker für die Reihenfolge",
    "8.0 Die Drachen in SoW",
    "9.0 Die Suche",
    "9.1 Die Bewegung für die Suche",
    "9.2 Die Kartensuche",
    "9.3 Die Suchcounter",
    "9.4 Helden und Kämpfe",
    "10.0 Besondere Siegbedingungen",
]
QUICK_REFERENCE_PAGES = [
    "Fragen zum Spiel",
    "Rundenablauf",
    "Ablauf einer Kampfrunde",
    "Truppensammlungstabelle",
    "Rekrutierungstabelle",
    "Die Graue Gilde",
    "Rekrutierung und Unterhalt",
    "Monster Bewegung In die Flucht schlagen Töten",
    "SUCHCOUNTERTABELLE",
    "MONSTER",
    "EREIGNISTABELLE",
]


def test_numbered_sow_has_one_entry_per_section_page_counter_and_event(sow):
    # 25 numbered sections + 11 quick-reference pages + 19 search counters + 13 events
    assert len(sow.entries) == 25 + 11 + 19 + 13
    assert _titles(sow)[:25] == NUMBERED_HEADINGS
    pages = [e.title for e in sow.entries[25:] if e.section is None]
    assert pages == QUICK_REFERENCE_PAGES
    assert sum(e.section == "SUCHCOUNTERTABELLE" for e in sow.entries) == 19
    assert sum(e.section == "EREIGNISTABELLE" for e in sow.entries) == 13


def test_numbered_sow_preamble_is_the_title_page(sow):
    assert sow.preamble == ("THE SAILS OF WAR", "Spielanleitung")


def test_numbered_sow_loses_and_duplicates_nothing(sow, sow_text):
    assert _collapse(_rebuild(sow)) == _collapse(sow_text)


def test_numbered_subsection_has_its_chapter_as_section_and_name_alias(sow):
    entry = _by_title(sow)["1.1 Spielziel von The Sails of War"]
    assert entry.section == "1.0 Einleitung"
    assert entry.aliases == ("Spielziel von The Sails of War",)
    assert entry.name == "Spielziel von The Sails of War"
    assert entry.id == "sow-spielziel-von-the-sails-of-war"
    assert entry.alias_ids == ("sow-1-1-spielziel-von-the-sails-of-war",)
    assert _by_title(sow)["1.0 Einleitung"].section is None


def test_numbered_table_rows_and_list_items_are_not_sections(sow):
    titles = _titles(sow)
    for trap in ("1 - 4\t0", "1 - 4", "1. Plazierung auswürfeln", "- 1 (28“ x 35“) Ozeanspielplan"):
        assert trap not in titles
    assert not any(t.startswith(("1 - 4", "5 - 6", "- ", "1)", "Tabelle")) for t in titles)
    table = _by_title(sow)["6.2 Allgemeine Regeln für Schiffe"]
    assert "Handelsschiff\t2\t4 H oder E\t1 H oder E" in "\n".join(table.paragraphs)
    recruits = _by_title(sow)["Truppensammlungstabelle"]
    assert "1 - 4\t0" in "\n".join(recruits.paragraphs)
    material = _by_title(sow)["1.4 Material"]
    assert any("28“ x 35“" in p for p in material.paragraphs)


def test_numbered_markdown_emphasis_is_kept_in_source_and_dropped_in_plain(sow):
    entry = sow.entries[0]
    assert entry.markup == "markdown"
    assert any("**umfassende Variante**" in p for p in entry.paragraphs)
    assert any("eine umfassende Variante für" in p for p in entry.plain_paragraphs)
    assert not any("*" in p for p in entry.plain_paragraphs)


def test_numbered_last_section_ends_where_the_back_matter_starts(sow):
    last = _by_title(sow)["10.0 Besondere Siegbedingungen"]
    assert "Fragen zum Spiel" not in " ".join(last.paragraphs)
    questions = _by_title(sow)["Fragen zum Spiel"]
    # a line followed by a heading, and a page decoration, are text, not titles
    assert "Übersetzung Ferdinand Köther" in questions.paragraphs
    assert "BATTLEMIST" in _by_title(sow)["Rekrutierungstabelle"].paragraphs
    assert "BATTLEMIST" not in _titles(sow)


def test_numbered_each_event_is_its_own_entry_under_the_event_table(sow):
    fire = _by_title(sow)["26 – 32 Waldbrände"]
    assert fire.section == "EREIGNISTABELLE"
    assert fire.aliases == ("Waldbrände",)
    assert fire.id == "sow-ereignistabelle-waldbraende"
    assert fire.paragraphs[0].startswith("Alle Waldbesitzkarten werden eingesammelt")
    storm = _by_title(sow)["98 – 00 Großer Sturm"]
    assert len(storm.paragraphs) == 2
    assert _by_title(sow)["EREIGNISTABELLE"].paragraphs == ("Würfelerggebnis Ereignis",)


def test_numbered_search_counter_title_is_its_name_and_remarks_a_paragraph(sow):
    hall = _by_title(sow)["Sky Hall – Himmlische Halle"]
    assert hall.section == "SUCHCOUNTERTABELLE"
    assert hall.paragraphs[0] == "(**Mystisches Land**) (Dieser Counter bleibt auf dem Spielfeld)"
    assert hall.aliases == ("Himmlische Halle", "Sky Hall")
    assert hall.id == "sow-suchcountertabelle-sky-hall-himmlische-halle"


def test_numbered_eval_passages_land_in_their_section(sow):
    def holder(passage: str) -> str:
        hits = [e.title for e in sow.entries if passage in _collapse(e.text)]
        assert len(hits) == 1, (passage, hits)
        return hits[0]

    assert holder("erhält der Verteidiger hierbei KEINEN Bonus") == (
        "4.0 Phase des Rates der Zauberer"
    )
    assert holder("Für jede Schlange in einem solchen Gebiet werden 3 Würfel geworfen.") == (
        "5.0 Bewegung und Angriffe der Seeschlangen"
    )
    assert holder("darf es bis zu drei eigene Armeeeinheiten") == "6.5 Schiffstypen"


def test_numbered_a_sentence_broken_by_a_blank_line_is_one_paragraph(sow):
    """A QA review: "(Niemand" / "darf diesen Counter ansehen" were two paragraphs, each
    with its own permalink, and neither a sentence."""
    by_id = {e.id: e for e in sow.entries}
    for entry_id, sentence in [
        ("sow-die-suchcounter", "(Niemand darf diesen Counter ansehen."),
        ("sow-spielaufbau-sails-of-war", "Jede Küstengewässerzone hat zwei durch"),
        ("sow-die-marker-fuer-die-reihenfolge", "Da der Herr der Finsternis in dieser Runde"),
    ]:
        assert any(sentence in " ".join(p.split()) for p in by_id[entry_id].paragraphs), entry_id


def test_numbered_only_an_open_end_before_a_lower_case_start_is_joined():
    body = "Jede Zone hat\n\nzwei Zahlen.\n\nSiehe Tabelle]\n\nc) danach\n\nEnde.\n\nklein"
    text = f"1.0 Regeln\n\n{body}\n\n2.0 Mehr\n\nText."  # not the last section: no back matter
    entry = numbered.split(text, doc_id="d", id_prefix="d").entries[0]
    assert entry.paragraphs == (
        "Jede Zone hat\nzwei Zahlen.",
        "Siehe Tabelle]",
        "c) danach",
        "Ende.",
        "klein",
    )


def test_numbered_ids_are_unique_and_survive_an_inserted_section(sow, sow_text):
    _assert_ids_unique(sow)
    changed = sow_text.replace(
        "7.0 Die Marker für die Reihenfolge",
        "6.8 Piraten\n\nPiraten kapern Handelsschiffe.\n\n7.0 Die Marker für die Reihenfolge",
    )
    after = numbered.split(changed, doc_id="sow", id_prefix="sow")
    assert len(after.entries) == len(sow.entries) + 1
    new_ids = {e.title: e.id for e in after.entries}
    assert all(new_ids[e.title] == e.id for e in sow.entries)
    assert new_ids["6.8 Piraten"] == "sow-piraten"


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöüß", min_size=1, max_size=8)
_TITLE = st.lists(_WORD, min_size=1, max_size=4).map(lambda ws: " ".join(ws).capitalize())
_SENTENCE = st.lists(_WORD, min_size=3, max_size=12).map(lambda ws: " ".join(ws).capitalize() + ".")
_TABLE_ROW = st.tuples(st.integers(1, 20), st.integers(1, 20), st.integers(0, 9)).map(
    lambda t: f"{t[0]} - {t[1]}\t{t[2]}"
)
_LIST_ITEM = st.tuples(st.integers(1, 9), _SENTENCE).map(lambda t: f"- {t[0]}) {t[1]}")
_BODY_BLOCK = st.one_of(
    st.lists(_SENTENCE, min_size=1, max_size=3).map(" ".join),
    st.lists(_TABLE_ROW, min_size=1, max_size=4).map("\n".join),
    st.lists(_LIST_ITEM, min_size=1, max_size=3).map("\n".join),
)


@st.composite
def _numbered_documents(draw):
    count = draw(st.integers(1, 8))
    numbers, major, minor = [], 0, 0
    for _ in range(count):
        if not numbers or draw(st.booleans()):
            major, minor = major + 1, 0
        else:
            minor += 1
        numbers.append((major, minor))
    sections = [
        (f"{a}.{b} {draw(_TITLE)}", draw(st.lists(_BODY_BLOCK, max_size=4))) for a, b in numbers
    ]
    preamble = draw(st.lists(_TITLE, max_size=2))
    blocks = [*preamble]
    for heading, body in sections:
        blocks.append(heading)
        blocks.extend(body)
    return "\n\n".join(blocks), [h for h, _ in sections]


@settings(max_examples=examples(150), deadline=None)
@given(_numbered_documents())
def test_numbered_generated_documents_keep_headings_in_order_and_lose_nothing(doc):
    text, headings = doc
    split = numbered.split(text, doc_id="d", id_prefix="d")
    assert [e.title for e in split.entries[: len(headings)]] == headings
    assert _collapse(_rebuild(split)) == _collapse(text)
    _assert_ids_unique(split)


@settings(max_examples=examples(200), deadline=None)
@given(st.text())
def test_numbered_arbitrary_text_does_not_crash_and_loses_nothing(text):
    split = numbered.split(text, doc_id="d", id_prefix="d")
    assert _collapse(_rebuild(split)) == _collapse(text)
    _assert_ids_unique(split)


# --------------------------------------------------------------------------- headed


@pytest.fixture(scope="module")
def runde_text() -> str:
    return RUNDE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def runde(runde_text) -> Split:
    return headed.split(runde_text, doc_id="runde", id_prefix="runde")


def test_headed_runde_has_intro_and_one_entry_per_heading(runde):
    assert _titles(runde) == [
        "Einleitung",
        "Runde",
        "Befehl",
        "Modus",
        "Bewegung",
        "Angriff",
        "Markierung",
        "Patt",
    ]
    assert runde.preamble == ()
    assert runde.entries[0].paragraphs[0].startswith("Das Spiel wird in Runden gespielt")


def test_headed_runde_loses_and_duplicates_nothing(runde, runde_text):
    assert _collapse(_rebuild_flat(runde, runde_text)) == _collapse(runde_text)


def test_headed_list_and_sentence_are_body_not_headings(runde):
    befehl = _by_title(runde)["Befehl"]
    assert befehl.paragraphs == (
        "Ein Befehl für eine Gruppe besteht aus",
        "- Modus\n- Bewegung\n- Angriff\n- Markierung",
    )
    bewegung = _by_title(runde)["Bewegung"]
    assert "Bewegt werden darf nur in geraden Linien." in bewegung.paragraphs


def test_headed_listed_parts_have_their_parent_as_section(runde):
    sections = {e.title: e.section for e in runde.entries}
    assert [sections[t] for t in ("Modus", "Bewegung", "Angriff", "Markierung")] == ["Befehl"] * 4
    assert sections["Patt"] is None and sections["Runde"] is None
    assert _by_title(runde)["Patt"].id == "runde-patt"


def test_headed_ids_survive_an_inserted_heading(runde, runde_text):
    _assert_ids_unique(runde)
    changed = runde_text.replace("\nPatt\n", "\nSonderregeln\nFlieger ignorieren Gelände.\nPatt\n")
    after = headed.split(changed, doc_id="runde", id_prefix="runde")
    ids = {e.title: e.id for e in after.entries}
    assert ids["Sonderregeln"] == "runde-sonderregeln"
    assert all(ids[e.title] == e.id for e in runde.entries)


@settings(max_examples=examples(200), deadline=None)
@given(st.text())
def test_headed_arbitrary_text_does_not_crash_and_loses_nothing(text):
    split = headed.split(text, doc_id="d", id_prefix="d")
    _assert_lines_kept(split, text)
    _assert_ids_unique(split)


# --------------------------------------------------------------------------- prose


@pytest.fixture(scope="module")
def beordern_text() -> str:
    return BEORDERN.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def beordern(beordern_text) -> Split:
    return prose.split(beordern_text, doc_id="beordern", id_prefix="beordern")


BEORDERN_TITLES = [
    "Beordern und Kämpfen",
    "Einheiten platzieren",
    "Einheiten bewegen",
    "Verteidigung organisieren",
    "Kämpfe beginnen",
    "Die Kampfrunde",
    "Rückzug",
    "Würfel werfen",
    "Verluste entfernen",
    "Sieg oder Niederlage",
    "A. Der Verteidiger hat keine Einheiten mehr im Gebiet.",
    "B. Der Angreifer hat keine Einheiten mehr im Gebiet.",
    "C. Kein Spieler hat mehr Einheiten im Gebiet.",
]


def test_prose_beordern_entries_are_the_steps_of_phase_3(beordern):
    assert _titles(beordern) == BEORDERN_TITLES
    assert beordern.preamble == ("3. Beordern und Kämpfen |",)


def test_prose_repeated_examples_stay_with_their_step(beordern):
    assert not any(t.startswith("Beispiel") for t in _titles(beordern))
    holders = [e.title for e in beordern.entries if "Beispiel „China“" in e.paragraphs]
    assert holders == [
        "Einheiten platzieren",
        "Einheiten bewegen",
        "Verteidigung organisieren",
        "Würfel werfen",
        "Verluste entfernen",
    ]
    step2 = _by_title(beordern)[BEORDERN_TITLES[2]]
    assert step2.paragraphs[-1].startswith("Der aktive Spieler hat 4 Einheiten in „Indonesia”")


def test_prose_loses_and_duplicates_nothing(beordern, beordern_text):
    # examples are moved to the outcome they illustrate, so compare line multisets
    source = Counter(line.strip() for line in beordern_text.split("\n") if line.strip())
    lines = _source_lines(beordern_text)
    rebuilt = Counter(beordern.preamble)
    for e in beordern.entries:
        if e.title in lines:
            rebuilt[e.title] += 1
        for p in e.paragraphs:
            rebuilt.update(line.strip() for line in p.split("\n"))
    assert rebuilt == source
    _assert_lines_kept(beordern, beordern_text)


def test_prose_keeps_source_order_except_for_moved_examples(beordern, beordern_text):
    moved = {"Beispiel „Verteidiger hat keine Einheiten mehr“", "Beispiel „Angreifer hat keine"}
    order = [line.strip() for line in beordern_text.split("\n") if line.strip()]
    # the displaced text of "Würfel werfen" is joined to that agenda item
    firsts = [
        e.paragraphs[0].split("\n")[0]
        for e in beordern.entries
        if e.paragraphs and e.title != "Würfel werfen"
    ]
    assert [order.index(f) for f in firsts] == sorted(order.index(f) for f in firsts)
    assert not any(f.startswith(tuple(moved)) for f in firsts)


def test_prose_outcome_examples_move_to_the_outcome_they_illustrate(beordern):
    by = _by_title(beordern)
    a, b, c = (by[t] for t in BEORDERN_TITLES[-3:])
    assert "Beispiel „Verteidiger hat keine Einheiten mehr“" in a.paragraphs
    assert "Beispiel „Angreifer hat keine Einheiten mehr“" in b.paragraphs
    assert "Beispiel „Kein Spieler hat mehr Einheiten im Gebiet“" in c.paragraphs
    assert a.section == "Die Kampfrunde › Sieg oder Niederlage"
    assert a.aliases == ("Der Verteidiger hat keine Einheiten mehr im Gebiet",)
    assert a.id == "beordern-der-verteidiger-hat-keine-einheiten-mehr-im-gebiet"


def test_prose_agenda_items_are_entries_under_their_heading(beordern):
    by = _by_title(beordern)
    assert by["Die Kampfrunde"].paragraphs == (
        "- Rückzug\n- Würfel werfen\n- Verluste entfernen\n- Sieg oder Niederlage",
    )
    for item in ("Rückzug", "Würfel werfen", "Verluste entfernen", "Sieg oder Niederlage"):
        assert by[item].section == "Die Kampfrunde"
    assert by["Rückzug"].paragraphs[0].startswith("Zu Beginn jeder Kampfrunde")
    # the infantry rule the extraction printed before "Die Kampfrunde" joins its item
    assert by["Würfel werfen"].paragraphs[:1] == (
        "Für jede Infanterie-Einheit darf der Spieler einen weißen Würfel werfen.",
    )
    assert (
        "Für jede Panzer-Einheit darf der Spieler einen grauen Würfel werfen."
        in by["Würfel werfen"].paragraphs
    )


def test_prose_displaced_example_goes_to_the_item_it_names(beordern):
    by = _by_title(beordern)
    assert by["Rückzug"].paragraphs[-1].startswith("Der Verteidiger (rot) entscheidet sich")
    assert not any(
        "entscheidet sich für einen Rückzug" in p for p in by["Würfel werfen"].paragraphs
    )


def test_prose_steps_are_titled_by_what_they_do_and_keep_their_old_ids(beordern):
    by = _by_title(beordern)
    assert by["Einheiten platzieren"].id == "beordern-einheiten-platzieren"
    old = {
        "Einheiten platzieren": (
            "beordern-der-aktive-spieler-platziert-nun-beliebig-viele-einheiten"
        ),
        "Einheiten bewegen": (
            "beordern-der-aktive-spieler-bewegt-nun-die-zuvor-platzierten-einheiten"
        ),
        "Verteidigung organisieren": "beordern-nun-ist-der-verteidiger-an-der-reihe",
        "Kämpfe beginnen": (
            "beordern-nachdem-alle-verteidiger-ihre-einheiten-platziert-haben-beginnen-die-kaempfe"
        ),
        "Würfel werfen": (
            "beordern-fuer-jede-infanterie-einheit-darf-der-spieler-einen-weissen-wuerfel-werfen"
        ),
    }
    for title, old_id in old.items():
        assert old_id in by[title].alias_ids


def test_prose_a_list_of_whole_sentence_rules_is_one_rule_per_paragraph(beordern):
    paragraphs = _by_title(beordern)["Einheiten bewegen"].paragraphs
    assert any(p.startswith("- Leere Gebiete können") for p in paragraphs)
    assert any(p.startswith("- In jedem Gebiet des aktiven Spielers") for p in paragraphs)
    # a list of actions (no full stops) stays one paragraph
    assert any(
        p.startswith("- Einheiten aus einem Gebiet in ein angrenzendes Gebiet bewegen\n")
        for p in paragraphs
    )


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("Der Spieler mischt nun die Karten seiner Hand.", "Karten mischen"),
        ("Gibt es mehrere Spieler, organisieren diese ihre Züge.", "Züge organisieren"),
        ("Für jeden Treffer darf der Spieler einen Würfel werfen.", "Würfel werfen"),
        ("Nun ist er an der Reihe.", None),
    ],
)
def test_prose_action_title_is_noun_and_infinitive(text, title):
    assert prose.action_title(text) == title


@pytest.mark.parametrize(
    ("passage", "title"),
    [
        ("darf dabei nicht höher sein als die Produktionspunkte", BEORDERN_TITLES[1]),
        ("dürfen keine Einheiten direkt aus dem Base Camp platziert werden", BEORDERN_TITLES[1]),
        ("Jede Seite darf maximal 3 Würfel werfen", "Würfel werfen"),
        ("verliert der Spieler der Frankreich spielt, bei einem Rückzug keine", "Rückzug"),
        ("Der Marker des Angreifers wird nicht verrückt.", BEORDERN_TITLES[-1]),
    ],
)
def test_prose_eval_passages_land_in_their_step(beordern, passage, title):
    hits = [e.title for e in beordern.entries if passage in _collapse(e.text)]
    assert hits == [title]


def test_prose_ids_survive_an_inserted_heading(beordern, beordern_text):
    _assert_ids_unique(beordern)
    changed = beordern_text.replace(
        "\nDie Kampfrunde\n", "\nLuftschlag\nFlieger greifen zuerst an.\nDie Kampfrunde\n"
    )
    after = prose.split(changed, doc_id="beordern", id_prefix="beordern")
    ids = {e.title: e.id for e in after.entries}
    assert ids["Luftschlag"] == "beordern-luftschlag"
    assert all(ids[e.title] == e.id for e in beordern.entries)


def test_prose_derive_title_uses_first_sentence_or_clause():
    assert prose.derive_title("Nun ist der Verteidiger (= der Gegner) an der Reihe. Er darf.") == (
        "Nun ist der Verteidiger an der Reihe"
    )
    long = (
        "Der Spieler legt nun beliebig viele Karten aus seiner eigenen Hand in alle Felder, bis er."
    )
    assert prose.derive_title(long) == "Der Spieler legt nun beliebig viele Karten"


@settings(max_examples=examples(200), deadline=None)
@given(st.text())
def test_prose_arbitrary_text_does_not_crash_and_loses_nothing(text):
    split = prose.split(text, doc_id="d", id_prefix="d")
    _assert_lines_kept(split, text)
    _assert_ids_unique(split)


# --------------------------------------------------------------------------- reference_table


@pytest.fixture(scope="module")
def uebersicht_text() -> str:
    return UEBERSICHT.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def uebersicht(uebersicht_text) -> Split:
    return reference_table.split(uebersicht_text, doc_id="uebersicht", id_prefix="uebersicht")


_ECHO_ROW = re.compile(r"^S (der Attacke|ist) ")


def _reference_source(text: str) -> str:
    """The file's words without markdown heading marks, separator rows and table echoes."""
    parts = []
    for line in text.split("\n"):
        if not line.strip():
            continue
        m = re.match(r"^#+\s+(.*)$", line)
        if m:
            parts.append(m.group(1))
            continue
        if "\t" not in line:
            parts.append(line)
            continue
        cells = [c.strip() for c in line.split("\t") if c.strip()]
        if all(set(c) == {"-"} for c in cells) or _ECHO_ROW.match(line):
            continue
        if cells[0] == "2. Verwundungswurf":
            cells = cells[:2]  # the further cells repeat the <table> as plain text
        parts.extend(cells)
    return " ".join(parts)


def test_reference_table_has_one_entry_per_row_plus_heading_texts(uebersicht):
    assert len(uebersicht.entries) == 50
    assert uebersicht.preamble == ("SPIELRUNDENÜBERSICHT - 10. EDITION",)
    headings_as_entries = [e.title for e in uebersicht.entries if e.title.isupper()]
    assert "2. VERSTÄRKUNGEN" in headings_as_entries
    assert "ATTACKEN AUSFÜHREN" in headings_as_entries


def test_reference_table_loses_and_duplicates_nothing(uebersicht, uebersicht_text):
    assert _collapse(_rebuild_with_headings(uebersicht)) == _collapse(
        _reference_source(uebersicht_text)
    )


def test_reference_table_definition_html_is_kept_verbatim(uebersicht, uebersicht_text):
    paragraphs = {p for e in uebersicht.entries for p in e.paragraphs}
    for line in uebersicht_text.split("\n"):
        cells = line.split("\t")
        if len(cells) > 1 and cells[0].strip() and not _ECHO_ROW.match(line):
            if not set(cells[0].strip()) <= {"-"}:
                assert cells[1].strip() in paragraphs


def test_reference_table_html_is_stripped_and_entities_decoded_in_plain(uebersicht):
    shaken = _by_title(uebersicht)["2. Erschütterung"]
    assert shaken.markup == "html"
    assert "<math>2W6 &lt; MW</math>" in shaken.paragraphs[0]
    plain_text = shaken.plain_paragraphs[0]
    assert "2W6 < MW" in plain_text
    assert "<" not in plain_text.replace("2W6 < MW", "")
    assert "&lt;" not in plain_text
    assert "• Der MK-Wert ist 0." in plain_text


def test_reference_table_rows_sit_under_their_heading_path(uebersicht):
    by = _by_title(uebersicht)
    assert by["Normale Bewegung"].section == "BEWEGUNGSPHASE › 1. EINHEITEN BEWEGEN"
    assert by["Normale Bewegung"].id == (
        "uebersicht-bewegungsphase-einheiten-bewegen-normale-bewegung"
    )
    # "## 2. VERSTÄRKUNGEN" continues "### 1. EINHEITEN BEWEGEN": same level
    assert by["Schocktruppen"].section == "BEWEGUNGSPHASE › 2. VERSTÄRKUNGEN"
    assert by["2. VERSTÄRKUNGEN"].section == "BEWEGUNGSPHASE"
    assert by["2. VERSTÄRKUNGEN"].paragraphs[0].startswith("<p>Einheiten in Reserve")
    assert by["Wer kann schießen?"].section == "FERKAMPFPHASE"
    assert by["ATTACKEN AUSFÜHREN"].section is None
    assert by["ATTACKEN AUSFÜHREN"].paragraphs == (
        "Unmodifizierte Würfe von 6 sind immer Erfolge, von 1 immer Misserfolge. "
        "Kein Wurf kann um mehr als 1 modifiziert werden.",
    )


def test_reference_table_numbered_terms_get_an_alias_without_number(uebersicht):
    first = uebersicht.entries[0]
    assert first.title == "1. Befehlspunkt"
    assert first.aliases == ("Befehlspunkt",)
    assert first.section == "BEFEHLSPHASE"
    assert first.id == "uebersicht-befehlsphase-befehlspunkt"
    assert first.alias_ids == ("uebersicht-befehlspunkt",)


def test_reference_table_separator_and_echo_rows_are_not_entries(uebersicht):
    titles = _titles(uebersicht)
    assert not any(set(t) <= {"-"} for t in titles)
    assert not any(_ECHO_ROW.match(t) for t in titles)
    wound = _by_title(uebersicht)["2. Verwundungswurf"]
    assert len(wound.paragraphs) == 1 and "<table" in wound.paragraphs[0]
    for cell in ("S ist das Doppelte (oder mehr) von W", "S ist die Hälfte (oder weniger) von W"):
        assert cell in wound.text


def test_reference_table_same_term_in_two_phases_gets_two_ids():
    text = "## PHASE A\n\nTarnung\t<p>a</p>\n\n## PHASE B\n\nTarnung\t<p>b</p>\n"
    split = reference_table.split(text, doc_id="d", id_prefix="x")
    assert [e.id for e in split.entries] == ["x-phase-a-tarnung", "x-phase-b-tarnung"]
    assert [e.section for e in split.entries] == ["PHASE A", "PHASE B"]


def test_reference_table_ids_survive_an_inserted_row(uebersicht, uebersicht_text):
    _assert_ids_unique(uebersicht)
    changed = uebersicht_text.replace(
        "Tarnung\t", "Deckung ignorieren\t<p>Neue Regel &amp; mehr.</p>\nTarnung\t"
    )
    after = reference_table.split(changed, doc_id="uebersicht", id_prefix="uebersicht")
    assert len(after.entries) == len(uebersicht.entries) + 1
    ids = {(e.section, e.title): e.id for e in after.entries}
    assert all(ids[(e.section, e.title)] == e.id for e in uebersicht.entries)


_CELL_TEXT = (
    st.text(
        alphabet=st.characters(
            blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\t"
        ),
        min_size=1,
        max_size=30,
    )
    .map(str.strip)
    .filter(lambda s: s and not set(s) <= {"-"} and "<t" not in s.lower())
)
_HTML_DEFINITION = st.one_of(
    _CELL_TEXT,
    st.lists(_CELL_TEXT, min_size=1, max_size=3).map(
        lambda ps: " ".join(f"<p>{p}</p>" for p in ps)
    ),
    _CELL_TEXT.map(lambda p: f"<ul><li>{p} &lt; &amp;</li></ul>"),
)
_TERM = st.tuples(st.one_of(st.none(), st.integers(1, 9)), _TITLE).map(
    lambda t: f"{t[0]}. {t[1]}" if t[0] else t[1]
)


@st.composite
def _reference_documents(draw):
    """(text, expected [(section, term, definition)]) with every heading above rows."""
    lines, expected, stack = [], [], []
    for _ in range(draw(st.integers(1, 5))):
        level = draw(st.integers(2, 2 + len(stack))) if stack else 2
        heading = draw(_TITLE).upper()
        stack = [h for h in stack if h[0] < level] + [(level, heading)]
        lines += ["", f"{'#' * level} {heading}", ""]
        for _ in range(draw(st.integers(1, 4))):
            term, definition = draw(_TERM), draw(_HTML_DEFINITION)
            lines.append(f"{term}\t{definition}")
            expected.append((" › ".join(h for _, h in stack), term, definition))
    return "\n".join(lines), expected


@settings(max_examples=examples(150), deadline=None)
@given(_reference_documents())
def test_reference_table_generated_documents_keep_rows_in_order_verbatim(doc):
    text, expected = doc
    split = reference_table.split(text, doc_id="d", id_prefix="d")
    got = [(e.section, e.title, e.paragraphs[0]) for e in split.entries]
    assert got == expected
    assert all(len(e.paragraphs) == 1 for e in split.entries)
    assert all(e.plain_paragraphs[0] == plain(e.paragraphs[0], "html") for e in split.entries)
    _assert_ids_unique(split)


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab #\t-\n<p>&;1."))))
def test_reference_table_arbitrary_text_does_not_crash(text):
    split = reference_table.split(text, doc_id="d", id_prefix="d")
    _assert_ids_unique(split)
    pieces = [*split.preamble, *(p for e in split.entries for p in (e.title, *e.paragraphs))]
    assert all(piece in text for piece in pieces)


@settings(max_examples=examples(100), deadline=None)
@given(st.text())
def test_reference_table_arbitrary_unicode_does_not_crash(text):
    _assert_ids_unique(reference_table.split(text, doc_id="d", id_prefix="d"))
