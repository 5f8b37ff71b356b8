"""Derived data computed once per index build, typed and bounded.

An `Index` (one opened build) holds one `BuildState`; it is dropped with the
build, so nothing derived from an old build outlives it. Every per-query cache
is a bounded `LRU`, so no stream of distinct queries grows a worker's memory.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from faq_bot.index import Index
    from faq_bot.retrieval import Retriever

__all__ = ["LRU", "MARKED_PAGE_BYTES", "PAGE_BYTES", "BuildState"]

# rendered pages a worker keeps per build: ~1,000 ruling pages of 4–20 KB
PAGE_BYTES = 6 * 1024 * 1024
# and pages with a user's words marked (``?h=``), apart: any number of distinct words make
# as many pages, which must not push the plain pages out
MARKED_PAGE_BYTES = 2 * 1024 * 1024

K = TypeVar("K")
V = TypeVar("V")


class LRU(Generic[K, V]):
    """A thread-safe mapping holding at most `size` items (least recently used go).

    With `weigh`, `size` bounds the sum of ``weigh(value)`` instead of the count
    (e.g. ``len`` of cached page bytes); a value heavier than `size` is not kept.
    """

    def __init__(self, size: int, weigh: Callable[[V], int] | None = None):
        self.size = size
        self._weigh = weigh
        self._weight = 0
        self._data: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._data.get(key)
            if found is not None:
                self._data.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> V:
        weigh = self._weigh
        if weigh is None:
            with self._lock:
                self._data[key] = value
                self._data.move_to_end(key)
                while len(self._data) > self.size:
                    self._data.popitem(last=False)
            return value
        weight = weigh(value)
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._weight -= weigh(old)
            if weight <= self.size:
                self._data[key] = value
                self._weight += weight
            while self._weight > self.size:
                self._weight -= weigh(self._data.popitem(last=False)[1])
        return value

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._weight = 0

    @property
    def weight(self) -> int:
        """The summed weight of the held values (their count without `weigh`)."""
        return self._weight if self._weigh is not None else len(self._data)


_NOT_MADE = object()  # `BuildState.once`: no value made yet under that name


class BuildState:
    """What the stages derive from one build: computed on first use (or at warm-up)."""

    def __init__(self, index: Index):
        self._index = index
        # re-entrant: a value `once` makes may need another (`impacts` inside a map of it)
        self._lock = threading.RLock()
        self._once: dict[str, Any] = {}
        # chat/terms.py: analyzed heading/paragraph/sentence terms per entry (a question
        # reads <= 8 candidates; the x1 corpus's 291 entries all fit; at x100 (29,675
        # entries) 8,192 of them held about 70 MiB per worker, 2,048 hold about 17)
        self.entry_terms: LRU[str, Any] = LRU(2048)
        # idf per term (search and answer)
        self.idf: LRU[str, float] = LRU(65536)
        # search.py: the last rankings (so the chatbot reuses the search's paragraph scores)
        self.rankings: LRU[Any, Any] = LRU(8)
        # search.py: analyzed (term, start, end) spans of texts shown as snippets
        self.spans: LRU[str, Any] = LRU(4096)
        # web: rendered pages (UTF-8) by what they depend on besides the build
        # (`faq_bot.web.common.cached_page`), bounded by their total size
        self.pages: LRU[tuple[str, ...], bytes] = LRU(PAGE_BYTES, weigh=len)
        # the same for pages keyed by words a user chose (marked words): their own budget
        self.marked_pages: LRU[tuple[str, ...], bytes] = LRU(MARKED_PAGE_BYTES, weigh=len)
        self._retrievers: dict[str, tuple[Retriever, float]] | None = None

    def release(self) -> None:
        """Drop everything derived from the build, at its close: the state and its
        index refer to each other, so without this the memory-mapped arrays (each
        holding a file descriptor) would go only at the next garbage collection."""
        with self._lock:
            self._once.clear()
            self._retrievers = None
        caches = (self.entry_terms, self.idf, self.rankings, self.spans)
        for cache in (*caches, self.pages, self.marked_pages):
            cache.clear()

    def once(self, name: str, make: Callable[[], V]) -> V:
        """The value `make()` computes, computed once per build (`name` is a fixed
        identifier chosen by the caller, never user input); `make` may itself ask for
        another value `once` makes."""
        found = self._once.get(name, _NOT_MADE)
        if found is _NOT_MADE:
            with self._lock:
                found = self._once.get(name, _NOT_MADE)
                if found is _NOT_MADE:  # None is a value made (no retriever, say)
                    found = self._once[name] = make()
        return found  # type: ignore[no-any-return]

    def retrievers(self, registry: Mapping[str, Any]) -> dict[str, tuple[Retriever, float]]:
        """The registered retrievers (see `faq_bot.retrieval`) made for this build."""
        if self._retrievers is None:
            with self._lock:
                if self._retrievers is None:
                    made: dict[str, tuple[Retriever, float]] = {}
                    for name, reg in registry.items():
                        r = reg.factory(self._index)
                        if r is not None:
                            made[name] = (r, reg.weight)
                    self._retrievers = made
        return self._retrievers
