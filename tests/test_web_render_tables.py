"""Tab-separated tables of the rulebooks render as HTML tables, safely."""

from __future__ import annotations

from faq_bot.corpus.model import table_rows
from faq_bot.web.render import render_paragraph


def _no_links(_target: str):
    return None


def test_tab_block_renders_as_table_with_header_row():
    source = "Würfelwurf\t* wiedergewonnene Einheiten\n1 - 4\t0\n5 - 6\t1"
    html = str(render_paragraph(source, "", "markdown", [], _no_links))
    assert html.startswith("<table>")
    assert html.count("<tr>") == 3
    assert "<th>Würfelwurf</th>" in html
    assert "<td>5 - 6</td><td>1</td>" in html


def test_tab_table_pads_short_rows():
    html = str(render_paragraph("A\tB\tC\nx\ty", "", "text", [], _no_links))
    assert "<td>x</td><td>y</td><td></td>" in html


def test_tab_table_cells_are_escaped():
    source = "Name\tWert\n<script>alert(1)</script>\t<img src=x onerror=alert(1)>"
    html = str(render_paragraph(source, "", "text", [], _no_links))
    assert "<script" not in html and "<img" not in html
    html_md = str(render_paragraph(source, "", "markdown", [], _no_links))
    assert "<script" not in html_md and "onerror" not in html_md


def test_single_tab_line_is_not_a_table():
    assert table_rows("Heimatgebiet\t3 Armeeeinheiten") is None
    assert table_rows("eine Zeile\nohne Tabulator\tnur hier") is None


def test_table_rows_are_plain_cells_padded_to_the_widest_row():
    assert table_rows("<u>Typ</u>\t<u>Bewegung</u>\t<u>Kosten</u>\nBoot\t2", "markdown") == (
        ("Typ", "Bewegung", "Kosten"),
        ("Boot", "2", ""),
    )
    # a line without a tab: not a table
    assert table_rows("<u>Typ</u>\t<u>Bewegung</u>\nKriegsschiff\t3\nBoot", "markdown") is None
    assert table_rows("<td>a\tb</td>\n<td>c\td</td>", "html") is None


def test_real_sails_of_war_table_on_the_ruling_page(client):
    page = client.get("/entry/sow-rekrutierung-und-unterhalt").get_data(as_text=True)
    assert "<th>Einheit</th>" in page
    assert "<td>Fußsoldat</td>" in page


def test_tab_table_cells_stay_values_not_markdown_lists():
    html = str(render_paragraph("Wurf\t* Einheiten\n1 - 4\t0", "", "markdown", [], _no_links))
    assert "<ul>" not in html
    assert "<th>* Einheiten</th>" in html


def test_an_html_paragraph_that_is_one_table_gives_plain_cells_and_renders_sanitised():
    source = (
        '<table border="1"><thead><tr><th>S vs W</th><th>W6-Ergebnis</th></tr></thead>'
        "<tbody><tr><td>S ist <b>gleich</b> W</td><td>4+</td></tr>"
        "<tr><td><script>alert(1)</script>&lt;x&gt;</td><td>5+</td></tr></tbody></table>"
    )
    assert table_rows(source, "html") == (
        ("S vs W", "W6-Ergebnis"),
        ("S ist gleich W", "4+"),
        ("alert(1) <x>", "5+"),
    )
    # the entry page keeps the table's own markup, sanitised (the chat shows plain cells)
    html = str(render_paragraph(source, "", "html", [], _no_links))
    assert "<th>S vs W</th>" in html and "<b>gleich</b>" in html
    assert "<script" not in html and "&lt;x&gt;" in html


def test_an_html_paragraph_with_prose_beside_its_table_is_no_table():
    assert (
        table_rows(
            "<p>Wirf einen W6.</p><table><tr><td>a</td></tr><tr><td>b</td></tr></table>", "html"
        )
        is None
    )
