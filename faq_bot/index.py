"""Stage 2: the index's layout and schema, and reading a build.

A build is written by `faq_bot.indexbuild.build_index` into
``index_dir/builds/<build-id>/`` (the folder names and files below: `BUILDS`,
`WHOOSH_DIR`, ``entries.json``, ``meta.json``, ``vocab.json``, the entry store);
``index_dir/current`` points at the live one. This module reads it.

Public interface (others code against these names):

``make_schema(vocabulary) -> Schema``
    The Whoosh schema of a build (field boosts `BOOSTS`; one analyzer for every
    text field, `faq_bot.analysis.make_analyzer`).

``current_target(index_dir) -> Path | None``
    The complete build ``index_dir/current`` points at, if any.

``open_index(index_dir) -> Index``
    Opens the build ``index_dir/current`` points at. Raises
    `IndexMissingError` (German message: run ``faq-bot index``) when there is none.

``Index``
    ``version`` (str, build id), ``path``, ``built_at`` (ISO time),
    ``documents`` (list of dicts: id, file, title, game, kind, language, date,
    date_text, notes, precedence, preamble, entry_ids - entry ids in order),
    ``document(doc_id) -> dict | None``,
    ``entry(id) -> EntryRecord | None`` (canonical ids only),
    ``canonical_id(id_or_alias) -> str | None`` (alias ids, slugs of titles and
    of aliases, and abbreviations of the synonyms table that spell out a title ("227er")
    map to the canonical id: use it for 301 redirects),
    ``entries(doc=None) -> list[EntryRecord]`` in document order
    (``iter_entries(doc=None)``: the same, read one document at a time),
    ``neighbours(id) -> (prev EntryRecord | None, next EntryRecord | None)``
    within the entry's document,
    ``references(id) -> list[dict]`` (outgoing cross references),
    ``backlinks(id) -> list[str]`` (ids of entries that link to `id`),
    ``searching()`` (context manager: the build's one Whoosh searcher, held
    exclusively while inside; queries are scored from precomputed impacts, see
    `faq_bot.impacts`, so only diagnostics use it), ``state`` (the build's typed,
    bounded derived data, `faq_bot.buildstate.BuildState`), ``warm_up()`` (runs the
    registered `WARMERS` so that no user pays for first-use work),
    ``whoosh`` (the `whoosh.index.Index`), ``schema``, ``analyzer`` (the one
    analyzer of all text fields, with the corpus vocabulary), ``vocabulary`` (folded corpus word ->
    count), ``surface`` (folded word -> its usual spelling), ``is_stale()``
    (True when ``current`` now points at another build),
    ``close()``.

``EntryRecord`` (frozen dataclass)
    The fields of `faq_bot.corpus.model.Entry` — ``id, doc, title, paragraphs``
    (source form), ``position, aliases, category, section, markup, alias_ids`` —
    plus ``plain_paragraphs`` (tuple of str), ``text`` (plain paragraphs joined
    by newlines), ``name``, ``links`` (tuple of reference dicts: ``paragraph``,
    ``text``, ``target_text``, ``target`` (entry id or None when unresolved),
    ``target_title`` (or None), ``start``, ``end`` — offsets into the plain
    paragraph —, ``target_paragraph`` (the target's paragraph a numbered label such as
    "Tabelle 1.0" names, 0-based, or None; absent in builds before it)) and
    ``backlinks`` (tuple of dicts ``{"id", "title", "doc"}``).
    ``to_json()`` gives a JSON-ready dict.

``IndexHolder(index_dir)``
    Thread-safe holder for long-running processes (the web server): ``get()``
    opens the index on first use and reopens it when a rebuild has been
    swapped in; the previous Index stays usable for requests already running.

``IndexMissingError`` (subclass of ``LookupError``); ``IndexBrokenError`` (a
build that cannot be read); ``IndexWriteError`` (an index folder that cannot be
written, raised by the build).
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.fields import ID, NUMERIC, TEXT, Schema

from faq_bot.analysis import make_analyzer
from faq_bot.buildstate import BuildState
from faq_bot.corpus import first_titled, slugify
from faq_bot.corpus.model import EntryText, Markup
from faq_bot.entrystore import STORE_FILE, EntryStore
from faq_bot.errors import REBUILD, UNREADABLE_INDEX, IndexProblem, InputError, unreadable_index
from faq_bot.lexicon import load_synonyms
from faq_bot.morphcache import install_build_table
from faq_bot.text import (
    fold,
    paragraph_path,
    read_as,
    said_back,
    without_format,
    without_link_tail,
)

__all__ = [
    "EntryRecord",
    "Index",
    "IndexBrokenError",
    "IndexHolder",
    "IndexMissingError",
    "IndexNotBuiltError",
    "IndexWriteError",
    "current_target",
    "make_schema",
    "open_index",
]

FORMAT = 4  # bump when the layout of a build or the folding of its terms changes (4: NFKC)
CURRENT = "current"
BUILDS = "builds"
WHOOSH_DIR = "whoosh"
EMBEDDINGS_CACHE = "embeddings-cache"  # survives builds: vectors by model and text hash
MORPHOLOGY_CACHE = "morphology-cache"  # survives builds: HanTa's analysis of each word

log = logging.getLogger(__name__)
ENTRIES_JSON = "entries.json"
META_JSON = "meta.json"
VOCAB_JSON = "vocab.json"

# Field boosts: a word in the title or an alias weighs more than one in the body.
BOOSTS = {
    "title": 4.0,
    "aliases": 3.0,
    "category": 1.0,
    "section": 1.0,
    "body": 1.0,
    "heading": 1.5,
}


# First-use work other stages register (e.g. loading impacts, the stem table);
# `Index.warm_up` runs them when a long-running process opens a build.
WARMERS: list[Callable[[Index], None]] = [install_build_table]


class IndexMissingError(IndexProblem, LookupError):
    """There is no built index in the folder (the message says what to run)."""


class IndexNotBuiltError(IndexMissingError):
    """No build at all in the folder (no `current` link): a fresh machine, not a damaged
    or outdated index."""


class IndexBrokenError(IndexMissingError):
    """The current build cannot be read (partial or corrupted files)."""

    @classmethod
    def because(cls, index_dir: Path | str, exc: BaseException) -> IndexBrokenError:
        """The error for the build in `index_dir`, found unreadable by `exc` (raise it
        ``from exc``)."""
        return cls(unreadable_index(exc, index_dir))


class IndexWriteError(IndexProblem):
    """The index folder cannot be written (the message names it)."""


@dataclass(frozen=True)
class EntryRecord(EntryText):
    """An entry as the index stores it: `Entry`'s fields plus its cross references."""

    id: str
    doc: str
    title: str
    paragraphs: tuple[str, ...]
    position: int
    aliases: tuple[str, ...] = ()
    category: str | None = None
    section: str | None = None
    markup: Markup = "text"
    alias_ids: tuple[str, ...] = ()
    plain_paragraphs: tuple[str, ...] = ()
    links: tuple[dict, ...] = ()
    backlinks: tuple[dict, ...] = field(default=())

    def permalink(self, paragraph: int) -> str | None:
        """The permalink path of paragraph `paragraph` (0-based; `faq_bot.text.paragraph_path`,
        fingerprinting the paragraph as the ruling page shows it: an answer's passage may
        carry a lead-in besides), or None when the entry has no such paragraph."""
        if not 0 <= paragraph < len(self.plain_paragraphs):
            return None
        return paragraph_path(self.id, paragraph, self.plain_paragraphs[paragraph])

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "doc": self.doc,
            "title": self.title,
            "name": self.name,
            "url": f"/entry/{self.id}",
            "position": self.position,
            "aliases": list(self.aliases),
            "alias_ids": list(self.alias_ids),
            "category": self.category,
            "section": self.section,
            "markup": self.markup,
            "paragraphs": list(self.paragraphs),
            "plain_paragraphs": list(self.plain_paragraphs),
            "text": self.text,
            "links": [dict(link) for link in self.links],
            "backlinks": [dict(b) for b in self.backlinks],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> EntryRecord:
        return cls(
            id=data["id"],
            doc=data["doc"],
            title=data["title"],
            paragraphs=tuple(data["paragraphs"]),
            position=data["position"],
            aliases=tuple(data["aliases"]),
            category=data["category"],
            section=data["section"],
            markup=data["markup"],
            alias_ids=tuple(data["alias_ids"]),
            plain_paragraphs=tuple(data["plain_paragraphs"]),
            links=tuple(data["links"]),
            backlinks=tuple(data["backlinks"]),
        )


