"""Cross-fitting: the ranker and the chat models are fitted on what a new question gets.

The shipped embedder is tuned on the answerable training questions of the Makefile's
``TRAIN_QUESTIONS`` (`faq_bot.tuned`; not on ``TRAIN_UNTUNED``, see `check_tuned_on`).
Their dense similarities are therefore better than a new question's, and models fitted
on them would trust the similarities too much (the confidence model would answer too
often). So the training scripts read each
question with the embedder tuned without its fold (``fold<k>.npz`` of
``research/embedder_tuning/tune.py --folds-dir``; a question's fold is
`faq_bot.learn.crossfit_fold` of its id), with that embedder's vectors of the
build's units.

``by_fold(index, index_dir, questions, folds_dir, read, untuned=frozenset()) -> list``
    ``read([question])`` for each question of each fold, within `swapped_retriever`
    (every `dense_for(index)` of the block answers with the fold's embedder and unit
    vectors) and within `faq_bot.known.fitting`: the ranking's ``known_entry`` compares
    the question with the answerable first questions of `questions` embedded by the
    fold's model, without those of its own set (`faq_bot.evaluate.question_set`); the
    results concatenated (fold 0 first).
``embed_known(index, cases, folds_dir) -> KnownQuestions``
    For the chat models' precedent signal: each case's question embedded by every
    fold's model (``case.fold_vectors``, with ``case.fold``, and ``case.tuned``: whether
    the shipped tuning read it), so that in fitting it is compared with known questions
    embedded by the model that read it; returns the known questions as the shipped
    model embeds them (what is written).
``check_tuned_on(questions, tensors=TENSORS, untuned=frozenset())``
    Refuses (German `InputError`) questions the tuning never read: every answerable
    first question must be among the ``question_ids`` the tensors record (`by_fold`
    checks), unless its id is in `untuned`: questions declared as trained on but not
    tuned on (the Makefile's ``TRAIN_UNTUNED``: sets retired into training after the
    last tuning). Such a question is read by a model that never saw it, in fitting (a
    fold model) as in serving (the shipped one), as a new question is; undeclared, it
    is the sign of a question file added without `make tune-embedder`.
``add_crossfit_arguments(parser)``, ``training_set(files, untuned_files)``
    The training scripts' ``--crossfit FOLDS_DIR`` and ``--untuned FILE ...``, and their
    questions read with `faq_bot.evaluate.training_questions` (which refuses held-out
    ones): all of them, and the ids of those of `untuned_files`.
``fold_retriever(index, tensors, cache_dir) -> DenseRetriever``
    The build's dense retriever with another tuned embedder and its unit vectors
    (embedded once, then taken from the embeddings cache by model id).
"""

from __future__ import annotations

import argparse
import copy
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from faq_bot.dense import DenseRetriever, dense_for, swapped_retriever, units_of
from faq_bot.embed import Embedder, embed_passages
from faq_bot.errors import IndexProblem, InputError
from faq_bot.evaluate import answerable, training_questions
from faq_bot.hybrid import embedding_text
from faq_bot.index import EMBEDDINGS_CACHE
from faq_bot.known import KnownQuestions, fitting
from faq_bot.learn import crossfit_fold
from faq_bot.tuned import (
    TENSORS,
    TunedModelUnavailable,
    base_model_file,
    tensors_meta,
    tuned_model,
)

__all__ = [
    "add_crossfit_arguments",
    "by_fold",
    "check_tuned_on",
    "embed_known",
    "embedder_id",
    "fold_files",
    "fold_retriever",
    "query_vectors",
    "shipped_retriever",
    "training_set",
    "tuned_ids",
]

R = TypeVar("R")


def add_crossfit_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--crossfit",
        type=Path,
        help="fold models of the tuned embedder: each question read by the one tuned without it",
    )
    parser.add_argument(
        "--untuned",
        nargs="*",
        default=[],
        metavar="FILE",
        help="more training question files the embedder's tuning has not read "
        "(the Makefile's TRAIN_UNTUNED; see check_tuned_on)",
    )


