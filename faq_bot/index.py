"""Stage 2: build and open the Whoosh index.

Public interface (others code against these names):

``build_index(corpus_dir, index_dir, progress=None) -> BuildReport``
    Loads the corpus (`faq_bot.corpus.load_corpus`), builds the cross references
    (`faq_bot.links.build_links`) and writes a new build into
    ``index_dir/builds/<build-id>/``: the Whoosh index (one ``kind="entry"``
    document per entry and one ``kind="paragraph"`` document per paragraph),
    ``entries.json`` and ``meta.json``. Then it atomically repoints the symlink
    ``index_dir/current`` at the new build (``os.replace``) and deletes all builds
    but the new one and the one before it. A `CorpusError` is raised before
    anything is swapped, so a broken corpus never destroys the live index.
    ``progress`` is an optional callable ``progress(done, total)`` (entries
    indexed; ``analysis_progress`` and ``embed_progress`` count the words HanTa
    analyses and the texts embedded), ``on_phase`` announces each build phase
    (`faq_bot.buildphases`), whose wall and CPU seconds ``meta.json`` keeps under
    ``phases``. HanTa's analyses (``morphology-cache/``) and the embeddings
    (``embeddings-cache/``) are cached beside the builds, so a rebuild of
    unchanged text neither analyses nor embeds again.

``BuildReport`` (frozen dataclass)
    ``version`` (build id), ``path`` (the build folder), ``documents``,
    ``entries``, ``paragraphs``, ``links`` (resolved references),
    ``unresolved`` (list of ``(entry_id, text)``), ``warnings`` (list of German
    strings), ``seconds``.

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
    of aliases map to the canonical id: use it for 301 redirects),
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
    paragraph) and ``backlinks`` (tuple of dicts ``{"id", "title", "doc"}``).
    ``to_json()`` gives a JSON-ready dict.

``IndexHolder(index_dir)``
    Thread-safe holder for long-running processes (the web server): ``get()``
    opens the index on first use and reopens it when a rebuild has been
    swapped in; the previous Index stays usable for requests already running.

``IndexMissingError`` (subclass of ``LookupError``).
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import re
import secrets
import shutil
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.fields import ID, NUMERIC, TEXT, Schema

from faq_bot.analysis import (
    fold,
    make_analyzer,
    morphology_words,
    part_vocabulary,
    vocabulary_from_texts,
)
from faq_bot.buildphases import Phases, Report
from faq_bot.buildstate import BuildState
from faq_bot.corpus import Corpus, load_corpus, slugify, title_key
from faq_bot.corpus.model import EntryText, Markup
from faq_bot.entrystore import STORE_FILE, EntryStore, alias_map, write_store
from faq_bot.errors import IndexProblem, InputError
from faq_bot.impacts import write_impacts
from faq_bot.morphcache import analyse_words, install_build_table, write_build_table
from faq_bot.offline import write_offline_data

__all__ = [
    "BuildReport",
    "EntryRecord",
    "Index",
    "IndexHolder",
    "IndexMissingError",
    "build_index",
    "open_index",
]

FORMAT = 3  # bump when the layout of a build changes
CURRENT = "current"
LOCK_FILE = ".build.lock"
BUILDS = "builds"
WHOOSH_DIR = "whoosh"
EMBEDDINGS_CACHE = "embeddings-cache"  # survives builds: vectors by model and text hash
MORPHOLOGY_CACHE = "morphology-cache"  # survives builds: HanTa's analysis of each word

log = logging.getLogger(__name__)
ENTRIES_JSON = "entries.json"
META_JSON = "meta.json"
VOCAB_JSON = "vocab.json"
_WORD = re.compile(r"\w+")

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


class IndexBrokenError(IndexMissingError):
    """The current build cannot be read (partial or corrupted files)."""


class IndexWriteError(IndexProblem):
    """The index folder cannot be written (the message names it)."""


def _write_error(index_dir: Path, exc: OSError) -> IndexWriteError:
    reason = exc.strerror or type(exc).__name__
    return IndexWriteError(
        f"Der Index kann nicht in {index_dir} geschrieben werden ({reason}). "
        "Bitte die Rechte des Ordners prüfen oder mit --index einen anderen wählen."
    )


Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class BuildReport:
    version: str
    path: Path
    documents: int
    entries: int
    paragraphs: int
    links: int
    unresolved: list[tuple[str, str]]
    warnings: list[str]
    seconds: float
    phases: dict[str, dict[str, float]] = field(default_factory=dict)  # `faq_bot.buildphases`


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


# --- building -----------------------------------------------------------------------


def _link_graph(corpus: Corpus):
    from faq_bot.links import build_links

    return build_links(corpus)


def _ref_json(ref: Any, titles: dict[str, str]) -> dict[str, Any]:
    target = getattr(ref, "target", None)
    return {
        "source": ref.source,
        "paragraph": ref.paragraph,
        "text": ref.text,
        "target_text": ref.target_text,
        "target": target,
        "target_title": titles.get(target) if target else None,
        "start": ref.start,
        "end": ref.end,
    }


def _source_of(item: Any) -> str:
    return item if isinstance(item, str) else item.source


def _new_build_id() -> str:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    return f"{stamp}-{secrets.token_hex(3)}"


def _current_target(index_dir: Path) -> Path | None:
    link = index_dir / CURRENT
    try:
        target = os.readlink(link)
    except OSError:
        return None
    path = (index_dir / target) if not os.path.isabs(target) else Path(target)
    return path if (path / META_JSON).is_file() else None


@contextmanager
def build_lock(index_dir: Path, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold `index_dir`'s build lock (an fcntl lock on ``.build.lock``): one build at a
    time, so a build never prunes the build another one just swapped in. When another
    process holds it, `on_wait` is called and the lock is waited for."""
    try:
        index_dir.mkdir(parents=True, exist_ok=True)
        handle = open(index_dir / LOCK_FILE, "a+b")  # noqa: SIM115  (closed by `with` below)
    except OSError as exc:  # not a folder, not writable: say so in German
        raise _write_error(index_dir, exc) from None
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                on_wait()
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def build_index(
    corpus_dir: Path | str,
    index_dir: Path | str,
    progress: Progress | None = None,
    on_wait: Callable[[], None] | None = None,
    embed_progress: Progress | None = None,
    on_phase: Report | None = None,
    analysis_progress: Progress | None = None,
) -> BuildReport:
    """Build the index of the corpus beside the live one and swap it in atomically.
    Builds into one index folder run one after the other (see `build_lock`).
    ``on_phase(name, None)`` / ``on_phase(name, figures)`` announce each phase
    (`faq_bot.buildphases`); the figures also land in ``meta.json``."""
    with build_lock(Path(index_dir), on_wait):
        return _build_index(
            Path(corpus_dir),
            Path(index_dir),
            progress,
            embed_progress,
            Phases(on_phase),
            analysis_progress,
        )


