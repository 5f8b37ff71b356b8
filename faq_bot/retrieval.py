"""The retrieval interface: retrievers rank entries, `fuse` combines their rankings.

A retriever (lexical BM25F, a dense embedder, ...) turns a `PreparedQuery` into a
ranked list of `Candidate` entries. A search *mode* names which retrievers run:

``lexical``
    The lexical retriever alone (`faq_bot.search.rank_entries`).
``hybrid``
    Every available retriever, their rankings fused by weighted reciprocal rank
    fusion (`fuse`). Only available when a second retriever (e.g. ``dense``) is
    registered and has what it needs for the open build; otherwise asking for it
    raises `ModeUnavailable` (German message; `faq_bot.search.search` turns it into a
    `faq_bot.query.QueryError`: HTTP 400 / exit 2).

Adding a retriever
------------------
Write a factory ``make(index) -> Retriever | None`` (None when the build lacks
what the retriever needs, e.g. no embeddings were computed) and register it at
import time of your module::

    from faq_bot.retrieval import register
    register("dense", make, weight=1.0)

and add the module's import path to `PLUGINS` below so it is imported on first
use. Instances are made once per build (held by the build's `BuildState`) and
must be safe to call from several threads at once.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from faq_bot.text import said_back

if TYPE_CHECKING:
    from faq_bot.index import Index
    from faq_bot.query import AnalyzedQuery

__all__ = [
    "MODES",
    "PLUGINS",
    "RRF_K",
    "Candidate",
    "ModeUnavailable",
    "PreparedQuery",
    "Retriever",
    "available_modes",
    "check_mode",
    "default_mode",
    "fuse",
    "register",
    "retrievers_for",
]

MODES = ("lexical", "hybrid")
RRF_K = 60
# Modules that register retrievers when imported; a missing module is skipped.
PLUGINS: tuple[str, ...] = ("faq_bot.dense",)


@dataclass(frozen=True)
class PreparedQuery:
    """A query as every retriever sees it: checked, corrected and analyzed once.

    ``raw`` is what the user typed (stripped), ``text`` the corrected query (use
    it for embedding), ``analyzed`` the lexical terms (`faq_bot.query.AnalyzedQuery`).
    ``category`` restricts to one category (slug or name) if given; ``correct`` False:
    read as typed, without spelling correction, by the embedder too.
    """

    raw: str
    text: str
    analyzed: AnalyzedQuery
    category: str | None = None
    correct: bool = True


@dataclass(frozen=True)
class Candidate:
    """One entry a retriever found: its id, best paragraph (if known), score and
    1-based rank in that retriever's list."""

    entry: str
    score: float
    rank: int
    paragraph: int | None = None


@runtime_checkable
class Retriever(Protocol):
    name: str

    def retrieve(
        self, query: PreparedQuery, n: int, doc: str | None = None
    ) -> list[Candidate]:  # pragma: no cover - protocol
        """The best `n` entries for `query` (of source document `doc` if given), best first."""
        ...


class ModeUnavailable(ValueError):
    """The search mode cannot be used with this build; the message (German) says why."""


@dataclass(frozen=True)
class _Registration:
    name: str
    factory: Callable[[Index], Retriever | None]
    weight: float


_REGISTRY: dict[str, _Registration] = {}
_PLUGINS_LOADED = False
_PLUGIN_LOCK = threading.Lock()


def register(name: str, factory: Callable[[Index], Retriever | None], weight: float = 1.0) -> None:
    """Make retriever `name` (built per build by `factory`) part of the hybrid mode,
    its ranking weighing `weight` in `fuse`."""
    _REGISTRY[name] = _Registration(name, factory, weight)


def _load_plugins() -> None:
    global _PLUGINS_LOADED
    if _PLUGINS_LOADED:
        return
    with _PLUGIN_LOCK:
        if _PLUGINS_LOADED:
            return
        for module in PLUGINS:
            try:
                importlib.import_module(module)
            except ModuleNotFoundError as exc:
                if exc.name != module:  # the plugin exists but its own import failed
                    raise
        _PLUGINS_LOADED = True


def retrievers_for(index: Index) -> dict[str, tuple[Retriever, float]]:
    """The registered retrievers available for `index`'s build, with their weights
    (lexical not included; made once per build)."""
    _load_plugins()
    return index.state.retrievers(_REGISTRY)


def available_modes(index: Index) -> list[str]:
    return ["lexical", "hybrid"] if retrievers_for(index) else ["lexical"]


def default_mode(index: Index) -> str:
    """The best mode this build offers: hybrid when another retriever is available."""
    return "hybrid" if retrievers_for(index) else "lexical"


def check_mode(index: Index, mode: str | None) -> str:
    """`mode` checked against what the build offers (None: `default_mode`), in any case
    and without surrounding spaces (``--mode LEXICAL``)."""
    if mode is None or not mode.strip():
        return default_mode(index)
    if mode.strip().lower() in MODES:
        mode = mode.strip().lower()
    if mode not in MODES:
        raise ModeUnavailable(
            f"Unbekannter Suchmodus {said_back(mode, 40)}; möglich sind: {', '.join(MODES)}."
        )
    if mode not in available_modes(index):
        raise ModeUnavailable(
            "Die hybride Suche ist für diesen Index nicht verfügbar "
            "(kein semantisches Modell geladen, oder dem Index fehlen seine Vektoren); "
            "bitte den Suchmodus „lexical“ wählen."
        )
    return mode


def fuse(
    rankings: Mapping[str, Sequence[Candidate]],
    weights: Mapping[str, float] | None = None,
    k: int = RRF_K,
) -> list[Candidate]:
    """Weighted reciprocal rank fusion: an entry scores sum(weight / (k + rank)) over
    the rankings that list it. Its paragraph is taken from the first ranking (in
    `rankings` order) that names one. Ties keep the order of first appearance."""
    score: dict[str, float] = {}
    paragraph: dict[str, int | None] = {}
    for name, ranking in rankings.items():
        w = 1.0 if weights is None else weights.get(name, 1.0)
        for c in ranking:
            score[c.entry] = score.get(c.entry, 0.0) + w / (k + c.rank)
            if paragraph.get(c.entry) is None:
                paragraph[c.entry] = c.paragraph
    order = {eid: i for i, eid in enumerate(score)}
    ranked = sorted(score, key=lambda e: (-score[e], order[e]))
    return [Candidate(e, score[e], i, paragraph[e]) for i, e in enumerate(ranked, 1)]
