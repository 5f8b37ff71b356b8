"""Markup dropped from a paragraph's text in time linear in its length; an HTML paragraph's
one table found, apart from its prose and row by row (`table_apart`, `table_row_cells`).

The patterns used before, ``<[^>]+>`` for a tag, ``(\\*\\*|__|\\*|_)(\\S.*?\\S|\\S)\\1`` for
markdown emphasis and ``<t[dh]\\b[^>]*>(.*?)</t[dh]>`` for a table cell, scan to the end of
the text (or line) from every opener that has no closer: a corpus paragraph of 48,000
characters of ``*a `` took 16 s to index, 120,000 of ``<a `` 7 s, 100,000 of ``<td>x`` 16 s. These
functions give what ``re.sub`` with those patterns gives (a property test compares them),
finding each opener's closer by a search that never starts twice from the same place.
"""

from __future__ import annotations

import re
from bisect import bisect_left

__all__ = ["cell_texts", "drop_emphasis", "drop_tags", "table_apart", "table_row_cells"]

_DELIMITERS = ("**", "__", "*", "_")
# where each delimiter may close emphasis: right after a character that is no whitespace
_CLOSERS = {d: re.compile(rf"(?<=\S)(?={re.escape(d)})") for d in _DELIMITERS}
_OPENER = re.compile(r"[*_]")
_CELL_START = re.compile(r"<t[dh]\b", re.I)
_CELL_END = re.compile(r"</t[dh]>", re.I)
_TABLE_START = re.compile(r"<table(?=[\s>/])", re.I)
_TABLE_END = re.compile(r"</table>", re.I)
_ROW_START = re.compile(r"<tr(?=[\s>/])", re.I)
_ROW_END = re.compile(r"</tr>", re.I)


def drop_tags(text: str, replacement: str = "") -> str:
    """``re.sub(r"<[^>]+>", replacement, text)``: each "<" up to the first ">" after it,
    when something lies between them."""
    out: list[str] = []
    last = 0
    start = text.find("<")
    while start != -1:
        end = text.find(">", start + 1)
        if end == -1:  # no ">" follows: no later "<" closes either
            break
        if end == start + 1:  # "<>" is no tag
            start = text.find("<", start + 1)
            continue
        out += [text[last:start], replacement]
        last = end + 1
        start = text.find("<", last)
    out.append(text[last:])
    return "".join(out)


def cell_texts(html: str) -> list[str]:
    """``re.findall(r"<t[dh]\\b[^>]*>(.*?)</t[dh]>", html, re.S | re.I)``: the inner HTML
    of each table cell, in order."""
    cells: list[str] = []
    found = _CELL_START.search(html)
    while found is not None:
        inner = html.find(">", found.end()) + 1
        end = _CELL_END.search(html, inner) if inner else None
        if end is None:  # no later cell closes either
            break
        cells.append(html[inner : end.start()])
        found = _CELL_START.search(html, end.end())
    return cells


def _one_table(html: str) -> tuple[int, int] | None:
    """Where the one ``<table>…</table>`` of `html` starts and ends (after ``</table>``);
    None without one, with a second one or with one inside another."""
    start = _TABLE_START.search(html)
    if start is None:
        return None
    end = _TABLE_END.search(html, start.end())
    if end is None or _TABLE_START.search(html, start.end()) is not None:
        return None
    return start.start(), end.end()


def table_apart(html: str) -> list[str]:
    """An HTML paragraph holding one table after (or before) prose: the prose and the
    table as paragraphs of their own, in order (a table shows as a table only alone:
    `faq_bot.corpus.model.table_rows`); ``[html]`` for any other paragraph."""
    found = _one_table(html)
    if found is None:
        return [html]
    start, end = found
    parts = [html[:start].strip(), html[start:end], html[end:].strip()]
    return [p for p in parts if p]


def table_row_cells(html: str) -> list[list[str]] | None:
    """The inner HTML of the cells of each row of a paragraph that is one HTML table and
    nothing else (`cell_texts` per ``<tr>``, rows without cells left out); None for any
    other paragraph."""
    text = html.strip()
    if _one_table(text) != (0, len(text)):
        return None
    rows: list[list[str]] = []
    found = _ROW_START.search(text)
    while found is not None:
        end = _ROW_END.search(text, found.end())
        if end is None:
            break
        cells = cell_texts(text[found.end() : end.start()])
        if cells:
            rows.append(cells)
        found = _ROW_START.search(text, end.end())
    return rows


def drop_emphasis(text: str) -> str:
    """``re.sub(r"(\\*\\*|__|\\*|_)(\\S.*?\\S|\\S)\\1", r"\\2", text)``: emphasis markers
    around text that starts and ends with no whitespace, within one line."""
    if "*" not in text and "_" not in text:
        return text
    closers = {d: [m.start() for m in pattern.finditer(text)] for d, pattern in _CLOSERS.items()}
    newlines = [m.start() for m in re.finditer("\n", text)]
    out: list[str] = []
    last = 0
    found = _OPENER.search(text)
    while found is not None:
        start = found.start()
        match = _emphasis_at(text, start, closers, newlines)
        if match is None:
            found = _OPENER.search(text, start + 1)
            continue
        end, inner = match
        out += [text[last:start], inner]
        last = end
        found = _OPENER.search(text, end)
    out.append(text[last:])
    return "".join(out)


def _emphasis_at(
    text: str, start: int, closers: dict[str, list[int]], newlines: list[int]
) -> tuple[int, str] | None:
    """The end and the inner text of the emphasis the pattern matches at `start`, trying
    its alternatives in the pattern's order: the double marker before the single one, and
    inner text of two or more characters (to the nearest closer) before one character."""
    for marker in (text[start] * 2, text[start]):
        inner = start + len(marker)
        if not text.startswith(marker, start) or inner >= len(text) or text[inner].isspace():
            continue
        k = bisect_left(newlines, inner)
        line_end = newlines[k] if k < len(newlines) else len(text)
        ends = closers[marker]
        k = bisect_left(ends, inner + 2)
        if k < len(ends) and ends[k] < line_end:
            close = ends[k]
        elif text.startswith(marker, inner + 1):
            close = inner + 1
        else:
            continue
        return close + len(marker), text[inner:close]
    return None
