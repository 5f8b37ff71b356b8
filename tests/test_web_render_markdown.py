"""Markdown paragraphs render the same whatever was rendered before (the converter is reused)."""

from __future__ import annotations

import threading

from faq_bot.web.render import markdown_to_html, nest_list_items


def test_a_reference_definition_does_not_leak_into_the_next_paragraph():
    alone = markdown_to_html("Siehe [Regel].")
    markdown_to_html("[Regel]: https://example.org/regel\n\nText.")
    assert markdown_to_html("Siehe [Regel].") == alone
    assert "[Regel]" in alone


def test_same_source_renders_identically_across_threads():
    sources = ["**fett** und *kursiv*", "- eins\n- zwei", "1. a\n2. b", "Text mit `code`."]
    expected = [markdown_to_html(s) for s in sources]
    seen: list[list[str]] = []

    def work() -> None:
        seen.append([markdown_to_html(s) for s in sources * 20][: len(sources)])

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [expected] * 4


def test_a_paragraph_permalink_counts_from_one_and_carries_the_text_fingerprint():
    from faq_bot.text import fingerprint, paragraph_path

    path = paragraph_path("endphase", 2, "Der dritte Absatz.")
    assert path == f"/entry/endphase/absatz/3?v={fingerprint('Der dritte Absatz.')}"
    assert paragraph_path("endphase", 2, "Geändert.") != path  # another text, another link


def test_a_paragraph_too_bracketed_for_markdown_is_shown_as_its_plain_text():
    """Python-Markdown rescans from every "[" and "<" (4,000 of them take seconds on each
    page view): a corpus paragraph with that many is shown as its escaped plain text."""
    from faq_bot.web.render import MARKDOWN_MARKS, render_paragraph

    source = "**fett** " + "[<" * MARKDOWN_MARKS
    html = str(render_paragraph(source, source, "markdown", [], lambda _target, _paragraph: None))
    assert html == f"<p>**fett** {'[&lt;' * MARKDOWN_MARKS}</p>"
    ordinary = "**fett** " + "[x] " * 20 + "<b>"
    assert "<strong>fett</strong>" in str(
        render_paragraph(ordinary, ordinary, "markdown", [], lambda _target, _paragraph: None)
    )


def test_markdown_marks_at_the_limit_still_go_through_markdown_and_one_more_does_not():
    from faq_bot.web.render import MARKDOWN_MARKS, render_paragraph

    def rendered(marks: int) -> str:
        source = "**fett** s. auch Beta " + "[" * marks
        plain = "fett s. auch Beta " + "[" * marks
        ref = {"start": 13, "end": 17, "text": "s. auch Beta", "target": "beta"}
        html = render_paragraph(
            source, plain, "markdown", [ref], lambda _t, _p: ("/entry/beta", "")
        )
        return str(html)

    assert "<strong>fett</strong>" in rendered(MARKDOWN_MARKS)
    fallback = rendered(MARKDOWN_MARKS + 1)
    assert "<strong>" not in fallback and fallback.startswith("<p>fett s. auch ")
    # the reference's offsets point into the plain text the fallback shows: still linked
    assert '<a class="xref" href="/entry/beta" data-preview="">Beta</a>' in fallback


def test_items_indented_under_a_numbered_step_are_its_sub_steps_not_steps_of_their_own():
    """A review: the SoW round order („1. Phase des Rates der Zauberer“, its „ - a) …“
    items indented by one space, „2. Wirtschaftsphase“ …) was one list of 14 numbered items,
    so the page read „7. Wirtschaftsphase“. Markdown nests only items indented by four."""
    html = markdown_to_html(
        "1. Phase des Rates\n - a) Auffüllen\n - b) Würfeln\n2. Wirtschaftsphase\n"
        " - a) Ernte\n3. Unterhaltphase"
    )
    assert html.count("<ol>") == 1 and html.count("<ul>") == 2
    steps = html.split("<ol>")[1].split("</ol>")[0]
    top = [part.split("<")[0].strip() for part in steps.split("<li>")[1:]]
    assert [t for t in top if not t.startswith(("a)", "b)"))] == [
        "Phase des Rates",
        "Wirtschaftsphase",
        "Unterhaltphase",
    ]
    assert "<li>a) Auffüllen</li>" in html and "<li>b) Würfeln</li>" in html


def test_a_bullet_indented_under_a_bullet_nests_and_the_next_unindented_one_does_not():
    html = markdown_to_html(
        "- 1) Truppensammlung\n- 3) Bogenkampf\n - Max. 2\n - keine\n- 4) Flucht"
    )
    assert html.count("<ul>") == 2
    nested = html.split("<ul>")[2].split("</ul>")[0]
    assert "Max. 2" in nested and "keine" in nested and "Flucht" not in nested


def test_a_list_after_a_sentence_keeps_its_own_indentation_rules():
    # a line indented four spaces after prose is Markdown's code block: left as it is
    assert "<code>" in markdown_to_html("Text davor.\n\n    code\n")


def test_an_item_of_the_same_kind_indented_by_a_space_is_the_next_item_not_a_sub_item():
    """The SoW setup writes „- 1) …“, then „ - 2) …“, „ - 3) …“: one list, as before."""
    html = markdown_to_html("- 1) Rassen\n - 2) Gebiete\n - 3) Ozean\n1. Würfeln\n 2. Legen")
    assert "<ul>" in html and html.count("<ul>") == 1
    assert "<li>2) Gebiete</li>" in html and "<li>Legen</li>" in html


def test_a_list_after_a_paragraph_that_closed_the_one_before_is_not_nested_into_it():
    """A code review: a paragraph indented by two spaces after a blank line closes the list
    in Markdown, and the bullet after it became a code block."""
    assert markdown_to_html("1. Schritt\n\n  eingerückter Absatz\n\n - danach") == (
        markdown_to_html("1. Schritt\n\n  eingerückter Absatz\n\n- danach")
    )
    assert "<code>" not in markdown_to_html("- Punkt\n\n   Absatz\n\n 1. Schritt")


def test_a_rule_under_an_item_is_no_item():
    assert nest_list_items("- Punkt\n * * *") == "- Punkt\n * * *"


def test_a_footnote_line_stays_a_footnote_not_a_one_item_list():
    """The rulebooks mark a footnote „Auktion*“ and give it below as „* jede zweite Runde“:
    Markdown made that a bullet list of one item, the asterisk gone (an API review)."""
    assert markdown_to_html("* jede zweite Runde") == "<p>* jede zweite Runde</p>"
    assert (
        markdown_to_html("* Eine Großstadt kann nur als Ersatz für eine Stadt gebaut werden")[:6]
        == "<p>* E"
    )
    # a list of several items, or one written with "-", stays a list
    assert markdown_to_html("* eins\n* zwei").startswith("<ul>")
    assert markdown_to_html("- eins").startswith("<ul>")
    assert markdown_to_html("*betont* und mehr") == "<p><em>betont</em> und mehr</p>"