def training_set(
    files: Sequence[str | Path], untuned_files: Sequence[str | Path] = ()
) -> tuple[list[dict[str, Any]], frozenset[str]]:
    """Raises `faq_bot.evaluate.EvalFileError` (German) for a held-out or broken file."""
    untuned = training_questions(untuned_files) if untuned_files else []
    return [*training_questions(files), *untuned], frozenset(str(q["id"]) for q in untuned)


def fold_files(folds_dir: Path, shipped: Path | None = None) -> list[Path]:
    """``fold0.npz`` ... of `folds_dir`, in fold order: all of them, each saying it is
    that fold of as many, and tuned like the shipped tensors (`shipped`, default
    `faq_bot.tuned.TENSORS`: the same base model file, recipe and seed)."""
    files = sorted(folds_dir.glob("fold*.npz"), key=lambda p: (len(p.stem), p.stem))
    if not files or [p.name for p in files] != [f"fold{k}.npz" for k in range(len(files))]:
        raise InputError(
            f"{folds_dir}: keine vollständigen Fold-Modelle (fold0.npz, fold1.npz, …); "
            "make tune-embedder schreibt sie."
        )
    try:
        want = tensors_meta(TENSORS if shipped is None else shipped)
        for k, path in enumerate(files):
            meta = tensors_meta(path)
            if (meta.get("fold"), meta.get("folds")) != (k, len(files)) or any(
                meta.get(key) != want.get(key)
                for key in ("base_sha256", "settings", "seed", "question_ids")
            ):
                raise InputError(
                    f"{path}: gehört nicht zu den ausgelieferten angepassten Gewichten "
                    "(anderer Lauf); make tune-embedder schreibt beide neu."
                )
    except TunedModelUnavailable as exc:
        raise InputError(f"Fold-Modelle: {exc}") from None
    return files


def tuned_ids(tensors: Path = TENSORS) -> frozenset[str]:
    """The ids of the questions the tuning of `tensors` read."""
    try:
        tuned = tensors_meta(tensors).get("question_ids")
    except TunedModelUnavailable as exc:
        raise InputError(f"angepasste Gewichte: {exc}") from None
    if not isinstance(tuned, list):
        raise InputError(
            f"{tensors.name} nennt die Fragen nicht, auf die es angepasst wurde; "
            "make tune-embedder schreibt es neu."
        )
    return frozenset(map(str, tuned))


def check_tuned_on(
    questions: Sequence[dict[str, Any]],
    tensors: Path = TENSORS,
    untuned: frozenset[str] = frozenset(),
) -> None:
    asked = {str(q["id"]) for q in questions if answerable(q) and not q.get("history")}
    unseen = sorted(asked - tuned_ids(tensors) - untuned)
    if unseen:
        raise InputError(
            f"{len(unseen)} Trainingsfragen hat das angepasste Modell nie gelesen "
            f"({', '.join(unseen[:3])}{', …' if len(unseen) > 3 else ''}): "
            "erst make tune-embedder, dann make train (oder die Datei als --untuned "
            "angeben: Makefile TRAIN_UNTUNED)."
        )


def embedder_id(index: Any) -> str | None:
    """The embedder whose similarities models fitted on `index` read (written into the
    model files: `faq_bot.embed.fitted_for_serving`), None for a lexical build."""
    retriever = dense_for(index)
    return str(retriever.model) if retriever is not None else None


def shipped_retriever(index: Any) -> DenseRetriever:
    retriever = dense_for(index)
    if retriever is None:
        raise IndexProblem(
            "Kreuzanpassung braucht einen Index mit Vektoren der semantischen Suche."
        )
    return retriever


_embedders: dict[Path, Embedder] = {}
_vectors: dict[tuple[str, str], np.ndarray] = {}  # (model id, text) -> query vector


