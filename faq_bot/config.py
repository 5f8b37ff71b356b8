"""Default locations, overridable by environment variables and command-line options."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def default_corpus_dir() -> Path:
    return Path(os.environ.get("FAQ_BOT_CORPUS", ROOT / "corpus"))


def default_index_dir() -> Path:
    return Path(os.environ.get("FAQ_BOT_INDEX", ROOT / "index"))
