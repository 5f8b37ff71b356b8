"""Turn an entry's paragraphs into safe HTML with its cross references as links.

Nothing from the corpus reaches a page unescaped or unsanitized:

- ``text`` paragraphs are escaped; the reference spans (offsets into the plain
  paragraph) become links.
- ``markdown`` paragraphs go through Python-Markdown, then nh3 with the small
  allow-list `ALLOWED_TAGS` (no attributes at all).
- ``html`` paragraphs (the quick reference's table cells) go through nh3 with
  the same allow-list. ``<script>``/``<style>`` are dropped with their content,
  any other unknown tag is dropped and its text kept.

In sanitized markup the references are found by their text in the text nodes
(in order, outside existing links). An unresolved reference is never a link.
Paragraph ``i`` of an entry has the anchor ``#p<i>`` (0-based, the same index
as the ``paragraph`` of a reference or an answer): see `paragraph_anchor`.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape

import markdown as _markdown
import nh3
from markupsafe import Markup

from faq_bot.chat.layout import colon_lead_in, sub_heading
from faq_bot.corpus.model import Markup as SourceMarkup
from faq_bot.corpus.model import table_rows
from faq_bot.links import paragraph_index
from faq_bot.stack.read import SEPARATOR
from faq_bot.text import CONTROL, clip, printable, split_sentences, squash

ALLOWED_TAGS = {
    "p",
    "br",
    "ul",
    "ol",
    "li",
    "strong",
    "em",
    "b",
    "i",
    "sub",
    "sup",
    "code",
    "span",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "blockquote",
    "h3",
    "h4",
    "h5",
    "h6",
}

_TAG_SPLIT = re.compile(r"(<[^>]*>)")
_TAG_NAME = re.compile(r"</?\s*([A-Za-z0-9]+)")
_OWN_BULLET = re.compile(r"<li>\s*[•·▪◦‣]\s*")

# a link target: (url, preview text) for a reference's target id and the paragraph of it
# the reference names (None: the entry); the page holds the preview in a hidden element
# (`preview_id`) that the link names as its description
LinkFor = Callable[[str, int | None], tuple[str, str] | None]


def paragraph_anchor(index: int) -> str:
    """The fragment id of paragraph `index` (0-based) on a ruling page: ``p<index>``."""
    return f"p{index}"


# a first sentence that ends at most this many characters past the limit is kept whole:
# cut, it lost the word it was said for ("… bei 1 oder 2 wird das Modell…" for "zerstört.")
WHOLE_SLACK = 20


def leading_sentences(text: str, limit: int, most: int | None = None) -> str:
    """The whole sentences `text` begins with (`faq_bot.text.split_sentences`: "z.B.",
    "bzw." and "10." end none), as many as fit in `limit` characters (at most `most`);
    a first sentence longer than `limit` (by more than `WHOLE_SLACK`) is cut at a word,
    with an ellipsis."""
    text = squash(text)
    spans = split_sentences(text)
    end = spans[0][1]
    for count, (_, stop) in enumerate(spans[1:], start=2):
        if stop > limit or (most is not None and count > most):
            break
        end = stop
    return text[:end] if end <= limit + WHOLE_SLACK else clip(text[:end], limit)


def paragraph_summary(paragraphs: Sequence[str], i: int, limit: int) -> str:
    """What a paragraph's page and preview say it is about (`leading_sentences` of plain
    paragraph `i`): a lead-in ending in ":" („Sonderfall:“, „Beispiel:“) or a sub-heading
    says nothing alone, so the start of the paragraph after it comes along, as an answer
    shows them together (`faq_bot.chat.layout`)."""
    text = paragraphs[i]
    if i + 1 < len(paragraphs):
        if colon_lead_in(text):
            text = f"{text} {paragraphs[i + 1]}"
        elif sub_heading(paragraphs, i):
            text = f"{text}: {paragraphs[i + 1]}"
    return leading_sentences(text, limit)


def first_sentence(text: str, limit: int = 220) -> str:
    """The first sentence of `text`, shortened to `limit` characters with an ellipsis."""
    return leading_sentences(text, limit, most=1)


def entry_summary(text: str, links: Iterable[Mapping] = (), limit: int = 220) -> str:
    """What the pages say an entry is about (its meta description, the preview of a link
    to it): "Verweis auf X" for an entry that only refers elsewhere ("s. X", "s. bei X":
    its first sentence would be "s."), else its first sentence."""
    flat = squash(text)
    for link in links:
        target = str(link.get("target_text") or "")
        if target and link.get("text") == flat and _stub(target).fullmatch(flat):
            return f"Verweis auf {target}"
    return first_sentence(flat, limit)


def _stub(target: str) -> re.Pattern[str]:
    return re.compile(rf"s\.\s+(?:bei\s+)?{re.escape(target)}\.?")


def sanitize(html: str) -> str:
    """`html` reduced to `ALLOWED_TAGS` without attributes; scripts and styles removed.
    A list item's own bullet glyph goes too: its source hid the list's markers by a style
    (``list-style-type: none``) that no longer comes along, so both showed ("• •")."""
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes={},
        clean_content_tags={"script", "style", "template", "iframe", "noscript", "textarea"},
        link_rel=None,
        strip_comments=True,
    )
    return _OWN_BULLET.sub("<li>", clean)


def no_control(value: object) -> object:
    """What a template prints, as it prints it (Jinja's ``finalize``, for every value of
    every page): a string's control characters, tab and line breaks aside, as spaces. A
    user's NUL or escape said back in an error, kept in a form field or in a corpus cell is
    never text, and NUL is an HTML parse error; one place, whatever the route. Markup stays
    Markup (removing a control character adds no markup)."""
    if isinstance(value, str) and CONTROL.search(value):
        cleaned = printable(value)
        return Markup(cleaned) if isinstance(value, Markup) else cleaned
    return value


def path_spoken(text: str) -> Markup:
    """A checker message naming a field („Spieler A › TW übrig: fehlt“) with each
    separator seen and not read: a screen reader said the „›“ (an accessibility review)."""
    hidden = Markup('<span aria-hidden="true">{}</span>').format(SEPARATOR.strip())
    return Markup(" {} ").format(hidden).join(str(text).split(SEPARATOR))


def safe_snippet(html: str) -> Markup:
    """A search snippet with nothing but its ``<mark>`` highlights left as markup."""
    return Markup(nh3.clean(html or "", tags={"mark"}, attributes={}, link_rel=None))


_converters = threading.local()
# Python-Markdown's inline patterns rescan from every "[" and "<": quadratic, 4,000 of them
# take seconds on each page view. A paragraph with more than this many is shown as its
# plain text (the corpus's most is 42; 256 take about 10 ms).
MARKDOWN_MARKS = 256


_LIST_ITEM = re.compile(r"( {0,3})(?:([-*+])|\d{1,9}\.)[ \t]+(?:(\d{1,3}[a-z]?\))|([a-z]\)))?")


_RULE = re.compile(r" {0,3}([-*_])( *\1){2,}\s*$")  # a horizontal rule, "* * *"


def nest_list_items(source: str) -> str:
    """`source` with a list item written deeper than the item before it (by one to three
    spaces, as the rulebooks write sub-steps) nested under it, four spaces per level as
    Python-Markdown nests, when it is another kind of item: a bullet under a numbered step,
    a plain bullet under „- 3)“, „- a)“ under „- 1)“. The SoW round order („1. Phase …“,
    „ - a) …“, „2. …“) was one list of 14 numbered items, and the page read „7.
    Wirtschaftsphase“ (a review). An item of the same kind indented by a space („- 1)“,
    „ - 2)“) is the next one of the same list, as before."""
    lines = source.split("\n")
    levels: list[tuple[int, tuple[bool, bool, bool]]] = []  # (indentation, kind) per level
    blank = False  # the line before was blank
    for n, line in enumerate(lines):
        item = None if _RULE.match(line) else _LIST_ITEM.match(line)
        if item is None:
            # prose, or after a blank line anything indented less than a code block: the
            # lists before it are over (a bullet after such a paragraph became a code block)
            shallow = len(line) - len(line.lstrip(" ")) < 4
            if line.strip() and (not line.startswith(" ") or (blank and shallow)):
                levels = []
            blank = not line.strip()
            continue
        blank = False
        indent = len(item.group(1))
        kind = (item.group(2) is None, item.group(3) is not None, item.group(4) is not None)
        while levels and indent < levels[-1][0]:
            levels.pop()
        if levels and indent > levels[-1][0] and kind != levels[-1][1]:
            levels.append((indent, kind))  # a sub-item
        elif levels:
            levels[-1] = (levels[-1][0], kind)  # the next item of this level
        else:
            levels.append((indent, kind))
        lines[n] = "    " * (len(levels) - 1) + line[indent:]
    return "\n".join(lines)


# a paragraph of one line „* …“: the footnote of a word marked „Auktion*“ (the rulebooks
# write their bullets with "-"), which Markdown read as a list of one item, its "*" gone
_FOOTNOTE = re.compile(r"\*[ \t]+\S[^\n]*")


def footnote_kept(source: str) -> str:
    """`source` with the asterisk of a footnote paragraph (`_FOOTNOTE`) escaped for
    Markdown, so it stays text; any other source as it is."""
    return "\\" + source if _FOOTNOTE.fullmatch(source) else source


def markdown_to_html(source: str) -> str:
    # one Markdown converter per thread, reset between documents: building one
    # (its parser and every pattern) cost more than converting a paragraph
    md = getattr(_converters, "md", None)
    if md is None:
        md = _converters.md = _markdown.Markdown(output_format="html")
    try:
        html = md.convert(nest_list_items(footnote_kept(source)))
    finally:
        md.reset()
    return sanitize(html)


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    text: str  # the whole reference as written ("s. auch Beta")
    target: str | None
    target_text: str = ""  # the part naming the target ("Beta"): the link text
    paragraph: int | None = None  # the target's paragraph a label names ("Tabelle 1.0")


def preview_id(entry_id: str) -> str:
    """The id of the hidden element holding the preview of links to `entry_id` (their
    ``aria-describedby``): one per linked entry on a page, however often it is linked."""
    return f"vorschau-{entry_id}"


def _link(
    text_html: str, target: str | None, link_for: LinkFor, paragraph: int | None = None
) -> str:
    found = link_for(target, paragraph) if target else None
    if found is None or target is None:
        return f'<span class="xref-unresolved">{text_html}</span>'
    url, preview = found
    described = f' aria-describedby="{escape(preview_id(target))}"' if preview else ""
    return (
        f'<a class="xref" href="{escape(url)}" data-preview="{escape(preview)}"{described}>'
        f"{text_html}</a>"
    )


def _spans(refs: Iterable[Mapping]) -> list[Span]:
    spans = sorted(
        (
            Span(
                int(r["start"]),
                int(r["end"]),
                str(r.get("text") or ""),
                r.get("target"),
                str(r.get("target_text") or ""),
                paragraph_index(r.get("target_paragraph")),
            )
            for r in refs
        ),
        key=lambda s: (s.start, -s.end),
    )
    kept: list[Span] = []
    for span in spans:  # drop overlapping and empty spans
        if span.end > span.start and (not kept or span.start >= kept[-1].end):
            kept.append(span)
    return kept


def render_text(plain: str, refs: Iterable[Mapping], link_for: LinkFor) -> str:
    """An escaped plain paragraph with the reference spans (offsets into `plain`) linked."""
    out: list[str] = []
    pos = 0
    for span in _spans(refs):
        if span.end > len(plain):
            continue
        out.append(escape(plain[pos : span.start], quote=False))
        text_html = escape(plain[span.start : span.end], quote=False)
        out.append(_link(text_html, span.target, link_for, span.paragraph))
        pos = span.end
    out.append(escape(plain[pos:], quote=False))
    return "".join(out)


def link_in_html(html: str, refs: Iterable[Mapping], link_for: LinkFor) -> str:
    """Sanitized `html` with each reference's text linked in the text nodes, in order.

    A reference whose text is not found is left out here (the page lists every
    reference under "Siehe auch" as well).
    """
    pending = [s for s in _spans(refs) if s.text]
    if not pending:
        return html
    parts = _TAG_SPLIT.split(html)
    depth_a = 0
    for i, part in enumerate(parts):
        if not pending:
            break
        if part.startswith("<"):
            match = _TAG_NAME.match(part)
            if match and match.group(1).lower() == "a":
                depth_a += -1 if part.startswith("</") else 1
            continue
        if depth_a:
            continue
        pieces: list[str] = []
        rest = part
        while pending:
            needle = escape(pending[0].text, quote=False)
            at = rest.find(needle)
            if at < 0:
                break
            span = pending.pop(0)
            # link the part that names the target ("Beta" of "s. auch Beta") when found
            name = escape(span.target_text, quote=False)
            inner = needle.rfind(name) if name else -1
            if inner < 0:
                inner, name = 0, needle
            pieces.append(rest[: at + inner])
            pieces.append(_link(name, span.target, link_for, span.paragraph))
            rest = rest[at + inner + len(name) :]
        pieces.append(rest)
        parts[i] = "".join(pieces)
    return "".join(parts)


def tab_table(rows: tuple[tuple[str, ...], ...]) -> str:
    """A table's rows (`faq_bot.corpus.model.table_rows`) as HTML; the first row is the
    header row. Cells are short values ("1 - 4", "* wiedergewonnene Einheiten"): rendering
    them as markdown would turn such values into lists, so they are shown as plain text."""
    out = ["<table>"]
    for n, row in enumerate(rows):
        tag = "th" if n == 0 else "td"
        cells = (escape(cell, quote=False) for cell in row)
        out.append("<tr>" + "".join(f"<{tag}>{c}</{tag}>" for c in cells) + "</tr>")
    out.append("</table>")
    return "".join(out)


def render_paragraph(
    source: str,
    plain: str,
    markup: SourceMarkup,
    refs: Iterable[Mapping],
    link_for: LinkFor,
) -> Markup:
    """Safe HTML of one paragraph (its inner content, without the anchor wrapper)."""
    refs = list(refs)
    # an HTML table keeps its own markup on the entry page (spans, links, a second header
    # row); the chat shows one as plain cells (`faq_bot.corpus.model.paragraph_table`)
    rows = table_rows(source, markup) if markup != "html" else None
    if rows is not None:
        return Markup(link_in_html(tab_table(rows), refs, link_for))
    if markup == "markdown" and source.count("[") + source.count("<") <= MARKDOWN_MARKS:
        html = link_in_html(markdown_to_html(source), refs, link_for)
    elif markup == "html":
        html = link_in_html(sanitize(source), refs, link_for)
    else:
        html = f"<p>{render_text(plain, refs, link_for)}</p>"
    return Markup(html)
