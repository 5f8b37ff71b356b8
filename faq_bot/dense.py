"""Dense retrieval: embeddings of every paragraph and sentence, stored with each build.

``start_vectors(records, cache_dir) -> PendingVectors``
    Called by `faq_bot.indexbuild.build_index` once the documents are read: starts
    embedding, in the background, each non-empty paragraph and, for paragraphs of more
    than one sentence, each sentence, every text prefixed with its entry's heading
    ("227-Pfund Bombe (Basisausbau): ..."), through the text-hash cache of
    `faq_bot.embed`. ``PendingVectors.write(build_dir, progress)`` (a context manager;
    leaving it stops the workers) waits for them and writes ``dense.npy`` (float32, one
    row per unit) and ``dense.json`` (model id and units) into the build. It returns the
    meta fields (``{"model": id, "units": n}``) or ``{"model": None, "warning": <German>}``
    when the embedder cannot load.

``dense_for(index) -> DenseRetriever | None``
    The retriever of an opened build, or None when the build has no vectors or
    this process has no embedder (search is then lexical).

``DenseRetriever.scores(question) -> DenseScores``
    Cosine similarities of one query embedding to every unit, folded per entry
    (best paragraph, best sentence) and per paragraph.
"""

from __future__ import annotations

import errno
import json
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from faq_bot.embed import PendingPassages, disabled, embedder_status, get_embedder
from faq_bot.text import split_sentences

__all__ = [
    "DenseRetriever",
    "DenseScores",
    "PendingVectors",
    "dense_for",
    "dense_mode",
    "swapped_retriever",
    "units_of",
    "start_vectors",
    "unreadable_vectors",
    "vectors_of_another_model",
]

VECTORS = "dense.npy"
UNITS = "dense.json"
_LOCK = threading.Lock()


def heading_of(record: Any) -> str:
    return " / ".join(dict.fromkeys((record.title, *record.aliases)))


def units_of(records: Sequence[Any]) -> list[tuple[str, int, int, int, str]]:
    """(entry id, paragraph, sentence start, sentence end, text to embed); a whole
    paragraph has start = end = -1."""
    out = []
    for r in records:
        heading = heading_of(r)
        for n, text in enumerate(r.plain_paragraphs):
            if not text.strip():
                continue
            out.append((r.id, n, -1, -1, f"{heading}: {text}"))
            spans = split_sentences(text)
            if len(spans) > 1:
                for s, e in spans:
                    out.append((r.id, n, s, e, f"{heading}: {text[s:e]}"))
    return out


def start_vectors(records: Sequence[Any], cache_dir: Path | None) -> PendingVectors:
    """The embeddings of `records` (entries with ``id``, ``title``, ``aliases`` and
    ``plain_paragraphs``: the corpus's or the build's) started in the background."""
    embedder = get_embedder()
    if embedder is None:
        return PendingVectors([], None, embedder_status())
    units = units_of(records)
    return PendingVectors(units, PendingPassages(embedder, [u[4] for u in units], cache_dir))


@dataclass
class PendingVectors:
    """A build's embeddings under way (`start_vectors`)."""

    units: list[tuple[str, int, int, int, str]]
    passages: PendingPassages | None  # None: no embedder
    status: str = ""  # why there is none (German)

    def __enter__(self) -> PendingVectors:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        self.close(wait=kind is None)  # a failed or stopped build does not wait for them

    def close(self, wait: bool = True) -> None:
        if self.passages is not None:
            self.passages.close(wait)

    def write(
        self, build_dir: Path, progress: Callable[[int, int], None] | None = None
    ) -> dict[str, Any]:
        """Wait for the vectors and write them into `build_dir`; the meta fields."""
        if self.passages is None:
            if disabled():  # switched off on purpose: nothing to warn about
                return {"model": None}
            return {
                "model": None,
                "warning": "Ohne semantische Suche gebaut (nur Stichwortsuche): " + self.status,
            }
        embedder, units = self.passages.embedder, self.units
        vectors = self.passages.result(progress)
        save_vectors(build_dir / VECTORS, vectors.astype(np.float32))
        data = {"model": embedder.id, "units": [list(u[:4]) for u in units]}
        (build_dir / UNITS).write_text(json.dumps(data), encoding="utf-8")
        report: dict[str, Any] = {"model": embedder.id, "units": len(units)}
        if embedder.note:  # the stock model stands in for the tuned one
            report["warning"] = "Semantische Suche mit dem " + embedder.note
        return report


def save_vectors(path: Path, vectors: np.ndarray) -> None:
    """Write `vectors` as ``.npy`` to `path`. numpy reports a short write (a full disk, a
    quota) as an OSError without errno („384000 requested and 16352 written“), which
    the build then took for a matter of rights; it is ENOSPC here."""
    try:
        with open(path, "wb") as fh:
            np.save(fh, vectors)
    except OSError as exc:
        if exc.errno is None:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path)) from exc
        raise


