"""Per-term impacts: Whoosh's own BM25F scores, precomputed at build time.

Whoosh stays the index of record; `write_impacts` reads the finished Whoosh
index once and stores, for every term, the BM25F score Whoosh gives each entry
document and each paragraph document containing it (summed over the fields a
query searches, field boosts included: they are part of the posting weights).
A query's score of a document is then the sum of its terms' impacts times the
terms' weights, which is exactly what Whoosh computes for an ``Or`` of boosted
``Term`` queries, without running Whoosh's matchers per query.

Files in the build folder (``impacts/``): ``meta.json`` (term -> posting range
per kind, document frequencies, the entry and paragraph tables) and one
``<kind>.ids.npy`` / ``<kind>.scores.npy`` pair per kind, memory-mapped at open.

``impacts(index) -> Impacts`` gives an opened build's impacts, loaded once per
build (held by its `faq_bot.buildstate.BuildState`).
"""

from __future__ import annotations

import heapq
import json
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any

import numpy as np
from whoosh import index as whoosh_index

from faq_bot.index import Index, IndexBrokenError

__all__ = ["ENTRY_FIELDS", "PARAGRAPH_FIELDS", "Impacts", "impacts", "write_impacts"]

ENTRY_FIELDS = ("title", "aliases", "category", "section", "body")
PARAGRAPH_FIELDS = ("heading", "body")
DF_FIELDS = ("body", "title", "aliases")
IMPACTS_DIR = "impacts"
KINDS = {"entry": ENTRY_FIELDS, "paragraph": PARAGRAPH_FIELDS}


def _text(term: Any) -> str:
    return term.decode("utf-8") if isinstance(term, bytes) else str(term)


def _lexicon(reader: Any, fields: list[str]) -> Iterator[tuple[Any, list[str]]]:
    """Each term of the `fields`' lexicons in term order, with the fields holding it
    (in the order of `fields`): one term at a time, never the whole vocabulary."""

    def stream(i: int) -> Iterator[tuple[Any, int]]:
        for term in reader.lexicon(fields[i]):
            yield term, i

    for term, group in groupby(heapq.merge(*map(stream, range(len(fields)))), key=itemgetter(0)):
        yield term, [fields[i] for _term, i in group]


def write_impacts(whoosh_dir: Path, build_dir: Path) -> None:
    """Precompute the impacts of the Whoosh index in `whoosh_dir` into `build_dir`.

    Memory stays near the size of the result: terms are visited in order and
    each term's postings go straight into compact arrays (4 + 8 bytes each).
    """
    ix = whoosh_index.open_dir(whoosh_dir)
    try:
        with ix.searcher() as searcher:
            reader = searcher.reader()
            slot: dict[str, dict[int, int]] = {"entry": {}, "paragraph": {}}
            entries: list[list[str]] = []  # [id, doc, category slug]
            paragraphs: list[list[int]] = []  # [entry slot, paragraph number]
            entry_slot: dict[str, int] = {}
            for docnum, fields in reader.iter_docs():  # two passes: entries first
                if fields["kind"] == "entry":
                    slot["entry"][docnum] = len(entries)
                    entry_slot[fields["entry"]] = len(entries)
                    entries.append([fields["entry"], fields["doc"], fields.get("category_id", "")])
            for docnum, fields in reader.iter_docs():
                if fields["kind"] == "paragraph":
                    slot["paragraph"][docnum] = len(paragraphs)
                    paragraphs.append([entry_slot[fields["entry"]], int(fields["paragraph"])])
            out = build_dir / IMPACTS_DIR
            out.mkdir(parents=True, exist_ok=True)
            ranges: dict[str, dict[str, list[int]]] = {}
            for kind, fields_of_kind in KINDS.items():
                slots = slot[kind]
                ids = array("i")
                scores = array("d")
                kind_ranges: dict[str, list[int]] = {}
                present = [f for f in fields_of_kind if f in searcher.schema]
                for term, term_fields in _lexicon(reader, present):
                    acc: dict[int, float] = {}  # summed over the fields, in their order
                    for f in term_fields:
                        scorer = searcher.weighting.scorer(searcher, f, term)
                        m = reader.postings(f, term, scorer=scorer)
                        while m.is_active():
                            s = slots.get(m.id())
                            if s is not None:
                                acc[s] = acc.get(s, 0.0) + m.score()
                            m.next()
                    if not acc:
                        continue
                    start = len(ids)
                    for s in sorted(acc):
                        ids.append(s)
                        scores.append(acc[s])
                    kind_ranges[_text(term)] = [start, len(ids)]
                ranges[kind] = kind_ranges
                np.save(out / f"{kind}.ids.npy", np.asarray(ids, dtype=np.int32))
                np.save(out / f"{kind}.scores.npy", np.asarray(scores, dtype=np.float64))
                del ids, scores
            df: dict[str, list[int]] = {}
            for f in DF_FIELDS:
                for term in reader.lexicon(f):
                    df.setdefault(_text(term), [0, 0, 0])[DF_FIELDS.index(f)] = (
                        reader.doc_frequency(f, term)
                    )
            meta = {
                "doc_count": reader.doc_count_all(),
                "ranges": ranges,
                "df": df,
                "entries": entries,
                "paragraphs": paragraphs,
            }
            (out / "meta.json").write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")
    finally:
        ix.close()


