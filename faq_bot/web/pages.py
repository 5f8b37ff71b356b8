"""The HTML pages (German): start, search results, ruling, paragraph permalink, contents.

Every page works without JavaScript; `faq_bot/static/app.js` only adds the "/"
shortcut, title suggestions, the reference previews' placement and the copy buttons.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any

from flask import (
    Blueprint,
    Response,
    current_app,
    render_template,
    request,
    url_for,
)
from werkzeug.exceptions import NotFound
from werkzeug.routing import BaseConverter

from faq_bot.corpus import precedence_notes
from faq_bot.links import see_also as listed_references
from faq_bot.text import (
    FINGERPRINT_LENGTH,
    alphabetical,
    citation,
    collation_key,
    paragraph_citation,
    paragraph_path,
    said_back,
    slugify,
    squash,
    words,
)
from faq_bot.web.common import (
    bad_request,
    base_url,
    cached_page,
    check_flag,
    check_int,
    check_query,
    conditional,
    current_index,
    entry_or_redirect,
    host_url,
    moved,
    named_entry,
    no_such_entry,
    site_path,
    words_to_mark,
)
from faq_bot.web.marks import mark_html, query_groups
from faq_bot.web.openapi import describe, error_responses, html_body
from faq_bot.web.permalink import (
    MIN_VERSION,
    NUMBER_PATTERN,
    VERSION_PATTERN,
    Located,
    link_note,
    locate,
    tidy_link,
    valid_version,
)
from faq_bot.web.reflinks import backlink_url, link_url, target_paragraph
from faq_bot.web.render import (
    entry_summary,
    paragraph_anchor,
    paragraph_summary,
    preview_id,
    render_paragraph,
)

if TYPE_CHECKING:
    from faq_bot.index import EntryRecord, Index

bp = Blueprint("pages", __name__)

KIND_LABELS = {"faq": "FAQ", "rules": "Regelwerk", "reference": "Kurzübersicht"}


# ---------------------------------------------------------------- helpers


SIMILAR_TITLES = 5  # titles a search without hits offers


def similar_titles(index: Any, query: str, doc: str | None, category: str | None) -> list[dict]:
    """The titles the as-you-type suggestions offer for `query` (`faq_bot.suggest`: a title
    starting so, or one typing slip away), of `doc` and `category` if given: a search that
    found nothing still leads to the entry a short or misspelt word meant."""
    from faq_bot.names import category_slug
    from faq_bot.suggest import suggest_titles

    out = []
    for found in suggest_titles(index, query, n=4 * SIMILAR_TITLES, doc=doc or None):
        record = index.entry(found["id"])
        if record is None:
            continue
        if category and category_slug(index, record.id) != slugify(category):
            continue
        # with its document: two documents may have the same title („Runde“ twice, an
        # API probe)
        out.append({**found, "doc_title": (index.document(record.doc) or {}).get("title", "")})
    return out[:SIMILAR_TITLES]


def document_summaries(index: Any) -> list[dict]:
    """The documents with what the pages show of them (title, date, size, TOC link)."""
    out = []
    for doc in index.documents:
        out.append(
            {
                **doc,
                "kind_label": KIND_LABELS.get(doc.get("kind", ""), doc.get("kind", "")),
                "count": len(doc.get("entry_ids") or ()),
                "url": url_for("pages.document", doc_id=doc["id"]),
            }
        )
    return out


def categories(index: Any, doc: str | None = None) -> list[str]:
    """The categories the search page offers (of `doc`, a known document id, or of all),
    by name (`faq_bot.names.categories`, read once per build)."""
    from faq_bot import names

    return alphabetical(names.categories(index, doc).values())


def reads_as_question(query: str) -> bool:
    """Whether a search reads as a question the chat could answer: a question mark, or a
    sentence of three words and more (a search is mostly a word or two) with a word a
    question could be about (not „der die das“); never one the chat would refuse
    (`faq_bot.question.check_question`: no letter or digit, too long)."""
    from faq_bot.question import QuestionError, check_question, content_words

    try:
        check_question(query)
    except QuestionError:
        return False
    return "?" in query or len(words(query)) >= 3 and bool(content_words(query))


def letter_of(title: str) -> str:
    """The A–Z group of a title: its first letter without diacritics, or "0–9"."""
    for char in title:
        if char.isalnum():
            base = unicodedata.normalize("NFKD", char)[0].upper()
            return base if "A" <= base <= "Z" else "0–9"
    return "0–9"


def toc_groups(index: Any, doc: dict) -> list[tuple[str, list]]:
    """(heading, entries) groups: A–Z letters for a FAQ, sections for a rulebook."""
    entries = index.entries(doc["id"])
    groups: dict[str, list] = {}
    if doc.get("kind") == "faq":
        for entry in sorted(entries, key=lambda e: collation_key(e.title)):
            groups.setdefault(letter_of(entry.title), []).append(entry)
        return sorted(groups.items(), key=lambda g: ("0" if g[0] == "0–9" else "1") + g[0])
    for entry in entries:
        groups.setdefault(entry.section or "", []).append(entry)
    return list(groups.items())


def page_title(entry: Any, doc: dict, number: int | None = None) -> str:
    """The page's title (and og:title): "Titel – Dokument", "Titel, Absatz 3 – Dokument"
    for a paragraph's permalink; a quick reference's row is named by a label alone
    ("Stationär bleiben"), so its heading path comes first, as the page's crumbs show it
    ("BEWEGUNGSPHASE › 1. EINHEITEN BEWEGEN › Stationär bleiben")."""
    title = entry.title
    if doc.get("kind") == "reference" and entry.section:
        title = f"{entry.section} › {title}"
    if number is not None:
        title = f"{title}, Absatz {number}"
    return f"{title} – {doc.get('title', '')}"


def permalink(entry_id: str, index: int, text: str, *, absolute: bool = False) -> str:
    """The permalink of paragraph `index` (0-based) whose plain text is `text`
    (`paragraph_path`), under the app's root; with `absolute`, with scheme and host."""
    path = site_path(paragraph_path(entry_id, index, text))
    return host_url() + path if absolute else path


