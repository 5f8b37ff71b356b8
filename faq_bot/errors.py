"""One error hierarchy for everything a user can get wrong or a deployment can break.

Every expected failure is a `FaqBotError` carrying a German message (its
``str``), the HTTP status the web answers with, the short code of the JSON
error shape and the exit code of the command line. The web maps it once in
`faq_bot.web.errors`, the CLI once in `faq_bot.cligerman`; nothing else translates
errors.

Exit codes: 1 nothing found / declined / illegal scenario (not an error here);
2 bad input; 3 a corpus that cannot be read; 4 an index that cannot be
written or read.
"""

from __future__ import annotations

import pickle
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


class IndexProblem(FaqBotError):
    """The index cannot be written, opened or searched."""

    http_status = 503
    code = "index_unavailable"
    exit_code = 4


# what reading a damaged index raises inside whoosh (truncated, garbled files);
# the CLI and the web treat these as an unreadable index, not as a bug
UNREADABLE_INDEX: tuple[type[Exception], ...] = (
    EOFError,
    struct.error,
    zlib.error,
    pickle.UnpicklingError,
)
