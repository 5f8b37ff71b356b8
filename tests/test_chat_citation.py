"""How an answer names and cites its source: the message's German, the citation of the
paragraph and its permalink (`faq_bot.chat.answer`, `faq_bot.text.citation`)."""

from __future__ import annotations

from faq_bot.chat.wording import found_message
from faq_bot.text import citation, fingerprint


def test_citation_of_a_paragraph_names_it_as_the_page_numbers_it():
    doc = {"title": "HoW FAQ", "date_text": "30. November 2012"}
    assert citation("Endphase", doc, "https://x/e", paragraph=1) == (
        "„Endphase“, Absatz 1 – HoW FAQ, Stand: 30. November 2012. https://x/e"
    )
    assert citation("Endphase", doc) == "„Endphase“ – HoW FAQ, Stand: 30. November 2012. "


def test_found_message_has_no_brackets_inside_brackets(index):
    record = index.entry("runde-patt")
    doc = index.document(record.doc)
    assert doc["title"] == "Rundenregeln (Tabletop)"  # a title with its own brackets
    message = found_message(record, doc)
    assert (
        message == "Das steht unter „Patt“ in „Rundenregeln (Tabletop)“, Spiel: Tabletop-Skirmish."
    )
    assert "((" not in message and "))" not in message


def test_found_message_names_the_game_its_document_title_does_not(index):
    """A judge's review: „wer fängt an“ was answered from a Tabletop rulebook whose title
    („Spielrundenübersicht – 10. Edition“) names no game, with no word that it is another."""
    record = index.entry("uebersicht-nahkampfphase-kampfreihenfolge")
    assert found_message(record, index.document(record.doc)) == (
        "Das steht unter „Kampfreihenfolge“ in „Spielrundenübersicht – 10. Edition“, "
        "Spiel: Tabletop (10. Edition)."
    )
    how = index.entry("aktionsstapel")  # „HoW FAQ“ names its game already
    assert found_message(how, index.document(how.doc)).endswith(
        "in „HoW FAQ“, Stand: 30. November 2012."
    )


def test_found_message_gives_the_stand_after_the_document(index):
    record = index.entry("aktionsstapel")
    message = found_message(record, index.document(record.doc), unsure=True)
    assert message == (
        "Wahrscheinlich steht das unter „Aktionsstapel“ in „HoW FAQ“, Stand: 30. November 2012."
    )


def test_entry_permalink_fingerprints_the_paragraph_not_the_passage(index):
    record = index.entry("aktionsstapel")
    text = record.plain_paragraphs[1]
    assert record.permalink(1) == f"/entry/aktionsstapel/absatz/2?v={fingerprint(text)}"
    assert record.permalink(len(record.plain_paragraphs)) is None
