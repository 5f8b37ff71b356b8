"""Markup is dropped from corpus text as the patterns did before, in time linear in the
text (`faq_bot.corpus.markup`, `plain`), and the splitters' heading patterns read what
they read before without scanning a run of spaces again from each of its characters."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from faq_bot.corpus.markup import cell_texts, drop_emphasis, drop_tags, table_apart, table_row_cells
from faq_bot.corpus.model import plain
from faq_bot.corpus.splitters import faq, prose, reference_table

# the patterns the functions replace, as they were
TAG = re.compile(r"<[^>]+>")
EMPHASIS = re.compile(r"(\*\*|__|\*|_)(\S.*?\S|\S)\1")
CELL = re.compile(r"<t[dh]\b[^>]*>(.*?)</t[dh]>", re.S | re.I)
DOC_HEADING = re.compile(r"^(?:\d+(?:\.\d+)*\.?\s+)?(.*?)\s*\|?\s*$")
REFERENCE_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")

# pieces that make the patterns' cases: markers, whitespace of several kinds, line breaks
EMPHASIS_TEXT = st.text(st.sampled_from(["*", "_", "a", "b", " ", "\n", "\t", "\xa0", "\x1c"]))
TAG_TEXT = st.text(st.sampled_from(["<", ">", "a", " ", "\n", "/"]))
CELL_TEXT = st.lists(
    st.sampled_from(["<td>", "<TH x>", "</td>", "</Th>", "<tdx>", "<td", ">", "a", "\n", "<"])
).map("".join)


@given(EMPHASIS_TEXT)
@example("*a*b*")  # inner text of two or more characters wins over one
@example("**a**")
@example("***a***")
@example("*a\nb*")  # not across a line
@example("_a_ *b * c*")
def test_emphasis_is_dropped_as_the_pattern_dropped_it(text: str) -> None:
    assert drop_emphasis(text) == EMPHASIS.sub(r"\2", text)


@given(TAG_TEXT, st.sampled_from(["", " "]))
@example("<a <b>", " ")
@example("<>a<b>", "")
def test_tags_are_dropped_as_the_pattern_dropped_them(text: str, replacement: str) -> None:
    assert drop_tags(text, replacement) == TAG.sub(replacement, text)


@given(CELL_TEXT)
@example("<td>a</td><th>b</TH><td>c")
def test_table_cells_are_found_as_the_pattern_found_them(html: str) -> None:
    assert cell_texts(html) == CELL.findall(html)


@given(st.text(st.sampled_from(["1", ".", " ", "|", "a", "\t", "\xa0"])))
@example("3. Beordern und Kämpfen |")
@example("12.3 a | |")
def test_a_document_heading_reads_as_the_pattern_read_it(line: str) -> None:
    stripped = line.strip()
    if re.match(r"^\d+(\.\d+)*\.?\s", stripped) or stripped.endswith("|"):
        match = DOC_HEADING.match(stripped)
        before = (match.group(1).strip() if match else "") or None
    else:
        before = None
    assert prose._doc_heading(line) == before


@given(st.text(st.sampled_from(["#", " ", "\t", "a", "b"])))
@example("## Waffen ##")
def test_a_reference_heading_reads_as_the_pattern_read_it(line: str) -> None:
    match, before = reference_table._HEADING.match(line), REFERENCE_HEADING.match(line)
    assert bool(match) == bool(before)
    if match and before:
        assert match.group(2).rstrip(" \t#").strip() == before.group(2).strip()


def test_markup_without_closers_is_dropped_in_one_pass() -> None:
    """Each of these took the old patterns minutes (time with the square of the length);
    they must come back at once, and keep the text that is no markup."""
    n = 100_000
    assert plain("*a " * n, "markdown") == ("*a " * n).strip()
    assert plain("_a " * n, "markdown") == ("_a " * n).strip()
    assert plain("<a " * n, "html") == ("<a " * n).strip()
    assert cell_texts("<td>x" * n) == []
    assert prose._doc_heading("1. a" + " " * n + "b |") == "a" + " " * n + "b"


def test_markdown_and_html_are_plain_as_before() -> None:
    assert plain("**Achtung:** Der <u>Angreifer</u> zieht _zuerst_.", "markdown") == (
        "Achtung: Der Angreifer zieht zuerst."
    )
    assert plain("<p>A&amp;B</p><td>c</td>", "html") == "A&B c"


TRAILING_PAREN = re.compile(r"^(?P<name>.*?)\s*\((?P<paren>[^()]+)\)$")


@given(st.text(st.sampled_from(["(", ")", "a", " ", "\t", "\n", "\xa0", "\x1c"])))
@example("Ölfeld (Basisausbau)")
@example("a \n(b)")  # the text before may not span lines
@example("a (b)\n")  # "$" before a final line break
@example("a (b\n)")  # the inside may
@example("a ((b))")
@example("()")
def test_a_trailing_parenthesis_is_read_as_the_pattern_read_it(line: str) -> None:
    match = TRAILING_PAREN.match(line)
    assert faq.trailing_paren(line) == (match.group("name", "paren") if match else None)


def test_a_headword_with_a_long_run_of_spaces_is_read_in_one_pass() -> None:
    line = "a" + " " * 200_000 + "b (Basisausbau)"
    assert faq.parse_headword(line) == ("Basisausbau", ("a" + " " * 200_000 + "b",))


# --------------------------------------------------------------------------- HTML tables

TABLE = (
    "<table border=1><thead><tr><th>S vs W</th><th>W6</th></tr></thead>"
    "<tbody><tr><td>S gleich W</td><td>4+</td></tr></tbody></table>"
)


def test_prose_before_an_html_table_and_the_table_are_paragraphs_apart():
    assert table_apart(f"<p>Wirf einen W6.</p> {TABLE} danach") == [
        "<p>Wirf einen W6.</p>",
        TABLE,
        "danach",
    ]
    assert table_apart(TABLE) == [TABLE]


def test_a_paragraph_with_no_table_two_tables_or_a_nested_one_stays_whole():
    for html in (
        "<p>ohne Tabelle</p>",
        f"{TABLE} und {TABLE}",
        "<table><tr><td><table><tr><td>x</td></tr></table></td></tr></table>",
        "<tablet>kein Tabellenanfang</tablet>",
        "<table><tr><td>nie geschlossen",
    ):
        assert table_apart(html) == [html]


def test_the_rows_of_an_html_table_are_read_only_when_it_stands_alone():
    assert table_row_cells(TABLE) == [["S vs W", "W6"], ["S gleich W", "4+"]]
    assert table_row_cells(f"Text {TABLE}") is None
    assert table_row_cells("<p>ohne Tabelle</p>") is None


@given(
    st.lists(
        st.sampled_from(["<table>", "</TABLE>", "<tr>", "</tr>", "<td>", "</td>", "İ", "a", " "])
    )
)
def test_html_table_parts_lose_and_add_nothing(pieces):
    """The parts are the paragraph cut where its table starts and ends: nothing lost or
    added but the whitespace at the cuts ("İ" grows when lower-cased: no offsets from a
    lower-cased copy)."""
    html = "".join(pieces)
    parts = table_apart(html)
    assert all(part == part.strip() for part in parts) or parts == [html]
    at = 0
    for part in parts:  # each part where it stood, in order
        at = html.index(part, at) + len(part)
    assert "".join(parts).replace(" ", "") == html.replace(" ", "")
    if len(parts) > 1:
        table = next(p for p in parts if p.lower().startswith("<table"))
        assert table.lower().endswith("</table>")


def test_html_table_rows_are_read_with_any_letters_and_case():
    table = "<TABLE><TR><TH>İİ Stärke</TH></TR><tr><td>4+</td></tr></table>"
    assert table_row_cells(table) == [["İİ Stärke"], ["4+"]]
    assert table_apart(f"<p>İİİİ Wirf</p>{table}") == ["<p>İİİİ Wirf</p>", table]


def test_html_tables_without_closers_are_read_in_one_pass() -> None:
    n = 100_000
    for html in ("<table><tr><td>x" * n, "<table>" + "<tr><td>x" * n + "</table>", "<tr>" * n):
        assert table_apart(html) == [html]
        table_row_cells(html)
