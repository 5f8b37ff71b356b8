"""Entry records of a build in SQLite, read lazily (one entry at a time).

A process serving a large corpus should not parse every entry at start-up:
`write_store` puts each entry's JSON record, its document and position, and the
alias map (alias id / title slug -> canonical id) into ``entries.sqlite``;
`EntryStore` reads records on demand through one connection (serialised by a
lock) and keeps the most recently used ones in a bounded cache.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from faq_bot.buildstate import LRU

__all__ = ["STORE_FILE", "EntryStore", "MalformedRecord", "alias_map", "write_store"]

STORE_FILE = "entries.sqlite"


class MalformedRecord(sqlite3.DatabaseError):
    """A record the store holds that is not an entry's JSON: the store's data is damaged
    although SQLite reads it (so it is one of `faq_bot.errors.UNREADABLE_INDEX`)."""


def alias_map(records: Iterable[dict[str, Any]], slugify: Callable[[str], str]) -> dict[str, str]:
    """Alias ids, title slugs and alias slugs -> canonical entry id (unambiguous ones only;
    a canonical id always maps to itself)."""
    records = list(records)
    mapping = {r["id"]: r["id"] for r in records}
    claims: dict[str, set[str]] = {}
    for r in records:
        for alias in (
            *r["alias_ids"],
            slugify(r["title"]),
            *(slugify(a) for a in r["aliases"]),
        ):
            claims.setdefault(alias, set()).add(r["id"])
    for alias, ids in claims.items():
        if alias not in mapping and len(ids) == 1:
            mapping[alias] = next(iter(ids))
    return mapping


def write_store(path: Path, records: list[dict[str, Any]], aliases: dict[str, str]) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.unlink(missing_ok=True)
    db = sqlite3.connect(tmp)
    try:
        db.execute("CREATE TABLE entries (id TEXT PRIMARY KEY, doc TEXT, pos INTEGER, json TEXT)")
        db.execute("CREATE TABLE aliases (alias TEXT PRIMARY KEY, id TEXT)")
        db.execute("CREATE TABLE names (pos INTEGER, name TEXT, id TEXT)")
        db.executemany(
            "INSERT INTO names VALUES (?, ?, ?)",
            (
                (i, name, r["id"])
                for i, r in enumerate(records)
                for name in dict.fromkeys((r["title"], *r["aliases"]))
            ),
        )
        db.executemany(
            "INSERT INTO entries VALUES (?, ?, ?, ?)",
            (
                (r["id"], r["doc"], i, json.dumps(r, ensure_ascii=False))
                for i, r in enumerate(records)
            ),
        )
        db.executemany("INSERT INTO aliases VALUES (?, ?)", aliases.items())
        db.execute("CREATE INDEX entries_doc ON entries (doc, pos)")
        db.commit()
    finally:
        db.close()
    tmp.replace(path)


class EntryStore:
    """Read access to one build's ``entries.sqlite``; `load` turns JSON into records."""

    def __init__(self, path: Path, load: Callable[[dict[str, Any]], Any], cache: int = 2048):
        # the path as a URI (percent-encoded): "#", "?" or "%" in a folder name are URI
        # syntax in a plain f"file:{path}"
        uri = Path(path).resolve().as_uri() + "?mode=ro"
        self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        self._lock = threading.Lock()
        self._load = load
        self._cache: LRU[str, Any] = LRU(cache)

    def get(self, entry_id: str) -> Any | None:
        found = self._cache.get(entry_id)
        if found is None:
            with self._lock:
                row = self._db.execute(
                    "SELECT json FROM entries WHERE id = ?", (entry_id,)
                ).fetchone()
            if row is None:
                return None
            found = self._cache.put(entry_id, self._record(row[0]))
        return found

    def of_doc(self, doc: str) -> list[Any]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, json FROM entries WHERE doc = ? ORDER BY pos", (doc,)
            ).fetchall()
        out = []
        for entry_id, text in rows:
            found = self._cache.get(entry_id)
            out.append(found if found is not None else self._record(text))
        return out

    def _record(self, text: Any) -> Any:
        """The record stored as `text`; `MalformedRecord` when it is not one."""
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise TypeError(f"a record is an object, not {type(data).__name__}")
            return self._load(data)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise MalformedRecord(f"unreadable entry record: {exc!r}"[:300]) from exc

    def canonical(self, *aliases: str) -> str | None:
        """The entry id the first of `aliases` the map holds resolves to (one query)."""
        wanted = list(dict.fromkeys(aliases))
        if not wanted:
            return None
        marks = ", ".join("?" * len(wanted))
        with self._lock:
            rows = dict(
                self._db.execute(
                    f"SELECT alias, id FROM aliases WHERE alias IN ({marks})", wanted
                ).fetchall()
            )
        return next((rows[a] for a in wanted if a in rows), None)

    def addresses(self) -> list[tuple[str, str]]:
        """(alias, entry id) of every address an entry answers to (ids, alias ids, title
        slugs), in alias order."""
        with self._lock:
            rows = self._db.execute("SELECT alias, id FROM aliases ORDER BY alias").fetchall()
        return [(alias, entry_id) for alias, entry_id in rows]

    def longest_alias(self) -> int:
        """The length of the longest alias (an address longer than it names no entry)."""
        with self._lock:
            row = self._db.execute("SELECT max(length(alias)) FROM aliases").fetchone()
        return int(row[0] or 0)

    def names(self) -> list[tuple[str, str]]:
        """(title or alias, entry id) of every entry, in document order."""
        with self._lock:
            rows = self._db.execute("SELECT name, id FROM names ORDER BY rowid").fetchall()
        return [(name, entry_id) for name, entry_id in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()
