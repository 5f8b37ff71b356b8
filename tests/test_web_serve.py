"""`faq-bot serve`: builds the index when there is none, then serves."""

from __future__ import annotations

from click.testing import CliRunner

from faq_bot import cli
from faq_bot.config import ROOT
from faq_bot.index import open_index
from faq_bot.web import serve


def test_serve_ensure_index_builds_when_missing_and_says_so(tmp_path):
    messages: list[str] = []
    assert serve.ensure_index(ROOT / "corpus", tmp_path / "idx", say=messages.append) is True
    assert open_index(tmp_path / "idx").entries()
    assert any("wird jetzt" in m for m in messages)
    assert serve.ensure_index(ROOT / "corpus", tmp_path / "idx", say=messages.append) is False


def test_serve_command_builds_index_then_runs(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(serve, "run", lambda *args: calls.append(args))
    result = CliRunner().invoke(
        cli.main,
        ["serve", "--port", "8123", "--index", str(tmp_path / "idx")],
    )
    assert result.exit_code == 0, result.output
    assert "Noch kein Suchindex" in result.output
    assert calls and calls[0][:2] == ("127.0.0.1", 8123)
    assert open_index(tmp_path / "idx").version


def test_serve_command_with_broken_corpus_fails_in_german(tmp_path, monkeypatch):
    monkeypatch.setattr(serve, "run", lambda *args: None)
    (tmp_path / "corpus").mkdir()
    result = CliRunner().invoke(
        cli.main,
        ["serve", "--corpus", str(tmp_path / "corpus"), "--index", str(tmp_path / "idx")],
    )
    assert result.exit_code == 3
    assert "Fehler: Der Index kann nicht gebaut werden" in result.output
    assert "Traceback" not in result.output
