"""Known questions: does a question resemble those the rulings do not answer?

The training questions (`scripts/train_chat.py`) are kept as their embeddings
with whether the corpus answers them. A new question's ``unanswered_like`` is the
mean similarity of its `K` nearest unanswerable training questions minus that of
its `K` nearest answerable ones: questions about prices, editions, tournaments
or values the rulings never state resemble earlier questions of that kind more
than they resemble questions the rulings answer. It is one confidence signal
(`faq_bot.chat.confidence.SIGNALS`), weighted by the fitted model like the
others, so it matters as much as cross-validation shows it earns.

``KnownQuestions.of(ids, vectors, answerable, model)``, ``.unanswered_like(vector,
exclude=None)``, ``.save(path)``; ``known_questions() -> KnownQuestions | None``
(the shipped file ``faq_bot/data/known_questions.npz``, None when it is missing
or unreadable); ``likeness(known, vector, model)``: the signal, 0.0 when there is
nothing to compare (no embedder, another embedding model).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

__all__ = ["K", "KnownQuestions", "known_questions", "likeness"]

K = 3  # nearest questions of each kind that count
DATA = "data/known_questions.npz"


@dataclass(frozen=True)
class KnownQuestions:
    ids: tuple[str, ...]
    vectors: np.ndarray  # unit-length rows, float32
    answerable: np.ndarray  # bool per row
    model: str  # the embedding model the vectors come from

    @classmethod
    def of(cls, ids, vectors, answerable, model: str) -> KnownQuestions:
        ids = tuple(ids)
        if len(set(ids)) != len(ids):
            raise ValueError("question ids must be unique")
        vectors = np.asarray(vectors, dtype=np.float32).reshape(len(ids), -1)
        return cls(ids, vectors, np.asarray(answerable, dtype=bool), model)

    def unanswered_like(self, vector: np.ndarray, exclude: str | None = None) -> float:
        """Mean similarity of the `K` nearest unanswerable known questions minus that
        of the `K` nearest answerable ones (`exclude`: a known question's own id, to
        score it as if it were new); 0.0 without both kinds or for another size."""
        vector = np.asarray(vector, dtype=np.float32)
        if vector.ndim != 1 or self.vectors.shape[1:] != vector.shape:
            return 0.0
        sims = self.vectors @ vector
        keep = np.ones(len(self.ids), dtype=bool)
        if exclude is not None and exclude in self.ids:
            keep[self.ids.index(exclude)] = False
        unanswered = sims[keep & ~self.answerable]
        answered = sims[keep & self.answerable]
        if not len(unanswered) or not len(answered):
            return 0.0
        return float(_top_mean(unanswered) - _top_mean(answered))

    def save(self, path: Path) -> None:
        buf = io.BytesIO()
        np.savez_compressed(
            buf,
            ids=np.array(self.ids),
            vectors=self.vectors.astype(np.float16),
            answerable=self.answerable,
            model=np.array(self.model),
        )
        path.write_bytes(buf.getvalue())

    @classmethod
    def load(cls, data: bytes) -> KnownQuestions:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            return cls.of(
                [str(i) for i in z["ids"]], z["vectors"], z["answerable"], str(z["model"])
            )


def _top_mean(sims: np.ndarray) -> float:
    k = min(K, len(sims))
    return float(np.partition(sims, len(sims) - k)[-k:].mean())


@cache
def known_questions() -> KnownQuestions | None:
    try:
        data = resources.files("faq_bot").joinpath(DATA).read_bytes()
        return KnownQuestions.load(data)
    except (OSError, ValueError, KeyError):
        return None


def likeness(known: KnownQuestions | None, vector: np.ndarray | None, model: str | None) -> float:
    """The ``unanswered_like`` signal of a question's `vector` (0.0 without a vector,
    without known questions, or when they come from another model than `model`)."""
    if known is None or vector is None or model != known.model:
        return 0.0
    return known.unanswered_like(vector)
