"""One error hierarchy for everything a user can get wrong or a deployment can break.

Every expected failure is a `FaqBotError` carrying a German message (its
``str``), the HTTP status the web answers with, the short code of the JSON
error shape and the exit code of the command line. The web maps it once in
`faq_bot.web.errors`, the CLI once in `faq_bot.cligerman`; nothing else translates
errors.

Exit codes: 1 nothing found / declined / illegal scenario (not an error here);
2 bad input; 3 a corpus that cannot be read; 4 an index that cannot be
written or read; 5 output that cannot be written; 130 / 143 stopped by Ctrl-C /
SIGTERM (`faq_bot.cligerman`).
"""

from __future__ import annotations

import errno
import pickle
import sqlite3
import struct
import zlib


class FaqBotError(Exception):
    """An expected failure with a German message for the user."""

    http_status = 400
    code = "bad_request"
    exit_code = 2


class InputError(FaqBotError, ValueError):
    """Bad input from a user (a query, a question, a request body, a file)."""


class BodyTooLarge(InputError):
    http_status = 413
    code = "too_large"


class CorpusProblem(FaqBotError):
    """The corpus cannot be read (manifest, files): an operator's problem."""

    http_status = 500
    code = "corpus_error"
    exit_code = 3


class SecretProblem(FaqBotError):
    """The chat's secret (``<index>/secret``) cannot be read or made: an operator's
    problem, not a damaged index."""

    http_status = 503
    code = "secret_unavailable"
    exit_code = 4


class IndexProblem(FaqBotError):
    """The index cannot be written, opened or searched."""

    http_status = 503
    code = "index_unavailable"
    exit_code = 4


# what reading a damaged index raises inside whoosh (truncated, garbled files) and in
# the entry store (`faq_bot.entrystore`, SQLite: "database disk image is malformed",
# text that does not decode); the CLI and the web treat these as an unreadable index,
# not as a bug
UNREADABLE_INDEX: tuple[type[Exception], ...] = (
    EOFError,
    struct.error,
    zlib.error,
    pickle.UnpicklingError,
    sqlite3.DatabaseError,
)


# the system's reasons an operation on a file failed, in German: `OSError.strerror` is
# English („No such file or directory“) whatever the locale
_OS_REASONS = {
    errno.ENOENT: "nicht vorhanden",
    errno.EACCES: "keine Berechtigung",
    errno.EPERM: "keine Berechtigung",
    errno.EISDIR: "ist ein Ordner",
    errno.ENOTDIR: "ein Teil des Pfads ist kein Ordner",
    errno.ENOSPC: "kein Platz mehr auf dem Ziel",
    errno.EDQUOT: "Speicherkontingent erschöpft",
    errno.EROFS: "Dateisystem nur lesbar",
    errno.ENAMETOOLONG: "Name zu lang",
    errno.ELOOP: "zu viele symbolische Links",
    errno.EMFILE: "zu viele offene Dateien",
    errno.ENFILE: "zu viele offene Dateien",
    errno.EIO: "Ein-/Ausgabefehler",
    errno.EEXIST: "schon vorhanden",
    errno.ENOTEMPTY: "Ordner nicht leer",
    errno.EADDRNOTAVAIL: "die Adresse gehört nicht zu diesem Rechner",
    errno.EADDRINUSE: "schon belegt",
}


def os_reason(exc: OSError) -> str:
    """Why `exc` happened, in a few German words („nicht vorhanden“, „Fehler 71“)."""
    if exc.errno in _OS_REASONS:
        return _OS_REASONS[exc.errno]
    return f"Fehler {exc.errno}" if exc.errno else type(exc).__name__


# what every message about a damaged or unfinished build ends with
REBUILD = "Bitte `faq-bot index` ausführen: Das baut ihn neu."


def unreadable_index(exc: BaseException, where: object = None) -> str:
    """The German sentence for an index (in `where`, if known) that `exc` kept from being
    read: a file the system refused (rights, too many open files) is not a damaged
    build, and rebuilding would not help; anything else is."""
    place = f"Der Index in {where}" if where is not None else "Der Index"
    if isinstance(exc, OSError):
        named = f": {exc.filename}" if exc.filename else ""
        if exc.errno in (errno.EACCES, errno.EPERM):
            advice = "Bitte die Rechte des Index-Ordners prüfen."
        elif exc.errno in (errno.EMFILE, errno.ENFILE):
            advice = "Bitte später erneut versuchen oder mehr offene Dateien erlauben (ulimit -n)."
        else:
            advice = REBUILD
        return f"{place} kann nicht gelesen werden ({os_reason(exc)}{named}). {advice}"
    return f"{place} ist beschädigt oder unvollständig ({type(exc).__name__}). {REBUILD}"
