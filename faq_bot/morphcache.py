"""HanTa's analyses of the corpus words, kept beside the builds like the embeddings.

``analyse_words(words, cache_dir) -> int``
    Installs (`faq_bot.morphology.install_analyses`) HanTa's analysis of every
    word in `words`, reading ``<cache_dir>/<HanTa id>.json`` first and running
    HanTa only on the words it lacks; rewrites the file when some were new.
    Returns them and how many words HanTa analysed (``progress(done, total)``
    counts those). HanTa's analysis of a word does not depend on its context, so
    the index is the same with and without the cache;
    a rebuild of unchanged text runs no HanTa analysis at all.

``write_build_table(build_dir, table)`` / ``install_build_table(index)``
    Each build keeps its words' analyses (``morphology.json``); opening a build
    in a long-running process installs them (`faq_bot.index.WARMERS`), so a
    question word the corpus has costs no HanTa analysis either.

The file is keyed by the HanTa version: another version may analyse differently.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from faq_bot.morphology import HantaAnalysis, hanta_analysis, install_analyses

__all__ = [
    "BUILD_TABLE",
    "analyse_words",
    "build_table",
    "hanta_id",
    "install_build_table",
    "write_build_table",
]

BUILD_TABLE = "morphology.json"


def hanta_id() -> str:
    try:
        from importlib.metadata import version

        return f"hanta-{version('HanTa')}"
    except Exception:
        return "hanta"


def _decode(value: Any) -> HantaAnalysis | None:
    if value is None:
        return None
    lemma, morphemes = value
    return str(lemma), tuple((str(m), str(t)) for m, t in morphemes)


def _load(path: Path) -> dict[str, HantaAnalysis | None]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {str(w): _decode(v) for w, v in data.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}  # missing or damaged: analyse again


def _save(path: Path, table: dict[str, HantaAnalysis | None]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(table, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    os.replace(tmp, path)


def analyse_words(
    words: Iterable[str],
    cache_dir: Path | None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[str, HantaAnalysis | None], int]:
    """Install HanTa's analyses of `words` (see the module docstring); returns them
    and how many HanTa ran on."""
    path = cache_dir / f"{hanta_id()}.json" if cache_dir is not None else None
    cached = _load(path) if path is not None else {}
    install_analyses({})  # the previous build's table must not answer for HanTa here
    todo = sorted(set(words))
    table = {w: cached[w] for w in todo if w in cached}
    missing = [w for w in todo if w not in table]
    for done, word in enumerate(missing, 1):
        table[word] = hanta_analysis(word)
        if progress is not None and (done % 50 == 0 or done == len(missing)):
            progress(done, len(missing))
    table = {w: table[w] for w in todo}
    analysed = len(missing)
    install_analyses(table)
    if path is not None and (analysed or not path.exists()):
        try:
            _save(path, table)
        except OSError:
            pass  # the cache is only a shortcut
    return table, analysed


def write_build_table(build_dir: Path, table: dict[str, HantaAnalysis | None]) -> None:
    """The build's own copy (``morphology.json``): a server installs it at open."""
    _save(build_dir / BUILD_TABLE, table)


_PART, _PAIR = "\x1f", "\x1e"  # never in a word HanTa analyses (letters only)


class CompactTable(Mapping[str, HantaAnalysis | None]):
    """word -> HanTa analysis, each held as one string and decoded when looked up:
    a server keeps the build's whole table (45,000 words at ×100: 33 MiB as
    tuples of strings, a quarter of that as one string per word)."""

    def __init__(self, table: dict[str, Any]):
        self._codes: dict[str, str | HantaAnalysis | None] = {
            str(w): self._encode(_decode(v)) for w, v in table.items()
        }

    @staticmethod
    def _encode(value: HantaAnalysis | None) -> str | HantaAnalysis | None:
        if value is None:
            return None
        lemma, morphemes = value
        parts = [lemma, *(f"{m}{_PAIR}{t}" for m, t in morphemes)]
        if any(_PART in p or p.count(_PAIR) > 1 for p in parts) or _PAIR in lemma:
            return value  # cannot be joined unambiguously: kept as it is
        return _PART.join(parts)

    def __getitem__(self, word: str) -> HantaAnalysis | None:
        code = self._codes[word]
        if not isinstance(code, str):
            return code
        lemma, *pairs = code.split(_PART)
        return lemma, tuple(tuple(p.split(_PAIR)) for p in pairs)  # type: ignore[misc]

    def __contains__(self, word: object) -> bool:
        return word in self._codes

    def __iter__(self) -> Iterator[str]:
        return iter(self._codes)

    def __len__(self) -> int:
        return len(self._codes)


def build_table(index: Any) -> CompactTable:
    """The build's own table (``morphology.json``), read once per build; empty when it is
    missing or damaged."""

    def read() -> CompactTable:
        try:
            data = json.loads((Path(index.path) / BUILD_TABLE).read_text(encoding="utf-8"))
            return CompactTable(data)
        except (OSError, ValueError, TypeError, AttributeError):
            return CompactTable({})

    return index.state.once("morphology.table", read)


def install_build_table(index: Any) -> None:
    """Run no HanTa for a question word the corpus has (a `faq_bot.index` warmer)."""
    table = build_table(index)
    if table:  # missing or damaged: HanTa analyses the question words
        install_analyses(table)