# ---------------------------------------------------------------- views


@bp.get("/")
@conditional
def home() -> str:
    index = current_index()
    return render_template(
        "pages/index.html",
        documents=document_summaries(index),
        faq_docs=[d for d in index.documents if d.get("kind") == "faq"],
    )


@bp.get("/search")
@conditional
def search() -> str:
    from faq_bot.names import category_outside, known_category
    from faq_bot.query import QueryError, analyze_query
    from faq_bot.search import search as run_search

    index = current_index()
    query = check_query(request.args.get("q"), required=False)
    doc = index.document_id(request.args.get("doc"))
    category = known_category(index, request.args.get("category"))
    # a category kept from another document (the select lists the chosen one's): searched
    # without it, and said so
    category_note = category_outside(index, category, doc)
    if category_note:
        category = None
    n = check_int(
        request.args.get("n"),
        name="n",
        default=int(current_app.config["SEARCH_PAGE_HITS"]),
        low=1,
        high=int(current_app.config["API_MAX_HITS"]),
    )
    # „Stattdessen wie getippt suchen“: the words as typed, not read as corrected
    exact = check_flag(request.args.get("genau"), name="genau")
    result = None
    would_read = None  # what the correction reads a search as typed as (its link back)
    similar: list[dict[str, str]] = []
    if query:
        try:
            # the best mode the build offers, as /api/search and the figures in the README
            # (lexical alone put the right entry first for 0.78 of the fresh 73-76, hybrid 0.95)
            result = run_search(
                index,
                query,
                n=n,
                doc=doc,
                category=category,
                mode=None,
                fragments=True,
                correct=not exact,
            )
            if exact:
                would_read = analyze_query(index, query).suggestion
        except QueryError as exc:
            raise bad_request(str(exc)) from None
        if not result.hits:  # "Depo", "Technologiewerd": titles as the search box offers them
            similar = similar_titles(index, query, doc, category)
    return render_template(
        "pages/search.html",
        query=query,
        # sent, but nothing readable in it (control or invisible characters alone)
        unreadable=bool((request.args.get("q") or "").strip()) and not query,
        doc=doc,
        category=category,
        result=result,
        category_note=category_note,
        asks=reads_as_question(query),
        similar=similar,
        n=n if request.args.get("n") else None,  # a "Meinten Sie" link keeps an asked number
        exact=exact,
        would_read=would_read,
        documents=document_summaries(index),
        categories=categories(index, doc),
        doc_titles={d["id"]: d["title"] for d in index.documents},
        faq_docs=[d for d in index.documents if d.get("kind") == "faq"],
    )


