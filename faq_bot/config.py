"""Default locations, overridable by environment variables and command-line options,
the host names the service answers to (``trusted_hosts()``) and the service's secret.

``turn_secret(index_dir) -> bytes``
    The key the chat signs its turn tokens with (`faq_bot.chat.shown`), so a
    shared ``/ask`` link can only redraw answers this service gave. It must be
    the same in every gunicorn worker and survive restarts (links stay valid):
    ``FAQ_BOT_SECRET`` when set (at least `MIN_SECRET` characters; every machine
    behind one proxy needs the same), else the file `SECRET_FILE` next to the
    builds in the index directory, made on first use with 32 random bytes
    (base64url, mode 0600). Workers that start together never end up with two
    secrets: the file is written under a unique temporary name (``O_EXCL``,
    `tempfile.mkstemp`) and hard-linked into place, which fails when another
    process was first; everyone then reads the one file. A new build
    (``faq-bot index``) keeps it.
"""

from __future__ import annotations

import os
import re
import secrets
import tempfile
from pathlib import Path

from faq_bot.errors import SecretProblem, os_reason

ROOT = Path(__file__).resolve().parent.parent

SECRET_ENV = "FAQ_BOT_SECRET"
TRUSTED_HOSTS_ENV = "FAQ_BOT_TRUSTED_HOSTS"
SECRET_FILE = "secret"
MIN_SECRET = 16  # characters of a FAQ_BOT_SECRET


def default_corpus_dir() -> Path:
    """``FAQ_BOT_CORPUS``, or the checkout's corpus when unset or empty (an empty path is
    the working folder to the system: a build would land there)."""
    return Path(os.environ.get("FAQ_BOT_CORPUS") or ROOT / "corpus")


def default_index_dir() -> Path:
    """``FAQ_BOT_INDEX``, or the checkout's index folder when unset or empty."""
    return Path(os.environ.get("FAQ_BOT_INDEX") or ROOT / "index")


_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_HOST_NAME = re.compile(rf"{_LABEL}(?:\.{_LABEL})*")


def trusted_hosts() -> list[str] | None:
    """``FAQ_BOT_TRUSTED_HOSTS``: the host names the service answers to, comma-separated
    (``faq.example.org,localhost``; werkzeug's rule: ``.example.org`` also matches
    subdomains), lower-cased as browsers send them; None (any host) when unset or empty.
    `ValueError` for a name that is no host name (``a..b``, a label over 63 characters, a
    URL, a port), at start-up rather than on every request."""
    hosts = [h.strip().lower() for h in os.environ.get(TRUSTED_HOSTS_ENV, "").split(",")]
    hosts = [h for h in hosts if h]
    for host in hosts:
        try:
            ascii_name = host.removeprefix(".").encode("idna").decode("ascii")
        except UnicodeError:
            ascii_name = ""
        # letters, digits and inner hyphens per label, as werkzeug takes a Host header:
        # an address (https://…/), an underscore or a second leading dot never matched
        # one; a port, which werkzeug ignores there, is refused too, as docs/web.md says
        if not _HOST_NAME.fullmatch(ascii_name):
            raise ValueError(
                f"{TRUSTED_HOSTS_ENV}: „{host}“ ist kein Rechnername (erlaubt: Namen wie "
                "faq.example.org oder .example.org, ohne Schema, Port und Pfad)"
            )
    return hosts or None


def env_secret() -> bytes | None:
    """``FAQ_BOT_SECRET`` (None when unset or empty); `ValueError` when too short."""
    value = os.environ.get(SECRET_ENV, "").strip()
    if not value:
        return None
    if len(value) < MIN_SECRET:
        raise ValueError(
            f"{SECRET_ENV} ist zu kurz ({len(value)} Zeichen, mindestens {MIN_SECRET}); "
            'z. B. python3 -c "import secrets; print(secrets.token_urlsafe(32))"'
        )
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError:  # bytes the locale could not decode
        raise ValueError(
            f"{SECRET_ENV} enthält Bytes, die kein UTF-8 sind; bitte ein Geheimnis aus "
            "ASCII-Zeichen setzen."
        ) from None


_REMEDY = f"bitte entfernen (dann wird es neu angelegt) oder {SECRET_ENV} setzen"


def _read_secret(path: Path) -> bytes | None:
    try:
        value = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise SecretProblem(
            f"Das Geheimnis des Chats ({path}) enthält andere Zeichen als ASCII: {_REMEDY}."
        ) from None
    except OSError as exc:
        raise SecretProblem(
            f"Das Geheimnis des Chats ({path}) lässt sich nicht lesen ({os_reason(exc)}): "
            f"{_REMEDY}."
        ) from None
    if not value:
        raise SecretProblem(f"Das Geheimnis des Chats ({path}) ist leer: {_REMEDY}.")
    return value.encode("ascii")


def _create_secret(path: Path) -> None:
    """Write a new secret to `path` unless another process already did."""
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # O_EXCL, 0600
    except OSError as exc:
        raise SecretProblem(
            f"Das Geheimnis des Chats lässt sich in {path.parent} nicht anlegen "
            f"({os_reason(exc)}): bitte {SECRET_ENV} setzen oder den Ordner beschreibbar machen."
        ) from exc
    try:
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(secrets.token_urlsafe(32) + "\n")
            out.flush()
            os.fsync(out.fileno())
        try:
            os.link(tmp, path)  # atomic: complete or absent, never two
        except FileExistsError:
            pass  # another worker was first: its secret is the one
    finally:
        os.unlink(tmp)


def turn_secret(index_dir: str | Path) -> bytes:
    """The service's secret: ``FAQ_BOT_SECRET``, else ``<index_dir>/secret`` (made once)."""
    found = env_secret()
    if found is not None:
        return found
    path = Path(index_dir) / SECRET_FILE
    found = _read_secret(path)
    if found is None:
        _create_secret(path)
        found = _read_secret(path)  # re-read: whoever was first wrote it
    if found is None:  # removed again right away: not a state to guess about
        raise RuntimeError(f"{path} vanished while it was being made")
    return found
