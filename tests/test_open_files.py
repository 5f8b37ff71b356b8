"""Searching from many threads holds no more files than searching from one."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from faq_bot.index import IndexHolder
from faq_bot.search import search
from faq_bot.suggest import suggest_titles


def _open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_open_files_stay_flat_over_threaded_searches(tiny_built_index: Path):
    # a build of the one-document corpus: its files are those of any build, and its
    # searches cost a fraction of the real corpus's (~300 of them here)
    index = IndexHolder(tiny_built_index).get()
    queries = ["Befehl", "wer darf in einer Runde zuerst", "Gruppe bewegen", "Patt"]

    def work(i: int) -> int:
        search(index, queries[i % len(queries)], n=5)
        suggest_titles(index, queries[i % len(queries)][:3])
        with index.searching():
            pass
        return i

    with ThreadPoolExecutor(8) as pool:  # a first round opens what a build needs
        list(pool.map(work, range(50)))
    before = _open_files()
    for _ in range(5):  # fresh threads each time, as a thread-per-request server has
        with ThreadPoolExecutor(8) as pool:  # 48 searches over 8 new threads
            list(pool.map(work, range(48)))
    assert _open_files() <= before
    index.close()


def _files_under(folder: Path) -> list[str]:
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(str(folder.resolve())):
            found.append(target)
    return found


def test_a_closed_build_lets_go_of_its_files_at_once(tiny_index: Path):
    # the build's state and the index refer to each other; its memory-mapped arrays
    # (each holding a descriptor) must go at close, not at some garbage collection.
    # A copy of its own: an app another test left open on the shared build would
    # hold files under the same path
    import gc

    gc.disable()
    try:
        index = IndexHolder(tiny_index).get()
        search(index, "Befehl", n=5)
        build = index.path
        assert _files_under(build)  # the impacts are mapped
        index.close()
        assert _files_under(build) == []
    finally:
        gc.enable()
