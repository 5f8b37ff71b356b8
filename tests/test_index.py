"""Index builds: counts, stored records, atomic swaps, failed rebuilds, the holder."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from faq_bot.corpus import CorpusError, load_corpus
from faq_bot.index import (
    IndexHolder,
    IndexMissingError,
    open_index,
)
from faq_bot.indexbuild import build_index
from faq_bot.search import search


def test_build_counts_match_the_corpus(index, corpus_dir):
    corpus = load_corpus(corpus_dir)
    entries = list(corpus.entries())
    assert len(index.documents) == len(corpus.documents) == 5
    assert len(index.entries()) == len(entries)
    counts = index.meta["counts"]
    assert counts["entries"] == len(entries)
    assert counts["paragraphs"] == sum(1 for e in entries for p in e.plain_paragraphs if p)
    assert counts["links"] > 0
    assert counts["unresolved"] == len(index.meta["warnings"])


def test_build_writes_metadata_files_next_to_the_index(built_index):
    current = built_index / "current"
    assert current.is_symlink()
    for name in ("entries.json", "entries.sqlite", "impacts", "meta.json", "vocab.json", "whoosh"):
        assert (current / name).exists(), name
    meta = json.loads((current / "meta.json").read_text(encoding="utf-8"))
    assert meta["version"] == os.readlink(current).split("/")[-1]


def test_entry_record_has_entry_fields_links_and_backlinks(index):
    record = index.entry("227-pfund-bombe-basisausbau")
    assert record is not None
    assert record.title == "227-Pfund Bombe (Basisausbau)"
    assert record.category == "Basisausbau"
    assert record.doc == "how-faq"
    assert "Reaktion ist besser als Aktion" in record.text
    targets = [link["target"] for link in record.links]
    assert "aktionsstapel" in targets
    assert "227-pfund-bombe-basisausbau" in index.backlinks("aktionsstapel")
    link = next(link for link in record.links if link["target"] == "aktionsstapel")
    paragraph = record.plain_paragraphs[link["paragraph"]]
    assert paragraph[link["start"] : link["end"]] == link["target_text"]
    assert record.to_json()["url"] == "/entry/227-pfund-bombe-basisausbau"


def test_iter_entries_reads_the_same_entries_in_the_same_order(index):
    doc = index.documents[0]["id"]
    assert list(index.iter_entries()) == index.entries()
    assert list(index.iter_entries(doc)) == index.entries(doc)


def test_documents_keep_manifest_metadata_and_entry_order(index):
    faq = index.document("how-faq")
    assert faq["title"] == "HoW FAQ"
    assert faq["precedence"] is True
    assert faq["date"] == "2012-11-30"
    assert [r.id for r in index.entries("how-faq")] == faq["entry_ids"]


def test_neighbours_are_previous_and_next_in_the_document(index):
    ids = index.document("how-faq")["entry_ids"]
    prev, nxt = index.neighbours(ids[1])
    assert (prev.id, nxt.id) == (ids[0], ids[2])
    assert index.neighbours(ids[0])[0] is None
    assert index.neighbours("gibt-es-nicht") == (None, None)


def test_canonical_id_resolves_aliases_and_titles(index):
    record = index.entry("227-pfund-bombe-basisausbau")
    assert index.canonical_id(record.id) == record.id
    assert index.canonical_id("227-Pfund Bombe (Basisausbau)") == record.id
    for alias in record.alias_ids:
        assert index.canonical_id(alias) == record.id
    assert index.canonical_id("gibt-es-nicht-xyz") is None
    # a question (longer than any address) names nothing, whatever it mentions
    assert index.canonical_id("Was kostet die 227-Pfund Bombe (Basisausbau) genau? " * 3) is None


def test_the_store_resolves_the_first_of_several_addresses_it_holds(index):
    store = index._store
    assert store.canonical("gibt-es-nicht", "aktionsstapel", "endphase") == "aktionsstapel"
    assert store.canonical("endphase", "aktionsstapel") == "endphase"
    assert store.canonical("gibt-es-nicht") is None
    assert store.canonical() is None
    assert store.longest_alias() >= max(len(e.id) for e in index.entries())


def test_open_index_without_a_build_says_to_run_index(tmp_path):
    with pytest.raises(IndexMissingError, match="faq-bot index"):
        open_index(tmp_path / "leer")


def test_rebuild_keeps_an_opened_index_answering(tiny_corpus, tmp_path):
    index_dir = tmp_path / "index"
    first = build_index(tiny_corpus, index_dir)
    old = open_index(index_dir)
    holder = IndexHolder(index_dir)
    assert holder.get().version == first.version

    second = build_index(tiny_corpus, index_dir)
    assert second.version != first.version
    assert old.is_stale()
    # the index opened before the rebuild still answers
    assert search(old, "Befehl").hits[0].id == "runde-befehl"
    assert old.entry("runde-befehl") is not None
    # the holder picks the new build up without a restart
    new = holder.get()
    assert new.version == second.version
    assert not new.is_stale()
    assert search(new, "Befehl").hits[0].id == "runde-befehl"


def test_rebuilds_keep_only_the_current_and_the_previous_build(tiny_corpus, tmp_path):
    index_dir = tmp_path / "index"
    versions = [build_index(tiny_corpus, index_dir).version for _ in range(3)]
    kept = sorted(p.name for p in (index_dir / "builds").iterdir())
    assert kept == sorted(versions[1:])


def test_a_rebuild_removes_the_half_written_build_of_a_killed_run(tiny_corpus, tmp_path):
    """A build killed outright (SIGKILL, out of memory) leaves its folder without meta.json;
    the next build, holding the build lock, knows no other run is writing and removes it."""
    index_dir = tmp_path / "index"
    first = build_index(tiny_corpus, index_dir)
    killed = index_dir / "builds" / "20261201T000000000000Z-dead00"
    (killed / "whoosh").mkdir(parents=True)
    (killed / "whoosh" / "_MAIN_1.toc").write_bytes(b"half")
    second = build_index(tiny_corpus, index_dir)
    kept = sorted(p.name for p in (index_dir / "builds").iterdir())
    assert kept == sorted([first.version, second.version])


def test_corpus_error_during_rebuild_keeps_the_live_index(tiny_corpus, tmp_path):
    index_dir = tmp_path / "index"
    first = build_index(tiny_corpus, index_dir)
    (tiny_corpus / "003_392c06b39f773588.txt").write_bytes(b"Runde\n\xff\xfe kaputt\n")
    with pytest.raises(CorpusError):
        build_index(tiny_corpus, index_dir)
    live = open_index(index_dir)
    assert live.version == first.version
    assert search(live, "Befehl").hits
    assert [p.name for p in (index_dir / "builds").iterdir()] == [first.version]


def test_build_reports_unresolved_references_as_german_warnings(index):
    warnings = index.meta["warnings"]
    assert warnings
    assert all(w.startswith("Unaufgelöster Querverweis in ") for w in warnings)


def test_build_reports_its_duration(tiny_corpus, tmp_path: Path):
    # how long a build of the real corpus takes is for the benchmarks to measure
    # (benchmarks/dense.py, benchmarks/run.py); the report only has to say it, and
    # meta.json too (taken just before the swap, so no more than the report's)
    report = build_index(tiny_corpus, tmp_path / "index")
    meta = json.loads((report.path / "meta.json").read_text(encoding="utf-8"))
    assert 0 < meta["seconds"] <= round(report.seconds, 3) + 0.001


def test_a_value_made_once_per_build_may_need_another_one(built_index):
    """`impacts` is made through `BuildState.once`; a map made of it through `once` too
    deadlocked a fresh process (a plain lock held while making the outer value)."""
    import threading

    from faq_bot.index import open_index

    state = open_index(built_index).state
    made: list[int] = []

    def outer() -> int:
        return state.once("test.inner", lambda: 41) + 1

    thread = threading.Thread(
        target=lambda: made.append(state.once("test.outer", outer)), daemon=True
    )
    thread.start()
    thread.join(timeout=10)
    assert not thread.is_alive(), "nested once() deadlocked"
    assert made == [42]


def test_a_value_made_once_per_build_is_made_once_even_when_it_is_none(built_index):
    # the dense retriever is None for vectors of another model: it was loaded again (the
    # whole dense.npy) for every question
    from faq_bot.index import open_index

    state = open_index(built_index).state
    calls: list[int] = []
    for _ in range(3):
        assert state.once("test.none", lambda: calls.append(1)) is None
    assert calls == [1]


def test_an_abbreviation_of_the_synonyms_table_finds_the_entry_it_spells_out(index):
    # the one find-by-title: the web's redirects and the CLI's `show` both ask it
    assert index.canonical_id("227er") == "227-pfund-bombe-basisausbau"
    assert index.canonical_id("tw") is None  # no entry is titled "Technologiewert"


@pytest.mark.parametrize("name", ["ix#1", "ix?a=b", "ix%41"])
def test_an_index_folder_with_url_characters_in_its_path_is_read(tmp_path, tiny_corpus, name):
    # a review: the entry store's SQLite URI took "#", "?" and "%" of the path as URI
    # syntax: „damaged, run faq-bot index“, which could never help
    from faq_bot.index import open_index
    from faq_bot.indexbuild import build_index

    index_dir = tmp_path / name
    build_index(tiny_corpus, index_dir)
    index = open_index(index_dir)
    try:
        assert index.entry("runde-bewegung") is not None
    finally:
        index.close()
