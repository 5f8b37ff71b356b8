"""Rule ids from the corpus: the one place the checker touches the FAQ itself.

The engine cites rules by FAQ entry title; this thin module looks the titles up
in a loaded corpus and gives the mapping title -> entry id that `resolve` takes.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from faq_bot.corpus import Corpus, load_corpus
from faq_bot.stack.catalog import CatalogCard
from faq_bot.stack.resolve import rule_titles

FAQ_DOC = "how-faq"


class MissingRuleError(LookupError):
    """A rule the checker cites has no entry in the corpus (the corpus is incomplete)."""


def rule_ids_from_corpus(
    corpus: Corpus, catalog: tuple[CatalogCard, ...] | None = None, doc: str | None = FAQ_DOC
) -> Mapping[str, str]:
    """Rule title -> entry id for every title the engine can cite; raises if one is missing.

    Titles are looked up in the HoW FAQ (`doc`); pass `doc=None` to search every document.
    """
    ids: dict[str, str] = {}
    missing = []
    for title in rule_titles(catalog):
        entry = corpus.find_by_title(title, doc=doc)
        if entry is None and doc is not None:
            entry = corpus.find_by_title(title)
        if entry is None:
            missing.append(title)
        else:
            ids[title] = entry.id
    if missing:
        raise MissingRuleError(
            "Im Korpus fehlen FAQ-Einträge, auf die sich der Prüfer stützt: " + ", ".join(missing)
        )
    return ids


def load_rules(corpus_dir: Path | str) -> Mapping[str, str]:
    """The rule ids of the corpus in `corpus_dir`; raises CorpusError or MissingRuleError."""
    return rule_ids_from_corpus(load_corpus(corpus_dir))
