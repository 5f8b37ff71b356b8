"""Building the index: a new build beside the live one, swapped in atomically.

``build_index(corpus_dir, index_dir, progress=None) -> BuildReport``
    Loads the corpus (`faq_bot.corpus.load_corpus`), builds the cross references
    (`faq_bot.links.build_links`) and writes a new build into
    ``index_dir/builds/<build-id>/`` (the layout `faq_bot.index` reads): the Whoosh
    index (one ``kind="entry"`` document per entry and one ``kind="paragraph"``
    document per paragraph, schema `faq_bot.index.make_schema`), ``entries.json``
    and ``meta.json``. Then it atomically repoints the symlink
    ``index_dir/current`` at the new build (``os.replace``) and deletes all builds
    but the new one and the one before it. A `CorpusError` is raised before
    anything is swapped, so a broken corpus never destroys the live index.
    ``progress`` is an optional callable ``progress(done, total)`` (entries
    indexed; ``analysis_progress`` and ``embed_progress`` count the words HanTa
    analyses and the texts embedded, those the workers had not finished when the
    ``embeddings`` phase began), ``on_phase`` announces each build phase
    (`faq_bot.buildphases`), whose wall and CPU seconds ``meta.json`` keeps under
    ``phases``. HanTa's analyses (``morphology-cache/``) and the embeddings
    (``embeddings-cache/``) are cached beside the builds, so a rebuild of
    unchanged text neither analyses nor embeds again. A folder that cannot be
    written raises `faq_bot.index.IndexWriteError` (German message).

``build_lock(index_dir, on_wait=None)``
    Context manager: holds the index folder's build lock, so builds into one
    folder run one after the other (`build_index` takes it).

``BuildReport`` (frozen dataclass)
    ``version`` (build id), ``path`` (the build folder), ``documents``,
    ``entries``, ``paragraphs``, ``links`` (resolved references),
    ``unresolved`` (list of ``(entry_id, text)``), ``warnings`` (list of German
    strings), ``seconds``, ``phases``.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import re
import secrets
import shutil
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from whoosh import index as whoosh_index

from faq_bot.analysis import entry_texts, part_vocabulary, vocabulary_from_texts
from faq_bot.buildphases import Phases, Report
from faq_bot.corpus import Corpus, load_corpus, read_manifest, slugify
from faq_bot.entrystore import STORE_FILE, alias_map, write_store
from faq_bot.errors import os_reason
from faq_bot.impacts import write_impacts
from faq_bot.index import (
    BUILDS,
    CURRENT,
    EMBEDDINGS_CACHE,
    ENTRIES_JSON,
    FORMAT,
    META_JSON,
    MORPHOLOGY_CACHE,
    VOCAB_JSON,
    WHOOSH_DIR,
    EntryRecord,
    IndexWriteError,
    current_target,
    make_schema,
)
from faq_bot.morphcache import analyse_words, write_build_table
from faq_bot.morphology import morphology_words
from faq_bot.offline import write_offline_data
from faq_bot.text import fold, usual_spelling

if TYPE_CHECKING:
    from faq_bot.dense import PendingVectors

__all__ = ["BuildReport", "build_index", "build_lock"]

LOCK_FILE = ".build.lock"
_WORD = re.compile(r"\w+")

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
    adopted: bool = False  # made by another process while this one waited (`first`)


def _write_error(index_dir: Path, exc: OSError) -> IndexWriteError:
    full = exc.errno in (errno.ENOSPC, errno.EDQUOT)  # a full disk is no question of rights
    advice = "Bitte Platz schaffen" if full else "Bitte die Rechte des Ordners prüfen"
    return IndexWriteError(
        f"Der Index kann nicht in {index_dir} geschrieben werden ({os_reason(exc)}). "
        f"{advice} oder mit --index einen anderen wählen."
    )


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
        "target_paragraph": getattr(ref, "target_paragraph", None),
    }


def _new_build_id() -> str:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    return f"{stamp}-{secrets.token_hex(3)}"


# the names `_new_build_id` gives: the only folders a build ever deletes
BUILD_ID = re.compile(r"\d{8}T\d{12}Z-[0-9a-f]{6}")


@contextmanager
def build_lock(index_dir: Path, on_wait: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold `index_dir`'s build lock (an fcntl lock on ``.build.lock``): one build at a
    time, so a build never prunes the build another one just swapped in. When another
    process holds it, `on_wait` is called and the lock is waited for. A folder the lock
    created is removed again when the build fails and left nothing but the lock in it (a
    typo in ``--index-dir`` with a broken corpus leaves no stray folder)."""
    created = [p for p in (index_dir, *index_dir.parents) if not p.exists()]  # deepest first
    handle = _locked(index_dir, on_wait)
    with handle:
        try:
            yield
        except BaseException:
            if created:
                _remove_if_only_lock(created)
            raise
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _locked(index_dir: Path, on_wait: Callable[[], None] | None) -> BinaryIO:
    """The open lock file of `index_dir`, locked. A build that failed in a folder it made
    removes that folder and its lock file (`_remove_if_only_lock`): a build that waited on
    that file then holds a lock nobody else sees, so it locks the file at the path anew."""
    while True:
        try:
            index_dir.mkdir(parents=True, exist_ok=True)
            handle = open(index_dir / LOCK_FILE, "a+b")  # noqa: SIM115  (the caller closes it)
        except OSError as exc:  # not a folder, not writable: say so in German
            raise _write_error(index_dir, exc) from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                on_wait()
            fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            same = os.stat(index_dir / LOCK_FILE).st_ino == os.fstat(handle.fileno()).st_ino
        except OSError:  # the path is gone
            same = False
        if same:
            return handle
        handle.close()