def _build_index(
    corpus_dir: Path,
    index_dir: Path,
    progress: Progress | None,
    embed_progress: Progress | None = None,
    phases: Phases | None = None,
    analysis_progress: Progress | None = None,
) -> BuildReport:
    started = time.perf_counter()
    phases = phases or Phases()
    with phases.phase("corpus"):
        corpus = load_corpus(corpus_dir)  # CorpusError leaves the live index alone
        graph = _link_graph(corpus)
        entries = list(corpus.entries())
        titles = {e.id: e.title for e in entries}
        doc_of = {e.id: e.doc for e in entries}

        outgoing: dict[str, list[dict]] = {e.id: [] for e in entries}
        for ref in graph.references:
            outgoing.setdefault(ref.source, []).append(_ref_json(ref, titles))
        unresolved = [(ref.source, ref.text) for ref in graph.unresolved()]
        link_count = sum(1 for ref in graph.references if getattr(ref, "target", None))

    with phases.phase("vocabulary"):
        texts: list[str] = []
        for doc in corpus.documents:
            texts.extend(doc.preamble)
            for e in doc.entries:
                texts.extend((e.title, *e.aliases, *(e.category or "",), *e.plain_paragraphs))
        counts = vocabulary_from_texts(texts)
        surface = _surface_forms(texts, counts)
        schema = make_schema(part_vocabulary(counts))

    with phases.phase("morphology"):  # HanTa once per distinct word, cached beside the builds
        morphology, analysed = analyse_words(
            _indexed_words(entries), index_dir / MORPHOLOGY_CACHE, analysis_progress
        )

    version = _new_build_id()
    builds = index_dir / BUILDS
    build_dir = builds / version
    try:
        (build_dir / WHOOSH_DIR).mkdir(parents=True)
    except OSError as exc:
        raise _write_error(index_dir, exc) from None
    try:
        records: list[dict] = []
        with phases.phase("whoosh"):  # the analyzer (but HanTa) and the Whoosh writer
            ix = whoosh_index.create_in(build_dir / WHOOSH_DIR, schema)
            writer = ix.writer()
            total, paragraphs = len(entries), 0
            for done, e in enumerate(entries, 1):
                plain_paragraphs = e.plain_paragraphs
                backlinks = [
                    {"id": s, "title": titles.get(s, s), "doc": doc_of.get(s)}
                    for s in dict.fromkeys(_source_of(b) for b in graph.backlinks(e.id))
                ]
                record = EntryRecord(
                    id=e.id,
                    doc=e.doc,
                    title=e.title,
                    paragraphs=tuple(e.paragraphs),
                    position=e.position,
                    aliases=tuple(e.aliases),
                    category=e.category,
                    section=e.section,
                    markup=e.markup,
                    alias_ids=tuple(e.alias_ids),
                    plain_paragraphs=plain_paragraphs,
                    links=tuple(outgoing.get(e.id, ())),
                    backlinks=tuple(backlinks),
                )
                records.append(record.to_json())
                heading = " ".join((e.title, *e.aliases))
                writer.add_document(
                    kind="entry",
                    key=e.id,
                    entry=e.id,
                    doc=e.doc,
                    category_id=slugify(e.category) if e.category else "",
                    title=e.title,
                    aliases=" ".join(e.aliases),
                    category=e.category or "",
                    section=e.section or "",
                    body="\n".join(plain_paragraphs),
                )
                for n, text in enumerate(plain_paragraphs):
                    if not text:
                        continue
                    paragraphs += 1
                    writer.add_document(
                        kind="paragraph",
                        key=f"{e.id}#{n}",
                        entry=e.id,
                        doc=e.doc,
                        category_id=slugify(e.category) if e.category else "",
                        paragraph=n,
                        heading=heading,
                        body=text,
                    )
                if progress is not None:
                    progress(done, total)
        with phases.phase("commit"):
            writer.commit()
            ix.close()
        with phases.phase("impacts"):
            write_impacts(build_dir / WHOOSH_DIR, build_dir)

        documents = [
            {
                "id": d.id,
                "file": d.file,
                "title": d.title,
                "game": d.game,
                "kind": d.kind,
                "language": d.language,
                "date": d.date,
                "date_text": d.date_text,
                "notes": d.notes,
                "precedence": d.precedence,
                "preamble": list(d.preamble),
                "entry_ids": [e.id for e in d.entries],
            }
            for d in corpus.documents
        ]
        warnings = [
            f"Unaufgelöster Querverweis in {source!r}: {text!r}" for source, text in unresolved
        ]
        with phases.phase("embeddings"):
            dense = _dense_vectors(
                build_dir, index_dir, [EntryRecord.from_json(r) for r in records], embed_progress
            )
        if dense.get("warning"):
            warnings.append(dense.pop("warning"))
        with phases.phase("store"):
            _write_json(build_dir / ENTRIES_JSON, {"documents": documents})
            write_store(build_dir / STORE_FILE, records, alias_map(records, slugify))
            write_offline_data(build_dir, records, documents, version)  # the PWA's copy
            write_build_table(build_dir, morphology)
            _write_json(
                build_dir / VOCAB_JSON,
                {w: [c, surface.get(w, w)] for w, c in counts.most_common()},
            )
        seconds = time.perf_counter() - started
        meta = {
            "format": FORMAT,
            "version": version,
            "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "corpus": str(corpus_dir.resolve()),
            "counts": {
                "documents": len(documents),
                "entries": len(records),
                "paragraphs": paragraphs,
                "links": link_count,
                "unresolved": len(unresolved),
            },
            "warnings": warnings,
            "dense": dense,
            "seconds": round(seconds, 3),
            "phases": phases.as_json(),
            "morphology": {"words": len(morphology), "analysed": analysed},  # the rest cached
        }
        _write_json(build_dir / META_JSON, meta)  # written last: marks the build complete
    except BaseException as exc:
        shutil.rmtree(build_dir, ignore_errors=True)
        if isinstance(exc, OSError):
            raise _write_error(index_dir, exc) from None
        raise

    previous = _current_target(index_dir)
    try:
        _swap(index_dir, version)
    except OSError as exc:
        shutil.rmtree(build_dir, ignore_errors=True)
        raise _write_error(index_dir, exc) from None
    _prune(index_dir, keep={version, previous.name if previous else version})
    return BuildReport(
        version=version,
        path=build_dir,
        documents=len(documents),
        entries=len(records),
        paragraphs=paragraphs,
        links=link_count,
        unresolved=unresolved,
        warnings=warnings,
        seconds=time.perf_counter() - started,
        phases=phases.as_json(),
    )


