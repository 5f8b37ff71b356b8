"""Fixtures for the web tests: apps on the real corpus, on a hostile corpus, on no index.

Loaded as a plugin by ``tests/conftest.py`` (``pytest_plugins``); the real index
is conftest's session fixture ``built_index``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from faq_bot.indexbuild import build_index
from faq_bot.web import create_app

# A corpus whose every field tries to inject markup: FAQ entries (plain text),
# a quick-reference row (HTML), rulebook sections (markdown) and the manifest.
EVIL_FAQ = (
    "FAQ\n\nSTAND: 1. Januar 2020\n\n"
    "Alpha <script>alert(1)</script>\n"
    "Erster Satz mit <img src=x onerror=alert(2)> drin. Zweiter Satz. s. Beta\n"
    "\n\xa0\n\n"
    "Beta\n"
    'Beta Text <script>alert(3)</script> hier, vgl. "><svg onload=alert(9)>.\n'
)
EVIL_REF = (
    "# UEBERSICHT\n\n## PHASE\n\n"
    "Zug <b onmouseover=alert(4)>x</b>\t<p>Text <script>alert(5)</script> "
    '<img src=x onerror=alert(6)> und <a href="javascript:alert(7)">Link</a></p>\n'
)
EVIL_RULES = (
    "1.0 Einleitung\n\n"
    "Text mit **fett** und <script>alert(8)</script> <img src=x onerror=alert(10)>.\n\n"
    "1.1 Weiter\n\nNoch [ein Link](javascript:alert(11)) hier.\n"
)
EVIL_MANIFEST = """
[[documents]]
id = "faq"
file = "faq.txt"
title = "Test <b>FAQ</b>"
game = "Testspiel"
kind = "faq"
language = "de"
date = "2020-01-01"
date_text = "1. Januar 2020"
splitter = "faq"
precedence = true
notes = "Hinweis <script>alert(12)</script>"

[[documents]]
id = "ref"
file = "ref.txt"
title = "Übersicht"
game = "Testspiel"
kind = "reference"
language = "de"
splitter = "reference_table"
id_prefix = "ref"

[[documents]]
id = "num"
file = "num.txt"
title = "Regeln"
game = "Testspiel"
kind = "rules"
language = "de"
splitter = "numbered"
id_prefix = "num"
"""


@pytest.fixture(scope="session")
def evil_index_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    corpus = tmp_path_factory.mktemp("evil-corpus")
    (corpus / "manifest.toml").write_text(EVIL_MANIFEST, encoding="utf-8")
    (corpus / "faq.txt").write_text(EVIL_FAQ, encoding="utf-8")
    (corpus / "ref.txt").write_text(EVIL_REF, encoding="utf-8")
    (corpus / "num.txt").write_text(EVIL_RULES, encoding="utf-8")
    index_dir = tmp_path_factory.mktemp("evil-index")
    build_index(corpus, index_dir)
    return index_dir


# One app per session on each index: creating one opens and warms the build, and
# its per-build caches fill on the first queries; requests leave no state behind
# (each test gets its own client). A test that needs an app of its own (other
# config, a rebuilt index, added routes) calls `create_app` itself.
@pytest.fixture(scope="session")
def app(built_index: Path):
    return create_app({"TESTING": True, "INDEX_DIR": str(built_index)})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def evil_app(evil_index_dir: Path):
    return create_app({"TESTING": True, "INDEX_DIR": str(evil_index_dir)})


@pytest.fixture
def evil_client(evil_app):
    return evil_app.test_client()


@pytest.fixture
def no_index_client(tmp_path: Path):
    return create_app({"TESTING": True, "INDEX_DIR": str(tmp_path / "none")}).test_client()
