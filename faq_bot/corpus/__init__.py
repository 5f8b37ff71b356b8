"""Stage 1: read the corpus folder and split its documents into entries.

`load_corpus(corpus_dir)` reads `manifest.toml`, decodes each listed file as
UTF-8 and hands it to the splitter the manifest names. Problems with the corpus
itself (a missing file, a file that is not UTF-8, a malformed manifest, two
entries with one id) raise `CorpusError` with a message naming the file.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, TypeVar

from faq_bot.corpus.manifest import toml_problem, validate_documents
from faq_bot.corpus.model import Document, Entry, plain
from faq_bot.corpus.splitters import get_splitter, slugify
from faq_bot.errors import CorpusProblem, os_reason

__all__ = [
    "Corpus",
    "CorpusError",
    "Document",
    "Entry",
    "first_titled",
    "load_corpus",
    "plain",
    "slugify",
    "title_key",
]

MANIFEST = "manifest.toml"


class _Named(Protocol):
    @property
    def title(self) -> str: ...
    @property
    def aliases(self) -> tuple[str, ...]: ...


Titled = TypeVar("Titled", bound=_Named)  # an entry or a build's record of one


class CorpusError(CorpusProblem):
    """The corpus cannot be read; the message names the file and the problem."""


@dataclass(frozen=True)
class Corpus:
    documents: tuple[Document, ...]

    def entries(self) -> Iterator[Entry]:
        for doc in self.documents:
            yield from doc.entries

    def document(self, doc_id: str) -> Document:
        for doc in self.documents:
            if doc.id == doc_id:
                return doc
        raise KeyError(doc_id)

    def by_id(self) -> dict[str, Entry]:
        return {e.id: e for e in self.entries()}

    def find_by_title(self, title: str, doc: str | None = None) -> Entry | None:
        """The entry whose title, or title without category, is `title` (case-insensitive)."""
        return first_titled((e for e in self.entries() if doc is None or e.doc == doc), title)


def title_key(name: str) -> str:
    """What two titles must share to be the same title: case and outer spaces ignored."""
    return name.casefold().strip()


def first_titled(entries: Iterable[Titled], title: str) -> Titled | None:
    """The first of `entries` whose title or an alias is `title` (`title_key`): the one
    find-by-title, of the corpus's entries (`Corpus.find_by_title`) and of a build's
    records (`faq_bot.index.Index.find_by_title`) alike."""
    wanted = title_key(title)
    for entry in entries:
        if any(title_key(n) == wanted for n in (entry.title, *entry.aliases)):
            return entry
    return None


# a manifest lists documents in a few lines: one linked to /dev/zero is not read whole
MAX_MANIFEST = 1_000_000


def precedence_notes(documents: Iterable[Mapping[str, Any]], doc: Mapping[str, Any]) -> list[str]:
    """ "This FAQ takes precedence over this rulebook" notes for a rulebook of the same game
    (`documents`: the index's, as the manifest describes them); the ruling pages and the
    offline copy show them."""
    if doc.get("precedence"):
        return []
    notes = []
    for other in documents:
        if other.get("precedence") and other["id"] != doc["id"] and other["game"] == doc["game"]:
            stand = f" (Stand: {other['date_text']})" if other.get("date_text") else ""
            notes.append(
                f"Die {other['title']}{stand} hat Vorrang vor diesem Regelwerk: "
                "Bei Widersprüchen gilt die FAQ."
            )
    return notes


def read_manifest(corpus_dir: Path) -> list[dict]:
    path = Path(corpus_dir) / MANIFEST
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_MANIFEST + 1)
    except FileNotFoundError:
        raise CorpusError(f"{path}: Das Manifest fehlt.") from None
    except IsADirectoryError:
        raise CorpusError(f"{path}: Das Manifest ist ein Ordner, keine Datei.") from None
    except OSError as exc:  # no permission, the corpus no folder, a symlink loop
        raise CorpusError(
            f"{path}: Das Manifest kann nicht gelesen werden ({os_reason(exc)})."
        ) from None
    if len(raw) > MAX_MANIFEST:
        raise CorpusError(f"{path}: Das Manifest ist größer als {MAX_MANIFEST} Bytes.")
    try:
        data = tomllib.loads(raw.decode("utf-8-sig"))  # an editor's byte order mark is no error
    except UnicodeDecodeError:
        raise CorpusError(f"{path}: Das Manifest ist nicht in UTF-8 gespeichert.") from None
    except tomllib.TOMLDecodeError as exc:
        raise CorpusError(
            f"{path}: Das Manifest ist kein gültiges TOML ({toml_problem(exc)})."
        ) from None
    except (RecursionError, ValueError):  # nested too deep, a number too long
        raise CorpusError(
            f"{path}: Das Manifest ist kein lesbares TOML (zu tief verschachtelt "
            "oder eine zu lange Zahl)."
        ) from None
    problems = validate_documents(data, path, Path(corpus_dir))
    if problems:
        raise CorpusError(" ".join(problems[:5]))
    return data["documents"]


def read_text(path: Path) -> str:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise CorpusError(f"{path}: Die im Manifest genannte Datei gibt es nicht.") from None
    except IsADirectoryError:
        raise CorpusError(f"{path}: Die im Manifest genannte Datei ist ein Ordner.") from None
    except OSError as exc:
        raise CorpusError(
            f"{path}: Die Datei kann nicht gelesen werden ({os_reason(exc)})."
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorpusError(
            f"{path}: Die Datei ist nicht in UTF-8 gespeichert (ungültiges Byte "
            f"0x{raw[exc.start]:02x} an Position {exc.start}). Bitte als UTF-8 speichern."
        ) from None
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def load_document(corpus_dir: Path, meta: dict) -> Document:
    path = Path(corpus_dir) / meta["file"]
    text = read_text(path)
    try:
        split = get_splitter(meta["splitter"])
    except KeyError as exc:
        raise CorpusError(
            f"{path}: Unbekannter Splitter „{meta['splitter']}“. Bekannt sind: {exc.args[0]}."
        ) from None
    preamble, entries = split(text, doc_id=meta["id"], id_prefix=meta.get("id_prefix", ""))
    if not entries:
        raise CorpusError(
            f"{path}: Der Splitter „{meta['splitter']}“ findet in der Datei keine Einträge."
        )
    for fix in meta.get("corrections", ()):
        entries = _corrected(entries, fix["wrong"], fix["right"], path)
    fields = {k: meta[k] for k in Document.__dataclass_fields__ if k in meta}
    doc = Document(**fields, preamble=tuple(preamble), entries=tuple(entries))
    return doc


def _corrected(entries: tuple[Entry, ...], wrong: str, right: str, path: Path) -> tuple[Entry, ...]:
    """`entries` with the misprint `wrong` read as `right` in what a reader sees and the
    search indexes (title, aliases, section, paragraphs). Ids and alias ids stay: they are
    addresses already linked. A correction that matches nothing is an error (a stale one
    would hide that the source changed)."""
    mended = tuple(
        replace(
            e,
            title=e.title.replace(wrong, right),
            aliases=tuple(a.replace(wrong, right) for a in e.aliases),
            section=e.section.replace(wrong, right) if e.section else e.section,
            paragraphs=tuple(p.replace(wrong, right) for p in e.paragraphs),
        )
        for e in entries
    )
    if mended == entries:
        raise CorpusError(f"{path}: Die Korrektur „{wrong}“ kommt im Text nicht vor.")
    return mended


def load_corpus(corpus_dir: Path | str) -> Corpus:
    corpus_dir = Path(corpus_dir)
    documents = tuple(load_document(corpus_dir, meta) for meta in read_manifest(corpus_dir))
    owner: dict[str, str] = {}
    for doc in documents:
        for entry in doc.entries:
            if entry.id in owner:
                raise CorpusError(
                    f"{corpus_dir / doc.file}: Die Eintrags-ID „{entry.id}“ gibt es schon "
                    f"in {owner[entry.id]}."
                )
            owner[entry.id] = doc.file
    # alias ids never shadow a canonical id, and an alias claimed twice redirects nowhere
    claims: dict[str, list[str]] = {}
    for entry in (e for d in documents for e in d.entries):
        for alias in entry.alias_ids:
            claims.setdefault(alias, []).append(entry.id)
    ambiguous = {a for a, ids in claims.items() if len(ids) > 1 or a in owner}
    if ambiguous:
        documents = tuple(
            replace(
                d,
                entries=tuple(
                    replace(e, alias_ids=tuple(a for a in e.alias_ids if a not in ambiguous))
                    for e in d.entries
                ),
            )
            for d in documents
        )
    return Corpus(documents)