def make_schema(vocabulary: Iterable[str]) -> Schema:
    analyzer = make_analyzer(vocabulary)

    def text(name: str) -> TEXT:
        return TEXT(analyzer=analyzer, phrase=True, field_boost=BOOSTS[name])

    return Schema(
        kind=ID(stored=True),  # "entry" or "paragraph"
        key=ID(stored=True, unique=True),  # entry id, or "<entry id>#<paragraph>"
        entry=ID(stored=True),
        doc=ID(stored=True),
        category_id=ID(stored=True),
        paragraph=NUMERIC(stored=True),
        title=text("title"),
        aliases=text("aliases"),
        category=text("category"),
        section=text("section"),
        heading=text("heading"),  # paragraph documents: the entry's title and aliases
        body=text("body"),
    )


# --- reading ------------------------------------------------------------------------


def current_target(index_dir: Path) -> Path | None:
    """The build folder ``index_dir/current`` points at, if that build is complete
    (its ``meta.json``, written last, is there)."""
    link = index_dir / CURRENT
    try:
        target = os.readlink(link)
    except OSError:
        return None
    path = (index_dir / target) if not os.path.isabs(target) else Path(target)
    return path if (path / META_JSON).is_file() else None


class Index:
    """One opened build: metadata, entry records and a Whoosh searcher."""

    def __init__(self, index_dir: Path | str):
        self.index_dir = Path(index_dir)
        path = current_target(self.index_dir)
        if path is None and os.path.islink(self.index_dir / CURRENT):
            raise IndexBrokenError(
                f"Der Index in {self.index_dir} ist unvollständig: „{CURRENT}“ zeigt auf "
                f"{os.readlink(self.index_dir / CURRENT)}, einen Build, den es nicht "
                f"(vollständig) gibt. {REBUILD}"
            )
        if path is None:
            raise IndexNotBuiltError(
                f"Kein Index in {self.index_dir} gefunden. Bitte zuerst `faq-bot index` ausführen."
            )
        self.path = path
        try:
            self._open(path)
        except IndexMissingError:
            raise
        except Exception as exc:  # partial or corrupted files: unusable, not a bug
            raise IndexBrokenError.because(self.index_dir, exc) from exc

    def _open(self, path: Path) -> None:
        meta = json.loads((path / META_JSON).read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT:
            raise IndexMissingError(
                f"Der Index in {self.index_dir} hat ein veraltetes Format. "
                "Bitte `faq-bot index` erneut ausführen."
            )
        self.meta = meta
        self.version: str = meta["version"]
        self.built_at: str = meta["built_at"]
        data = json.loads((path / ENTRIES_JSON).read_text(encoding="utf-8"))
        self.documents: list[dict] = data["documents"]
        self._docs = {d["id"]: d for d in self.documents}
        self._store = EntryStore(path / STORE_FILE, EntryRecord.from_json)
        vocab = json.loads((path / VOCAB_JSON).read_text(encoding="utf-8"))
        self.vocabulary: dict[str, int] = {w: v[0] for w, v in vocab.items()}
        self.surface: dict[str, str] = {w: v[1] for w, v in vocab.items()}
        self.whoosh = whoosh_index.open_dir(path / WHOOSH_DIR)
        self.schema = self.whoosh.schema  # read once: whoosh re-reads it on every access
        self.analyzer = self.schema["body"].analyzer
        self._searcher: Any = None
        self._lock = threading.Lock()
        self.state = BuildState(self)  # derived data the stages compute once per build

    # metadata
    def document(self, doc_id: str) -> dict | None:
        return self._docs.get(doc_id)

    def document_id(self, raw: str | None) -> str | None:
        """A document id a user gave (`raw`, stripped, in any case) when the index has it, None when
        empty (every document); `InputError` (400, exit 2) naming the known ones otherwise."""
        doc = without_format(raw or "").strip() or None  # said back: no bidi controls
        if doc is not None and doc not in self._docs and doc.lower() in self._docs:
            doc = doc.lower()  # ids are lower case; „HOW-FAQ“ typed or linked means how-faq
        if doc is not None and doc not in self._docs:
            # by title, as a reader knows them, with the id a link or the CLI takes
            known = ", ".join(f"{d.get('title') or i} ({i})" for i, d in self._docs.items())
            raise InputError(f"Unbekanntes Dokument {said_back(doc)}. Bekannt sind: {known}.")
        return doc

    def entry(self, entry_id: str) -> EntryRecord | None:
        return self._store.get(entry_id) if entry_id else None

    def find_by_title(self, title: str, doc: str | None = None) -> EntryRecord | None:
        """The first entry (of `doc` if given) whose title or an alias is `title`,
        ignoring case (the same rule as `faq_bot.corpus.Corpus.find_by_title`)."""
        return first_titled(self.iter_entries(doc), title)

    def names(self) -> list[tuple[str, str]]:
        """(title or alias, entry id) of every entry, in document order."""
        return self._store.names()

    def addresses(self) -> list[tuple[str, str]]:
        """(address, entry id) of every id, alias id and title slug an entry answers to,
        read once per build."""
        return self.state.once("addresses", self._store.addresses)

    def canonical_id(self, id_or_alias: str) -> str | None:
        if not id_or_alias:
            return None
        slug = slugify(id_or_alias)
        # a question is longer than any address: no lookup (search asks for every query)
        longest = self.state.once("longest_alias", self._store.longest_alias)
        found = None
        if min(len(id_or_alias), len(slug)) <= longest:
            found = self._store.canonical(id_or_alias, slug)
        if found is None:  # an abbreviation of the synonyms table: what it spells out
            # read as any other name is (a space or an invisible character sent with it)
            # and with what a forum's autolink takes in after it ("…/entry/227er)"), as a
            # slug drops it
            key = fold(read_as(id_or_alias))
            spelled = load_synonyms().get(key) or load_synonyms().get(without_link_tail(key))
            found = self._store.canonical(slugify(" ".join(spelled))) if spelled else None
        return found

    def entries(self, doc: str | None = None) -> list[EntryRecord]:
        """The entries of `doc` (all documents if None) in document order; read from
        the store on every call, so callers should keep what they need."""
        return list(self.iter_entries(doc))

    def iter_entries(self, doc: str | None = None) -> Iterator[EntryRecord]:
        """`entries`, read one document at a time: for a pass over the whole corpus
        (a ×100 corpus's records take about 70 MiB when read all at once)."""
        docs = [doc] if doc is not None else [d["id"] for d in self.documents]
        for d in docs:
            yield from self._store.of_doc(d)

    def neighbours(self, entry_id: str) -> tuple[EntryRecord | None, EntryRecord | None]:
        record = self.entry(entry_id)
        if record is None:
            return None, None
        ids = self._docs[record.doc]["entry_ids"]
        i = ids.index(entry_id)
        prev = self.entry(ids[i - 1]) if i > 0 else None
        nxt = self.entry(ids[i + 1]) if i + 1 < len(ids) else None
        return prev, nxt

    def references(self, entry_id: str) -> list[dict]:
        record = self.entry(entry_id)
        return [dict(link) for link in record.links] if record else []

    def backlinks(self, entry_id: str) -> list[str]:
        record = self.entry(entry_id)
        return [b["id"] for b in record.backlinks] if record else []

    # search
    @contextmanager
    def searching(self) -> Iterator[Any]:
        """The build's one Whoosh searcher, exclusively for the `with` block (whoosh
        readers seek in shared files, so threads take turns; one searcher and its
        files per build, closed by `close`)."""
        with self._lock:
            if self._searcher is None:
                self._searcher = self.whoosh.searcher()
            yield self._searcher

    def warm_up(self) -> None:
        """Do the first-use work of every stage now (see `WARMERS`)."""
        import faq_bot.search  # noqa: F401  (registers its and faq_bot.query's warmers)

        for warm in WARMERS:
            warm(self)

    def is_stale(self) -> bool:
        target = current_target(self.index_dir)
        return target is not None and target.name != self.path.name

    def close(self) -> None:
        with self._lock:
            searcher, self._searcher = self._searcher, None
        try:
            if searcher is not None:
                searcher.close()
        finally:
            self.whoosh.close()
            self._store.close()
            self.state.release()


def open_index(index_dir: Path | str) -> Index:
    return Index(index_dir)


# seconds before a build that could not be read is tried again
RETRY_FAILED = 30.0


class IndexHolder:
    """Thread-safe access to the current build for long-running processes."""

    def __init__(self, index_dir: Path | str):
        self.index_dir = Path(index_dir)
        self._index: Index | None = None
        self._retired: Index | None = None
        self._failed: str | None = None  # a build that could not be read (tried once)
        self._failure: IndexMissingError = IndexMissingError()  # and why
        self._failed_at = 0.0  # and when (time.monotonic)
        self._lock = threading.Lock()

    def warm(self) -> None:
        """Open and warm up the current build if there is one (else do nothing); a build
        that cannot be read is logged, and each request answers 503 until it is rebuilt."""
        try:
            self.get()
        except IndexBrokenError:
            log.exception("the current index build cannot be read: run `faq-bot index`")
        except IndexMissingError:
            pass

    def get(self) -> Index:
        """The current Index; reopened when a new build has been swapped in.

        The replaced Index stays open, so a request still using it finishes (its
        build folder is kept until the next rebuild); it is closed at the swap after.
        """
        index = self._index
        if index is not None and not index.is_stale():
            return index
        if index is None:
            self._lock.acquire()
        elif not self._lock.acquire(blocking=False):
            # another request is opening and warming the new build (a second or more):
            # this one is answered from the build it had, which stays open
            return index
        try:
            return self._swap_in()
        finally:
            self._lock.release()

    def _swap_in(self) -> Index:
        """The current build, opened if it is not the one held (under `_lock`)."""
        if self._index is not None and not self._index.is_stale():
            return self._index
        target = current_target(self.index_dir)
        name = target.name if target is not None else None
        # tried already, a moment ago (a passing failure, too many open files, say, is
        # tried again after `RETRY_FAILED` seconds, not kept for the process's life)
        if (
            name is not None
            and name == self._failed
            and time.monotonic() - self._failed_at < RETRY_FAILED
        ):
            if self._index is None:
                raise type(self._failure)(str(self._failure))
            return self._index
        try:
            fresh = _open_warm(self.index_dir)
        except IndexMissingError as exc:  # broken, unfinished or an old format
            if name is not None:
                self._failed, self._failure = name, exc
                self._failed_at = time.monotonic()
            if self._index is None:
                raise
            # the new build cannot be read: keep answering from the last good one
            log.exception("new index build cannot be read; serving the last one")
            return self._index
        if self._retired is not None:  # two swaps ago: no request still uses it
            self._retired.close()
        self._retired, self._index = self._index, fresh
        return self._index


def _open_warm(index_dir: Path) -> Index:
    """Open a build and do its first-use work; a build that cannot be read, whether
    found at opening or while warming up, is closed again and is an IndexBrokenError."""
    fresh = open_index(index_dir)
    try:
        fresh.warm_up()
    except UNREADABLE_INDEX as exc:
        fresh.close()
        raise IndexBrokenError.because(index_dir, exc) from exc
    except BaseException:  # an IndexMissingError, or anything else: closed all the same
        fresh.close()
        raise
    return fresh
