"""Query words marked on ruling pages (``/entry/<id>?h=<query>``).

Words are found as the snippets find them (`faq_bot.snippets`, the index's
own analyzer), so a query "bezahlt" marks "bezahlen" exactly when the search
matched it. The output is safe HTML: text is escaped, only ``<mark>`` is added.
"""

from __future__ import annotations

import html
import re
from typing import Any

from markupsafe import Markup

from faq_bot.snippets import marked, word_spans

_TAG_SPLIT = re.compile(r"(<[^>]*>)")


def query_groups(index: Any, query: str, *, correct: bool = True) -> list[frozenset[str]]:
    """One set of index terms per word of `query` (empty when it is no query); `correct`
    False: the words as typed (a hit of a search with ``genau=1``)."""
    from faq_bot.query import QueryError, analyze_query

    if not query.strip():
        return []
    try:
        return [frozenset(g) for g in analyze_query(index, query, correct=correct).words]
    except QueryError:
        return []


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
        out.append(marked(text, word_spans(index, text, groups), 0, len(text)))
    return Markup("".join(out))