def _indexed_words(entries: Iterable[Any]) -> set[str]:
    """The words of every analysed field of the build (see `morphology_words`)."""
    found: set[str] = set()
    for e in entries:
        for text in (e.title, *e.aliases, e.category or "", e.section or "", *e.plain_paragraphs):
            found |= morphology_words(text)
    return found


def _dense_vectors(
    build_dir: Path, index_dir: Path, records: list[EntryRecord], progress: Progress | None
) -> dict[str, Any]:
    """Paragraph and sentence embeddings of the build (`faq_bot.dense`), through the
    cache beside the builds; a platform without the embedder gets a lexical build."""
    from faq_bot.dense import write_vectors

    return write_vectors(build_dir, records, index_dir / EMBEDDINGS_CACHE, progress)


def _surface_forms(texts: list[str], counts: Counter[str]) -> dict[str, str]:
    """Folded word -> its most frequent spelling in the corpus (for suggestions)."""
    spellings: dict[str, Counter[str]] = {}
    for text in texts:
        for word in _WORD.findall(text):
            folded = fold(word)
            if folded in counts:
                spellings.setdefault(folded, Counter())[word] += 1
    return {w: c.most_common(1)[0][0] for w, c in spellings.items()}


def _write_json(path: Path, data: Any) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, path)