def fold_embedder(tensors: Path, build_model: str) -> Embedder:
    """The embedder of one fold's tuned tensors (loaded once per process)."""
    if tensors not in _embedders:
        try:
            model = tuned_model(base_model_file(), tensors)
        except TunedModelUnavailable as exc:
            raise InputError(f"{tensors}: {exc}") from None
        _embedders[tensors] = Embedder((str(model.path), f"{build_model}-fold-{model.tag}", ""))
    return _embedders[tensors]


def query_vectors(embedder: Embedder, texts: list[str]) -> np.ndarray:
    """Query vectors of `texts`, each embedded once per process and model."""
    out = []
    for text in texts:
        key = (embedder.id, text)
        if key not in _vectors:
            _vectors[key] = embedder.query(embedding_text(text))
        out.append(_vectors[key])
    return np.array(out, dtype=np.float32)


def embed_known(index: Any, cases: list[Any], folds_dir: Path) -> Any:
    shipped = shipped_retriever(index)
    files = fold_files(folds_dir)
    with_text = [c for c in cases if c.reading.vector_text is not None]
    texts = [c.reading.vector_text for c in with_text]
    per_fold = [query_vectors(fold_embedder(f, shipped.model), texts) for f in files]
    tuned = tuned_ids()
    for i, case in enumerate(with_text):
        case.fold = crossfit_fold(case.id, len(files))
        case.fold_vectors = np.stack([v[i] for v in per_fold])
        case.tuned = case.id in tuned
    return KnownQuestions.of(
        [c.id for c in with_text],
        query_vectors(shipped.embedder, texts),
        [c.answerable for c in with_text],
        shipped.model,
        [c.gold for c in with_text],
        [c.followup for c in with_text],
    )


def fold_retriever(
    index: Any, tensors: Path, cache_dir: Path | None, units: list[tuple] | None = None
) -> DenseRetriever:
    """`units`: the build's `units_of` its entries, when the caller has them already."""
    stock = shipped_retriever(index)
    embedder = fold_embedder(tensors, stock.model)
    units = units_of(list(index.iter_entries())) if units is None else units
    if [tuple(u[:4]) for u in units] != [tuple(u) for u in stock.units]:
        raise IndexProblem("Die Einheiten des Index passen nicht zu seinen Vektoren.")
    retriever = copy.copy(stock)
    retriever.embedder = embedder  # `model` stays the build's: the shipped known questions
    # (`faq_bot.known`) still count when a follow-up's earlier questions are replayed
    retriever.vectors = embed_passages(embedder, [u[4] for u in units], cache_dir)
    return retriever


def by_fold(
    index: Any,
    index_dir: Path,
    questions: Sequence[dict[str, Any]],
    folds_dir: Path,
    read: Callable[[list[dict[str, Any]]], list[R]],
    untuned: frozenset[str] = frozenset(),
) -> list[R]:
    check_tuned_on(questions, untuned=untuned)
    files = fold_files(folds_dir)
    cache_dir = Path(index_dir) / EMBEDDINGS_CACHE
    units = units_of(list(index.iter_entries()))
    pool = [q for q in questions if answerable(q) and not q.get("history")]
    out: list[R] = []
    for k, tensors in enumerate(files):
        mine = [q for q in questions if crossfit_fold(q["id"], len(files)) == k]
        retriever = fold_retriever(index, tensors, cache_dir, units)
        with swapped_retriever(index, retriever):
            known = _fold_known(retriever, pool)
            for q in mine:
                with fitting(known, known.own_set(q["id"]) if known else frozenset()):
                    out.extend(read([q]))
    return out


def _fold_known(retriever: DenseRetriever, pool: list[dict[str, Any]]) -> KnownQuestions | None:
    """The answerable first questions `pool` as known questions of the fold model of
    `retriever` (its `model` is the build's, as for the shipped known questions); None
    for none (the ranking then has no ``known_entry``)."""
    if not pool:
        return None
    return KnownQuestions.of(
        [q["id"] for q in pool],
        query_vectors(retriever.embedder, [q["q"] for q in pool]),
        [True] * len(pool),
        retriever.model,
        [q["gold"] for q in pool],
    )
