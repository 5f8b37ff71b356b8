#!/usr/bin/env python3
"""Generate a corpus `FACTOR` times the size of a source corpus (for benchmarks).

Usage: ``python scripts/gen_corpus.py FACTOR OUT_DIR [--source corpus]``

Copy 0 is the source corpus unchanged; copy i > 0 of each document gets its own
document id and entry-id prefix (``<id>-k<i>``), a title marked as copy i, and
perturbed text: every word of eight letters or more has a copy-specific letter
appended with probability 1/4 (seeded, so runs are repeatable), so the copies
share most of their vocabulary but not all of it, and postings grow with the
factor the way a larger corpus of the same kind would. The manifest is written
with the same fields the source's has, its lists of tables (``corrections``) too.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_LONG_WORD = re.compile(r"\b([A-Za-zÄÖÜäöüß]{8,})\b")
_HEADWORDISH = re.compile(r"^\S.*$")


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):  # a list of plain values, inline
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def _document_table(doc: dict) -> str:
    """`doc` as a ``[[documents]]`` table: its plain fields, then each list of tables
    (``corrections``) as ``[[documents.<name>]]`` tables after them, as TOML needs."""
    lists = {
        k: v
        for k, v in doc.items()
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)
    }
    lines = ["[[documents]]"]
    lines += [f"{k} = {_toml_value(v)}" for k, v in doc.items() if k not in lists]
    for name, tables in lists.items():
        for table in tables:
            lines += ["", f"[[documents.{name}]]"]
            lines += [f"{k} = {_toml_value(v)}" for k, v in table.items()]
    return "\n".join(lines)


def perturb(text: str, copy: int) -> str:
    rng = random.Random(copy)
    suffix = "abcdefghijklmnopqrstuvwxyz"[copy % 26]

    def word(m: re.Match[str]) -> str:
        return m.group(1) + suffix if rng.random() < 0.25 else m.group(1)

    return _LONG_WORD.sub(word, text)


def generate(source: Path, factor: int, out: Path) -> Path:
    """Write the ×`factor` corpus of `source` into `out` (replaced) and return `out`."""
    manifest = tomllib.loads((source / "manifest.toml").read_text(encoding="utf-8"))
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    tables: list[str] = []
    for copy in range(factor):
        for doc in manifest["documents"]:
            doc = dict(doc)
            text = (source / doc["file"]).read_text(encoding="utf-8")
            if copy:
                stem = Path(doc["file"]).stem
                doc["file"] = f"{stem}-k{copy}.txt"
                doc["id"] = f"{doc['id']}-k{copy}"
                doc["id_prefix"] = f"{doc.get('id_prefix') or doc['id']}-k{copy}"
                doc["title"] = f"{doc['title']} (Kopie {copy})"
                text = perturb(text, copy)
            (out / doc["file"]).write_text(text, encoding="utf-8")
            tables.append(_document_table(doc))
    (out / "manifest.toml").write_text("\n\n".join(tables) + "\n", encoding="utf-8")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("factor", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--source", type=Path, default=ROOT / "corpus")
    args = parser.parse_args()
    generate(args.source, args.factor, args.out)
    print(f"×{args.factor} corpus written to {args.out}")


if __name__ == "__main__":
    main()