def _swap(index_dir: Path, version: str) -> None:
    current = index_dir / CURRENT
    if current.is_dir() and not current.is_symlink():
        # a real folder (copied by hand, left by an old tool) can never be replaced
        # atomically: move it aside once, the symlink takes its place
        current.rename(index_dir / f"{CURRENT}.replaced-{version}")
    tmp = index_dir / f".{CURRENT}-{version}"
    os.symlink(os.path.join(BUILDS, version), tmp)
    os.replace(tmp, index_dir / CURRENT)


def _prune(index_dir: Path, keep: set[str]) -> None:
    """Delete complete builds other than `keep` (a build still being written has no meta)."""
    for path in (index_dir / BUILDS).iterdir():
        if path.name not in keep and (path / META_JSON).is_file():
            shutil.rmtree(path, ignore_errors=True)


# --- reading ------------------------------------------------------------------------


class Index:
    """One opened build: metadata, entry records and a Whoosh searcher."""

    def __init__(self, index_dir: Path | str):
        self.index_dir = Path(index_dir)
        path = _current_target(self.index_dir)
        if path is None:
            raise IndexMissingError(
                f"Kein Index in {self.index_dir} gefunden. Bitte zuerst `faq-bot index` ausführen."
            )
        self.path = path
        try:
            self._open(path)
        except IndexMissingError:
            raise
        except Exception as exc:  # partial or corrupted files: unusable, not a bug
            raise IndexBrokenError(
                f"Der Index in {self.index_dir} ist beschädigt oder unvollständig "
                f"({type(exc).__name__}). Bitte `faq-bot index` ausführen: "
                "das baut ihn neu."
            ) from exc

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
        """A document id a user gave (`raw`, stripped) when the index has it, None when
        empty (every document); `InputError` (400, exit 2) naming the known ones otherwise."""
        doc = (raw or "").strip() or None
        if doc is not None and doc not in self._docs:
            known = ", ".join(self._docs)
            raise InputError(f"Unbekanntes Dokument „{doc[:80]}“. Bekannt sind: {known}.")
        return doc

    def entry(self, entry_id: str) -> EntryRecord | None:
        return self._store.get(entry_id) if entry_id else None

    def find_by_title(self, title: str, doc: str | None = None) -> EntryRecord | None:
        """The first entry (of `doc` if given) whose title or an alias is `title`,
        ignoring case (the same rule as `faq_bot.corpus.Corpus.find_by_title`)."""
        wanted = title_key(title)
        for record in self.iter_entries(doc):
            if any(title_key(n) == wanted for n in (record.title, *record.aliases)):
                return record
        return None

    def names(self) -> list[tuple[str, str]]:
        """(title or alias, entry id) of every entry, in document order."""
        return self._store.names()

    def canonical_id(self, id_or_alias: str) -> str | None:
        if not id_or_alias:
            return None
        found = self._store.canonical(id_or_alias)
        if found is None:
            found = self._store.canonical(slugify(id_or_alias))
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
        import faq_bot.search  # noqa: F401  (registers its warmer)

        for warm in WARMERS:
            warm(self)

    def is_stale(self) -> bool:
        target = _current_target(self.index_dir)
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


class IndexHolder:
    """Thread-safe access to the current build for long-running processes."""

    def __init__(self, index_dir: Path | str):
        self.index_dir = Path(index_dir)
        self._index: Index | None = None
        self._retired: Index | None = None
        self._failed: str | None = None  # a build that could not be opened (logged once)
        self._lock = threading.Lock()

    def warm(self) -> None:
        """Open and warm up the current build if there is one (else do nothing)."""
        try:
            self.get()
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
        with self._lock:
            if self._index is None or self._index.is_stale():
                try:
                    fresh = open_index(self.index_dir)
                except IndexMissingError:
                    if self._index is None:
                        raise
                    # the new build cannot be read: keep answering from the last good one
                    target = _current_target(self.index_dir)
                    if self._failed != (target.name if target else None):
                        self._failed = target.name if target else None
                        log.exception("new index build cannot be opened; serving the last one")
                    return self._index
                fresh.warm_up()
                if self._retired is not None:  # two swaps ago: no request still uses it
                    self._retired.close()
                self._retired, self._index = self._index, fresh
            return self._index
