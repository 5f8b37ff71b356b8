"""Query words marked on the pages, and search snippets cut around the best passage.

Both use the index's own analyzer (the one that indexed the text and analyses
queries), so a query "bezahlt" marks "bezahlen" exactly when the search
matched it. The output is safe HTML: text is escaped, only ``<mark>`` is added.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Any

from markupsafe import Markup

_TAG_SPLIT = re.compile(r"(<[^>]*>)")
LEAD = 40  # characters of context before the first marked word of a snippet


def query_groups(index: Any, query: str) -> list[frozenset[str]]:
    """One set of index terms per word of `query` (empty when it is no query)."""
    from faq_bot.search import QueryError, analyze_query

    if not query.strip():
        return []
    try:
        return [frozenset(g) for g in analyze_query(index, query).words]
    except QueryError:
        return []


def spans(index: Any, text: str, groups: list[frozenset[str]]) -> list[tuple[int, int, int]]:
    """(start, end, group) of each word of `text` whose term belongs to a query word."""
    out: list[tuple[int, int, int]] = []
    if not groups:
        return out
    for token in index.analyzer(text, mode="index", chars=True, removestops=False):
        for g, terms in enumerate(groups):
            if token.text in terms:
                span = (token.startchar, token.endchar, g)
                if not out or out[-1][:2] != span[:2]:
                    out.append(span)
                break
    return out


def _marked(text: str, found: Iterable[tuple[int, int, int]], start: int, end: int) -> str:
    out: list[str] = []
    pos = start
    for s, e, _g in found:
        if s < pos or e > end:
            continue
        out.append(html.escape(text[pos:s], quote=False))
        out.append(f"<mark>{html.escape(text[s:e], quote=False)}</mark>")
        pos = e
    out.append(html.escape(text[pos:end], quote=False))
    return "".join(out)


def mark_html(index: Any, markup: str, groups: list[frozenset[str]]) -> Markup:
    """Safe HTML `markup` with the query's words in its text nodes wrapped in <mark>."""
    if not groups:
        return Markup(markup)
    out = []
    for part in _TAG_SPLIT.split(str(markup)):
        if not part or part.startswith("<"):
            out.append(part)
            continue
        text = html.unescape(part)
        out.append(_marked(text, spans(index, text, groups), 0, len(text)))
    return Markup("".join(out))


def best_window(found: list[tuple[int, int, int]], length: int, limit: int) -> tuple[int, int]:
    """The window of about `limit` characters that holds the most distinct query words."""
    if length <= limit or not found:
        return 0, min(length, limit)
    best = (-1, 0)
    for s, _e, _g in found:
        start = max(0, s - LEAD)
        covered = {g for s2, e2, g in found if s2 >= start and e2 <= start + limit}
        if len(covered) > best[0]:
            best = (len(covered), start)
    start = best[1]
    return start, min(length, start + limit)


def snippet(index: Any, text: str, groups: list[frozenset[str]], limit: int = 240) -> str:
    """Safe HTML: the passage of `text` with the most query words, marked, cut at spaces."""
    found = spans(index, text, groups)
    start, end = best_window(found, len(text), limit)
    if start > 0:
        space = text.rfind(" ", 0, start)
        start = space + 1 if space >= 0 else start
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > start else end
    head = "…" if start > 0 else ""
    tail = " …" if end < len(text) else ""
    return head + _marked(text, found, start, end) + tail
