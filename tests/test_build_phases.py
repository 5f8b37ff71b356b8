"""The index build's phases (timed, announced, stored in meta.json) and the HanTa
cache beside the builds: a rebuild of unchanged text runs no HanTa analysis and
writes the same index as a build without the cache."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from faq_bot import morphology
from faq_bot.buildphases import PHASES
from faq_bot.cli import main
from faq_bot.clibuild import PHASE_LABELS
from faq_bot.index import MORPHOLOGY_CACHE
from faq_bot.indexbuild import build_index


def _meta(report) -> dict:
    return json.loads((report.path / "meta.json").read_text(encoding="utf-8"))


def _impacts(build: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((build / "impacts").iterdir())}


def test_every_phase_is_timed_in_order_and_announced(tiny_corpus, tmp_path):
    seen: list[tuple[str, bool]] = []
    report = build_index(
        tiny_corpus, tmp_path / "idx", on_phase=lambda name, f: seen.append((name, f is None))
    )
    assert list(_meta(report)["phases"]) == list(PHASES) == list(report.phases)
    for figures in report.phases.values():
        assert figures["seconds"] >= 0 and figures["cpu"] >= 0
    # each phase is announced when it starts and again, with its figures, when it ends
    assert seen == [(name, start) for name in PHASES for start in (True, False)]


def test_faq_bot_index_prints_one_line_per_phase_without_a_terminal(tiny_corpus, tmp_path):
    result = CliRunner().invoke(
        main, ["index", "--corpus", str(tiny_corpus), "--index", str(tmp_path / "idx")]
    )
    assert result.exit_code == 0, result.output
    lines = [ln for ln in result.stderr.splitlines() if not ln.startswith("Warnung")]
    assert [ln.split(":")[0] for ln in lines] == [PHASE_LABELS[p] for p in PHASES]
    # the suite builds without the embedder (FAQ_BOT_DENSE=0): that phase says it did not
    # run (a CLI review: „Texte einbetten: 0.0 s“ for a phase that never ran)
    embedding = PHASES.index("embeddings")
    assert lines[embedding] == "Texte einbetten: übersprungen (nur Stichwortsuche)"
    assert all(ln.endswith(" s") for i, ln in enumerate(lines) if i != embedding)
    assert "gebaut" in result.stdout


def test_a_rebuild_of_unchanged_text_runs_no_hanta_and_changes_nothing(
    tiny_corpus, tmp_path, monkeypatch: pytest.MonkeyPatch
):
    first = build_index(tiny_corpus, tmp_path / "idx")
    words = _meta(first)["morphology"]["words"]
    assert words > 50 and _meta(first)["morphology"]["analysed"] == words
    assert list((tmp_path / "idx" / MORPHOLOGY_CACHE).glob("*.json"))
    kept = _impacts(first.path)

    def no_hanta():
        raise AssertionError("HanTa ran although every word was cached")

    monkeypatch.setattr(morphology, "tagger", no_hanta)
    morphology._morphology.cache_clear()  # words this process analysed before
    again = build_index(tiny_corpus, tmp_path / "idx")
    assert _meta(again)["morphology"] == {"words": words, "analysed": 0}
    assert _impacts(again.path) == kept


def test_a_damaged_hanta_cache_is_analysed_again_with_the_same_result(tiny_corpus, tmp_path):
    first = build_index(tiny_corpus, tmp_path / "idx")
    kept = _impacts(first.path)
    shutil.copytree(first.path, tmp_path / "first")
    for path in (tmp_path / "idx" / MORPHOLOGY_CACHE).glob("*.json"):
        path.write_text("{kaputt", encoding="utf-8")
    morphology._morphology.cache_clear()
    again = build_index(tiny_corpus, tmp_path / "idx")
    assert _meta(again)["morphology"]["analysed"] == _meta(again)["morphology"]["words"]
    assert _impacts(again.path) == kept
