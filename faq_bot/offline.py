"""The offline copy of the corpus: one JSON asset per index build for the service worker.

`write_offline_data` runs inside `faq_bot.indexbuild.build_index` and writes
``offline.json`` into the build folder. The browser (``static/offline-search.js``)
searches it without a server, so the asset carries the *server's* analysis, not
a second analyzer written in JavaScript:

- per entry the folded terms of its title (``t``), aliases and category (``a``)
  and text (``x``), each word also split into the corpus words of its compound
  parts ("Aktionsstapel" → "aktion", "stapel") and expanded by the abbreviation
  table (a ruling that writes "TW" also holds "technologiewert");
- the abbreviation table (folded key → folded words), the stop words, and the
  folding rules (``fold``: character table, the "ae/oe/ue" digraph pattern), so
  JavaScript folds a query exactly as `faq_bot.text.fold` does: lower case,
  the table, the digraph pattern, accents dropped; and the spellings that sound alike
  (``sound_alike``: `faq_bot.spelling.SOUND_ALIKE`), so a slip is corrected as online.

The browser matches query terms as prefixes of entry terms. The asset also
holds each entry's plain paragraphs and its cross references (``see``: the entries it
refers to, ``back``: those referring to it) so ruling pages render offline.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from faq_bot.analysis import part_vocabulary, split_compound, vocabulary_from_texts
from faq_bot.corpus import precedence_notes
from faq_bot.entrystore import alias_map
from faq_bot.lexicon import load_stopwords, load_synonyms
from faq_bot.links import see_also
from faq_bot.names import ARTICLE
from faq_bot.spelling import SOUND_ALIKE
from faq_bot.text import (  # the folding rules, exported to the JS
    _DIGRAPH,
    _UMLAUT,
    slugify,
    words,
)

OFFLINE_JSON = "offline.json"
FORMAT = 1


def fold_rules() -> dict[str, Any]:
    """`faq_bot.text.fold` as data: the character table and the digraph pattern."""
    return {
        "table": {chr(k): v for k, v in _UMLAUT.items()},
        "digraph": _DIGRAPH.pattern,
        "word": r"[\p{L}\p{N}_]+",
    }


def entry_terms(
    texts: Iterable[str], vocabulary: frozenset[str], synonyms: Mapping[str, tuple[str, ...]]
) -> list[str]:
    """The distinct folded terms of `texts` with compound parts and abbreviation expansions."""
    stop = load_stopwords()
    out: dict[str, None] = {}
    for text in texts:
        for word in words(text):
            if word in stop:
                continue
            out[word] = None
            for part in split_compound(word, vocabulary):
                out[part] = None
            for expanded in synonyms.get(word, ()):
                out[expanded] = None
    return list(out)


def _entries(
    records: list[dict], synonyms: Mapping[str, tuple[str, ...]]
) -> Iterator[dict[str, Any]]:
    """The asset's entries, one at a time (see the module docstring)."""
    texts = [t for r in records for t in (r["title"], *r["aliases"], *r["plain_paragraphs"])]
    vocabulary = part_vocabulary(vocabulary_from_texts(texts))
    del texts
    # every address the server resolves to an entry (`faq_bot.entrystore.alias_map`: old ids,
    # title and alias slugs), so the copy opens "/entry/normale-bewegung" and names the
    # entry a headword search puts first as the server does
    named: dict[str, list[str]] = {}
    for alias, entry_id in alias_map(records, slugify).items():
        if alias != entry_id:
            named.setdefault(entry_id, []).append(alias)
    for r in records:
        labels = [*r.get("aliases", ()), *([r["category"]] if r.get("category") else [])]
        yield {
            "id": r["id"],
            "doc": r["doc"],
            "title": r["title"],
            "category": r.get("category"),
            "section": r.get("section"),
            "alias_ids": named.get(r["id"], []),
            "paragraphs": list(r["plain_paragraphs"]),
            # cross references, as the ruling page lists them ("Siehe auch": the resolved
            # ones) and the entries linking here
            "see": list(
                dict.fromkeys(
                    target
                    for link in see_also(r.get("links", ()))
                    if (target := link.get("target")) and target != r["id"]
                )
            ),
            "back": [b["id"] for b in r.get("backlinks", ())],
            "t": entry_terms([r["title"]], vocabulary, synonyms),
            "a": entry_terms(labels, vocabulary, synonyms),
            "x": entry_terms(r["plain_paragraphs"], vocabulary, synonyms),
        }


def _head(
    documents: list[dict], version: str, synonyms: Mapping[str, tuple[str, ...]]
) -> dict[str, Any]:
    """Everything of the asset but its entries (which come last)."""
    return {
        "format": FORMAT,
        "version": version,
        "fold": fold_rules(),
        # a slip spelt as a term sounds ("endfase"), corrected as `faq_bot.query` does
        "sound_alike": [list(rule) for rule in SOUND_ALIKE],
        # an article before a headword ("die Endphase"), as `faq_bot.names.named_entry`
        "article": ARTICLE,
        "synonyms": {k: list(v) for k, v in synonyms.items()},
        "stopwords": sorted(load_stopwords()),
        "documents": [
            {
                k: d.get(k)
                for k in ("id", "title", "game", "kind", "date_text", "notes", "precedence")
            }
            | {"entry_ids": list(d.get("entry_ids", ()))}
            # the notes a ruling page shows that another document's precedence makes
            | {"precedence_notes": precedence_notes(documents, d)}
            for d in documents
        ],
    }


def offline_data(records: list[dict], documents: list[dict], version: str) -> dict[str, Any]:
    """The offline asset of one build (see the module docstring)."""
    synonyms = load_synonyms()
    return _head(documents, version, synonyms) | {"entries": list(_entries(records, synonyms))}


def write_offline_data(
    build_dir: Path, records: list[dict], documents: list[dict], version: str
) -> None:
    """Write the build's ``offline.json`` (compact; served gzip/brotli-compressed).

    Written entry by entry, the same bytes as ``json.dumps(offline_data(...))``
    without holding the whole asset (at ×100 the corpus) in memory twice.
    """
    synonyms = load_synonyms()

    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    with (build_dir / OFFLINE_JSON).open("w", encoding="utf-8") as out:
        out.write(dump(_head(documents, version, synonyms))[:-1] + ',"entries":[')
        for n, entry in enumerate(_entries(records, synonyms)):
            out.write(("," if n else "") + dump(entry))
        out.write("]}")
