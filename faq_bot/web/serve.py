"""`faq-bot serve`: make sure there is an index, then run the web service.

`ensure_index` is the testable part (the command is a thin wrapper). For
production run gunicorn instead: ``gunicorn 'faq_bot.web:create_app()'``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path


def ensure_index(
    corpus_dir: Path | str, index_dir: Path | str, say: Callable[[str], None] = print
) -> bool:
    """Build the index when `index_dir` has none; True when it was built now.

    Raises `faq_bot.corpus.CorpusError` when the corpus cannot be read.
    """
    from faq_bot.index import IndexMissingError, build_index, open_index

    try:
        open_index(index_dir).close()
        return False
    except IndexMissingError:
        pass
    say(f"Noch kein Suchindex in {index_dir} – er wird jetzt aus {corpus_dir} gebaut …")
    report = build_index(corpus_dir, index_dir)
    say(
        f"Index gebaut: {report.documents} Dokumente, {report.entries} Einträge "
        f"in {report.seconds:.1f} s."
    )
    return True


def run(host: str, port: int, corpus_dir: Path | str, index_dir: Path | str) -> None:
    """Serve with werkzeug's threaded server (for development and small setups)."""
    from werkzeug.serving import run_simple

    from faq_bot.web import create_app

    app = create_app({"CORPUS_DIR": str(corpus_dir), "INDEX_DIR": str(index_dir)})
    run_simple(host, port, app, threaded=True, use_reloader=False, use_debugger=False)
