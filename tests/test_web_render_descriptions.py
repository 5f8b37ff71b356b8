"""What the pages say an entry or a paragraph is about: meta descriptions, og:title and the
cross-reference previews, cut at whole sentences (faq_bot.text.split_sentences)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from faq_bot.text import split_sentences
from faq_bot.web.render import entry_summary, first_sentence, leading_sentences

BOMB = "227-pfund-bombe-basisausbau"


def meta(html: str, attr: str, name: str) -> str:
    found = re.search(rf'<meta {attr}="{re.escape(name)}" content="([^"]*)">', html)
    assert found, name
    return unescape(found.group(1))


@pytest.mark.parametrize(
    ("entry_id", "ends"),
    [
        ("aktionen", "(z.B. Fähigkeiten von Einheiten oder Aktionskarten) ausgelöst werden."),
        ("runde-patt", "nach der 10. Runde ohne Todesfall, tritt,"),
        ("verlegungsphase", "des Angreifers- bzw. Verteidigers können"),
    ],
)
def test_a_description_is_not_cut_at_an_abbreviation_or_an_ordinal(client, entry_id, ends):
    html = client.get(f"/entry/{entry_id}").get_data(as_text=True)
    description = meta(html, "name", "description")
    assert ends in description or description.endswith("…")
    assert not description.endswith(("z.B.", "10.", "bzw."))
    assert meta(html, "property", "og:description") == description


@pytest.mark.parametrize(
    "text",
    [
        "Er hat z.B. keine Bombe. Dann nicht.",
        "Nach der 10. Runde ist Schluss. Dann zählt man.",
        "Angreifer- bzw. Verteidiger ziehen. Danach nicht.",
        "Frage? Antwort: Nein.",
        "Ein Satz ohne Ende",
    ],
)
def test_first_sentence_is_the_first_sentence_split_sentences_finds(text):
    start, end = split_sentences(text)[0]
    assert first_sentence(text) == text[start:end]


def test_leading_sentences_keep_whole_sentences_within_the_limit():
    text = "Eins ist kurz. Zwei ist auch kurz. Drei ist ein viel längerer Satz am Ende."
    assert leading_sentences(text, 40) == "Eins ist kurz. Zwei ist auch kurz."
    assert leading_sentences(text, 200) == text
    long = "wort " * 100
    cut = leading_sentences(long, 50)
    assert len(cut) <= 50 and cut.endswith("…") and not cut.endswith(" …")


STUBS = {
    "3-spieler-spiel": "Multiplayer-Spiel",
    "blockerdeklaration": "Deklarationen",
    "karte-ziehen": "Ziehen, Karte",
    "flugzeug-beobachter-basisausbau": "Auslösende Bedingungen",
    "bombermontage-basisausbau": "Montagen",
    "kampf": "Beispielkampf",
}


@pytest.mark.parametrize(("entry_id", "target"), STUBS.items())
def test_an_entry_that_only_refers_elsewhere_is_described_as_a_reference(client, entry_id, target):
    html = client.get(f"/entry/{entry_id}").get_data(as_text=True)
    assert meta(html, "name", "description") == f"Verweis auf {target}"
    assert meta(html, "property", "og:description") == f"Verweis auf {target}"


def test_every_stub_of_the_corpus_is_described_as_a_reference(index):
    stubs = [
        e
        for e in index.entries()
        if re.fullmatch(r"s\. (bei )?[^.]+", e.text.strip()) and len(e.plain_paragraphs) == 1
    ]
    assert len(stubs) == 18  # 13 "s. X", 5 "s. bei X"
    for entry in stubs:
        summary = entry_summary(entry.text, entry.links)
        assert summary.startswith("Verweis auf "), entry.id
        assert summary.removeprefix("Verweis auf ") in entry.text


def test_a_reference_with_more_than_the_target_is_not_a_stub():
    links = [{"text": "s. auch unter Aktionsstapel", "target_text": "Aktionsstapel"}]
    assert entry_summary("s. auch unter Aktionsstapel", links) == "s. auch unter Aktionsstapel"
    links = [{"text": "s. Beta", "target_text": "Beta"}]
    assert entry_summary("Alpha gilt. Dann s. Beta", links) == "Alpha gilt."


def test_a_backlink_from_a_stub_previews_it_as_a_reference(client):
    html = client.get("/entry/deklarationen").get_data(as_text=True)
    section = html.split("Verweise hierher", 1)[1].split("</section>", 1)[0]
    link = re.search(r'<a class="xref" href="/entry/blockerdeklaration"[^>]*>', section).group(0)
    assert 'data-preview="Verweis auf Deklarationen"' in link


def test_a_reference_table_row_carries_its_heading_path_in_its_titles(client, index):
    row = index.entry("uebersicht-bewegungsphase-einheiten-bewegen-stationaer-bleiben")
    assert row.section and row.title == "Stationär bleiben"
    html = client.get(f"/entry/{row.id}").get_data(as_text=True)
    doc = index.document(row.doc)["title"]
    expected = f"{row.section} › Stationär bleiben – {doc}"
    assert meta(html, "property", "og:title") == expected
    assert f"<title>{expected} · Regelsuche</title>" in unescape(html)


def test_a_faq_entry_keeps_its_title_alone(client):
    html = client.get("/entry/aktionsstapel").get_data(as_text=True)
    assert meta(html, "property", "og:title") == "Aktionsstapel – HoW FAQ"


def test_a_reference_preview_is_the_links_description_not_part_of_its_name(client, index):
    # a screen reader reads the preview as the link's description (aria-describedby to a
    # hidden element), never as part of its name: one hidden element per linked entry
    html = client.get(f"/entry/{BOMB}").get_data(as_text=True)
    links = re.findall(r'<a class="xref" href="/entry/([^"]+)"([^>]*)>', html)
    assert len(links) >= 2  # in the paragraph and under "Siehe auch"
    for target, attributes in links:
        assert f'aria-describedby="vorschau-{target}"' in attributes, target
        other = index.entry(target)
        found = re.findall(rf'<span id="vorschau-{re.escape(target)}" hidden>([^<]*)</span>', html)
        assert [unescape(f) for f in found] == [entry_summary(other.text, other.links)]


def test_every_described_link_points_at_an_element_of_the_page(client):
    for path in ("/entry/aktionsstapel", "/entry/deklarationen", f"/entry/{BOMB}/absatz/4"):
        html = client.get(path).get_data(as_text=True)
        ids = set(re.findall(r' id="([^"]+)"', html))
        described = re.findall(r'aria-describedby="([^"]+)"', html)
        assert described and set(described) <= ids, path
        assert len(ids) == len(re.findall(r' id="([^"]+)"', html))  # ids are unique


def test_a_first_sentence_a_few_characters_past_the_limit_is_kept_whole():
    """A link review: the Fluchttest preview ended „bei 1 oder 2 wird das Modell…“, ten
    characters short of the word it was said for."""
    text = "Bei 1 oder 2 wird das Modell zerstört. Danach geht es weiter."
    assert leading_sentences(text, len("Bei 1 oder 2 wird das Modell")) == (
        "Bei 1 oder 2 wird das Modell zerstört."
    )


@pytest.mark.parametrize(
    ("path", "lead"),
    [
        ("/entry/schadenverteilungsphase/absatz/11", "Sonderfall: Es gibt zwei Fähigkeiten"),
        ("/entry/sturm-faehigkeit/absatz/2", "Beispiel: Eine eingegrabene Infanterie"),
    ],
)
def test_a_lead_in_paragraphs_page_is_described_with_what_it_leads_in(client, path, lead):
    """A link review: a paragraph that is only „Sonderfall:“ or „Beispiel:“ was shared with
    that word alone as its preview."""
    html = client.get(path).get_data(as_text=True)
    assert meta(html, "name", "description").startswith(lead)
    assert meta(html, "property", "og:description").startswith(lead)
