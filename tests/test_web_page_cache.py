"""Ruling pages come from a per-build, bounded page cache.

A cached page is the very bytes a fresh render gives for the same request: per
entry, per marked query (?h=), per host; a new build starts with an empty cache,
and no stream of distinct requests grows it beyond its budget or, through
made-up words to mark, pushes the plain pages out.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples
from test_web_compression import decode

from faq_bot.buildstate import LRU, MARKED_PAGE_BYTES, PAGE_BYTES
from faq_bot.indexbuild import build_index
from faq_bot.web import create_app
from faq_bot.web.pages import render_entry

BOMB = "227-pfund-bombe-basisausbau"


def _index(app):
    return app.extensions["faq_bot.index"].get()


def test_cached_page_is_byte_identical_to_a_fresh_render(client):
    app = client.application
    index = _index(app)
    record = index.entry(BOMB)
    for highlight in ("", "Bombe", "Basis ausbauen", "Wort das nicht vorkommt"):
        url = f"/entry/{BOMB}?h={highlight}" if highlight else f"/entry/{BOMB}"
        first = client.get(url)
        again = client.get(url)
        assert first.status_code == again.status_code == 200
        assert first.data == again.data
        assert first.get_etag() == again.get_etag()
        with app.test_request_context(url):
            fresh = render_entry(index, record, highlight)
        assert first.data == fresh.encode()


def test_marks_differ_per_query_and_vanish_without_one(client):
    marked = client.get(f"/entry/{BOMB}?h=Bombe").get_data(as_text=True)
    other = client.get(f"/entry/{BOMB}?h=Basis").get_data(as_text=True)
    plain = client.get(f"/entry/{BOMB}").get_data(as_text=True)
    assert "<mark>Bombe</mark>" in marked
    assert "<mark>Bombe</mark>" not in other and "<mark>" in other
    assert "<mark>" not in plain
    # asked again after the others: still its own page
    assert client.get(f"/entry/{BOMB}?h=Bombe").get_data(as_text=True) == marked
    assert client.get(f"/entry/{BOMB}").get_data(as_text=True) == plain


def test_absolute_links_follow_the_host_of_each_request(client):
    one = client.get(f"/entry/{BOMB}", base_url="http://eins.example").get_data(as_text=True)
    two = client.get(f"/entry/{BOMB}", base_url="https://zwei.example").get_data(as_text=True)
    assert f'href="http://eins.example/entry/{BOMB}"' in one
    assert f'href="https://zwei.example/entry/{BOMB}"' in two
    assert "eins.example" not in two


def test_a_new_build_renders_the_page_afresh(tiny_corpus: Path, tmp_path: Path):
    index_dir = tmp_path / "index"
    build_index(tiny_corpus, index_dir)
    app = create_app({"TESTING": True, "INDEX_DIR": str(index_dir)})
    client = app.test_client()
    entry_id = _index(app).entries()[1].id
    before = client.get(f"/entry/{entry_id}")
    assert "Probewort" not in before.get_data(as_text=True)

    source = next(tiny_corpus.glob("*.txt"))
    text = source.read_text(encoding="utf-8")
    title = _index(app).entry(entry_id).title
    source.write_text(
        text.replace(f"\n{title}\n", f"\n{title}\nEin Probewort steht hier.\n", 1),
        encoding="utf-8",
    )
    build_index(tiny_corpus, index_dir)
    after = client.get(f"/entry/{entry_id}")
    assert "Probewort" in after.get_data(as_text=True)
    assert after.get_etag() != before.get_etag()
    assert client.get(f"/entry/{entry_id}?h=Probewort").get_data(as_text=True).count("<mark>") == 1


@pytest.mark.parametrize("encoding", ["br", "gzip"])
def test_compressed_page_is_compressed_once_and_decodes_to_the_page(client, encoding, monkeypatch):
    import flask_compress.flask_compress as fc

    calls: list[str] = []
    real = fc._compress_data
    monkeypatch.setattr(fc, "_compress_data", lambda *a: calls.append(a[2]) or real(*a))
    url = f"/entry/{BOMB}?h=Bombe"
    plain = client.get(url).data
    first = client.get(url, headers={"Accept-Encoding": encoding})
    again = client.get(url, headers={"Accept-Encoding": encoding})
    assert calls == [encoding]
    assert first.headers["Content-Encoding"] == encoding
    # the same bytes under the same strong ETag (gzip alone would stamp the time)
    assert first.data == again.data
    assert first.get_etag() == again.get_etag()
    assert first.get_etag()[0].endswith(f":{encoding}")
    assert decode(first) == plain
    other = client.get(f"/entry/{BOMB}?h=Basis", headers={"Accept-Encoding": encoding})
    assert decode(other) == client.get(f"/entry/{BOMB}?h=Basis").data != plain


def test_responses_outside_the_page_cache_are_compressed_afresh(client):
    index = _index(client.application)
    before = len(index.state.pages)
    response = client.get("/search?q=Bombe", headers={"Accept-Encoding": "br"})
    assert response.headers["Content-Encoding"] == "br"
    assert decode(response) == client.get("/search?q=Bombe").data
    assert len(index.state.pages) == before


def test_distinct_queries_keep_the_page_cache_within_its_budget(client):
    index = _index(client.application)
    for n in range(60):
        assert client.get(f"/entry/{BOMB}?h=Bombe{n}").status_code == 200
    marked = index.state.marked_pages
    assert 0 < len(marked) and marked.weight <= MARKED_PAGE_BYTES
    assert index.state.pages.weight <= PAGE_BYTES


def test_distinct_marked_queries_do_not_push_the_plain_page_out(client, monkeypatch):
    """A stream of made-up ``?h=`` values (each a page of its own) fills only the cache of
    marked pages: the plain ruling pages stay cached and are not rendered again."""
    import faq_bot.web.pages as pages_module

    plain = client.get(f"/entry/{BOMB}").data
    # more marked pages than the whole page budget holds
    count = PAGE_BYTES // len(plain) + 20
    for n in range(count):
        assert client.get(f"/entry/{BOMB}?h=Bombe{n}").status_code == 200
    renders: list[str] = []
    real = pages_module.render_entry
    monkeypatch.setattr(
        pages_module, "render_entry", lambda *a, **k: renders.append(a[2]) or real(*a, **k)
    )
    assert client.get(f"/entry/{BOMB}").data == plain
    assert renders == []
    assert client.get(f"/entry/{BOMB}?h=Bombe0").status_code == 200
    assert renders == ["Bombe0"]  # the oldest marked page went, from its own budget


@settings(max_examples=examples(200))
@given(st.lists(st.tuples(st.integers(0, 20), st.binary(max_size=40)), max_size=60))
def test_weighted_lru_never_holds_more_than_its_size(items):
    lru: LRU[int, bytes] = LRU(64, weigh=len)
    for key, value in items:
        lru.put(key, value)
        assert lru.weight == sum(len(v) for v in lru._data.values()) <= 64
        if len(value) <= 64:  # the newest fits and is kept
            assert lru.get(key) == value
