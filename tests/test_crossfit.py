"""Cross-fitting (`faq_bot.crossfit`): each training question is read by the embedder
tuned without its fold, with that embedder's vectors of the build's units, and only
within the block; on the one-document corpus with the real embedder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from faq_bot import crossfit, tuned
from faq_bot.crossfit import by_fold, check_tuned_on, embed_known, fold_files, training_set
from faq_bot.dense import dense_for
from faq_bot.errors import InputError
from faq_bot.evaluate import question_set
from faq_bot.hybrid import embedding_text
from faq_bot.index import open_index
from faq_bot.known import _FITTING
from faq_bot.learn import crossfit_fold


@pytest.fixture(scope="module")
def folds_dir(tmp_path_factory):
    """Five fold models: the shipped tensors with the last layer norm's bias shifted by
    another amount in each, so that every fold's embedder differs from the shipped one
    and from the others. Made once for the module: writing them and loading each fold's
    model took most of the three tests' 28 s each."""
    tmp = tmp_path_factory.mktemp("folds")
    cache = tmp / "model-cache"
    out = tmp / "folds"
    out.mkdir()
    with np.load(tuned.TENSORS) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays.pop("meta")))
    for k in range(5):
        bias = arrays["l11.oln.b"].view(np.float32) + np.float32(0.05 * (k + 1))
        fold_meta = np.array(json.dumps({**meta, "fold": k, "folds": 5}))
        np.savez(
            out / f"fold{k}.npz", meta=fold_meta, **{**arrays, "l11.oln.b": bias.view(np.uint8)}
        )
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FAQ_BOT_MODEL_CACHE", str(cache))
        yield out
    crossfit._embedders.clear()  # they keep the copies memory-mapped
    shutil.rmtree(tmp, ignore_errors=True)  # 72 MB a fold: pytest keeps its temp dirs


def test_each_question_is_read_by_its_folds_embedder_and_only_within(
    dense_on, dense_index, folds_dir, tmp_path
):
    index_dir = tmp_path / "index"
    shutil.copytree(dense_index, index_dir, symlinks=True)
    index = open_index(index_dir)
    shipped = dense_for(index)
    text = "Wer gibt in einer Runde den ersten Befehl?"
    questions = [{"id": f"q{i}", "q": text} for i in range(12)]
    seen = []

    def read(qs):
        retriever = dense_for(index)
        seen.append((retriever.embedder.path, retriever.vectors.copy(), [q["id"] for q in qs]))
        return [retriever.embed(q["q"]) for q in qs]

    vectors = by_fold(index, index_dir, questions, folds_dir, read)
    assert len(vectors) == len(questions) and dense_for(index) is shipped
    paths = list(dict.fromkeys(p for p, _v, _ids in seen))  # fold order
    assert [sorted(i for p, _v, ids in seen if p == path for i in ids) for path in paths] == [
        sorted(q["id"] for q in questions if crossfit_fold(q["id"]) == k) for k in range(5)
    ]
    assert len(paths) == 5 and shipped.embedder.path not in paths
    for _p, unit_vectors, _ids in seen:  # the units embedded by the fold's model
        assert unit_vectors.shape == shipped.vectors.shape
        assert not np.allclose(unit_vectors, shipped.vectors)


def test_incomplete_fold_models_are_refused_in_german(tmp_path):
    with pytest.raises(InputError, match="keine vollständigen Fold-Modelle"):
        fold_files(tmp_path)
    (tmp_path / "fold1.npz").write_bytes(b"")
    with pytest.raises(InputError, match="fold0.npz"):
        fold_files(tmp_path)


def test_fold_models_of_another_tuning_run_are_refused(folds_dir, tmp_path):
    assert len(fold_files(folds_dir)) == 5
    folds_dir = Path(shutil.copytree(folds_dir, tmp_path / "folds"))  # shared: changed in a copy
    with np.load(folds_dir / "fold3.npz") as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays.pop("meta")))
    np.savez(folds_dir / "fold3.npz", meta=np.array(json.dumps({**meta, "seed": 7})), **arrays)
    with pytest.raises(InputError, match="fold3.npz: gehört nicht"):
        fold_files(folds_dir)


def _tensors_naming(path, ids):
    np.savez(path, meta=np.array(json.dumps({"question_ids": ids} if ids is not None else {})))
    return path


def test_training_questions_the_tuning_never_read_are_refused_in_german(tmp_path):
    tensors = _tensors_naming(tmp_path / "t.npz", ["d2-001", "h5-001"])
    first = {"doc": "000.txt", "gold": ["ein Satz"]}
    tuned_on = [{"id": "d2-001", "q": "?", **first}, {"id": "h5-001", "q": "?", **first}]
    check_tuned_on(tuned_on, tensors)
    # unanswerable questions and follow-ups are never tuned on, so they may be new
    check_tuned_on(
        [{"id": "u1", "q": "?"}, {"id": "f1", "q": "?", "history": ["?"], **first}], tensors
    )
    with pytest.raises(InputError, match="1 Trainingsfragen hat das angepasste Modell nie gelesen"):
        check_tuned_on([*tuned_on, {"id": "h9-001", "q": "?", **first}], tensors)
    with pytest.raises(InputError, match="nennt die Fragen nicht"):
        check_tuned_on(tuned_on, _tensors_naming(tmp_path / "old.npz", None))