@bp.get("/entry/<entry_id>")
@conditional
def entry(entry_id: str) -> Any:
    index = current_index()
    record = entry_or_redirect(index, entry_id, "pages.entry", marks=True)
    highlight = check_query(words_to_mark(), required=False)
    # the words as typed, not read as corrected (a hit of a search with genau=1): only marks,
    # so any other value marks as corrected rather than refusing the ruling
    exact = bool(highlight) and request.args.get("genau") == "1"
    # the page depends on the build, the entry and the words to mark, nothing else:
    # rendered once per build (bounded cache), the same bytes for the same request
    return cached_page(
        index,
        lambda: render_entry(index, record, highlight, exact=exact),
        "entry",
        record.id,
        highlight,
        "genau" if exact else "",
        users_words=bool(highlight),
    )


@bp.get("/entry/<entry_id>/absatz/<number>")
@conditional
def paragraph(entry_id: str, number: str) -> Any:
    """A paragraph's permalink (`faq_bot.web.permalink`): the ruling page with the
    paragraph quoted first and marked; a link whose paragraph moved in a rebuild is
    redirected to its new number, one whose text changed or went is answered with a note."""
    index = current_index()
    record, n, version, found, tidied = _linked_paragraph(index, entry_id, number)
    plains = record.plain_paragraphs
    if found.where == "moved":
        return moved(permalink(record.id, found.index, plains[found.index]))
    if tidied:
        return moved(
            url_for("pages.paragraph", entry_id=record.id, number=str(n), v=version or None)
        )
    if found.where == "gone":  # a number past the end: rare, and any of them renders alike
        return render_entry(index, record, "", found)
    # keyed by where the link leads, not by its `v`: a made-up `v` is a page already cached,
    # not a new one that pushes real pages out of the bounded cache
    return cached_page(
        index,
        lambda: render_entry(index, record, "", found),
        "paragraph",
        record.id,
        found.where,
        str(found.index),
    )


def _linked_paragraph(
    index: Index, entry_id: str, number: str
) -> tuple[EntryRecord, int, str, Located, bool]:
    """Where a paragraph link leads: (its entry, its number, its `v`, where the paragraph is
    now, whether the link was tidied), or the 404 or 400 it is. A link that is not the one
    it meant (a number or a "v" with what a forum added after it, another name of the entry,
    a paragraph that moved) is then redirected once, to where it leads; one that leads
    nowhere is answered at once (a redirect to a 404 helps nobody)."""
    n, version, tidied = tidy_link(number, request.args.get("v") or "")
    if n is None:
        raise NotFound(
            description=f"Einen Absatz {said_back(number, 40)} gibt es nicht: Absätze "
            "werden ab 1 gezählt, wie die Seite sie nummeriert (…/absatz/1 ist „Absatz 1“)."
        )
    if version and not valid_version(version):
        raise bad_request(
            f"Der Parameter „v“ muss die Prüfsumme des verlinkten Absatzes sein "
            f"({MIN_VERSION} bis {FINGERPRINT_LENGTH} Zeichen 0–9 und a–f), nicht "
            f"{said_back(version, 40)}. Ohne „v“ "
            "zeigt der Link "
            "den Absatz in seiner aktuellen Fassung."
        )
    record = _named_record(index, entry_id)
    tidied = tidied or record.id != entry_id
    plains = record.plain_paragraphs
    found = locate(plains, n - 1, version)
    if found.where == "missing":
        raise NotFound(description=link_note("missing", n, record.title, len(plains)))
    return record, n, version, found, tidied


