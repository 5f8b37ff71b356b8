"""Cross references of the real FAQ: extraction, resolution and the link graph."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from faq_bot.corpus import Corpus, Document, Entry, load_corpus
from faq_bot.links import (
    LinkGraph,
    Lookup,
    build_links,
    find_references,
    paragraph_index,
    pointer,
    resolve,
    see_also,
)

CORPUS_DIR = Path(__file__).resolve().parent.parent / "corpus"


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus(CORPUS_DIR)


@pytest.fixture(scope="module")
def faq(corpus) -> Document:
    return corpus.document("how-faq")


@pytest.fixture(scope="module")
def graph(corpus) -> LinkGraph:
    return build_links(corpus)


@pytest.fixture(scope="module")
def lookup(faq) -> Lookup:
    return Lookup.of(faq.entries)


def _id(faq: Document, title: str) -> str:
    matches = [e.id for e in faq.entries if e.title == title]
    assert len(matches) == 1, title
    return matches[0]


def _entry(*paragraphs: str, id: str = "quelle", title: str = "Quelle") -> Entry:
    return Entry(id=id, doc="d", title=title, paragraphs=paragraphs, position=0)


@pytest.mark.parametrize(
    ("source", "written", "target"),
    [
        ("3-Spieler-Spiel", "s. Multiplayer-Spiel", "Multiplayer-Spiel"),
        ("Blockerdeklaration", "s. Deklarationen", "Deklarationen"),
        ("Bauphase", "s. auch Sabotage", "Sabotage (Basisausbau)"),
        ("Abwerfen", "s. dazu Auslösende Bedingungen", "Auslösende Bedingungen"),
        ("Phasenzweck", "s. dazu auch Sabotage und Bauphase", "Sabotage (Basisausbau)"),
        ("Phasenzweck", "s. dazu auch Sabotage und Bauphase", "Bauphase"),
        ("Kampf", "s. bei Beispielkampf", "Beispielkampf"),
        ("Werft (Basisausbau)", "s. bei Montagen", "Montagen (Basisausbauten)"),
        ("Schadenverteilungsphase", "s.auch bei Beispielkampf", "Beispielkampf"),
        ("227-Pfund Bombe (Basisausbau)", "s. auch unter Aktionsstapel", "Aktionsstapel"),
        ("Aktionen", "s. auch unter Aktionsstapel", "Aktionsstapel"),
        ("Angreifer", "vgl. Phasen", "Phasen"),
        ("Angriffsdeklarationsphase", "vgl. Phasen", "Phasen"),
        ("Länderkarten", "vgl. Spielvorbereitung", "Spielvorbereitung"),
        ("Runde", "vgl. hierzu insbesondere: Phasen", "Phasen"),
        ("Sabotage (Basisausbau)", "s. dort", "Bauphase"),
        ("Karte ziehen", "s. Ziehen, Karte", "Ziehen, Karte"),
        (
            "Global Domination (Spielvariante)",
            "s.im entsprechenden Abschnitt unter Multiplayer-Spielen",
            "Multiplayer-Spiel",
        ),
    ],
)
def test_links_every_reference_form_resolves_to_its_entry(faq, graph, source, written, target):
    found = [(r.text, r.target) for r in graph.outgoing(_id(faq, source))]
    assert (written, _id(faq, target)) in found


def test_links_see_also_under_links_227_pfund_bombe_to_aktionsstapel(faq, graph):
    bombe, stapel = _id(faq, "227-Pfund Bombe (Basisausbau)"), _id(faq, "Aktionsstapel")
    [ref] = graph.outgoing(bombe)
    assert (ref.target_text, ref.target) == ("Aktionsstapel", stapel)
    assert graph.backlinks(stapel) == [bombe, _id(faq, "Aktionen")]


def test_links_see_also_under_with_target_on_next_paragraph():
    entry = _entry("Reaktion ist besser als Aktion. s. auch unter", "Aktionsstapel", "2) Weiter.")
    [mention] = find_references(entry)
    assert (mention.paragraph, mention.target_text, mention.start, mention.end) == (
        1,
        "Aktionsstapel",
        0,
        len("Aktionsstapel"),
    )
    assert mention.text == "s. auch unter Aktionsstapel"


def test_links_s_dort_points_at_the_entry_named_before_it(faq, graph):
    [ref] = graph.outgoing(_id(faq, "Sabotage (Basisausbau)"))
    assert ref.text == "s. dort"
    assert ref.target == _id(faq, "Bauphase")
    sabotage = next(e for e in faq.entries if e.id == ref.source)
    paragraph = sabotage.plain_paragraphs[ref.paragraph]
    assert paragraph[ref.start : ref.end] == "Bauphasen"
    assert paragraph[ref.end :].startswith("-Regelung (s. dort)")


def test_links_multiple_targets_in_text_order(faq, graph):
    refs = graph.outgoing(_id(faq, "Phasenzweck"))
    assert [r.target_text for r in refs] == ["Sabotage", "Bauphase"]
    assert refs[0].start < refs[1].start


@pytest.mark.parametrize(
    ("text", "title"),
    [
        ("Aktionsstapeln", "Aktionsstapel"),
        ("Multiplayer-Spielen", "Multiplayer-Spiel"),
        ("Bauphasen", "Bauphase"),
        ("Aktionskarte", "Aktionskarten"),
        ("Beispielkampf.", "Beispielkampf"),
        ("beispielkampf", "Beispielkampf"),
        ("„Phasen“", "Phasen"),
        ("Ziehen, Karte", "Ziehen, Karte"),
        ("Karte ziehen", "Karte ziehen"),
        ("227-Pfund Bombe", "227-Pfund Bombe (Basisausbau)"),
        ("Einmalig", "“Einmalig” (Fähigkeiten-Schlüsselwort)"),
        ("TWs", "Technologiewerte (TWs)"),
        ("Tarnung", "Tarnung!"),
        ("Sturm!", "Sturm! (Fähigkeit)"),
    ],
)
def test_links_resolve_titles_aliases_and_inflections(faq, lookup, text, title):
    assert resolve(text, lookup) == _id(faq, title)


def test_links_resolve_inverted_title_when_no_exact_entry(faq):
    without = Lookup.of(e for e in faq.entries if e.title != "Karte ziehen")
    assert resolve("Karte ziehen", without) == _id(faq, "Ziehen, Karte")


@pytest.mark.parametrize(
    "text",
    [
        "Besatzungsmacht",  # "Besatzungsmacht!" and "Besatzungsmacht (Basisausbau)"
        "Sperrschaden",  # two entries told apart by their parenthesis
        "Ägypten",
        "jeweils entsprechenden Eintrag",
        "Regeln bzw. oben die Multiplayer-Varianten",
        "",
        "   ",
    ],
)
def test_links_resolve_refuses_ambiguous_or_unknown_names(lookup, text):
    assert resolve(text, lookup) is None


def test_links_resolve_accepts_a_corpus(faq, corpus):
    assert resolve("Aktionsstapeln", corpus) == _id(faq, "Aktionsstapel")
    assert resolve("Aktionsstapeln", corpus, doc="how-faq") == _id(faq, "Aktionsstapel")
    assert resolve("Aktionsstapeln", corpus, doc="kein-dokument") is None


def test_links_unresolved_references_are_listed_with_entry_and_text(faq, graph):
    unresolved = {
        (r.source, r.text, r.target_text) for r in graph.unresolved() if r.source in _ids(faq)
    }
    assert unresolved == {
        (_id(faq, "Landausbaukarten"), "s. Ägypten", "Ägypten"),
        (
            _id(faq, "Multiplayer-Spiel"),
            "s. Regeln bzw. oben die Multiplayer-Varianten",
            "Regeln bzw. oben die Multiplayer-Varianten",
        ),
        (
            _id(faq, "Spielformate"),
            "s. jeweils entsprechenden Eintrag",
            "jeweils entsprechenden Eintrag",
        ),
    }


def _ids(doc: Document) -> set[str]:
    return {e.id for e in doc.entries}


def test_links_unresolved_references_link_nowhere(corpus, graph):
    unresolved = graph.unresolved()
    assert unresolved and all(r.target is None for r in unresolved)
    backlinked = sum(len(graph.incoming(e.id)) for e in corpus.entries())
    linking = [r for r in graph.references if r.target is not None and r.target != r.source]
    assert backlinked == len(linking)


def test_links_faq_reference_count(faq, graph):
    refs = [r for r in graph.references if r.source in _ids(faq)]
    assert len(refs) == 37
    assert len([r for r in refs if r.target is not None]) == 34


def test_links_targets_stay_in_the_source_document(corpus, graph):
    doc_of = {e.id: e.doc for e in corpus.entries()}
    for ref in graph.references:
        if ref.target is not None:
            assert doc_of[ref.target] == doc_of[ref.source]


def test_links_spans_point_at_the_target_text(corpus, graph):
    by_id = corpus.by_id()
    for ref in graph.references:
        paragraph = by_id[ref.source].plain_paragraphs[ref.paragraph]
        assert paragraph[ref.start : ref.end] == ref.target_text


def test_links_backlinks_in_document_order_without_duplicates(faq, graph):
    expected = ["Angreifer", "Angriffsdeklarationsphase", "Runde", "Verteidiger"]
    assert graph.backlinks(_id(faq, "Phasen")) == [_id(faq, t) for t in expected]
    positions = {e.id: e.position for e in faq.entries}
    for entry in faq.entries:
        back = graph.backlinks(entry.id)
        assert len(back) == len(set(back))
        assert [positions[i] for i in back] == sorted(positions[i] for i in back)


def test_links_capitalised_vgl_at_a_sentence_start_is_a_reference(corpus, graph):
    [ref] = graph.outgoing("sperrschaden-in-der-rueckzugsphase")
    assert (ref.text, ref.target) == ("Vgl. auch Rückzugsphase", "rueckzugsphase")
    assert find_references(_entry("Das gilt. Vgl. Phasen."))[0].target_text == "Phasen"


def test_links_rulebook_section_reference_resolves_to_numbered_section(corpus, graph):
    sow = corpus.document("sow")
    hafen = next(e for e in sow.entries if e.title == "6.1 Der Hafen")
    schiffstypen = next(e for e in sow.entries if e.title == "6.5 Schiffstypen")
    [ref] = graph.outgoing(hafen.id)
    assert ref.text.startswith("Siehe Abschnitt 6.5")
    assert (ref.target_text, ref.target) == ("Abschnitt 6.5", schiffstypen.id)
    assert hafen.id in graph.backlinks(schiffstypen.id)


def test_links_rulebook_table_reference_links_to_the_paragraph_it_captions(corpus, graph):
    schiffe = "sow-allgemeine-regeln-fuer-schiffe"
    table = [r for r in graph.references if r.target_paragraph is not None]
    assert {r.source for r in table} == {schiffe, "sow-schiffsbewegung"}
    for ref in table:
        assert (ref.target_text, ref.target, ref.target_paragraph) == ("Tabelle 1.0", schiffe, 1)
    caption = corpus.by_id()[schiffe].plain_paragraphs[1]
    assert caption.startswith("Tabelle 1.0 ")
    assert "sow-schiffsbewegung" in graph.backlinks(schiffe)
    assert schiffe not in graph.backlinks(schiffe)  # its own reference is no backlink


def _graph(*entries: Entry) -> LinkGraph:
    """The link graph of one rulebook document of `entries`."""
    document = Document(
        id="d",
        file="d.txt",
        title="D",
        game="G",
        kind="rules",
        language="de",
        splitter="sections",
        entries=entries,
    )
    return build_links(Corpus((document,)))


def _table_graph(*captions: str) -> LinkGraph:
    source = _entry("Die Kosten (s. Tabelle 2.1 zu den Schiffen) gelten immer.")
    tables = _entry("Einleitung.", *captions, "Typ Kosten", id="tabellen", title="Tabellen")
    return _graph(source, tables)


def test_links_numbered_label_resolves_to_the_caption_paragraph():
    [ref] = _table_graph("Tabelle 2.1 Schiffskosten").outgoing("quelle")
    assert (ref.target_text, ref.target, ref.target_paragraph) == ("Tabelle 2.1", "tabellen", 1)
    assert ref.resolved


@pytest.mark.parametrize(
    "captions",
    [
        ("Tabelle 2.1 zeigt, was Schiffe kosten.",),  # a sentence, not a caption
        ("Tabelle 2.10 Schiffskosten",),  # another number
        ("Tabelle 2 Schiffskosten",),
        ("Tabelle 2.1 Schiffskosten", "Tab. 2.1 Unterhalt"),  # two captions: no guess
    ],
)
def test_links_numbered_label_without_one_caption_stays_unresolved(captions):
    [ref] = _table_graph(*captions).outgoing("quelle")
    assert ref.target is None and ref.target_paragraph is None


@pytest.mark.parametrize("written", ["s. Tabelle 2.1 und Bauphase", "s. Bauphase und Tabelle 2.1"])
def test_links_label_and_title_joined_by_und_are_two_references(written):
    """A review: the label returned before the "und" split (Bauphase was lost), and the
    split pieces were never read as labels (the table stayed unresolved)."""
    source = _entry(f"Die Kosten ({written}) gelten immer.")
    tables = _entry("Einleitung.", "Tabelle 2.1 Schiffskosten", id="tabellen", title="Tabellen")
    bau = _entry("Text.", id="bauphase", title="Bauphase")
    refs = _graph(source, tables, bau).outgoing("quelle")
    found = {(r.target_text, r.target, r.target_paragraph) for r in refs}
    assert found == {("Tabelle 2.1", "tabellen", 1), ("Bauphase", "bauphase", None)}


def test_links_label_and_a_bare_number_are_two_labels_of_one_kind():
    """A review: "s. Tabelle 2.1 und 2.2" added an unresolved reference "2.2"."""
    source = _entry("Die Kosten (s. Tabelle 2.1 und 2.2) gelten immer.")
    captions = ("Tabelle 2.1 Schiffskosten", "Tabelle 2.2 Unterhalt")
    tables = _entry("Einleitung.", *captions, id="tabellen", title="Tabellen")
    refs = _graph(source, tables).outgoing("quelle")
    found = {(r.target_text, r.target, r.target_paragraph) for r in refs}
    assert found == {("Tabelle 2.1", "tabellen", 1), ("2.2", "tabellen", 2)}


def test_links_bare_number_after_a_label_is_that_label_before_a_section_title():
    """A review: with a section titled "2.2 Bewegung", "s. Tabelle 2.1 und 2.2" linked the
    section, though the number continues the table list."""
    source = _entry("Die Kosten (s. Tabelle 2.1 und 2.2) gelten immer.")
    captions = ("Tabelle 2.1 Schiffskosten", "Tabelle 2.2 Unterhalt")
    tables = _entry("Einleitung.", *captions, id="tabellen", title="Tabellen")
    section = _entry("Text.", id="sec22", title="2.2 Bewegung")
    refs = _graph(source, tables, section).outgoing("quelle")
    found = {(r.target_text, r.target, r.target_paragraph) for r in refs}
    assert found == {("Tabelle 2.1", "tabellen", 1), ("2.2", "tabellen", 2)}


def test_links_a_whole_section_title_after_a_label_stays_that_section():
    """Only the number alone continues the label list: "2.2 Bewegung" is the section."""
    source = _entry("Die Kosten (s. Tabelle 2.1 und 2.2 Bewegung) gelten immer.")
    captions = ("Tabelle 2.1 Schiffskosten", "Tabelle 2.2 Unterhalt")
    tables = _entry("Einleitung.", *captions, id="tabellen", title="Tabellen")
    section = _entry("Text.", id="sec22", title="2.2 Bewegung")
    refs = _graph(source, tables, section).outgoing("quelle")
    found = {(r.target_text, r.target, r.target_paragraph) for r in refs}
    assert found == {("Tabelle 2.1", "tabellen", 1), ("2.2 Bewegung", "sec22", None)}


@pytest.mark.parametrize("second", ["Tabelle 2.2", "2.2"])
def test_links_labels_before_words_that_name_nothing_are_all_kept(second):
    """A review: "s. Tabelle 2.1 und Tabelle 2.2 und die Kosten der Schiffe" kept only the
    first table: one piece naming nothing dropped every piece after the first label."""
    source = _entry(f"Die Kosten (s. Tabelle 2.1 und {second} und die Kosten der Schiffe) gelten.")
    captions = ("Tabelle 2.1 Schiffskosten", "Tabelle 2.2 Unterhalt")
    tables = _entry("Einleitung.", *captions, id="tabellen", title="Tabellen")
    refs = _graph(source, tables).outgoing("quelle")
    found = {(r.target_text, r.target, r.target_paragraph) for r in refs}
    assert found == {("Tabelle 2.1", "tabellen", 1), (second, "tabellen", 2)}


def test_see_also_reads_a_stored_true_as_no_paragraph():
    """A review: the "Siehe auch" list keyed a stored JSON true as paragraph "True" (the
    page and the CLI read it with one helper now)."""
    links = [
        {"target": "tabellen", "target_paragraph": True, "text": "Tabellen"},
        {"target": "tabellen", "target_paragraph": None, "text": "Tabellen"},
    ]
    assert len(see_also(links)) == 1
    assert paragraph_index(True) is None and paragraph_index(0) == 0


def test_links_label_and_words_that_name_nothing_are_the_label_alone():
    """A review: "s. Tabelle 1.0 und die Kosten der Schiffe" added an unresolved reference
    for the words after "und"; they describe the table, as "bezüglich …" does."""
    source = _entry("Die Kosten (s. Tabelle 2.1 und die Kosten der Schiffe) gelten immer.")
    tables = _entry("Einleitung.", "Tabelle 2.1 Schiffskosten", id="tabellen", title="Tabellen")
    [ref] = _graph(source, tables).outgoing("quelle")
    assert (ref.target_text, ref.target, ref.target_paragraph) == ("Tabelle 2.1", "tabellen", 1)


def test_links_label_abbreviation_names_the_same_caption():
    lookup = Lookup.of([_entry("Einleitung.", "Abbildung 3 Handel", id="a", title="A")])
    assert lookup.resolve_label("Abb. 3") == ("a", 1)
    assert lookup.resolve_label("Tabelle 3") is None


def test_links_section_number_needs_a_matching_section():
    lookup = Lookup.of([_entry("Text.", id="s-6-5", title="6.5 Schiffstypen")])
    assert resolve("Abschnitt 6.5", lookup) == "s-6-5"
    assert resolve("Abschnitt 6.6", lookup) is None
    assert resolve("Abschnitt 6", lookup) is None


@pytest.mark.parametrize(
    "text",
    [
        "Die Do217 vs. Spitfire bzw. der Jäger, z.B. eine Me109 usw. sind s.g. Einheiten.",
        "Er nutzt seine Vorteils. Dann ist es aus.",
        "Das gilt u.a. für Schiffe, d.h. für alle Seeeinheiten.",
        "Das ist u.s.w. so.",
    ],
)
def test_links_abbreviations_are_not_references(text):
    assert find_references(_entry(text)) == []


def test_links_marker_right_after_a_sentence_end_without_a_space():
    # the real FAQ writes "…kein Basisschaden!).s. auch Blitzangriff."
    refs = find_references(_entry("Zerstört (kein Basisschaden!).s. auch Blitzangriff."))
    assert [r.target_text for r in refs] == ["Blitzangriff"]


# --- any text ----------------------------------------------------------------------------

_piece = st.one_of(
    st.text(max_size=30),
    st.sampled_from(
        [
            "s. ",
            "s.",
            "vgl. ",
            "(s. dort)",
            "s. auch unter",
            "s. dazu auch ",
            " und ",
            "(",
            ")",
            ". ",
            ", ",
            "Phasen",
            "„",
            "“",
            "\xa0",
            "\n",
            ":",
            "-",
        ]
    ),
)
_paragraph = st.lists(_piece, max_size=12).map("".join)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(_paragraph, min_size=1, max_size=4))
def test_links_extraction_never_crashes_and_spans_stay_inside(paragraphs):
    entry = _entry(*paragraphs)
    plain = entry.plain_paragraphs
    for mention in find_references(entry):
        assert 0 <= mention.paragraph < len(plain)
        assert 0 <= mention.start <= mention.end <= len(plain[mention.paragraph])
        assert plain[mention.paragraph][mention.start : mention.end] == mention.target_text
    target = _entry("Ein Spiel hat Phasen.", id="phasen", title="Phasen")
    doc = Document(
        id="d",
        file="d.txt",
        title="D",
        game="G",
        kind="faq",
        language="de",
        splitter="faq",
        entries=(entry, target),
    )
    graph = build_links(Corpus((doc,)))
    for ref in graph.references:
        assert ref.target in (None, "quelle", "phasen")
        text = plain[ref.paragraph]
        assert 0 <= ref.start <= ref.end <= len(text)
        assert text[ref.start : ref.end] == ref.target_text


def _link(text: str, target_text: str, target: str | None) -> dict:
    start = text.index(target_text)
    return {"start": start, "end": start + len(target_text), "target": target}


@pytest.mark.parametrize(
    ("text", "target_text", "lead"),
    [
        ("s. bei Beispielkampf", "Beispielkampf", "s. bei "),
        ("s. Ziehen, Karte", "Ziehen, Karte", "s. "),
        ("(vgl. Phasen).", "Phasen", "(vgl. "),
        (
            "s.im entsprechenden Abschnitt unter Multiplayer-Spielen",
            "Multiplayer-Spielen",
            "s.im entsprechenden Abschnitt unter ",
        ),
    ],
)
def test_an_entry_that_is_only_a_reference_is_a_pointer_to_its_target(text, target_text, lead):
    found = pointer([text], [_link(text, target_text, "ziel")])
    assert found == {
        "lead": lead,
        "text": target_text,
        "tail": text[len(lead) + len(target_text) :],
        "target": "ziel",
    }


@pytest.mark.parametrize(
    ("paragraphs", "target_text", "target"),
    [
        (["Abbildungen der Counter s. Originalregel"], "Originalregel", "ziel"),  # a sentence
        (["s. Originalregel"], "Originalregel", None),  # names no entry
        (["s. bei Montagen. Dort steht, wie viel sie kosten."], "Montagen", "ziel"),
        (["s. bei Montagen", "Ein zweiter Absatz."], "Montagen", "ziel"),
    ],
)
def test_an_entry_with_more_than_its_reference_is_no_pointer(paragraphs, target_text, target):
    assert pointer(paragraphs, [_link(paragraphs[0], target_text, target)]) is None