class _Rows:
    """term -> a fixed number of small ints, held as one dict of row numbers and one
    int array: a ×100 build's JSON lists of Python ints took 24 MiB in each worker."""

    def __init__(self, table: dict[str, list[int]], width: int):
        self.rows = {term: i for i, term in enumerate(table)}
        self.values = np.array(list(table.values()), dtype=np.int64).reshape(-1, width)

    def get(self, term: str) -> tuple[int, ...] | None:
        i = self.rows.get(term)
        return None if i is None else tuple(int(v) for v in self.values[i])


@dataclass
class _Kind:
    ranges: _Rows
    ids: np.ndarray
    scores: np.ndarray
    size: int

    def postings(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        r = self.ranges.get(term)
        if r is None:
            return None
        return self.ids[r[0] : r[1]], self.scores[r[0] : r[1]]


def _fits(k: _Kind) -> bool:
    """The arrays of one kind are as its ranges say: one score per posting, as many as the
    last range ends at, every id a document of the kind. A valid .npy a few elements short
    would otherwise fail only the searches that reach its end (a broadcast traceback)."""
    end = int(k.ranges.values[:, 1].max()) if len(k.ranges.values) else 0
    if k.ids.ndim != 1 or k.scores.shape != k.ids.shape or len(k.ids) != end:
        return False
    return not len(k.ids) or 0 <= int(k.ids.min()) and int(k.ids.max()) < k.size


class Impacts:
    """The impacts of one build, loaded once (arrays memory-mapped, read-only)."""

    def __init__(self, build_dir: Path):
        path = build_dir / IMPACTS_DIR
        meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
        self.doc_count: int = meta["doc_count"]
        self.df = _Rows(meta.pop("df"), len(DF_FIELDS))
        entries = meta["entries"]
        paragraphs = meta["paragraphs"]
        self.entry_ids: list[str] = [e[0] for e in entries]
        self.entry_slot: dict[str, int] = {e: i for i, e in enumerate(self.entry_ids)}
        self.entry_doc = np.asarray([e[1] for e in entries], dtype=object)
        self.entry_category = np.asarray([e[2] for e in entries], dtype=object)
        self.para_entry = np.asarray([p[0] for p in paragraphs], dtype=np.int64)
        self.para_number = np.asarray([p[1] for p in paragraphs], dtype=np.int64)
        self.kinds = {
            kind: _Kind(
                _Rows(meta["ranges"].pop(kind), 2),
                np.load(path / f"{kind}.ids.npy", mmap_mode="r"),
                np.load(path / f"{kind}.scores.npy", mmap_mode="r"),
                len(entries) if kind == "entry" else len(paragraphs),
            )
            for kind in KINDS
        }
        for kind, k in self.kinds.items():
            if not _fits(k):
                raise ValueError(f"the {kind} impacts do not fit their ranges (a damaged build)")

    def doc_frequency(self, field: str, term: str) -> int:
        i = self.df.rows.get(term)
        return 0 if i is None else int(self.df.values[i, DF_FIELDS.index(field)])

    def entry_mask(self, doc: str | None, category: str | None) -> np.ndarray | None:
        """Which entries pass the document and category filter (None: all)."""
        if not doc and not category:
            return None
        mask = np.ones(len(self.entry_ids), dtype=bool)
        if doc:
            mask &= self.entry_doc == doc
        if category:
            mask &= self.entry_category == category
        return mask

    def score(
        self, kind: str, terms: dict[str, float], words: list[tuple[dict[str, float], float]]
    ) -> tuple[np.ndarray, np.ndarray]:
        """BM25F score (sum of `terms`' impacts times their weights) and coverage (the
        weighted share of `words` matched; each word a term -> weight map and its
        total) of every document of `kind`."""
        k = self.kinds[kind]
        score = np.zeros(k.size)
        for term, w in terms.items():
            found = k.postings(term)
            if found is not None:
                ids, scores = found
                score[ids] += w * scores
        got = np.zeros(k.size)
        total = sum(t for _w, t in words) or 1.0
        for word, _total in words:
            best = np.zeros(k.size)
            for term, w in word.items():
                found = k.postings(term)
                if found is not None:
                    ids = found[0]
                    best[ids] = np.maximum(best[ids], w)
            got += best
        return score, got / total


def impacts(index: Index) -> Impacts:
    """The build's precomputed impacts (`Impacts`), loaded once per build.

    Damaged impact files make the build unusable (`IndexBrokenError`: 503, exit 4),
    like any other file of a build a query reads."""

    def load() -> Impacts:
        try:
            return Impacts(index.path)
        except Exception as exc:  # truncated or corrupted arrays, a missing file
            raise IndexBrokenError.because(index.index_dir, exc) from exc

    return index.state.once("impacts", load)