def _named_record(index: Index, entry_id: str) -> EntryRecord:
    """The entry `entry_id` names (another name of it too: "227er"), or its 404."""
    canonical = named_entry(index, entry_id)
    record = index.entry(canonical) if canonical is not None else None
    if record is None:
        raise no_such_entry(entry_id)
    return record


class AbsatzWord(BaseConverter):
    """„absatz“ in any case: ``…/Absatz/2`` has a route, ``…/kapitel/2`` stays none (a 404
    for any method, as before)."""

    regex = "(?i:absatz)"


@bp.record_once
def _absatz_converter(state: Any) -> None:
    state.app.url_map.converters["absatz"] = AbsatzWord


@bp.get("/entry/<entry_id>/<absatz:word>/<number>")
def paragraph_in_other_case(entry_id: str, word: str, number: str) -> Any:
    """``…/Absatz/2`` (a phone's capitalisation, a link typed by hand) is the paragraph's
    permalink, as an entry id in another case is its entry: one redirect to the link it
    meant, its number, `v` and entry tidied as the permalink route tidies them; a link that
    leads nowhere is its 404 or 400 at once."""
    record, n, version, found, _tidied = _linked_paragraph(current_index(), entry_id, number)
    if found.where == "moved":
        plains = record.plain_paragraphs
        return moved(permalink(record.id, found.index, plains[found.index]))
    return moved(url_for("pages.paragraph", entry_id=record.id, number=str(n), v=version or None))


# a paragraph link's number and `v`, as both its routes read them (`_linked_paragraph`)
NUMBER_PARAMETER = {
    "name": "number",
    "in": "path",
    "required": True,
    "description": "Nummer des Absatzes, ab 1. Eine Nummer mit Leerzeichen oder Nullen davor "
    "oder mit dem, was ein Forum, ein Satz oder eine Kopie anhängt („3)“, „3.“, „3=“, ein "
    "unsichtbares Zeichen), wird per 301 auf die Nummer weitergeleitet",
    "schema": {"type": "string", "pattern": NUMBER_PATTERN},
}
VERSION_PARAMETER = {
    "name": "v",
    "in": "query",
    "required": False,
    "description": "Prüfsumme des Absatztextes (faq_bot.text.fingerprint), "
    "auch gekürzt auf ihre ersten Stellen (mindestens vier)",
    "schema": {
        "anyOf": [
            {"type": "string", "pattern": VERSION_PATTERN},
            {"type": "string", "maxLength": 0},
        ]
    },
}

describe(
    "/entry/{entry_id}/{word}/{number}",
    {
        "get": {
            "summary": "Absatz-Permalink mit „Absatz“ in anderer Schreibung (…/Absatz/2): "
            "Weiterleitung auf /entry/{entry_id}/absatz/{number}",
            "parameters": [
                {"name": "entry_id", "in": "path", "required": True, "schema": {"type": "string"}},
                {
                    "name": "word",
                    "in": "path",
                    "required": True,
                    "description": "„absatz“ in beliebiger Groß-/Kleinschreibung",
                    "schema": {"type": "string", "pattern": "^[Aa][Bb][Ss][Aa][Tt][Zz]$"},
                },
                NUMBER_PARAMETER,
                VERSION_PARAMETER,  # tidied and refused as the permalink's own
            ],
            "responses": {
                "301": {"description": "Weiterleitung auf den Permalink des Absatzes"},
                **error_responses(400, 404, html=True),
            },
        }
    },
)


