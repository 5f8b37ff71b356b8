"""The entries an answer lists beside its passage, each as the JSON the API and the
pages read: its source hit (`source_hit`), the related entries (`related_entries`: the
answer's cross references, then entries close in meaning, its own game first) and a
declined answer's first search hits (`searched_first`, each a `search_item`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from faq_bot.dense import DenseScores
from faq_bot.impacts import impacts
from faq_bot.index import EntryRecord, Index
from faq_bot.query import QueryError
from faq_bot.search import Hit, ScoredEntry, highlight, search
from faq_bot.text import entry_path

from .history import last_answered
from .terms import reference_target
from .wording import game_of

if TYPE_CHECKING:
    from .history import Turn
    from .result import Answer

__all__ = [
    "RELATED",
    "SEARCH_FIRST",
    "earlier_item",
    "related_entries",
    "related_item",
    "search_item",
    "searched_first",
    "source_hit",
]

RELATED = 5
SEARCH_FIRST = 3  # the search hits a declined answer takes, then leaves out those `related` lists


def source_hit(
    index: Index, record: EntryRecord, paragraph: int | None, terms, score: float
) -> Hit:
    """The search hit an answer cites as its source (`paragraph`'s snippet)."""
    document = index.document(record.doc) or {}
    paragraphs = record.plain_paragraphs
    source = (
        paragraphs[paragraph] if paragraph is not None else (paragraphs[0] if paragraphs else "")
    )
    return Hit(
        id=record.id,
        doc=record.doc,
        title=record.title,
        url=entry_path(record.id),
        score=score,
        snippet=highlight(index, source, terms),
        text=record.text,
        category=record.category,
        doc_title=document.get("title"),
        paragraph=paragraph,
    )


def related_item(
    index: Index, record: EntryRecord, paragraph: int | None, reason: str
) -> dict[str, Any]:
    """One entry listed under an answer: a cross reference ("link") or close in
    meaning ("similar", with the paragraph its link jumps to)."""
    return {**search_item(index, record, paragraph), "doc": record.doc, "reason": reason}


def search_item(
    index: Index, record: EntryRecord, paragraph: int | None, matched: bool | None = None
) -> dict[str, Any]:
    """One of the search's first hits a declined answer offers (`Answer.search_first`),
    linked at its best paragraph as the search page links it, with ``matched`` as the
    search said it (`faq_bot.search.Hit.matched`); `related_item` adds to it (without)."""
    document = index.document(record.doc) or {}
    item = {
        "id": record.id,
        "title": record.title,
        "url": entry_path(record.id, paragraph or None),  # the first needs no anchor
        "doc_title": document.get("title"),
        "paragraph": paragraph,
    }
    return item if matched is None else {**item, "matched": matched}


def _entry_docs(index: Index) -> dict[str, str]:
    """Entry id -> its document, from the build's impacts (no entry is read), mapped once
    per build."""
    imp = impacts(index)
    return index.state.once(
        "answer.entry_docs", lambda: dict(zip(imp.entry_ids, imp.entry_doc, strict=True))
    )


def related_entries(
    index: Index,
    record: EntryRecord | None,
    scored: list[ScoredEntry],
    exclude: set[str],
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen = set(exclude)
    if record is not None:
        for link in record.links:
            target = index.entry(link["target"]) if link.get("target") else None
            if target is None or target.id in seen or target.id == record.id:
                continue
            seen.add(target.id)
            out.append(related_item(index, target, None, "link"))
    if record is not None:
        # an answer's own game first: other games' entries only where its own run out
        # (they stay: the question may have meant another game, and each names its own)
        # (among the first ten per item listed: a ranking's tail is not looked up)
        game, docs = game_of(index, record.doc), _entry_docs(index)
        scored = sorted(
            scored[: RELATED * 10], key=lambda s: game_of(index, docs.get(s.entry, "")) != game
        )
    similar = 0
    for s in scored:
        if similar >= RELATED or len(out) >= RELATED + 3:
            break
        other = index.entry(s.entry)
        if other is None or other.id in seen:
            continue
        target = reference_target(index, other)
        if target is not None:
            if target.id in seen:
                continue
            other = target
        seen.add(other.id)
        out.append(related_item(index, other, s.paragraph if target is None else None, "similar"))
        similar += 1
    return out


def earlier_item(index: Index, result: Answer, turns: list[Turn]) -> dict[str, Any] | None:
    """What a declined `result` offers of the conversation so far: the entry of the last
    turn answered with confidence, however many declined turns came since (`search_item`);
    None for a confident answer, when no turn was answered, when the entry is not in the
    index (the history comes from the client) or not in the answer's document
    (`Answer.scope`), or when the answer lists it already. A question after an answer that
    finds nothing (read alone or with it) leaves the entry the conversation was about a tap
    away."""
    # as the index names it (`answer`)
    answered = last_answered(turns)
    entry = turns[answered].entry if answered is not None else None
    if result.confident or not entry:
        return None
    record = index.entry(entry)
    listed = {r["id"] for r in (*result.related, *result.search_first)}
    if record is None or record.id in listed:
        return None
    if result.scope is not None and record.doc != result.scope:
        return None
    return search_item(index, record, None)


def searched_first(
    index: Index, result: Answer, dense: DenseScores | None = None
) -> list[dict[str, Any]]:
    """What a declined `result` offers of the search "In der Suche nachsehen" runs
    (`faq_bot.search.search` for its `search_query`, in its `scope`, in the build's best
    mode): the first `SEARCH_FIRST` hits, without the entries `related` lists
    (`search_item` each, with ``matched``: whether it holds a word of the search text,
    `faq_bot.search.Hit.matched`); none for a confident one. `dense`: the scores the answer ranked
    its entries by, read instead of embedding the search text (module docstring, step 5);
    without them (no embedder, or it failed on this question) the search is lexical, as
    the search itself falls back."""
    if result.confident or not result.search_query:
        return []
    mode = None if dense is not None else "lexical"
    try:
        found = search(
            index, result.search_query, n=SEARCH_FIRST, doc=result.scope, mode=mode, dense=dense
        )
    except QueryError:
        return []
    listed = {r["id"] for r in result.related}
    out = []
    for hit in found.hits:
        record = index.entry(hit.id) if hit.id not in listed else None
        if record is not None:
            out.append(search_item(index, record, hit.paragraph, hit.matched))
    return out
