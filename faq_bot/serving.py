"""gunicorn settings shared by `faq-bot serve` and ``deploy/gunicorn.conf.py``.

One place decides how the web service runs in production, so the README's run
command (`make run` -> `faq-bot serve`) and a deployment behind nginx serve the
same way:

- workers fitted to the machine: ``2 * cores + 1``, capped at `MAX_WORKERS`
  (each worker holds its own index, ~70 MB); ``FAQ_BOT_WORKERS`` overrides;
- ``gthread`` workers with a small fixed thread pool: a slow client holds one
  thread, not a whole worker, and the number of threads (and so of per-thread
  resources) never grows with the number of requests. `THREADS` slow clients do
  hold a whole worker, for as long as the worker's own bounds on a request's
  headers and body allow (`faq_bot.gunicorn_worker.HEADER_WAIT`, ``BODY_WAIT``;
  gunicorn has none): on a public address the service belongs behind nginx
  (``deploy/nginx.conf``), which buffers requests.
  The worker class is gunicorn's, with German error pages for the requests
  gunicorn refuses itself (`faq_bot.gunicorn_worker`, `faq_bot.gunicorn_pages`);
- timeouts: a request that takes longer than `TIMEOUT` seconds is a bug, its
  worker is replaced; on reload/stop workers get `GRACEFUL_TIMEOUT` seconds to
  finish what they are serving;
- `LIMIT_REQUEST_LINE`: long enough for the longest URL the app hands out (the
  checker's share links, ``/check?s=…``);
- logs to stderr, the access log only on request (``FAQ_BOT_ACCESS_LOG=1`` or
  gunicorn's ``--access-logfile -``).

The index is built before any worker forks (`on_starting`), so workers never
race to build it; the same for the chat's secret (`faq_bot.config.turn_secret`).
"""

from __future__ import annotations

import os
import shlex
import socket
import sys
import time
from collections.abc import Callable
from typing import Any, NoReturn

APP = "faq_bot.web:create_app()"
WORKER_CLASS = "faq_bot.gunicorn_worker.GermanThreadWorker"

MAX_WORKERS = 8
MAX_CONFIGURED_WORKERS = 64  # what FAQ_BOT_WORKERS and `serve --workers` take
THREADS = 4
TIMEOUT = 30
GRACEFUL_TIMEOUT = 20
KEEPALIVE = 5

# The longest request line gunicorn accepts ("GET <path> HTTP/1.1"). The
# checker's share links (`/check?s=…`) are the app's longest URLs, about 8,200
# characters at their limit; the exact limit is a constant of the checker
# (issue 8/12, defined by another change). 8190 is gunicorn's own maximum: a
# larger value is clamped to it, and only 0 ("unlimited", which gunicorn's
# parser still caps at 1 MiB) goes beyond. If the share-link limit ends up
# above ~8,175 characters of path, set this to 0 and let nginx's
# `large_client_header_buffers` (deploy/nginx.conf) be the bound.
LIMIT_REQUEST_LINE = 8190
LIMIT_REQUEST_FIELD_SIZE = 8190


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


def worker_count(cores: int | None = None) -> int:
    """``2 * cores + 1``, at most `MAX_WORKERS` (``FAQ_BOT_WORKERS`` wins when set: 1 to
    `MAX_CONFIGURED_WORKERS`, as ``faq-bot serve --workers``; else a German `ValueError`)."""
    configured = os.environ.get("FAQ_BOT_WORKERS", "").strip()
    if configured:
        if not (
            configured.isascii()
            and configured.isdigit()
            and 1 <= int(configured) <= MAX_CONFIGURED_WORKERS
        ):
            raise ValueError(
                f"FAQ_BOT_WORKERS muss eine ganze Zahl von 1 bis {MAX_CONFIGURED_WORKERS} "
                f"sein, nicht „{configured[:20]}“."
            )
        return int(configured)
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 0
        cores = cores or os.cpu_count() or 1
    return max(1, min(2 * cores + 1, MAX_WORKERS))


def check_environment(workers: bool = True) -> None:
    """Read the settings every worker reads once, at start: a German `ValueError` for a
    wrong one (``FAQ_BOT_SECRET``, ``FAQ_BOT_TRUSTED_HOSTS``, and ``FAQ_BOT_WORKERS``
    unless `workers` is False), where `faq-bot serve` and deploy/gunicorn.conf.py stop
    with exit code 2 rather than fail in each worker. The address to listen on is checked
    where gunicorn has merged its own ``-b`` with ``FAQ_BOT_BIND`` (`on_starting`)."""
    from faq_bot.config import env_secret, trusted_hosts

    env_secret()
    trusted_hosts()
    if workers:
        worker_count()


