"""One build at a time per index folder; `current` never points at a deleted build;
one Whoosh searcher per build, closed with it; warm-up at open."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from faq_bot.corpus import CorpusError
from faq_bot.index import IndexHolder, open_index
from faq_bot.indexbuild import build_index, build_lock


def test_a_second_build_waits_for_the_first(tmp_path: Path):
    order: list[str] = []
    waited = threading.Event()
    with build_lock(tmp_path):
        t = threading.Thread(
            target=lambda: build_lock_then(tmp_path, order, waited.set), daemon=True
        )
        t.start()
        assert waited.wait(5), "the second build did not notice the running one"
        order.append("first done")
    t.join(5)
    assert order == ["first done", "second"]


def build_lock_then(index_dir: Path, order: list[str], on_wait) -> None:
    with build_lock(index_dir, on_wait):
        order.append("second")


def test_concurrent_builds_leave_current_on_a_complete_build(tiny_corpus: Path, tmp_path: Path):
    index_dir = tmp_path / "index"
    threads = [
        threading.Thread(target=build_index, args=(tiny_corpus, index_dir)) for _ in range(3)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    index = open_index(index_dir)  # raises if current points at a missing build
    try:
        assert len(index.entries()) == 8
        assert len(list((index_dir / "builds").iterdir())) <= 2
    finally:
        index.close()


def test_one_searcher_per_build_closed_when_swapped_out(tiny_corpus: Path, tmp_path: Path):
    index_dir = tmp_path / "index"
    build_index(tiny_corpus, index_dir)
    holder = IndexHolder(index_dir)
    first = holder.get()
    with first.searching() as a:
        pass
    with first.searching() as b:
        assert a is b
    build_index(tiny_corpus, index_dir)
    second = holder.get()
    assert second is not first
    build_index(tiny_corpus, index_dir)
    third = holder.get()
    assert third is not second
    assert first._searcher is None  # closed two swaps later, when no request can use it


def test_requests_during_the_warm_up_of_a_new_build_are_answered_from_the_last_one(
    tiny_corpus: Path, tmp_path: Path, monkeypatch
):
    """A review: after a swap, the first request opened and warmed the new build (1.4 s on
    the real corpus) under the holder's lock, and every other request of the worker waited
    for it. They are answered from the build they had; only that first request waits."""
    import faq_bot.index as index_module

    index_dir = tmp_path / "index"
    build_index(tiny_corpus, index_dir)
    holder = IndexHolder(index_dir)
    first = holder.get()
    build_index(tiny_corpus, index_dir)
    warming, release = threading.Event(), threading.Event()
    real_open_warm = index_module._open_warm

    def slow_open_warm(path):
        warming.set()
        assert release.wait(10)
        return real_open_warm(path)

    monkeypatch.setattr(index_module, "_open_warm", slow_open_warm)
    got: list = []
    opener = threading.Thread(target=lambda: got.append(holder.get()), daemon=True)
    opener.start()
    assert warming.wait(5)
    try:
        assert holder.get() is first  # at once, while the new build warms up
    finally:
        release.set()
    opener.join(10)
    assert got and got[0] is not first and holder.get() is got[0]


def test_warm_up_loads_the_impacts_and_stem_table(tiny_corpus: Path, tmp_path: Path):
    index_dir = tmp_path / "index"
    build_index(tiny_corpus, index_dir)
    index = IndexHolder(index_dir).get()
    assert "impacts" in index.state._once
    assert "stem_surfaces" in index.state._once


def test_a_failed_build_into_a_new_folder_leaves_no_folder(tmp_path: Path):
    """A QA review: a build of a corpus without a manifest into a mistyped new folder
    failed, as it should, but left the folder with only `.build.lock` in it."""
    empty = tmp_path / "korpus"
    empty.mkdir()
    target = tmp_path / "neu" / "index"
    with pytest.raises(CorpusError):
        build_index(empty, target)
    assert not (tmp_path / "neu").exists()


def test_a_failed_build_keeps_a_folder_that_was_there(tiny_corpus: Path, tmp_path: Path):
    target = tmp_path / "index"
    target.mkdir()
    with build_lock(target):
        pass
    with pytest.raises(CorpusError):
        build_index(tmp_path / "nichts", target)
    assert target.is_dir()


def test_a_build_waiting_on_a_failed_builds_folder_still_excludes_the_next(tmp_path: Path):
    """A review: the failed build removed the lock file a waiting build was blocked on; that
    build then held a lock on a deleted file while a third one locked a new file at once."""
    target = tmp_path / "neu" / "index"
    a_holds, b_waits, b_holds = threading.Event(), threading.Event(), threading.Event()
    b_may_go, c_waits = threading.Event(), threading.Event()

    def first() -> None:
        with pytest.raises(RuntimeError), build_lock(target):
            a_holds.set()
            b_waits.wait(10)
            raise RuntimeError("corpus without manifest")

    def second() -> None:
        with build_lock(target, on_wait=b_waits.set):
            b_holds.set()
            b_may_go.wait(10)

    def third() -> None:
        with build_lock(target, on_wait=c_waits.set):
            pass

    a = threading.Thread(target=first)
    a.start()
    assert a_holds.wait(10)
    b = threading.Thread(target=second)
    b.start()
    assert b_holds.wait(10)
    c = threading.Thread(target=third)
    c.start()
    assert c_waits.wait(10)  # the third build waits for the second, as it must
    b_may_go.set()
    for t in (a, b, c):
        t.join(10)


def test_a_build_of_a_corpus_without_manifest_fails_before_waiting_for_another(tmp_path: Path):
    """A CLI probe: `faq-bot index --corpus MISSING` while another build ran waited for
    that build, then said the manifest was missing; it says so at once."""
    failed: list[BaseException] = []
    waited = threading.Event()

    def build() -> None:
        try:
            build_index(tmp_path / "nirgends", tmp_path / "ix", on_wait=waited.set)
        except CorpusError as exc:
            failed.append(exc)

    with build_lock(tmp_path / "ix"):
        worker = threading.Thread(target=build, daemon=True)
        worker.start()
        worker.join(timeout=10)
        assert not worker.is_alive() and not waited.is_set()
    assert failed and "Manifest" in str(failed[0])
