"""`faq-bot serve`: make sure there is an index, then run the web service.

`run` serves through gunicorn with the production settings of
`faq_bot.serving` (the same ones ``deploy/gunicorn.conf.py`` uses); `run_debug`
is werkzeug's development server, only for ``faq-bot serve --debug``.
`ensure_index` is the testable part of the command (a thin wrapper).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from faq_bot.indexbuild import BuildReport


def ensure_index(
    corpus_dir: Path | str,
    index_dir: Path | str,
    say: Callable[[str], None] = print,
    build: Callable[[], BuildReport] | None = None,
) -> bool:
    """Build the index when `index_dir` has none, or when its vectors come from another
    embedding model than the one that serves now or cannot be read (search would stay
    lexical); True when
    it was built now. `build` builds it (the CLI's, with its progress and its Ctrl-C and
    SIGTERM handling); by default a plain `build_index`.

    Raises `faq_bot.corpus.CorpusError` when the corpus cannot be read.
    """
    from faq_bot.dense import unreadable_vectors, vectors_of_another_model
    from faq_bot.index import IndexMissingError, IndexNotBuiltError, open_index
    from faq_bot.indexbuild import build_index

    _resolve_embedding_model()  # the tuned model file written (or checked) once, not per worker
    try:
        index = open_index(index_dir)
    except IndexMissingError as exc:
        if isinstance(exc, IndexNotBuiltError):
            say(f"Noch kein Suchindex in {index_dir} – er wird jetzt aus {corpus_dir} gebaut …")
        else:  # a build there that cannot be read, or a `current` link to a deleted one
            say(
                f"Der Suchindex in {index_dir} ist veraltet oder beschädigt – er wird jetzt "
                f"aus {corpus_dir} neu gebaut …"
            )
    else:
        try:
            if vectors_of_another_model(index):
                why = "stammt von einem anderen Einbettungsmodell"
            elif unreadable_vectors(index):
                why = (
                    "ist unvollständig (die Vektoren der semantischen Suche fehlen "
                    "oder sind beschädigt)"
                )
            else:
                return False
        finally:
            index.close()
        say(f"Der Suchindex in {index_dir} {why} – er wird jetzt aus {corpus_dir} neu gebaut …")
    report = build() if build is not None else build_index(corpus_dir, index_dir, first=True)
    if report.adopted:  # another process built it while this one waited for the lock
        say(f"Index eines gleichzeitigen Baus übernommen: {report.documents} Dokumente.")
        return True
    for warning in report.warnings:  # as `faq-bot index` says them, before its summary
        say(f"Warnung: {warning}")
    say(
        f"Index gebaut: {report.documents} Dokumente, {report.entries} Einträge "
        f"in {report.seconds:.1f} s."
    )
    return True


def _resolve_embedding_model() -> None:
    """Which model serves, and its patched file, settled in the master process: the
    workers it forks inherit the choice (`faq_bot.embed.model_id`; loads no model)."""
    from faq_bot import embed

    if embed.disabled():
        return
    try:
        embed.model_id()
    except Exception:  # no embedder on this platform: the workers find out alike
        pass


def _app_config(corpus_dir: Path | str, index_dir: Path | str) -> dict[str, str]:
    return {"CORPUS_DIR": str(corpus_dir), "INDEX_DIR": str(index_dir)}


def run(
    host: str,
    port: int,
    corpus_dir: Path | str,
    index_dir: Path | str,
    workers: int | None = None,
    afresh: bool = False,
) -> None:
    """Serve with gunicorn (the index must exist: workers only open it). `afresh`: this
    process has just built the index, so the command starts again in its place first
    (`start_afresh`) and serves from there."""
    if afresh:
        start_afresh()
    from gunicorn.app.base import BaseApplication

    from faq_bot import serving
    from faq_bot.config import turn_secret

    options = serving.settings(bind=f"{_bind_host(host)}:{port}", workers=workers)
    config = _app_config(corpus_dir, index_dir)
    turn_secret(index_dir)  # the chat's secret made (or read) once, before workers start

    class _Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in options.items():
                if key in self.cfg.settings:  # settings of newer gunicorns only
                    self.cfg.set(key, value)

        def load(self) -> Any:  # in each worker, after the fork
            from faq_bot.web import create_app

            return create_app(config)

    _Server().run()


def check_address(host: str, port: int) -> None:
    """`InputError` (German, exit 2) when the service could not listen on `host`:`port`
    (taken, a name that does not resolve, a port it may not use), said before any build
    or banner: gunicorn would say it five times in English and exit 1."""
    import errno
    import socket

    from faq_bot.errors import InputError, os_reason
    from faq_bot.serving import try_listen
    from faq_bot.text import said_back

    if not host.strip():  # the socket would listen on every address, as 0.0.0.0
        raise InputError(
            "Bitte mit --host eine Adresse angeben: 127.0.0.1 für diesen Rechner, "
            "0.0.0.0 für alle Adressen."
        )
    try:
        try_listen(host, port)
    # a name the resolver refuses outright (too long, a character IDNA cannot encode:
    # TypeError "encoding of hostname failed") is as unresolvable as one it cannot find
    except (socket.gaierror, UnicodeError, TypeError, ValueError):
        raise InputError(f"Die Adresse {said_back(host)} lässt sich nicht auflösen.") from None
    except OSError as exc:  # `host` resolved: a name or an address, said as it is
        if exc.errno == errno.EADDRINUSE:
            raise InputError(
                f"Port {port} auf {host} ist schon belegt (läuft der Dienst schon?). "
                "Bitte mit --port einen anderen wählen."
            ) from None
        raise InputError(
            f"Der Dienst kann {host}:{port} nicht belegen ({os_reason(exc)})."
        ) from None


def _bind_host(host: str) -> str:
    """gunicorn wants IPv6 addresses in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def run_debug(host: str, port: int, corpus_dir: Path | str, index_dir: Path | str) -> None:
    """Serve with werkzeug's development server (debugging only, one process)."""
    from werkzeug.serving import run_simple

    from faq_bot.web import create_app

    app = create_app(_app_config(corpus_dir, index_dir))
    run_simple(host, port, app, threaded=True, use_reloader=False, use_debugger=False)


# set in the environment of a command started again: one that built once more right
# after serves from there instead of starting again and again (a build whose vectors
# would never match, say)
AFRESH_ENV = "FAQ_BOT_STARTED_AFRESH"


def start_afresh() -> None:
    """Run this command again in this process's place (same pid, same arguments and
    environment). After a first build the process holds what building needed (HanTa's
    full tagger, the writer's and the embedder's heap, 40 to 80 MiB) and every gunicorn
    worker forked from it would start with all of it; started again, the index is there
    and the master and its workers hold only what serving needs. Once only: a command
    started again returns here and serves."""
    if os.environ.get(AFRESH_ENV) == "1":
        return
    os.environ[AFRESH_ENV] = "1"
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])