class SentenceSims(Mapping[tuple[str, int], list[tuple[int, int, float]]]):
    """(entry, paragraph) -> the paragraph's sentence spans with their similarity, each
    list built when it is asked for (a question reads a few paragraphs' sentences, not
    the build's thousands)."""

    def __init__(
        self, groups: Mapping[tuple[str, int], tuple[list[int], list[tuple[int, int]]]], sims: Any
    ):
        self._groups, self._sims = groups, sims

    def __getitem__(self, key: tuple[str, int]) -> list[tuple[int, int, float]]:
        rows, spans = self._groups[key]
        values = self._sims[rows].tolist()
        return [(s, e, v) for (s, e), v in zip(spans, values, strict=True)]

    def __iter__(self) -> Iterator[tuple[str, int]]:
        return iter(self._groups)

    def __len__(self) -> int:
        return len(self._groups)


@dataclass
class DenseScores:
    """Similarities of one question to the units of a build."""

    entry_paragraph: dict[str, float]  # entry -> best paragraph similarity
    entry_sentence: dict[str, float]  # entry -> best sentence (or one-sentence paragraph)
    paragraph: dict[tuple[str, int], float]  # (entry, paragraph) -> similarity
    # (entry, paragraph) -> its sentence spans with their similarity
    sentences: Mapping[tuple[str, int], list[tuple[int, int, float]]]
    query: np.ndarray | None = field(default=None, repr=False, compare=False)  # its vector
    _ranked: list[tuple[str, float]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def entry(self, eid: str) -> float:
        """The entry's similarity: its best paragraph or sentence."""
        return max(self.entry_paragraph.get(eid, 0.0), self.entry_sentence.get(eid, 0.0))

    def unit(self, eid: str, paragraph: int) -> float:
        """The similarity of paragraph `paragraph` of `eid`: the paragraph or its best sentence."""
        key = (eid, paragraph)
        spans = self.sentences.get(key) or []
        return max([self.paragraph.get(key, 0.0), *(x[2] for x in spans)])

    def ranking(self) -> list[tuple[str, float]]:
        """The entries by `entry`, best first (computed once; a new list each call)."""
        if self._ranked is None:
            self._ranked = sorted(
                ((e, self.entry(e)) for e in self.entry_paragraph), key=lambda x: -x[1]
            )
        return list(self._ranked)


@dataclass(frozen=True)
class _Layout:
    """How units fold into paragraphs and entries (`_layout`)."""

    para_rows: np.ndarray  # the row of each paragraph unit, in unit order
    para_keys: list[tuple[str, int]]  # (entry, paragraph) of each
    para_entry: np.ndarray  # the entry (its number in `entries`) of each
    entries: list[str]  # entries in order of their first paragraph unit
    sent_rows: np.ndarray  # rows of the sentence units whose paragraph has a unit
    sent_para: np.ndarray  # that paragraph (its number in `para_rows`) for each
    sentences: dict[tuple[str, int], tuple[list[int], list[tuple[int, int]]]]  # key -> rows, spans


def _layout(units: Sequence[tuple[Any, ...]]) -> _Layout:
    """The folding of `units` ((entry, paragraph, start, end, ...); a paragraph has
    start < 0), rows numbered as in `units`."""
    para_rows: list[int] = []
    para_keys: list[tuple[str, int]] = []
    para_entry: list[int] = []
    entry_code: dict[str, int] = {}
    para_code: dict[tuple[str, int], int] = {}
    sentences: dict[tuple[str, int], tuple[list[int], list[tuple[int, int]]]] = {}
    for row, (eid, n, s, e, *_text) in enumerate(units):
        if s < 0:
            para_code[(eid, n)] = len(para_rows)
            para_rows.append(row)
            para_keys.append((eid, n))
            para_entry.append(entry_code.setdefault(eid, len(entry_code)))
        else:
            rows, spans = sentences.setdefault((eid, n), ([], []))
            rows.append(row)
            spans.append((s, e))
    sent = [
        (r, para_code[key])
        for key, (rows, _) in sentences.items()
        if key in para_code
        for r in rows
    ]
    return _Layout(
        np.array(para_rows, dtype=np.intp),
        para_keys,
        np.array(para_entry, dtype=np.intp),
        list(entry_code),
        np.array([r for r, _ in sent], dtype=np.intp),
        np.array([p for _, p in sent], dtype=np.intp),
        sentences,
    )


def _above_floor(entries: list[str], values: np.ndarray) -> dict[str, float]:
    """Entry -> value, for the values above -1 (the least a cosine can be: an entry with
    none above it has no similarity to fold, as unit by unit)."""
    return {e: v for e, v in zip(entries, values.tolist(), strict=True) if v > -1.0}


def _fold(layout: _Layout, sims: np.ndarray, query: np.ndarray) -> DenseScores:
    """`DenseScores` of the similarities `sims` (one per unit of `layout`): an entry's
    paragraph similarity is its best paragraph's, its sentence similarity its best
    paragraph's best sentence (a paragraph of one sentence: the paragraph)."""
    para = sims[layout.para_rows]
    n_entries = len(layout.entries)
    e_para = np.full(n_entries, -np.inf, dtype=sims.dtype)
    np.maximum.at(e_para, layout.para_entry, para)
    sentence_best = np.full(len(para), -np.inf, dtype=sims.dtype)
    np.maximum.at(sentence_best, layout.sent_para, sims[layout.sent_rows])
    has_sentences = np.zeros(len(para), dtype=bool)
    has_sentences[layout.sent_para] = True
    best = np.where(has_sentences, sentence_best, para)
    e_sent = np.full(n_entries, -np.inf, dtype=sims.dtype)
    np.maximum.at(e_sent, layout.para_entry, best)
    return DenseScores(
        _above_floor(layout.entries, e_para),
        _above_floor(layout.entries, e_sent),
        dict(zip(layout.para_keys, para.tolist(), strict=True)),
        SentenceSims(layout.sentences, sims),
        query,
    )


class DenseRetriever:
    """The vectors of one build and the embedder for questions."""

    def __init__(self, build_dir: Path, embedder: Any):
        data = json.loads((build_dir / UNITS).read_text(encoding="utf-8"))
        self.units = _units(data)
        self.model: str = data["model"]
        self.vectors = np.load(build_dir / VECTORS)
        if not _vectors_fit(self.vectors, len(self.units)):
            raise ValueError("dense vectors differ from their units in length or are not finite")
        self.embedder = embedder
        self._rows: dict[str, list[int]] | None = None  # entry -> rows of its units
        self._folding: _Layout | None = None  # how all units fold (`_full_layout`)

    def embed(self, question: str) -> np.ndarray:
        return np.asarray(self.embedder.query(question), dtype=np.float32)

    def scores(self, question: str) -> DenseScores:
        return self.scores_of(self.embed(question))

    def entry_vector(self, eid: str) -> np.ndarray | None:
        """The unit-length mean of the paragraph vectors of entry `eid` (what it is
        about, without embedding anything), or None when the build lacks it."""
        rows = [i for i in self._entry_rows().get(eid, ()) if self.units[i][2] < 0]
        if not rows:
            return None
        mean = self.vectors[rows].mean(axis=0)
        norm = float(np.linalg.norm(mean))
        return (mean / norm).astype(np.float32) if norm > 0 else None

    def _entry_rows(self) -> dict[str, list[int]]:
        """Entry -> the rows of its units (built once; a race builds it twice, alike)."""
        if self._rows is None:
            rows: dict[str, list[int]] = {}
            for i, unit in enumerate(self.units):
                rows.setdefault(unit[0], []).append(i)
            self._rows = rows
        return self._rows

    def _full_layout(self) -> _Layout:
        """The folding of all the build's units (built once; a race builds it twice, alike)."""
        if self._folding is None:
            self._folding = _layout(self.units)
        return self._folding

    def scores_of(self, vector: np.ndarray, entries: Sequence[str] | None = None) -> DenseScores:
        """The similarities of the units to a (unit-length) query `vector`; only those
        of `entries` when given (a few entries cost a few rows, not the whole build)."""
        query = np.asarray(vector, dtype=np.float32)
        if entries is None:
            return _fold(self._full_layout(), self.vectors @ query, query)
        found = self._entry_rows()
        rows = [i for eid in dict.fromkeys(entries) for i in found.get(eid, ())]
        sims = self.vectors[rows] @ query if rows else np.zeros(0, dtype=np.float32)
        return _fold(_layout([self.units[i] for i in rows]), sims, query)


_swapped: dict[int, DenseRetriever] = {}


@contextmanager
def swapped_retriever(index: Any, retriever: DenseRetriever) -> Iterator[None]:
    """Within the block, `dense_for(index)` is `retriever` (training only: the ranker
    and the chat models are fitted on each question read by the embedder tuned without
    it, `faq_bot.crossfit`). Not for serving: it is process-wide and not thread-safe."""
    _swapped[id(index)] = retriever
    try:
        yield
    finally:
        _swapped.pop(id(index), None)


def swapping() -> bool:
    """Whether a `swapped_retriever` block is open (fitting)."""
    return bool(_swapped)


def dense_for(index: Any) -> DenseRetriever | None:
    """The dense retriever of `index` (once per build), or None: search stays lexical."""
    if _swapped:
        found = _swapped.get(id(index))
        if found is not None:
            return found
    state = getattr(index, "state", None)
    if state is not None and hasattr(state, "once"):  # the engine core's per-build state
        return state.once("dense.retriever", lambda: _open_retriever(index))
    cache = index.cache
    if "dense" in cache:
        return cache["dense"]
    with _LOCK:
        if "dense" not in cache:
            cache["dense"] = _open_retriever(index)
    return cache["dense"]


def _open_retriever(index: Any) -> DenseRetriever | None:
    embedder = get_embedder()
    if embedder is None or not (Path(index.path) / UNITS).is_file():
        return None
    try:
        retriever = DenseRetriever(Path(index.path), embedder)
    except (OSError, ValueError, KeyError):
        return None
    return retriever if retriever.model == embedder.id else None


def vectors_of_another_model(index: Any) -> bool:
    """The build holds vectors of another embedding model than the one this machine
    loads (after an upgrade of the wheel or of the tuned tensors): search would stay
    lexical until a rebuild. Loads no model (`faq_bot.embed.model_id`)."""
    path = Path(index.path) / UNITS
    if disabled() or not path.is_file():
        return False
    try:
        from faq_bot.embed import model_id

        current = model_id()
    except Exception:  # no embedder on this platform: nothing to rebuild for
        return False
    try:
        return bool(json.loads(path.read_text(encoding="utf-8"))["model"] != current)
    except (OSError, ValueError, KeyError, TypeError):
        return True


def _vectors_fit(vectors: np.ndarray, count: int) -> bool:
    """One vector (a row) per unit, each number finite (a NaN makes every score NaN)."""
    return vectors.ndim == 2 and len(vectors) == count and bool(np.isfinite(vectors).all())


def _units(data: Any) -> list[tuple[str, int, int, int]]:
    """The units of a build's ``dense.json`` (entry, paragraph, start, end), with its model
    named; ValueError when it holds anything else (a damaged build, not a traceback)."""
    units = data.get("units") if isinstance(data, dict) else None
    if not isinstance(units, list) or not isinstance(data.get("model"), str):
        raise ValueError("dense.json holds no model and units")
    for unit in units:
        if not (
            isinstance(unit, list)
            and len(unit) == 4
            and isinstance(unit[0], str)
            and all(type(v) is int for v in unit[1:])
        ):
            raise ValueError("a unit of dense.json is not (entry, paragraph, start, end)")
    return [tuple(unit) for unit in units]


def unreadable_vectors(index: Any) -> bool:
    """The build was made with vectors (its units are there) that cannot be read: the
    vector file is missing, cut short, of another length or not finite. Search would
    stay lexical, without a word, until a rebuild. Loads no model; reads the file mapped."""
    units = Path(index.path) / UNITS
    if disabled() or not units.is_file():
        return False
    try:
        count = len(_units(json.loads(units.read_text(encoding="utf-8"))))
        return not _vectors_fit(np.load(Path(index.path) / VECTORS, mmap_mode="r"), count)
    except (OSError, ValueError, KeyError, TypeError):
        return True


def dense_mode(index: Any) -> str:
    """ "hybrid" when search uses the embeddings, else "lexical" (for /healthz)."""
    return "hybrid" if dense_for(index) is not None else "lexical"


# --- the engine core's retrieval interface (faq_bot.retrieval, issue 8) -------------


class _InterfaceRetriever:
    """`DenseRetriever` behind ``faq_bot.retrieval.Retriever``: entries by their best
    paragraph or sentence similarity, honouring the ``doc`` filter."""

    name = "dense"

    def __init__(self, index: Any, retriever: DenseRetriever):
        self.index = index
        self.retriever = retriever

    def retrieve(self, query: Any, n: int, doc: str | None = None) -> list[Any]:
        from faq_bot.retrieval import Candidate  # type: ignore[import-not-found]

        scores = self.retriever.scores(query.text)
        out: list[Any] = []
        for eid, sim in scores.ranking():
            record = self.index.entry(eid)
            if record is None or (doc and record.doc != doc):
                continue
            paras = [(s, p) for (e, p), s in scores.paragraph.items() if e == eid]
            out.append(Candidate(eid, sim, len(out) + 1, max(paras)[1] if paras else None))
            if len(out) >= n:
                break
        return out


def _make(index: Any) -> _InterfaceRetriever | None:
    # called inside the engine core's per-build state lock: open directly, no nested once()
    retriever = _open_retriever(index)
    return _InterfaceRetriever(index, retriever) if retriever is not None else None


try:  # the interface exists once the engine core (issue 8) is merged
    from faq_bot.retrieval import register  # type: ignore[import-not-found]
except ImportError:
    pass
else:
    register("dense", _make, weight=1.0)