def test_training_questions_declared_untuned_are_accepted_and_only_those(tmp_path):
    tensors = _tensors_naming(tmp_path / "t.npz", ["d2-001"])
    first = {"doc": "000.txt", "gold": ["ein Satz"]}
    asked = [{"id": i, "q": "?", **first} for i in ("d2-001", "h13-001", "h13-002")]
    check_tuned_on(asked, tensors, untuned=frozenset({"h13-001", "h13-002"}))
    with pytest.raises(InputError, match=r"1 Trainingsfragen .*\(h13-002\)"):
        check_tuned_on(asked, tensors, untuned=frozenset({"h13-001"}))


def test_in_fitting_each_question_meets_the_known_questions_without_its_own_set(
    dense_on, dense_index, folds_dir, tmp_path
):
    index_dir = tmp_path / "index"
    shutil.copytree(dense_index, index_dir, symlinks=True)
    index = open_index(index_dir)
    gold = [index.entry("runde-patt").text.split(".")[0]]
    tuned_on = tuned.tensors_meta(tuned.TENSORS)["question_ids"]  # `check_tuned_on`
    ids = [i for i in tuned_on if question_set(i) == "t"][:3]
    ids += [i for i in tuned_on if question_set(i) == "d4"][:3]
    questions = [{"id": i, "q": f"Frage {i} zum Patt", "doc": "x", "gold": gold} for i in ids]
    # neither a follow-up nor an unanswerable question is a known question of the ranking
    others = [
        {"id": "d4f01", "q": "Und dann?", "history": ["Patt?"], "doc": "x", "gold": gold},
        {"id": "d4-999", "q": "Was kostet das Spiel?", "doc": None, "gold": []},
    ]
    met = {}

    def read(qs):
        known, leave_out = _FITTING.get()
        met[qs[0]["id"]] = (set(known.ids), leave_out, known.model)
        # embedded by the fold's model, as the question itself is
        fold = dense_for(index)
        want = [fold.embed(embedding_text(q["q"])) for q in questions]
        assert np.allclose(known.vectors, want, atol=1e-5)
        assert not np.allclose(
            known.vectors, [shipped.embed(embedding_text(q["q"])) for q in questions], atol=1e-3
        )
        return qs

    shipped = dense_for(index)
    by_fold(index, index_dir, questions + others, folds_dir, read)
    assert _FITTING.get() is None  # only within
    assert set(met) == set(ids) | {"d4f01", "d4-999"}
    del met["d4f01"], met["d4-999"]
    for qid, (known_ids, leave_out, model) in met.items():
        assert known_ids == set(ids) and len(leave_out) == 3
        assert leave_out == {i for i in ids if question_set(i) == question_set(qid)}
        assert model == dense_for(index).model


def test_the_training_set_names_the_questions_of_the_untuned_files(tmp_path):
    line = {"doc": "000.txt", "gold": ["ein Satz"], "q": "Wer beginnt?", "kind": "k"}
    tuned = tmp_path / "dev9-questions.jsonl"
    tuned.write_text(json.dumps({"id": "d9-001", **line}) + "\n", "utf-8")
    later = tmp_path / "heldout13-questions.jsonl"
    later.write_text(json.dumps({"id": "h13-001", **line, "q": "Wer zieht?"}) + "\n", "utf-8")
    questions, untuned = training_set([tuned], [later])
    assert [q["id"] for q in questions] == ["d9-001", "h13-001"]
    assert untuned == frozenset({"h13-001"})
    assert training_set([tuned])[1] == frozenset()


def test_a_question_no_model_was_tuned_on_is_known_to_every_fold_a_tuned_one_not_to_its_own(
    dense_on, dense_index, folds_dir, tmp_path
):
    from faq_bot.chat import fit

    index_dir = tmp_path / "index"
    shutil.copytree(dense_index, index_dir, symlinks=True)
    index = open_index(index_dir)
    gold = [index.entry("runde-patt").text.split(".")[0]]
    tuned_on = tuned.tensors_meta(tuned.TENSORS)["question_ids"]
    ids = [*[i for i in tuned_on if question_set(i) == "t"][:3], "h13-001"]
    questions = [{"id": i, "q": f"Frage {i} zum Patt", "doc": "x", "gold": gold} for i in ids]

    def read(qs):
        return fit.collect(index, qs, "hybrid")

    with pytest.raises(InputError, match=r"\(h13-001\)"):  # undeclared: refused
        by_fold(index, index_dir, questions, folds_dir, read)
    cases = by_fold(index, index_dir, questions, folds_dir, read, frozenset({"h13-001"}))
    embed_known(index, cases, folds_dir)
    assert {c.id: c.tuned for c in cases} == {i: i != "h13-001" for i in ids}
    known = fit.known_of(index, cases)
    assert isinstance(known, dict) and len(known) == 5
    for k, fold_known in known.items():
        assert "h13-001" in fold_known.ids  # read unseen by every model, as when serving
        for case in cases:
            if case.tuned:
                assert (case.id in fold_known.ids) == (case.fold != k)


def test_the_committed_fold_models_belong_to_the_shipped_tensors():
    # `make train` reads them (the Makefile's FOLD_MODELS): five, each tuned without its
    # fold by the shipped tensors' recipe, seed, base model and questions
    root = Path(__file__).resolve().parent.parent
    files = fold_files(root / "research" / "embedder_tuning" / "folds")
    assert [p.name for p in files] == [f"fold{k}.npz" for k in range(5)]
