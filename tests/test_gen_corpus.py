"""scripts/gen_corpus.py: the ×N corpora of the benchmarks read like the corpus they copy."""

from __future__ import annotations

import tomllib
from pathlib import Path

from faq_bot.corpus import load_corpus, read_manifest
from tests.scripts_under_test import script

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def test_generated_manifest_keeps_every_field_of_the_source_including_its_tables(tmp_path):
    out = script("gen_corpus").generate(CORPUS, 2, tmp_path / "x2")
    source = tomllib.loads((CORPUS / "manifest.toml").read_text(encoding="utf-8"))
    written = read_manifest(out)  # valid: the corrections stay lists of tables
    assert written[: len(source["documents"])] == source["documents"]  # copy 0 unchanged
    copies = written[len(source["documents"]) :]
    assert [d.get("corrections") for d in copies] == [
        d.get("corrections") for d in source["documents"]
    ]
    assert {d["id"] for d in copies}.isdisjoint(d["id"] for d in source["documents"])


def test_generated_corpus_loads_with_about_twice_the_entries(tmp_path):
    """Copy 0 splits as the source does; a perturbed copy about so (a letter appended to a
    word the splitter reads, such as „Beispiel“, may split a few entries otherwise)."""
    out = script("gen_corpus").generate(CORPUS, 2, tmp_path / "x2")
    source = load_corpus(CORPUS)
    once = sum(len(d.entries) for d in source.documents)
    generated = load_corpus(out)
    assert generated.documents[: len(source.documents)] == source.documents
    assert 2 * once <= sum(len(d.entries) for d in generated.documents) <= 2.05 * once
