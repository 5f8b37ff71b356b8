"""Known questions: the training questions as evidence for new ones.

Does a question resemble those the rulings do not answer? Were questions like it
answered by this passage (two confidence signals of the chat), or by this entry (a
feature of the ranking, ``known_entry``)?

The training questions (`scripts/train_chat.py`), and the retired held-out sets that
`scripts/extend_known.py` adds without anything being fitted on them (``KNOWN_ONLY`` in the
Makefile), are kept as their embeddings with whether the corpus answers them. A new
question's ``unanswered_like`` is the mean similarity of its `K` nearest unanswerable
known questions minus that of its `K` nearest answerable ones: questions about prices,
editions, tournaments or values the rulings never state resemble earlier questions of that
kind more than they resemble questions the rulings answer. It is one confidence signal
(`faq_bot.chat.confidence.SIGNALS`), weighted by the fitted model like the
others, so it matters as much as cross-validation shows it earns. A sharper one,
``nearest_known``, reads the nearest known first question alone: its similarity,
positive when the rulings do not answer it, negative when they do (an unanswerable
question about a card the rulings cover has answerable neighbours about that card,
which outvote its nearest in ``unanswered_like``; research/model_capacity/nearest_known.py).

The answerable ones are kept with their gold passages, for a second signal,
``precedent``: among the `K_PRECEDENT` known answerable questions nearest a new one,
the similarity of the nearest whose gold passage lies in the chosen answer minus that
of the nearest whose gold lies elsewhere (the `K_PRECEDENT`-th similarity stands in
for a kind none of them has). Questions asked before about the same rule, in other
words, vouch for the answer; questions like it answered by another passage speak
against it. Learned like every signal: cross-validation decides what it is worth.

The same comparison ranks entries: a candidate entry's ``known_entry``
(`faq_bot.rankfeatures`) is, among the `K_PRECEDENT` nearest answerable known
questions, the similarity of the nearest whose gold passage the entry holds minus
that of the nearest of all (0 when the nearest known question was answered by the
entry; the `K_PRECEDENT`-th similarity stands in for an entry that answered none of
them). Only first questions count, as in fitting (a follow-up's known vector may mix
in its context). In fitting (`faq_bot.crossfit`), each training question meets the
known questions through `fitting`: the others, embedded by its fold's model, without
the questions of its own set (one writer's paraphrases of one rule would flatter the
feature; a new question brings no siblings). A fold's retriever without `fitting` is
refused: the shipped file would stand in, the question among the known ones.

``entry_precedent(index, vector, model) -> Callable[[str], float] | None``: the
feature of each entry for a query vector (None without known questions of `model`).

The passage model uses ``precedent`` too, as a feature of each competing paragraph of
the best entry (`faq_bot.chat.passage.FEATURES`): ``compared(known, vector, model)``
compares a question with the known questions once (a `Comparison`), and every paragraph's
``precedent`` and the chosen passage's signals are read from it.

``KnownQuestions.of(ids, vectors, answerable, model, golds=None, followup=None)``,
``.unanswered_like(vector, exclude=None, twin=None)``, ``.precedent(vector, text,
exclude=None, twin=None)`` (`exclude` an id or a set of ids), ``.compare(vector,
exclude=None, twin=None)`` (a `Comparison`: ``.precedent(text)``, ``.signals(text)``: both
signals of an answer from one comparison),
``.own_set(qid)`` (what fitting excludes: the question's set), ``.save(path)``;
``known_questions() -> KnownQuestions | None`` (the shipped file
``faq_bot/data/known_questions.npz``; None, with a logged warning, when it is missing
or unreadable: `read_known`); ``compared(known, vector, model)``: a question compared
once (`Comparison`), None when there is nothing to compare (no embedder, another
embedding model, no known questions; and no ``precedent`` from a file written without
gold passages): the confidence model then uses its fitted fallback values, which carry no
information (`faq_bot.chat.confidence.probability`).

Every question is scored as if it were new: known questions that are its near
twins (cosine ≥ `KnownQuestions.twin`: the same question, a paraphrase that differs by a word)
are left out, in fitting (where a training question would find itself) and when
answering alike. The signal says what kind of question this is, not whether this
very question was seen: a twin of an answered training question would otherwise
get a value no fitted question had, and a confident answer whether or not its
passage is right (re-running eval on the training questions showed exactly that:
confident-wrong 6.8 % on dev2 in-sample).
"""