def check_bind(address: str) -> None:
    """A German `ValueError` for a gunicorn bind `address` it cannot listen on: one of
    ``HOST:PORT``, ``[IPv6]:PORT``, ``HOST`` (port 8000), each also after ``tcp://``,
    ``unix:PATH``/``unix://PATH`` in a folder that exists, ``fd://N`` (gunicorn retried a
    host name it cannot resolve for five seconds and ended with an English line, a port
    past 65535 gave a traceback: a CLI review)."""
    from faq_bot.text import said_back

    said = f"Adresse {said_back(address)}"
    if address.startswith("unix:"):
        path = address.removeprefix("unix://") if address.startswith("unix://") else address[5:]
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise ValueError(f"{said}: den Ordner {said_back(folder)} gibt es nicht.")
        return
    if address.startswith("fd://"):
        if not (address[5:].isascii() and address[5:].isdigit()):
            raise ValueError(f"{said}: nach fd:// gehört die Nummer eines Dateideskriptors.")
        return
    host, port = _host_port(address, said)
    try:
        socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise ValueError(
            f"{said}: den Rechnernamen {said_back(host, 60)} kennt dieser Rechner nicht."
        ) from None


def _host_port(address: str, said: str) -> tuple[str, int]:
    """The host and port of a TCP bind `address` (`check_bind`'s forms), or a German
    `ValueError` beginning with `said`."""
    rest = address.removeprefix("tcp://")
    if rest.startswith("["):
        host, bracket, port = rest[1:].partition("]")
        if not bracket:  # "[::1:5432" is a valid address: gunicorn ended in English
            raise ValueError(f"{said}: die schließende Klammer fehlt, [::1]:8000.")
        if port and not port.startswith(":"):
            raise ValueError(f"{said}: nach der Klammer steht ein Doppelpunkt, [::1]:8000.")
        port = port[1:] if port else "8000"
    elif rest.count(":") > 1:
        raise ValueError(f"{said}: eine IPv6-Adresse steht in eckigen Klammern, [::1]:8000.")
    else:
        host, _, port = rest.partition(":") if ":" in rest else (rest, "", "8000")
    if not (port.isascii() and port.isdigit() and int(port) <= 65535):
        raise ValueError(f"{said}: der Port muss eine ganze Zahl von 0 bis 65535 sein.")
    return host, int(port)


def try_listen(host: str, port: int) -> None:
    """Bind a socket to `host`:`port` as gunicorn binds (its family, SO_REUSEADDR) and let
    it go: the `OSError` gunicorn would meet, said before it retries five times in
    English (`faq-bot serve`'s check, `check_listen`)."""
    # the family gunicorn takes (`gunicorn.sock._sock_type`): IPv6 for an IPv6 literal
    # only, else IPv4, even where "localhost" resolves to ::1 first
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host.strip("[]"), port))


# sockets a new master inherits (a binary upgrade, systemd's socket activation): in use
# by what hands them over
INHERITED = ("GUNICORN_FD", "LISTEN_FDS")


# gunicorn tries a taken port this many times, a second apart (a process manager may start
# the new master while the old one still lets go of it): so does the check
BIND_TRIES = 5


def check_listen(address: str, reuse_port: bool = False) -> None:
    """A German `OSError` when gunicorn could not listen on the TCP bind `address` (one
    `check_bind` passed): the port taken (after `BIND_TRIES` tries, as gunicorn tries), an
    address of another machine. Only at a master's start, never where the config file is
    read again on a reload (HUP): the running master holds the port then. Not with
    `reuse_port` (SO_REUSEPORT: another instance may hold the port by design)."""
    inherited = any(os.environ.get(k) for k in INHERITED)
    if address.startswith(("unix:", "fd://")) or inherited or reuse_port:
        return
    import errno

    from faq_bot.errors import os_reason
    from faq_bot.text import said_back

    said = f"Adresse {said_back(address)}"
    host, port = _host_port(address, said)
    for tries_left in range(BIND_TRIES - 1, -1, -1):
        try:
            try_listen(host or "0.0.0.0", port)
            return
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise OSError(f"{said}: {os_reason(exc)}.") from None
            if not tries_left:
                raise OSError(
                    f"{said}: Port {port} ist schon belegt (läuft der Dienst schon?)."
                ) from None
            time.sleep(1)


