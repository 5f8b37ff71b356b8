"""The retrieval interface: rank fusion, search modes and plugging in a retriever."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from faq_bot import retrieval
from faq_bot.query import QueryError
from faq_bot.retrieval import Candidate, PreparedQuery, Retriever, fuse
from faq_bot.search import LexicalRetriever, prepare_query, search


def _ranking(ids: list[str]) -> list[Candidate]:
    return [Candidate(e, 1.0 / i, i) for i, e in enumerate(ids, 1)]


def test_fuse_is_reciprocal_rank_fusion_with_weights():
    fused = fuse(
        {"a": _ranking(["x", "y", "z"]), "b": _ranking(["y", "w"])},
        {"a": 1.0, "b": 2.0},
        k=60,
    )
    assert [c.entry for c in fused] == ["y", "w", "x", "z"]
    assert fused[0].score == pytest.approx(1 / 62 + 2 / 61)
    assert [c.rank for c in fused] == [1, 2, 3, 4]


def test_fuse_takes_the_paragraph_from_the_first_ranking_naming_one():
    fused = fuse(
        {"a": [Candidate("x", 1.0, 1, None)], "b": [Candidate("x", 1.0, 1, 3)]},
    )
    assert fused[0].paragraph == 3


@given(st.lists(st.lists(st.sampled_from("abcdefgh"), unique=True), max_size=4))
def test_fuse_lists_every_entry_once(rankings):
    fused = fuse({str(i): _ranking(r) for i, r in enumerate(rankings)})
    assert sorted(c.entry for c in fused) == sorted({e for r in rankings for e in r})
    assert [c.score for c in fused] == sorted((c.score for c in fused), reverse=True)


def test_lexical_retriever_is_a_retriever_ranking_like_search(index):
    lexical = LexicalRetriever(index)
    assert isinstance(lexical, Retriever)
    pq = prepare_query(index, "wer bezahlt die 227er")
    found = lexical.retrieve(pq, 3)
    assert [c.entry for c in found] == [
        h.id for h in search(index, "wer bezahlt die 227er", n=3).hits
    ]
    assert [c.rank for c in found] == [1, 2, 3]


def test_hybrid_without_a_second_retriever_is_refused_in_german(index):
    with pytest.raises(QueryError, match="hybride Suche"):
        search(index, "Bombe", mode="hybrid")
    with pytest.raises(QueryError, match="Unbekannter Suchmodus"):
        search(index, "Bombe", mode="semantisch")


@pytest.mark.parametrize("mode", ["LEXICAL", "Lexical", " lexical "])
def test_a_mode_is_read_in_any_case_and_without_spaces(index, mode):
    """A CLI review: ``--mode LEXICAL`` was an unknown mode, as was ``?mode=Lexical``."""
    assert search(index, "Bombe", mode=mode).mode == "lexical"


@pytest.mark.parametrize("mode", ["\x00", "lex\nical", "x" * 10_000])
def test_an_unknown_mode_is_echoed_printable_and_short(index, mode):
    # an HTTP probe: /api/search?mode=%00 answered „Unbekannter Suchmodus „\u0000““
    with pytest.raises(QueryError, match="Unbekannter Suchmodus") as caught:
        search(index, "Bombe", mode=mode)
    message = str(caught.value)
    assert message.isprintable() and len(message) < 150


class _Reversed:
    """A second retriever for the test: the lexical ranking backwards."""

    name = "reversed"

    def __init__(self, index):
        self.lexical = LexicalRetriever(index)

    def retrieve(self, query: PreparedQuery, n: int, doc: str | None = None) -> list[Candidate]:
        found = list(reversed(self.lexical.retrieve(query, n, doc)))
        return [Candidate(c.entry, 1.0, i, c.paragraph) for i, c in enumerate(found, 1)]


def test_a_registered_retriever_makes_hybrid_available_and_fused(built_index, monkeypatch):
    from faq_bot.index import open_index

    monkeypatch.setattr(retrieval, "_REGISTRY", {})
    retrieval.register("reversed", _Reversed, weight=1.0)
    index = open_index(built_index)  # fresh build state: retrievers are made per build
    try:
        assert retrieval.available_modes(index) == ["lexical", "hybrid"]
        assert retrieval.default_mode(index) == "hybrid"
        result = search(index, "Bombe", mode="hybrid", n=5)
        assert result.mode == "hybrid"
        lexical = search(index, "Bombe", mode="lexical", n=100)
        assert {h.id for h in result.hits} <= {h.id for h in lexical.hits}
        assert result.total == lexical.total
    finally:
        index.close()


def test_api_search_names_its_mode_and_refuses_hybrid_without_a_dense_model(client):
    ok = client.get("/api/search?q=Bombe&mode=lexical")
    assert ok.status_code == 200 and ok.get_json()["mode"] == "lexical"
    assert client.get("/api/search?q=Bombe").get_json()["mode"] == "lexical"
    bad = client.get("/api/search?q=Bombe&mode=hybrid")
    assert bad.status_code == 400
    assert "hybride Suche" in bad.get_json()["detail"]