from __future__ import annotations

import io
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from faq_bot.dense import swapping
from faq_bot.evaluate import holds, normalize, question_set

__all__ = [
    "K",
    "K_PRECEDENT",
    "TWIN_SHARE",
    "Comparison",
    "KnownQuestions",
    "compared",
    "entry_precedent",
    "fitting",
    "known_questions",
    "read_known",
]

K = 3  # nearest questions of each kind that count
# nearest answerable questions whose gold passages are compared with an answer: chosen by
# cross-validation on the training questions' out-of-fold signals (10, 20 and 50 tried)
K_PRECEDENT = 10
# The share of known questions that have a near twin among the others (the same
# question reworded by a word or two): the cosine their nearest neighbour reaches marks
# twins (`KnownQuestions.twin`). A share, not a cosine, so that it means the same for
# any embedding model: under the stock e5-small, 3.8 % of the training questions had a
# neighbour at 0.97 (the fixed cosine used before); the tuned model spreads questions
# apart (median cosine of two questions 0.26 instead of 0.82), where 0.97 marks none.
TWIN_SHARE = 0.04
TWIN_BLOCK = 256  # rows of the similarity matrix computed at once for `twin`
RECENT_VECTORS = 4  # question vectors whose similarities are kept (`_similarities`)
_RECENT_LOCK = threading.Lock()  # for every instance's `_recent`: a few dict steps each
DATA = "data/known_questions.npz"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class KnownQuestions:
    ids: tuple[str, ...]
    vectors: np.ndarray  # unit-length rows, float32
    answerable: np.ndarray  # bool per row
    model: str  # the embedding model the vectors come from
    # per row its gold passages (`faq_bot.evaluate.normalize`d; none for unanswerable
    # questions); None for a file written without them
    golds: tuple[tuple[str, ...], ...] | None = None
    # per row: asked with a history (a follow-up); None for a file written without it
    followup: np.ndarray | None = None

    @classmethod
    def of(cls, ids, vectors, answerable, model: str, golds=None, followup=None) -> KnownQuestions:
        ids = tuple(ids)
        if len(set(ids)) != len(ids):
            raise ValueError("question ids must be unique")
        vectors = np.asarray(vectors, dtype=np.float32)
        answerable = np.asarray(answerable, dtype=bool)
        if vectors.ndim != 2 or len(vectors) != len(ids) or answerable.shape != (len(ids),):
            raise ValueError("one vector and one answerable flag per question id")
        if golds is not None:
            golds = tuple(tuple(normalize(g) for g in gs if g.strip()) for gs in golds)
            if len(golds) != len(ids):
                raise ValueError("one list of gold passages per question id")
        if followup is not None:
            followup = np.asarray(followup, dtype=bool)
            if followup.shape != (len(ids),):
                raise ValueError("one follow-up flag per question id")
        return cls(ids, vectors, answerable, model, golds, followup)

    @cached_property
    def twin(self) -> float:
        """The cosine from which a known question counts as the same question: the one
        the nearest neighbour of `TWIN_SHARE` of the known questions reaches."""
        if len(self.ids) < 2:
            return 1.0
        vectors = self.vectors.astype(np.float32)
        nearest = np.empty(len(vectors), dtype=np.float32)
        # in blocks of rows: the whole matrix would grow with the square of the known
        # questions (76 MiB at 4,453, held at a worker's warm-up), a block stays small
        for start in range(0, len(vectors), TWIN_BLOCK):
            sims = vectors[start : start + TWIN_BLOCK] @ vectors.T
            rows = np.arange(len(sims))
            sims[rows, rows + start] = -1.0  # not its own neighbour
            nearest[start : start + len(sims)] = sims.max(axis=1)
        return float(np.quantile(nearest, 1.0 - TWIN_SHARE))

    @cached_property
    def _id_array(self) -> np.ndarray:
        return np.array(self.ids)

    @cached_property
    def _sets(self) -> dict[str, frozenset[str]]:
        sets: dict[str, set[str]] = {}
        for qid in self.ids:
            sets.setdefault(question_set(qid), set()).add(qid)
        return {k: frozenset(v) for k, v in sets.items()}

    @cached_property
    def _masks(self) -> dict[frozenset[str], np.ndarray]:
        return {}

    def _mask(self, ids: frozenset[str]) -> np.ndarray:
        """Which rows are among `ids` (kept per set of ids: fitting asks for each
        question set many times)."""
        found = self._masks.get(ids)
        if found is None:
            found = self._masks[ids] = np.isin(self._id_array, list(ids))
        return found

    def own_set(self, qid: str) -> frozenset[str]:
        """`qid` and the known questions of its question set (`faq_bot.evaluate.question_set`):
        what fitting leaves out, since a new question brings no siblings."""
        return self._sets.get(question_set(qid), frozenset()) | {qid}

    def unanswered_like(
        self,
        vector: np.ndarray,
        exclude: str | frozenset[str] | None = None,
        twin: float | None = None,
    ) -> float | None:
        """Mean similarity of the `K` nearest unanswerable known questions minus that
        of the `K` nearest answerable ones; None without both kinds or for another
        size. `exclude`: a known question's own id, `twin`: a cosine from which known
        questions count as the same question; both leave them out, to score a
        question as if it were new."""
        found = self._comparable(vector, exclude, twin)
        return None if found is None else self._unanswered_like(*found)

    def precedent(
        self,
        vector: np.ndarray,
        text: str,
        exclude: str | frozenset[str] | None = None,
        twin: float | None = None,
    ) -> float | None:
        """Among the `K_PRECEDENT` nearest answerable known questions (`exclude` and
        twins left out as in `unanswered_like`), the similarity of the nearest whose
        gold passage lies in `text` minus that of the nearest whose gold does not; the
        smallest of the `K_PRECEDENT` similarities for a kind none of them has. None
        without gold passages or for another size."""
        found = self._comparable(vector, exclude, twin)
        return None if found is None else self._precedent(*found, text)

    def compare(
        self,
        vector: np.ndarray,
        exclude: str | frozenset[str] | None = None,
        twin: float | None = None,
    ) -> Comparison | None:
        """`vector` compared with the known questions once (`exclude`, `twin` as for
        `unanswered_like`), for any number of answer texts: the competing paragraphs
        each ask for their ``precedent``, the chosen one for both signals; None for a
        vector of another size."""
        found = self._comparable(vector, exclude, twin)
        return None if found is None else Comparison(self, *found)

    def _unanswered_like(self, sims: np.ndarray, keep: np.ndarray) -> float | None:
        unanswered = sims[keep & ~self.answerable]
        answered = sims[keep & self.answerable]
        if not len(unanswered) or not len(answered):
            return None
        return float(_top_mean(unanswered) - _top_mean(answered))

    def _nearest_known(self, sims: np.ndarray, keep: np.ndarray) -> float | None:
        """The similarity of the nearest known first question that counts, positive when
        the rulings do not answer it and negative when they do; None without any."""
        rows = keep if self.followup is None else keep & ~self.followup
        if not rows.any():
            return None
        j = int(np.flatnonzero(rows)[np.argmax(sims[rows])])
        return float(sims[j]) * (-1.0 if self.answerable[j] else 1.0)

    def nearest_answered(self, sims: np.ndarray, keep: np.ndarray) -> np.ndarray | None:
        """The rows of the `K_PRECEDENT` answerable known questions nearest (by `sims`)
        among those `keep` lets count, nearest first; None without gold passages or
        without any."""
        rows = np.flatnonzero(keep & self.answerable)
        if self.golds is None or not len(rows):
            return None
        return rows[np.argsort(-sims[rows], kind="stable")[:K_PRECEDENT]]

    def _precedent(
        self, sims: np.ndarray, keep: np.ndarray, text: str, nearest: np.ndarray | None = None
    ) -> float | None:
        """`nearest`: `nearest_answered(sims, keep)` when the caller has it already."""
        if nearest is None:
            nearest = self.nearest_answered(sims, keep)
        if nearest is None or self.golds is None:
            return None
        plain = normalize(text)
        hit = np.array([holds(plain, self.golds[r]) for r in nearest])
        near = sims[nearest]
        floor = float(near[-1])
        return float(
            (near[hit].max() if hit.any() else floor)
            - (near[~hit].max() if (~hit).any() else floor)
        )

    @cached_property
    def _recent(self) -> OrderedDict[bytes, np.ndarray]:
        return OrderedDict()

    def _similarities(self, vector: np.ndarray) -> np.ndarray:
        """Each known question's similarity to `vector` (read-only). The ranking's
        ``known_entry`` and the answer's signals compare the same question vector: the
        matrix (10 MB) is read once for both, not once each (`RECENT_VECTORS` kept)."""
        key = vector.tobytes()
        with _RECENT_LOCK:  # shared by the serving threads (a race gave a 500 under load)
            sims = self._recent.get(key)
        if sims is None:
            sims = self.vectors @ vector  # outside the lock: two threads may both compute
            sims.flags.writeable = False
            with _RECENT_LOCK:
                self._recent[key] = sims
                while len(self._recent) > RECENT_VECTORS:
                    self._recent.popitem(last=False)
        return sims

    def _comparable(
        self, vector: np.ndarray, exclude: str | frozenset[str] | None, twin: float | None
    ) -> tuple[np.ndarray, np.ndarray] | None:
        """(the similarity of each known question to `vector`, which of them count: not
        `exclude`, not a twin at `twin` or above); None for a vector of another size."""
        vector = np.asarray(vector, dtype=np.float32)
        if vector.ndim != 1 or self.vectors.shape[1:] != vector.shape:
            return None
        sims = self._similarities(vector)
        keep = np.ones(len(self.ids), dtype=bool)
        if isinstance(exclude, frozenset):  # a set of ids (fitting: a question's own set)
            keep &= ~self._mask(exclude)
        elif exclude is not None and exclude in self.ids:
            keep[self.ids.index(exclude)] = False
        if twin is not None:
            keep &= sims < twin
        return sims, keep

    def save(self, path: Path) -> None:
        arrays: dict[str, np.ndarray] = {
            "ids": np.array(self.ids),
            "vectors": self.vectors.astype(np.float16),
            "answerable": self.answerable,
            "model": np.array(self.model),
        }
        if self.golds is not None:
            arrays["golds"] = np.array([GOLD_SEP.join(g) for g in self.golds])
        if self.followup is not None:
            arrays["followup"] = self.followup
        buf = io.BytesIO()
        np.savez_compressed(buf, **arrays)  # type: ignore[arg-type]
        path.write_bytes(buf.getvalue())

    @classmethod
    def load(cls, data: bytes) -> KnownQuestions:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            golds = (
                [str(g).split(GOLD_SEP) if str(g) else [] for g in z["golds"]]
                if "golds" in z.files
                else None
            )
            return cls.of(
                [str(i) for i in z["ids"]],
                z["vectors"],
                z["answerable"],
                str(z["model"]),
                golds,
                z["followup"] if "followup" in z.files else None,
            )


