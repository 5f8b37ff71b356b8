"""How one question's similarities fold into paragraphs and entries
(`faq_bot.dense.DenseRetriever.scores_of`): the folding is vectorised, and must give
what reading the units one by one gives, in the same order, for every layout of
entries, paragraphs and sentences."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from faq_bot.dense import UNITS, VECTORS, DenseRetriever, DenseScores

# an entry: its paragraphs, each with its number of sentence units (0: one sentence)
_entries = st.lists(st.lists(st.integers(0, 4), min_size=1, max_size=4), min_size=1, max_size=6)


def _retriever(tmp: Path, layout: list[list[int]], seed: int) -> DenseRetriever:
    units: list[list[object]] = []
    for e, paragraphs in enumerate(layout):
        for n, sentences in enumerate(paragraphs):
            units.append([f"e{e}", n, -1, -1])
            units.extend([f"e{e}", n, 10 * s, 10 * s + 9] for s in range(sentences))
    rng = np.random.default_rng(seed)
    vectors = rng.normal(size=(len(units), 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    tmp.mkdir(parents=True, exist_ok=True)
    np.save(tmp / VECTORS, vectors)
    (tmp / UNITS).write_text(json.dumps({"model": "test", "units": units}), encoding="utf-8")
    return DenseRetriever(tmp, embedder=None)


def _one_by_one(retriever: DenseRetriever, query: np.ndarray, entries: list[str] | None):
    """The folding read unit by unit (what `scores_of` did before it was vectorised)."""
    rows = list(range(len(retriever.units)))
    if entries is not None:  # the rows of those entries, in the order they were asked for
        rows = [i for eid in dict.fromkeys(entries) for i in rows if retriever.units[i][0] == eid]
    sims = (retriever.vectors[rows] @ query).tolist() if rows else []
    para: dict[tuple[str, int], float] = {}
    e_para: dict[str, float] = {}
    e_sent: dict[str, float] = {}
    sentences: dict[tuple[str, int], list[tuple[int, int, float]]] = {}
    for (eid, n, s, e), sim in zip([retriever.units[i] for i in rows], sims, strict=True):
        if s < 0:
            para[(eid, n)] = sim
            if sim > e_para.get(eid, -1.0):
                e_para[eid] = sim
        else:
            sentences.setdefault((eid, n), []).append((s, e, sim))
    for (eid, n), sim in para.items():
        spans = sentences.get((eid, n))
        best = max(x[2] for x in spans) if spans else sim  # one sentence: the paragraph
        if best > e_sent.get(eid, -1.0):
            e_sent[eid] = best
    return e_para, e_sent, para, sentences


@given(layout=_entries, seed=st.integers(0, 2**16), pick=st.lists(st.integers(0, 5), max_size=4))
def test_the_similarities_fold_per_paragraph_and_entry_as_read_unit_by_unit(
    tmp_path_factory, layout, seed, pick
):
    retriever = _retriever(tmp_path_factory.mktemp("build"), layout, seed)
    query = retriever.vectors[seed % len(retriever.vectors)]
    if seed % 3 == 0:  # the opposite of a unit: a similarity of -1 (the loop's floor)
        query = -query
    for entries in (None, [f"e{p}" for p in pick]):
        scores = retriever.scores_of(query, entries)
        e_para, e_sent, para, sentences = _one_by_one(retriever, query, entries)
        for got, want in (
            (scores.entry_paragraph, e_para),
            (scores.entry_sentence, e_sent),
            (scores.paragraph, para),
        ):
            assert got == want
            assert list(got) == list(want)  # the same order: it breaks ties in rankings
        assert dict(scores.sentences) == sentences
        assert list(scores.sentences) == list(sentences)


def test_the_entry_ranking_is_computed_once_and_handed_out_as_a_new_list(tmp_path, monkeypatch):
    retriever = _retriever(tmp_path, [[1, 0], [2], [0, 3]], seed=7)
    scores = retriever.scores_of(retriever.vectors[0])
    first = scores.ranking()
    assert [e for e, _ in first] == sorted(scores.entry_paragraph, key=lambda e: -scores.entry(e))
    looked_up: list[str] = []
    monkeypatch.setattr(DenseScores, "entry", lambda self, eid: looked_up.append(eid) or 0.0)
    assert scores.ranking() == first and looked_up == []  # not computed again
    first.clear()  # a caller's list is its own
    assert len(scores.ranking()) == 3


def test_an_entry_at_the_least_similarity_a_cosine_has_is_left_out_as_unit_by_unit(tmp_path):
    units = [["far", 0, -1, -1], ["near", 0, -1, -1]]
    vectors = np.eye(2, 8, dtype=np.float32)  # exactly unit length: similarities -1 and 0
    np.save(tmp_path / VECTORS, vectors)
    (tmp_path / UNITS).write_text(json.dumps({"model": "t", "units": units}), encoding="utf-8")
    retriever = DenseRetriever(tmp_path, embedder=None)
    scores = retriever.scores_of(-vectors[0])
    assert (scores.entry_paragraph, scores.entry_sentence) == ({"near": 0.0}, {"near": 0.0})
    assert scores.paragraph == {("far", 0): -1.0, ("near", 0): 0.0}
    e_para, e_sent, para, _ = _one_by_one(retriever, -vectors[0], None)
    assert (e_para, e_sent, para) == (
        scores.entry_paragraph,
        scores.entry_sentence,
        scores.paragraph,
    )
