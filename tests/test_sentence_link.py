"""`faq_bot.text.sentence_link`: an answer's source link names its key sentence in a text
fragment (``#:~:text=start,end``), so the ruling opens at that sentence, marked."""

from __future__ import annotations

from urllib.parse import unquote

from hypothesis import given, settings
from hypothesis import strategies as st

from faq_bot.text import LIST_MARK, sentence_link
from tests.hypothesis_profiles import examples


def test_a_short_sentence_is_named_whole():
    url = sentence_link("/entry/siegphase/absatz/1?v=6e2ca98b", "Das Spiel endet unentschieden.")
    assert (
        url == "/entry/siegphase/absatz/1?v=6e2ca98b#:~:text=Das%20Spiel%20endet%20unentschieden."
    )


def test_a_long_sentence_is_named_by_its_first_and_last_words():
    sentence = (
        "Erklären beide Spieler übereinstimmend, dass es keinem Spieler möglich ist "
        "15 Siegpunkte zu erlangen, endet das Spiel unentschieden."
    )
    directive = sentence_link("/entry/siegphase", sentence).split("#:~:text=", 1)[1]
    start, end = directive.split(",")
    assert unquote(start) == "Erklären beide Spieler übereinstimmend,"
    assert unquote(end) == "endet das Spiel unentschieden."


def test_the_words_before_the_sentence_go_first_as_its_prefix():
    # a code review: „Wenn der TRANSPORTER sich“ also began the sentence before, and the
    # browser marked from there, the opposite ruling first
    url = sentence_link("/e", "Dann darf sie es.", before="Vorher ging es so.\nErst bewegt sie")
    assert url == "/e#:~:text=Erst%20bewegt%20sie-,Dann%20darf%20sie%20es."


def test_a_line_of_left_out_list_items_is_no_prefix():
    assert (
        sentence_link("/e", "Punkt drei.", before="Die Liste:\n…\n") == "/e#:~:text=Punkt%20drei."
    )


def test_a_list_items_mark_is_left_out_as_the_page_shows_none():
    """A review: a search hit's link named „- Häfen …“ and „* jede zweite Runde“, whose
    marks the page draws as list bullets, so the browser found no such text."""
    assert (
        sentence_link("/e", "- Häfen bauen Schiffe.") == "/e#:~:text=H%C3%A4fen%20bauen%20Schiffe."
    )
    assert sentence_link("/e", "* jede zweite Runde") == "/e#:~:text=jede%20zweite%20Runde"
    assert sentence_link("/e", "1. Phase des Rates") == "/e#:~:text=Phase%20des%20Rates"
    assert sentence_link("/e", "Kampf.", before="x\n- Erst") == "/e#:~:text=Erst-,Kampf."
    # a number that is text on the page stays: „1) Truppensammlung“ is shown as written
    assert sentence_link("/e", "- 1) Truppensammlung") == "/e#:~:text=1%29%20Truppensammlung"


def test_a_link_with_an_anchor_gets_the_directive_after_it():
    assert sentence_link("/entry/spiel#p2", "Kurz.") == "/entry/spiel#p2:~:text=Kurz."


def test_a_sentence_without_words_leaves_the_link_as_it_is():
    assert sentence_link("/entry/spiel", " \n ") == "/entry/spiel"


@settings(max_examples=examples(300))
@given(st.text(min_size=1, max_size=200), st.integers(min_value=1, max_value=6))
def test_the_directive_reads_back_as_the_sentences_words(sentence, words):
    # "-", "," and "&" inside a word would split the directive: they are encoded
    url = sentence_link("/entry/x", sentence, words)
    parts = sentence.split()
    if not parts:
        assert url == "/entry/x"
        return
    directive = url.removeprefix("/entry/x#:~:text=")
    assert "&" not in directive and "-" not in directive and "#" not in directive
    named = [unquote(p) for p in directive.split(",")]
    if len(named) == 1:
        assert named == [" ".join(parts)]
    else:  # the first words, and at least as many last words
        start, end = named
        assert start == " ".join(parts[:words]) and len(parts) > 2 * words
        assert " ".join(parts).endswith(" " + end) and len(end.split()) >= words


def _marked(paragraph: str, url: str) -> str | None:
    """What a browser marks in `paragraph` for the text fragment of `url`, as the WICG
    text-fragment spec finds it within one block: the first place the prefix (if any) and
    the start stand, word-bounded at the start, then the first end after it. Whitespace
    read as single spaces; None when nothing matches."""
    text = " ".join(paragraph.split())
    raw = url.split(":~:text=", 1)[1].split(",")
    prefix = unquote(raw.pop(0)[:-1]) + " " if raw[0].endswith("-") else ""  # "-" unencoded
    parts = [unquote(p) for p in raw]
    start, end = parts[0], parts[1] if len(parts) > 1 else None
    at = -1
    while (at := text.find(prefix + start, at + 1)) >= 0:
        if at == 0 or not text[at - 1].isalnum():
            break
    if at < 0:
        return None
    begin = at + len(prefix)
    if end is None:
        return text[begin : begin + len(start)]
    stop = text.find(end, begin + len(start))
    return None if stop < 0 else text[begin : stop + len(end)]


def test_every_sentence_of_the_corpus_is_marked_by_its_fragment_alone(index):
    """Each sentence of each paragraph (as the answers' key sentences are cut), linked as an
    answer links it, marks that sentence in its paragraph and nothing before it."""
    from faq_bot.text import split_sentences

    checked = 0
    for record in index.iter_entries():
        entry_id = record.id
        for paragraph in record.plain_paragraphs:
            for start, end in split_sentences(paragraph):
                sentence = paragraph[start:end]
                if not sentence.split():
                    continue
                url = sentence_link("/e", sentence, before=paragraph[:start])
                shown = " ".join(LIST_MARK.sub("", sentence, count=1).split())  # no bullet
                assert _marked(paragraph, url) == shown, (entry_id, url)
                checked += 1
    assert checked > 100