GOLD_SEP = "\n"  # normalized gold passages hold no line break


def _top_mean(sims: np.ndarray) -> float:
    k = min(K, len(sims))
    return float(np.partition(sims, len(sims) - k)[-k:].mean())


def read_known(data: bytes) -> KnownQuestions | None:
    """Known questions from the bytes of their file; None (and a logged warning) for
    anything unreadable: truncated, corrupt, empty, of the wrong shape."""
    try:
        known = KnownQuestions.load(data)
    except Exception as exc:  # the signal falls back; an answer never fails on it
        log.warning("Bekannte Fragen nicht lesbar (%s: %s)", type(exc).__name__, exc)
        return None
    if known.golds is None:
        log.warning(
            "Bekannte Fragen ohne Gold-Absätze (vor dem Signal precedent geschrieben): "
            "es fällt aus, bis scripts/train_chat.py --write sie neu schreibt"
        )
    return known


@cache
def known_questions() -> KnownQuestions | None:
    try:
        data = resources.files("faq_bot").joinpath(DATA).read_bytes()
    except OSError as exc:
        log.warning("Bekannte Fragen fehlen (%s)", exc)
        return None
    return read_known(data)


@dataclass(frozen=True)
class Comparison:
    """A question's vector compared with the known questions (`KnownQuestions.compare`):
    the similarity of each and which of them count."""

    known: KnownQuestions
    sims: np.ndarray
    keep: np.ndarray

    @cached_property
    def _nearest(self) -> np.ndarray | None:
        # the same for every paragraph the question's answer weighs: sorted once per answer
        return self.known.nearest_answered(self.sims, self.keep)

    def precedent(self, text: str) -> float | None:
        """``precedent`` of an answer `text` (`KnownQuestions.precedent`)."""
        nearest = self._nearest
        return (
            None if nearest is None else self.known._precedent(self.sims, self.keep, text, nearest)
        )

    def signals(self, text: str) -> dict[str, float]:
        """``unanswered_like``, ``nearest_known`` and ``precedent`` of an answer `text`,
        each left out when it is None."""
        values = {
            "unanswered_like": self.known._unanswered_like(self.sims, self.keep),
            "nearest_known": self.known._nearest_known(self.sims, self.keep),
            "precedent": self.precedent(text),
        }
        return {k: v for k, v in values.items() if v is not None}


