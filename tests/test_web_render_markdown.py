"""Markdown paragraphs render the same whatever was rendered before (the converter is reused)."""

from __future__ import annotations

import threading

from faq_bot.web.render import markdown_to_html


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