def bind_given(argv: list[str], cmd_args: str = "") -> bool:
    """Whether gunicorn's command line (`argv`, and ``GUNICORN_CMD_ARGS``) names the
    address to listen on (``-b``/``--bind``), which wins over ``FAQ_BOT_BIND``."""
    args = [*argv, *shlex.split(cmd_args)]
    return any(a == "--bind" or a.startswith(("-b", "--bind=")) for a in args)


def stop_at(exc: Exception) -> NoReturn:
    """End gunicorn's start at a wrong setting (a `ValueError`) or an address it cannot
    listen on (`check_listen`'s `OSError`): one German line, exit code 2 (as `faq-bot
    serve` ends), not a traceback."""
    said = f"Ungültige Einstellung: {exc}" if isinstance(exc, ValueError) else str(exc)
    print(f"Fehler: {said}", file=sys.stderr)
    raise SystemExit(2)


DEFAULT_BIND = "127.0.0.1:8000"


def settings(
    bind: str | None = None, workers: int | None = None, access_log: bool | None = None
) -> dict[str, Any]:
    """gunicorn settings (names as in gunicorn's config file)."""
    if access_log is None:
        access_log = _env_flag("FAQ_BOT_ACCESS_LOG")
    return {
        "bind": [bind or os.environ.get("FAQ_BOT_BIND", "").strip() or DEFAULT_BIND],
        "workers": workers or worker_count(),
        "worker_class": WORKER_CLASS,
        "threads": THREADS,
        "timeout": TIMEOUT,
        "graceful_timeout": GRACEFUL_TIMEOUT,
        "keepalive": KEEPALIVE,
        "limit_request_line": LIMIT_REQUEST_LINE,
        "limit_request_field_size": LIMIT_REQUEST_FIELD_SIZE,
        "errorlog": "-",
        "accesslog": "-" if access_log else None,
        "loglevel": "info",
        "proc_name": "faq-bot",
        # no scheme from a client's headers: gunicorn trusts X-Forwarded-Ssl/-Proto/
        # -Protocol from loopback by default, where a proxy passes a client's own through
        # (and two that disagree got its HTML 400, /api/ too); the app's ProxyFix reads
        # the proxy's X-Forwarded-Proto when FAQ_BOT_BEHIND_PROXY says there is one
        "forwarded_allow_ips": "",
        "secure_scheme_headers": {},
        # gunicorn >= 25 opens a control socket at one fixed path per user:
        # two instances on one machine would fight over it
        "control_socket_disable": True,
        # the app is loaded in each worker, not the master: a HUP then reloads
        # the code too, and no index file is opened before the fork
        "preload_app": False,
    }


def ensure_index_before_fork(say: Callable[[str], None], pidfile: Any = None) -> None:
    """Build the index in the master when there is none (gunicorn's `on_starting`), then
    start gunicorn again in its place (`faq_bot.web.serve.start_afresh`: before the hook
    returns no socket is open yet), so that the workers do not inherit the build.

    `pidfile`: gunicorn's `Pidfile` (``--pid``), written before the hook runs; it is
    removed before starting again. With ``--daemon`` the command started again detaches
    once more under another pid, and finding this process's pid in the file (alive, or
    not yet reaped) it refused to start: "Already running on PID …", and nothing served."""
    from faq_bot.config import default_corpus_dir, default_index_dir, turn_secret
    from faq_bot.web.serve import ensure_index, start_afresh

    if ensure_index(default_corpus_dir(), default_index_dir(), say=say):
        say("gunicorn startet neu, ohne den Speicher des Indexbaus …")
        if pidfile is not None:
            pidfile.unlink()
        start_afresh()
    turn_secret(default_index_dir())  # made once here (or read), before workers start


def on_starting(server: Any) -> None:
    """gunicorn hook, run once in the master before any worker exists: the addresses to
    listen on (``-b`` or ``FAQ_BOT_BIND``), then the index."""
    pidfile = getattr(server, "pidfile", None)
    for address in server.cfg.bind:
        try:
            check_bind(address)
            check_listen(address, bool(getattr(server.cfg, "reuse_port", False)))
        except (ValueError, OSError) as exc:
            if pidfile is not None:  # written before this hook: it named a dead process
                pidfile.unlink()
            stop_at(exc)
    ensure_index_before_fork(server.log.info, pidfile)