def compared(
    known: KnownQuestions | None, vector: np.ndarray | None, model: str | None
) -> Comparison | None:
    """A question's `vector` compared with the known questions (its near twins left out),
    once per answer: the passage model's ``precedent`` feature of each paragraph and the
    confidence signals of the chosen one read it; None when there is nothing to compare:
    no vector, no known questions, or known questions of another embedding model than
    `model`."""
    if known is None or vector is None or model != known.model:
        return None
    return known.compare(vector, twin=known.twin)


# in fitting: the known questions a training question meets, and the ids it must not
_FITTING: ContextVar[tuple[KnownQuestions | None, frozenset[str]] | None] = ContextVar(
    "known_fitting", default=None
)


@contextmanager
def fitting(known: KnownQuestions | None, leave_out: frozenset[str]) -> Iterator[None]:
    """Within the block the ranking compares with `known` (None: with nothing), without
    the questions `leave_out` (training only, `faq_bot.crossfit`: a question's own set).
    Not for serving, like `faq_bot.dense.swapped_retriever`."""
    token = _FITTING.set((known, leave_out))
    try:
        yield
    finally:
        _FITTING.reset(token)


def entry_precedent(
    index: Any, vector: np.ndarray | None, model: str | None
) -> Callable[[str], float] | None:
    """``known_entry`` of each entry for the query `vector` (see the module docstring):
    a function of the entry id; None without a vector, without known questions with
    gold passages, or with known questions of another embedding model than `model`."""
    found = _FITTING.get()
    if found is None and swapping():
        raise RuntimeError(
            "a fold's retriever without known.fitting: fitting would use the shipped file"
        )
    known, leave_out = found if found is not None else (known_questions(), frozenset())
    if known is None or vector is None or model != known.model:
        return None
    comparable = known._comparable(vector, leave_out or None, known.twin)
    if comparable is None:
        return None
    sims, keep = comparable
    if known.followup is not None:  # first questions only, as in fitting
        keep &= ~known.followup
    nearest, golds = known.nearest_answered(sims, keep), known.golds
    if nearest is None or golds is None:
        return None
    top, floor = float(sims[nearest[0]]), float(sims[nearest[-1]])
    best: dict[str, float] = {}
    for row in nearest.tolist():  # nearest first: the first hit of an entry is its best
        for eid in _holding(index, golds[row]):
            best.setdefault(eid, float(sims[row]))
    return lambda eid: best.get(eid, floor) - top


def _holding(index: Any, golds: tuple[str, ...]) -> frozenset[str]:
    """The entries of `index` whose text holds one of the (normalized) `golds` (cached
    per build: a known question's entries are looked up once)."""
    cache: dict[tuple[str, ...], frozenset[str]] = index.state.once("known.holding", dict)
    found = cache.get(golds)
    if found is None:
        plain: dict[str, str] = index.state.once(
            "known.plain", lambda: {e.id: normalize(e.text) for e in index.iter_entries()}
        )
        found = frozenset(eid for eid, text in plain.items() if holds(text, golds))
        cache[golds] = found
    return found