def _remove_if_only_lock(created: list[Path]) -> None:
    """Remove the folders `created` (the index folder first, then the parents made for
    it) if the index folder holds nothing but the build lock (best effort)."""
    try:
        if {p.name for p in created[0].iterdir()} == {LOCK_FILE}:
            (created[0] / LOCK_FILE).unlink()
            for folder in created:
                folder.rmdir()  # OSError when something else was put there meanwhile
    except OSError:
        pass


def build_index(
    corpus_dir: Path | str,
    index_dir: Path | str,
    progress: Progress | None = None,
    on_wait: Callable[[], None] | None = None,
    embed_progress: Progress | None = None,
    on_phase: Report | None = None,
    analysis_progress: Progress | None = None,
    first: bool = False,
) -> BuildReport:
    """Build the index of the corpus beside the live one and swap it in atomically.
    Builds into one index folder run one after the other (see `build_lock`).
    ``on_phase(name, None)`` / ``on_phase(name, figures)`` announce each phase
    (`faq_bot.buildphases`); the figures also land in ``meta.json``. A `first` build
    (one a command or the service starts because there is no usable index) that waited
    for another build uses the one that build swapped in instead of building again."""
    index_dir = Path(index_dir)
    read_manifest(Path(corpus_dir))  # a wrong --corpus is said at once, not after a wait
    before = current_target(index_dir)
    waited: list[bool] = []

    def waiting() -> None:
        waited.append(True)
        if on_wait is not None:
            on_wait()

    with build_lock(index_dir, waiting), ExitStack() as stack:
        made = current_target(index_dir) if first and waited else None
        adopted = _adopted(made, Path(corpus_dir)) if made != before else None
        if adopted is not None:
            return adopted
        return _build_index(
            stack,
            Path(corpus_dir),
            Path(index_dir),
            progress,
            embed_progress,
            Phases(on_phase),
            analysis_progress,
        )


def _adopted(build_dir: Path | None, corpus_dir: Path) -> BuildReport | None:
    """The report of the finished build in `build_dir` that another process made, from its
    ``meta.json``, if it read `corpus_dir`; None otherwise (this process builds)."""
    if build_dir is None:
        return None
    try:
        meta = json.loads((build_dir / META_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or meta.get("corpus") != str(corpus_dir.resolve()):
        return None
    counts = meta.get("counts", {})
    return BuildReport(
        version=build_dir.name,
        path=build_dir,
        documents=counts.get("documents", 0),
        entries=counts.get("entries", 0),
        paragraphs=counts.get("paragraphs", 0),
        links=counts.get("links", 0),
        unresolved=[],
        warnings=list(meta.get("warnings", [])),
        seconds=0.0,
        phases={},
        adopted=True,
    )


def _build_index(
    stack: ExitStack,  # what the build started in the background ends with it
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
    # the embeddings (97 % of a build from scratch) need only the entries' texts: their
    # worker processes start now and run while the phases up to "embeddings" do
    dense_job = stack.enter_context(_start_dense(index_dir, entries))

    with phases.phase("vocabulary"):
        texts: list[str] = []
        for doc in corpus.documents:
            texts.extend(doc.preamble)
            for e in doc.entries:
                texts.extend(entry_texts(e))
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
                # each entry that refers here once, at the paragraph of its first reference
                # (a backlink opens where the reference is)
                referring: dict[str, int] = {}
                for ref in graph.incoming(e.id):
                    referring.setdefault(ref.source, ref.paragraph)
                backlinks = [
                    {"id": s, "title": titles.get(s, s), "doc": doc_of.get(s), "paragraph": n}
                    for s, n in referring.items()
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
            f"Unaufgelöster Querverweis in „{source}“: „{text}“" for source, text in unresolved
        ]
        with phases.phase("embeddings") as embedding:
            if dense_job.passages is None:  # no embedder (or switched off): a lexical build
                embedding["skipped"] = 1.0
            dense = dense_job.write(build_dir, embed_progress)
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

    previous = current_target(index_dir)
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
        for text in entry_texts(e):
            found |= morphology_words(text)
    return found


def _start_dense(index_dir: Path, entries: list[Any]) -> PendingVectors:
    """Paragraph and sentence embeddings of the build (`faq_bot.dense`), through the
    cache beside the builds, started in the background; a platform without the embedder
    gets a lexical build."""
    from faq_bot.dense import start_vectors

    return start_vectors(entries, index_dir / EMBEDDINGS_CACHE)


def _surface_forms(texts: list[str], counts: Counter[str]) -> dict[str, str]:
    """Folded word -> its most frequent spelling in the corpus (for suggestions), one not
    in capitals where there is one: capitals are a heading's style („BEWEGUNGSPHASE“, a
    rulebook's section on every entry under it), not the word's spelling."""
    spellings: dict[str, Counter[str]] = {}
    for text in texts:
        for word in _WORD.findall(text):
            folded = fold(word)
            if folded in counts:
                spellings.setdefault(folded, Counter())[word] += 1
    return {w: usual_spelling(c) for w, c in spellings.items()}


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
    """Delete the builds other than `keep`: complete ones, and those without meta.json,
    half-written by a run killed outright (SIGKILL, out of memory). Called holding the
    build lock (`build_lock`), so no other run is writing one of them."""
    for path in (index_dir / BUILDS).iterdir():
        # a folder of another name is not a build: someone else's (an `--index` pointed
        # at a folder that has a builds/ of its own), never deleted
        if path.name not in keep and BUILD_ID.fullmatch(path.name) and path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