def _caption(record: Any, paragraph: Any) -> str:
    """The text of `record`'s paragraph a reference names ("Tabelle 1.0 Schiffskosten u.
    Bewegung"), or "" for a reference to the entry as a whole."""
    n = target_paragraph(record, paragraph) if record is not None else None
    return squash(record.plain_paragraphs[n]) if n is not None else ""


def render_entry(
    index: Any, record: Any, highlight: str, linked: Located | None = None, *, exact: bool = False
) -> str:
    """The ruling page of `record` with the words of `highlight` marked (as typed, not
    spelling corrected, when `exact`); with `linked`
    (a paragraph's permalink), that paragraph quoted first and marked, or a note that the
    linked paragraph changed or no longer exists."""
    doc = index.document(record.doc) or {"id": record.doc, "title": record.doc, "game": ""}

    previews: dict[str, str] = {}  # entry id -> its summary: the links' description

    def preview(entry_id: str, other: Any) -> str:
        found = previews[entry_id] = entry_summary(other.text, other.links)
        return found

    def link_for(target: str, paragraph: int | None = None) -> tuple[str, str] | None:
        other = index.entry(target)
        if other is None:
            return None
        return link_url(other, paragraph) or "", preview(target, other)

    groups = query_groups(index, highlight, correct=not exact)
    links = list(record.links)
    by_paragraph: dict[int, list] = {}
    for link in links:
        by_paragraph.setdefault(int(link["paragraph"]), []).append(link)
    shown = linked is not None and linked.where in ("here", "changed")
    paragraphs = []
    plains = record.plain_paragraphs
    for i, source in enumerate(record.paragraphs):
        paragraphs.append(
            {
                "anchor": paragraph_anchor(i),
                "number": i + 1,
                "marked": shown and linked is not None and linked.index == i,
                "permalink": permalink(record.id, i, plains[i]),
                "citation": paragraph_citation(
                    plains[i],
                    record.title,
                    doc,
                    i + 1,
                    permalink(record.id, i, plains[i], absolute=True),
                ),
                "html": mark_html(
                    index,
                    render_paragraph(
                        source, plains[i], record.markup, by_paragraph.get(i, []), link_for
                    ),
                    groups,
                ),
            }
        )
    see_also = []
    for link in listed_references(links):
        target_id: str = link.get("target") or ""
        other = index.entry(target_id) if target_id else None
        caption = _caption(other, link.get("target_paragraph"))
        if other is not None and caption and other.id != record.id:
            caption = f"{caption} ({other.title})"
        see_also.append(
            {
                "text": (caption or other.title)
                if other
                else (link.get("target_text") or link.get("text")),
                "url": link_url(other, link.get("target_paragraph")),
                "preview": preview(target_id, other) if other else "",
                "preview_id": preview_id(target_id) if other else "",
            }
        )
    backlinks = []
    for back in record.backlinks:
        other = index.entry(back["id"])
        backlinks.append(
            {
                "title": back.get("title") or back["id"],
                "url": backlink_url(back, other),
                "doc_title": (index.document(back.get("doc", "")) or {}).get("title", ""),
                "preview": preview(back["id"], other) if other else "",
                "preview_id": preview_id(back["id"]) if other else "",
            }
        )
    prev, nxt = index.neighbours(record.id)
    absolute = url_for("pages.entry", entry_id=record.id, _external=True)
    canonical = absolute
    title = page_title(record, doc)
    description = entry_summary(record.text, record.links, limit=200)
    cited, printed = citation(record.title, doc, absolute), canonical
    if shown and linked is not None:
        number = linked.index + 1
        canonical = url_for(
            "pages.paragraph", entry_id=record.id, number=str(number), _external=True
        )
        title = page_title(record, doc, number)
        description = paragraph_summary(plains, linked.index, 200)
        # a paragraph's page is cited, and printed, as the paragraph with its version, as
        # its copy button copies it (the canonical link leaves the version out)
        here = permalink(record.id, linked.index, plains[linked.index], absolute=True)
        cited, printed = citation(record.title, doc, here, paragraph=number), here
    return render_template(
        "pages/entry.html",
        entry=record,
        doc=doc,
        page_title=title,
        kind_label=KIND_LABELS.get(doc.get("kind", ""), ""),
        paragraphs=paragraphs,
        linked=None
        if linked is None
        else {
            "where": linked.where,
            "number": linked.index + 1,
            "paragraph": paragraphs[linked.index] if shown else None,
            "note": link_note(linked.where, linked.index + 1, record.title, len(plains)),
        },
        see_also=see_also,
        backlinks=backlinks,
        previews={preview_id(k): v for k, v in previews.items() if v},
        prev=prev,
        next=nxt,
        precedence=precedence_notes(index.documents, doc),
        absolute_url=absolute,
        canonical_url=canonical,
        description=description,
        citation=cited,
        print_url=printed,
        # said only when a word is marked: a hit close in meaning alone, whose entry holds
        # no word of the search, said „Markiert: Wörter aus „Kampf““ over no mark
        highlight=highlight if any("<mark>" in str(p["html"]) for p in paragraphs) else "",
        query=highlight,  # the header's search field keeps the search the hit came from
    )


