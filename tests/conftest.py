"""Shared fixtures: the real corpus, and one index built from it per test session.

- `corpus_dir`: the repository's corpus folder (read-only).
- `built_index`: an index folder built once per session from the real corpus
  (read-only: with pytest-xdist, once per run, shared by the workers).
- `index`: that index, opened (`faq_bot.index.Index`).
- `real_index_copy`: a writable copy of `built_index` in a fresh tmp folder (per
  test), for tests that damage or rebuild a real index; copying takes a tenth of
  a second, building the real corpus several seconds.
- `corpus_copy`: a writable copy of the corpus in a fresh tmp folder (per test).
- `tiny_corpus`: one small real document (8 entries) as a corpus, for tests of
  building and serving mechanics where the full corpus is not the point
  (writable, per test); `tiny_index`: a writable copy of an index built once per
  session from it (queries such as "Befehl" or "Runde" find its entries).

The build of the real corpus keeps HanTa's analyses of its words, the dense
one-document build (tests/dense_fixtures.py) its vectors, between runs in
pytest's cache folder (``.pytest_cache``, see `build_keeping_caches`): the caches
`faq_bot.indexbuild` keeps beside the builds, keyed by HanTa's and the model's version
and the text. The index is the same with and without them (tests/test_build_phases.py
and tests/test_dense.py pin that, and run HanTa and the embedder, in the build's
worker processes too, in every run); a local run analyses and embeds only text it
has not seen, a fresh checkout (CI) or ``--cache-clear`` all of it.

Markers: ``browser`` (chromium through Playwright, tests/e2e) and ``system``
(real servers, nginx, wheel builds, thousands of requests); `make test` runs
everything, `make test-fast` neither of them.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import threading
from collections.abc import Callable
from pathlib import Path

import hypothesis_profiles  # noqa: F401  (registers and loads "dev"/"ci" before any test module)
import pytest

from faq_bot.config import ROOT
from faq_bot.index import MORPHOLOGY_CACHE, Index, open_index
from faq_bot.indexbuild import build_index

CORPUS_DIR = ROOT / "corpus"

# Indexes built by tests are lexical (embedding the whole corpus takes minutes);
# tests/test_dense.py turns the embedder on for a one-document corpus.
os.environ.setdefault("FAQ_BOT_DENSE", "0")

# the web tests' fixtures (app, client, evil_client, no_index_client) and the dense
# tests' (dense_index, dense_on, embedder_missing) live there
pytest_plugins = ["web_fixtures", "live_server", "dense_fixtures"]


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    return CORPUS_DIR


def shared_once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder `name`, filled by `make` once per test run: under pytest-xdist the
    workers share one (the first builds it under a lock, the others wait for it)."""
    root = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder, above each worker's own
    target = root / name
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = root / f"{name}.done"
        if not done.exists():
            shutil.rmtree(target, ignore_errors=True)  # half made by a worker that failed
            make(target)
            done.touch()
    return target


def build_keeping_caches(
    config: pytest.Config,
    name: str,
    corpus: Path,
    target: Path,
    caches: tuple[str, ...] = (MORPHOLOGY_CACHE,),
) -> None:
    """`build_index(corpus, target)` with `caches` (folders the build keeps beside its
    builds: HanTa's analyses, embeddings) carried over from the last test run and
    back, in pytest's cache folder under `name` (none with ``-p no:cacheprovider``)."""
    cache = getattr(config, "cache", None)
    folder = cache.mkdir(f"faq-bot-{name}") if cache is not None else None
    for sub in caches if folder is not None else ():
        if (folder / sub).is_dir():
            shutil.copytree(folder / sub, target / sub)
    build_index(corpus, target)
    for sub in caches if folder is not None else ():
        if (target / sub).is_dir():
            fresh = folder / f".{sub}.{os.getpid()}"  # replaced whole, never half
            try:
                shutil.rmtree(fresh, ignore_errors=True)
                shutil.copytree(target / sub, fresh)
                shutil.rmtree(folder / sub, ignore_errors=True)
                fresh.rename(folder / sub)
            except OSError:  # another run saving at the same time: the cache is a shortcut
                shutil.rmtree(fresh, ignore_errors=True)


