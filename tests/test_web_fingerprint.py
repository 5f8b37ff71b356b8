"""The app fingerprint in every ETag covers what changes an answer, not only the look."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

from faq_bot.web.assets import app_fingerprint


def _package(root: Path) -> Path:
    (root / "data").mkdir(parents=True)
    (root / "chat.py").write_text("RULE = 1\n", encoding="utf-8")
    (root / "data" / "confidence.json").write_text('{"threshold": 0.48}', encoding="utf-8")
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "chat.cpython-311.pyc").write_bytes(b"\x00")
    return root


def _app(root: Path) -> Flask:
    (root / "templates").mkdir(parents=True)
    (root / "templates" / "page.html").write_text("<p>{{ x }}</p>", encoding="utf-8")
    return Flask("fingerprinted", root_path=str(root), template_folder="templates")


def test_a_refitted_model_or_changed_code_changes_the_fingerprint(tmp_path: Path):
    app, package = _app(tmp_path / "app"), _package(tmp_path / "pkg")
    first = app_fingerprint(app, package)
    assert app_fingerprint(app, package) == first  # stable between starts
    (package / "data" / "confidence.json").write_text('{"threshold": 0.49}', encoding="utf-8")
    refitted = app_fingerprint(app, package)
    assert refitted != first
    (package / "chat.py").write_text("RULE = 2\n", encoding="utf-8")
    assert app_fingerprint(app, package) != refitted


def test_compiled_caches_do_not_change_the_fingerprint(tmp_path: Path):
    app, package = _app(tmp_path / "app"), _package(tmp_path / "pkg")
    first = app_fingerprint(app, package)
    (package / "__pycache__" / "chat.cpython-311.pyc").write_bytes(b"\x01\x02")
    assert app_fingerprint(app, package) == first