@bp.get("/docs", strict_slashes=False)
def documents() -> Any:
    """The documents' folder address (a reader shortening /docs/how-faq): the start page's
    list of documents."""
    return moved(url_for("pages.home", _anchor="dokumente"))


@bp.get("/docs/<doc_id>")
@conditional
def document(doc_id: str) -> Any:
    index = current_index()
    doc = index.document(doc_id)
    if doc is None:
        # "/docs/HOW-FAQ": the document's address in other letters, read as an entry's is
        known = index.document(slugify(doc_id))
        if known is not None:
            return moved(url_for("pages.document", doc_id=known["id"]))
        raise NotFound(description=f"Ein Dokument {said_back(doc_id)} gibt es nicht.")
    groups = toc_groups(index, doc)
    return render_template(
        "pages/document.html",
        doc=doc,
        kind_label=KIND_LABELS.get(doc.get("kind", ""), ""),
        groups=groups,
        is_faq=doc.get("kind") == "faq",
        precedence=precedence_notes(index.documents, doc),
        count=sum(len(g[1]) for g in groups),
    )


@bp.get("/opensearch.xml")
def opensearch() -> Response:
    # `base` with the app's script root (the search's address), `host` without it (the
    # icon's path from `asset_url` holds the root already)
    xml = render_template("pages/opensearch.xml", base=base_url(), host=host_url())
    return Response(xml, mimetype="application/opensearchdescription+xml")


describe(
    "/entry/{entry_id}/absatz/{number}",
    {
        "get": {
            "summary": "Permalink eines Absatzes (HTML): der Eintrag, der Absatz zuerst zitiert",
            "description": "Absatz `number` (ab 1, wie die Seite ihn nummeriert: Anker "
            "#p<number-1>) des Eintrags, markiert; `v` ist die Prüfsumme seines Textes, als "
            "der Link entstand. Steht der Text nach einem Neuaufbau in einem anderen Absatz: "
            "301 dorthin; gibt es ihn nicht mehr: der Absatz (oder der Eintrag) mit Hinweis.",
            "parameters": [
                {
                    "name": "entry_id",
                    "in": "path",
                    "required": True,
                    "description": "Stabile ID des Eintrags (auch Alias-ID)",
                    "schema": {"type": "string"},
                },
                NUMBER_PARAMETER,
                VERSION_PARAMETER,
            ],
            "responses": {
                "200": html_body("Der Eintrag mit dem verlinkten Absatz"),
                **error_responses(301, 304, 400, 404, 503, html=True),
            },
        }
    },
)
