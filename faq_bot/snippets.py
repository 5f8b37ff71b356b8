"""Search snippets: the passage of a paragraph with the most query words, marked.

Every place that shows a hit (the search page, ``GET /api/search``, ``faq-bot
search``, the chat's hits) gets its snippet from `snippet`, called by
`faq_bot.search.search`. Words are found with the index's own analyzer (the
one that indexed the text and analyses queries), so the query "bezahlt" marks
"bezahlen" exactly when the search matched it. The output is safe HTML: the
text is escaped, only ``<mark>`` is added.

``snippet(index, text, groups, limit) -> str``
    The window of about `limit` characters of `text` that holds the most
    distinct query words (`groups`: one set of index terms per query word),
    cut at spaces, with "…" where it was cut and the words in ``<mark>``.
``word_spans(index, text, groups) -> [(start, end, group)]``
    Where each query word occurs in `text` (also used to mark ruling pages).
``marked_sentence(index, text, groups, limit) -> (start, end) | None``
    The sentence of the snippet's window with the most query words: what a hit's link
    names in a text fragment, so the ruling opens scrolled to it.
"""

from __future__ import annotations

import bisect
import html
import itertools
import sys
from array import array
from collections.abc import Iterable, Iterator
from typing import Any

from faq_bot.text import split_sentences

SNIPPET_CHARS = 240
LEAD = 40  # characters of context before the first query word of the window


class Spans:
    """(term, start, end) of every token of a text, iterated in order; held compactly
    (one interned string per term, the offsets in one array), about a tenth of a
    tuple per token: the cache holds thousands of paragraphs in every worker."""

    __slots__ = ("_bounds", "_terms")

    def __init__(self, tokens: Iterable[tuple[str, int, int]]):
        terms: list[str] = []
        bounds = array("I")
        for term, start, end in tokens:
            terms.append(sys.intern(term))
            bounds.append(start)
            bounds.append(end)
        self._terms = tuple(terms)
        self._bounds = bounds

    def __iter__(self) -> Iterator[tuple[str, int, int]]:
        b = self._bounds
        return zip(self._terms, b[0::2], b[1::2], strict=True)

    def __len__(self) -> int:
        return len(self._terms)


def token_spans(index: Any, text: str) -> Spans:
    """(term, start, end) of every token of `text` (analyzed once per build, bounded)."""
    found = index.state.spans.get(text)
    if found is None:
        found = index.state.spans.put(
            text,
            Spans(
                (t.text, t.startchar, t.endchar)
                for t in index.analyzer(text, mode="index", chars=True, removestops=False)
            ),
        )
    return found


def word_spans(index: Any, text: str, groups: list[frozenset[str]]) -> list[tuple[int, int, int]]:
    """(start, end, group) of each word of `text` whose term belongs to a query word."""
    out: list[tuple[int, int, int]] = []
    if not groups:
        return out
    # term -> the first query word it belongs to
    group_of = {t: g for g in reversed(range(len(groups))) for t in groups[g]}
    for term, start, end in token_spans(index, text):
        if term in group_of and (not out or out[-1][:2] != (start, end)):
            out.append((start, end, group_of[term]))
    return out


def marked(text: str, found: Iterable[tuple[int, int, int]], start: int, end: int) -> str:
    """Escaped ``text[start:end]`` with the `found` words in ``<mark>``."""
    out: list[str] = []
    pos = start
    for s, e, _g in found:
        if s < pos or e > end:
            continue
        out.append(html.escape(text[pos:s]))
        out.append(f"<mark>{html.escape(text[s:e])}</mark>")
        pos = e
    out.append(html.escape(text[pos:end]))
    return "".join(out)


def marked_sentence(
    index: Any, text: str, groups: list[frozenset[str]], limit: int = SNIPPET_CHARS
) -> tuple[int, int] | None:
    """(start, end) of the sentence of `text` a hit's snippet is about: of the sentences its
    window (`best_window`) reaches, the one holding the most distinct query words (ties: the
    earliest); None when no word of the query stands in `text`."""
    found = word_spans(index, text, groups)
    if not found:
        return None
    start, end = best_window(found, len(text), limit)
    best: tuple[int, int, int] | None = None
    for s, e in split_sentences(text):
        if e <= start or s >= end:
            continue
        covered = len({g for a, b, g in found if a >= s and b <= e})
        if covered and (best is None or covered > best[0]):
            best = (covered, s, e)
    return (best[1], best[2]) if best is not None else None


def best_window(found: list[tuple[int, int, int]], length: int, limit: int) -> tuple[int, int]:
    """The window of about `limit` characters that holds the most distinct query words
    (ties: the earliest). `found` is in text order, as `word_spans` returns it."""
    if length <= limit or not found:
        return 0, min(length, limit)
    starts = [s for s, _e, _g in found]
    ends = list(itertools.accumulate((e for _s, e, _g in found), max))  # sorted for bisect
    groups = [g for _s, _e, g in found]
    best = (-1, 0)
    for s in starts:
        start = max(0, s - LEAD)
        lo = bisect.bisect_left(starts, start)
        hi = bisect.bisect_right(ends, start + limit)
        covered = len(set(groups[lo:hi]))
        if covered > best[0]:
            best = (covered, start)
    start = best[1]
    return start, min(length, start + limit)


def snippet(index: Any, text: str, groups: list[frozenset[str]], limit: int = SNIPPET_CHARS) -> str:
    """Safe HTML: the passage of `text` with the most query words, marked, cut at spaces."""
    found = word_spans(index, text, groups)
    start, end = best_window(found, len(text), limit)
    if start > 0:  # after the last space or line break before it; inside the text's
        # first word, its beginning ("…ICHTIG:" was shown for "WICHTIG:")
        start = max(text.rfind(" ", 0, start), text.rfind("\n", 0, start)) + 1
    if end < len(text):
        space = max(text.rfind(" ", start, end), text.rfind("\n", start, end))
        end = space if space > start else end
    head = "…" if start > 0 else ""
    tail = " …" if end < len(text) else ""
    return head + marked(text, found, start, end) + tail
