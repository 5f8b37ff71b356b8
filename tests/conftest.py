"""Shared fixtures: the real corpus, and one index built from it per test session.

- `corpus_dir`: the repository's corpus folder (read-only).
- `built_index`: an index folder built once per session from the real corpus.
- `index`: that index, opened (`faq_bot.index.Index`).
- `corpus_copy`: a writable copy of the corpus in a fresh tmp folder (per test).
- `tiny_corpus`: one small real document (8 entries) as a corpus, for tests of
  building and serving mechanics where the full corpus is not the point.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

from faq_bot.config import ROOT
from faq_bot.index import Index, build_index, open_index

CORPUS_DIR = ROOT / "corpus"

# Indexes built by tests are lexical (embedding the whole corpus takes minutes);
# tests/test_dense.py turns the embedder on for a one-document corpus.
os.environ.setdefault("FAQ_BOT_DENSE", "0")

# Speed targets live in benchmarks/, not in tests: no per-example deadline, which
# would fail at random on a loaded CI machine. "dev" keeps the local suite quick;
# "ci" (chosen when CI=true) tries more examples. HYPOTHESIS_PROFILE overrides.
settings.register_profile("dev", deadline=None, max_examples=30)
settings.register_profile("ci", deadline=None, max_examples=100, print_blob=True)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE")
    or ("ci" if os.environ.get("CI", "").lower() == "true" else "dev")
)

# the web tests' fixtures (app, client, evil_client, no_index_client) live there
pytest_plugins = ["web_fixtures", "live_server"]


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    return CORPUS_DIR


@pytest.fixture(scope="session")
def built_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    index_dir = tmp_path_factory.mktemp("index")
    build_index(CORPUS_DIR, index_dir)
    return index_dir


@pytest.fixture(scope="session")
def index(built_index: Path) -> Index:
    return open_index(built_index)


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    target = tmp_path / "corpus"
    shutil.copytree(CORPUS_DIR, target)
    for path in target.iterdir():
        path.chmod(0o644)
    return target


@pytest.fixture
def tiny_corpus(tmp_path: Path) -> Path:
    """The smallest real document (the round rules, 8 entries) as a corpus of its own."""
    target = tmp_path / "corpus"
    target.mkdir()
    shutil.copy(ROOT / "corpus" / "003_392c06b39f773588.txt", target)
    (target / "manifest.toml").write_text(
        '[[documents]]\nid = "runde"\nfile = "003_392c06b39f773588.txt"\n'
        'title = "Rundenregeln (Tabletop)"\ngame = "Tabletop-Skirmish"\nkind = "rules"\n'
        'language = "de"\nsplitter = "headed"\nid_prefix = "runde"\nnotes = ""\n',
        encoding="utf-8",
    )
    return target