def _build_real_index(config: pytest.Config, factory: pytest.TempPathFactory) -> Path:
    return shared_once(
        factory, "real-index", lambda d: build_keeping_caches(config, "real", CORPUS_DIR, d)
    )


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under pytest-xdist the controller builds the real index while the workers start
    (they import and collect meanwhile), so no worker sits waiting for the build."""
    config = session.config
    factory = getattr(config, "_tmp_path_factory", None)
    is_controller = not hasattr(config, "workerinput")
    if is_controller and factory is not None and getattr(config.option, "numprocesses", 0):
        threading.Thread(target=_build_real_index, args=(config, factory), daemon=True).start()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On an xdist worker, test files that need no real index come first: the workers
    run them while the real index is built (file order otherwise kept)."""
    if not hasattr(config, "workerinput"):
        return
    needs = {}
    for item in items:
        path = item.nodeid.split("::")[0]
        needs[path] = needs.get(path, False) or "built_index" in getattr(item, "fixturenames", ())
    items.sort(key=lambda item: needs[item.nodeid.split("::")[0]])


@pytest.fixture(scope="session")
def built_index(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _build_real_index(pytestconfig, tmp_path_factory)


@pytest.fixture(scope="session")
def index(built_index: Path) -> Index:
    return open_index(built_index)


@pytest.fixture
def real_index_copy(built_index: Path, tmp_path: Path) -> Path:
    """A writable copy of the session's real index (``current`` is a relative link)."""
    target = tmp_path / "index"
    shutil.copytree(built_index, target, symlinks=True)
    return target


@pytest.fixture
def blank_rows_form() -> dict[str, str]:
    """A checker form as posted with a blank row between filled ones in every group (blank
    rows are dropped when the form is read, so posted row numbers and the state's differ)."""
    return {
        "phase": "Bauphase",
        "p-0-name": "A",
        "p-0-tw": "5",
        "p-1-name": "",
        "p-2-name": "C",
        "p-2-tw": "4",
        "c-0-name": "Radarstation",
        "c-0-owner": "A",
        "c-1-name": "",
        "c-2-name": "227-Pfund Bombe",
        "c-2-owner": "C",
        "s-0-source": "radarstation",
        "s-0-by": "A",
        "s-1-source": "",
        "s-2-source": "227-pfund-bombe",
        "s-2-by": "C",
    }


@pytest.fixture
def corpus_copy(tmp_path: Path) -> Path:
    target = tmp_path / "corpus"
    shutil.copytree(CORPUS_DIR, target)
    for path in target.iterdir():
        path.chmod(0o644)
    return target


TINY_FILE = "003_392c06b39f773588.txt"
TINY_MANIFEST = (
    '[[documents]]\nid = "runde"\nfile = "003_392c06b39f773588.txt"\n'
    'title = "Rundenregeln (Tabletop)"\ngame = "Tabletop-Skirmish"\nkind = "rules"\n'
    'language = "de"\nsplitter = "headed"\nid_prefix = "runde"\nnotes = ""\n'
)


def write_tiny_corpus(target: Path) -> Path:
    target.mkdir(parents=True)
    shutil.copy(CORPUS_DIR / TINY_FILE, target)
    (target / TINY_FILE).chmod(0o644)
    (target / "manifest.toml").write_text(TINY_MANIFEST, encoding="utf-8")
    return target


@pytest.fixture
def tiny_corpus(tmp_path: Path) -> Path:
    """The smallest real document (the round rules, 8 entries) as a corpus of its own."""
    return write_tiny_corpus(tmp_path / "corpus")


@pytest.fixture(scope="session")
def tiny_built_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    corpus = write_tiny_corpus(tmp_path_factory.mktemp("tiny") / "corpus")
    return shared_once(tmp_path_factory, "tiny-index", lambda d: build_index(corpus, d))


@pytest.fixture
def tiny_index(tiny_built_index: Path, tmp_path: Path) -> Path:
    """A writable copy of the index of `tiny_corpus`, built once per session."""
    target = tmp_path / "index"
    shutil.copytree(tiny_built_index, target, symlinks=True)
    return target


@pytest.fixture(autouse=True)
def fresh_not_found_allowance(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with a full allowance of 404 searches (`faq_bot.web.errors`): it is
    the worker process's, and a test's 404 pages must not depend on the tests before it."""
    from faq_bot.web import errors

    monkeypatch.setattr(errors, "NOT_FOUND_SEARCHES", errors.Allowance(rate=4.0, burst=20))
