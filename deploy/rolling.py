"""Roll a new index build across gunicorn instances behind nginx, under load.

    .venv/bin/python deploy/rolling.py [--instances 2] [--workers 1] [--json]

On loopback, without root: builds the index once into a shared folder
(``FAQ_BOT_INDEX``), starts the instances (``gunicorn -c deploy/gunicorn.conf.py``)
and nginx (``deploy/nginx.conf`` with its own prefix, pid and temp folders in a
temporary folder) balancing them, and keeps clients sending requests through
nginx the whole time. Then:

1. ``faq-bot index`` builds a new index into the shared folder; every instance
   switches to it on its own (the app reopens the index when ``current`` moves)
   and the script waits until each instance's ``/healthz`` names the new build;
2. the instances are restarted one at a time (what a code release does):
   drained (marked ``down`` in nginx's config, graceful nginx reload), SIGTERM
   (gunicorn finishes the requests it is serving), started again, healthy,
   back into rotation. Should an instance fail anyway, nginx retries the
   request on another one (``proxy_next_upstream``).

It prints what was sent and what failed (any answer that is not 2xx/3xx, any
connection error) and exits 1 when a request failed or an instance did not take
the new build. `tests/test_deploy.py` runs it (bounded, CI).
"""

from __future__ import annotations

import argparse
import contextlib
import grp
import http.client
import json
import math
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BIN = Path(sys.executable).parent
QUESTIONS = ROOT / "eval" / "heldout-questions.jsonl"
# Seconds a roll waits after an instance is healthy again before it restarts
# the next one (new workers settle, nginx's idle connections to it refill).
SETTLE_AFTER_RESTART = 0.5
# Seconds after a graceful nginx reload until the old workers have handed over.
RELOAD_SECONDS = 1.0
# nginx's limit on requests that compute, per client address (rate, burst; the @RATE@ and
# @BURST@ of deploy/nginx.conf): what a real host should set. 10 a second, 40 at once, is far
# above what one person types, and leaves room for a venue's players behind one address.
LIMIT = ("10r/s", 40)
# for load generated on loopback, where every client has the one address 127.0.0.1
LOAD_LIMIT = ("10000r/s", 10000)


def retry_after(rate: str) -> int:
    """The whole seconds in which nginx's `rate` ("10r/s", "30r/m") frees one request:
    the Retry-After of its 429."""
    number, unit = rate.split("r/")
    per_second = float(number) / (60 if unit == "m" else 1)
    return max(1, math.ceil(1 / per_second))


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get(port: int, path: str, timeout: float = 5) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def build_of(port: int) -> str | None:
    """The index build an instance serves (its /healthz), None when it does not answer."""
    try:
        status, _, body = get(port, "/healthz", timeout=2)
    except OSError:
        return None
    return json.loads(body)["index"] if status == 200 else None


def wait_until(check, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise RuntimeError(f"timed out waiting for {what}")


# --- the processes ------------------------------------------------------------------


@dataclass
class Instance:
    """One gunicorn instance (master and its workers) on a loopback port."""

    port: int
    workdir: Path
    env: dict[str, str]
    proc: subprocess.Popen | None = None

    def start(self) -> None:
        log = (self.workdir / f"gunicorn-{self.port}.log").open("ab")
        self.proc = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "-c",
                str(HERE / "gunicorn.conf.py"),
                "-b",
                f"127.0.0.1:{self.port}",
                "faq_bot.web:create_app()",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=self.env,
            cwd=ROOT,
        )
        log.close()
        wait_until(lambda: self._alive() and build_of(self.port) is not None, "gunicorn")

    def _alive(self) -> bool:
        if self.proc is not None and self.proc.poll() is not None:
            raise RuntimeError(f"gunicorn on {self.port} ended ({self.proc.returncode})")
        return True

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)  # graceful: in-flight requests finish
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@dataclass
class Deployment:
    port: int  # nginx
    nginx_log: Path
    index_dir: Path
    instances: list[Instance]
    workdir: Path
    # take ports out of nginx's rotation (an empty set: all back in): rewrites
    # the config and reloads nginx gracefully (SIGHUP)
    drain: Callable[[set[int]], None]
    # set nginx's limit on requests that compute (rate, burst), reloaded the same way
    limit: Callable[[tuple[str, int]], None]


# under a path, nothing else is served (at a host's root, "location /" is the app's)
OUTSIDE_ROOT = "        location / {\n            return 404;\n        }"


def checked_root(root: str) -> str:
    """`root`, the path the service is served under ("" or "/faq"), when it is one nginx's
    patterns take as written (lower-case letters, digits, "-" and "_" in each part)."""
    if root and not re.fullmatch(r"(/[a-z0-9_-]+)+", root):
        raise ValueError(f"root must be empty or like /faq, not {root!r}")
    return root


def copy_error_pages(target: Path, root: str) -> None:
    """deploy/errors/ into `target` with their start-page link under `root` (readable by
    nginx's workers, an unprivileged user when started as root)."""
    shutil.copytree(HERE / "errors", target)
    for page in target.iterdir():
        page.write_text(page.read_text(encoding="utf-8").replace("@ROOT@", root), "utf-8")
        page.chmod(0o644)


def _nginx_conf(
    run: Path,
    port: int,
    upstreams: list[int],
    down: set[int],
    limit: tuple[str, int] = LIMIT,
    root: str = "",
) -> str:
    servers = "\n".join(
        f"        server 127.0.0.1:{p} max_fails=0{' down' if p in down else ''};"
        for p in upstreams
    )
    user = ""
    if os.geteuid() == 0:  # as root, nginx drops its workers to an unprivileged user
        nobody = pwd.getpwnam("nobody")
        user = f"user nobody {grp.getgrgid(nobody.pw_gid).gr_name};"
    text = (HERE / "nginx.conf").read_text(encoding="utf-8")
    for name, value in {
        "@USER@": user,
        "@RUN@": str(run),
        "@MIME_TYPES@": "/etc/nginx/mime.types",
        "@SERVERS@": servers,
        "@LISTEN@": f"127.0.0.1:{port}",
        "@ERRORS@": str(run / "errors"),
        "@RATE@": limit[0],
        "@BURST@": str(limit[1]),
        "@RETRY_AFTER@": str(retry_after(limit[0])),
        "@ROOT@": checked_root(root),
        "@OUTSIDE_ROOT@": OUTSIDE_ROOT if root else "",
    }.items():
        text = text.replace(name, value)
    return text


@contextlib.contextmanager
def nginx(
    upstreams: list[int], limit: tuple[str, int] = LIMIT, root: str = ""
) -> Iterator[tuple[int, Path, Callable[[set[int]], None], Callable[[tuple[str, int]], None]]]:
    """nginx on a free loopback port balancing `upstreams`, computing requests limited by
    `limit`, the service under the path `root` ("" for a host's root; its gunicorns run with
    that SCRIPT_NAME); yields its port, its log, a function that marks some upstreams
    ``down`` (drained) and one that sets another limit."""
    binary = nginx_binary()
    if binary is None:
        raise RuntimeError("nginx fehlt: ./scripts/ensure-nginx installiert Debians nginx")
    root = checked_root(root)
    # its own folder straight under the temp dir: nginx's workers (an unprivileged
    # user when started as root) must be able to reach the error pages in it
    run = Path(tempfile.mkdtemp(prefix="faq-bot-nginx-"))
    run.chmod(0o755)
    copy_error_pages(run / "errors", root)
    port = free_port()
    state: dict = {"down": set(), "limit": limit}
    conf = _nginx_conf(run, port, upstreams, set(), limit, root)
    (run / "nginx.conf").write_text(conf, encoding="utf-8")
    log = (run / "nginx.log").open("wb")
    proc = subprocess.Popen(
        [
            binary,
            "-e",
            "stderr",
            "-p",
            str(run),
            "-c",
            str(run / "nginx.conf"),
            "-g",
            "daemon off;",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:

        def up() -> bool:
            if proc.poll() is not None:
                raise RuntimeError((run / "nginx.log").read_text(errors="replace"))
            try:
                return get(port, root + "/healthz")[0] == 200
            except OSError:
                return False

        def reload(**changes) -> None:
            state.update(changes)
            conf = _nginx_conf(run, port, upstreams, state["down"], state["limit"], root)
            (run / "nginx.conf").write_text(conf, encoding="utf-8")
            proc.send_signal(signal.SIGHUP)  # new workers with the new config
            time.sleep(RELOAD_SECONDS)  # old workers finish what they were sending

        def drain(down: set[int]) -> None:
            reload(down=set(down))

        def set_limit(new: tuple[str, int]) -> None:
            reload(limit=new)

        wait_until(up, "nginx")
        yield port, run / "nginx.log", drain, set_limit
    finally:
        proc.send_signal(signal.SIGQUIT)  # graceful shutdown
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        shutil.rmtree(run, ignore_errors=True)


def build_index(index_dir: Path) -> None:
    subprocess.run(
        [str(BIN / "faq-bot"), "index", "--index", str(index_dir)],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )


@contextlib.contextmanager
def deployment(
    instances: int = 2, workers: int = 1, limit: tuple[str, int] = LIMIT
) -> Iterator[Deployment]:
    """The index built once, `instances` gunicorns sharing it, nginx in front (computing
    requests limited per client address by `limit`)."""
    workdir = Path(tempfile.mkdtemp(prefix="faq-bot-deploy-"))
    index_dir = workdir / "index"
    build_index(index_dir)
    env = {
        **os.environ,
        "FAQ_BOT_INDEX": str(index_dir),
        "FAQ_BOT_WORKERS": str(workers),
        "FAQ_BOT_BEHIND_PROXY": "1",
        "FAQ_BOT_ACCESS_LOG": "0",
    }
    running = [Instance(free_port(), workdir, env) for _ in range(instances)]
    try:
        for instance in running:
            instance.start()
        with nginx([i.port for i in running], limit) as (port, log, drain, set_limit):
            yield Deployment(port, log, index_dir, running, workdir, drain, set_limit)
    finally:
        for instance in running:
            instance.stop()
        shutil.rmtree(workdir, ignore_errors=True)


# --- load ---------------------------------------------------------------------------


def request_mix(index_dir: Path) -> list[tuple[str, str, bytes | None]]:
    """(method, path, body): searches with real questions, rulings, asks, pages."""
    from faq_bot.index import open_index

    questions = [
        json.loads(line)["q"] for line in QUESTIONS.read_text("utf-8").splitlines() if line
    ]
    index = open_index(index_dir)
    ids = [record.id for record in index.entries()]
    index.close()
    mix: list[tuple[str, str, bytes | None]] = []
    for i, q in enumerate(questions):
        mix.append(("GET", f"/api/search?q={quote(q)}", None))
        mix.append(("GET", f"/entry/{ids[(i * 13) % len(ids)]}", None))
        mix.append(("GET", f"/api/entries/{ids[(i * 7) % len(ids)]}", None))
        if i % 3 == 0:
            mix.append(("POST", "/api/ask", json.dumps({"question": q}).encode()))
        if i % 4 == 0:
            mix.append(("GET", f"/search?q={quote(q)}", None))
    return mix


@dataclass
class Load:
    """Clients sending the mix through nginx on keep-alive connections until stopped."""

    port: int
    mix: list[tuple[str, str, bytes | None]]
    clients: int = 4
    sent: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _threads: list[threading.Thread] = field(default_factory=list)

    def _client(self, offset: int) -> None:
        conn: http.client.HTTPConnection | None = None
        i = offset
        while not self._stop.is_set():
            method, path, body = self.mix[i % len(self.mix)]
            i += self.clients
            headers = {"Content-Type": "application/json"} if body else {}
            try:
                for attempt in (1, 2):
                    reused = conn is not None
                    if conn is None:
                        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                    try:
                        conn.request(method, path, body=body, headers=headers)
                        response = conn.getresponse()
                        break
                    except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                        # the server closed an idle keep-alive connection (nginx
                        # does on a reload) before answering: retry on a new
                        # connection as browsers do, never twice, never a fresh one
                        conn.close()
                        conn = None
                        if not reused or attempt == 2:
                            raise
                response.read()
                status, problem = response.status, ""
                if response.getheader("Connection", "").lower() == "close":
                    conn.close()
                    conn = None
            except (OSError, http.client.HTTPException) as exc:
                status, problem = 0, f"{type(exc).__name__}: {exc}"
                if conn is not None:
                    conn.close()
                conn = None
            with self._lock:
                self.sent += 1
                self.statuses[status] += 1
                if status == 0 or status >= 400:
                    self.failures.append(f"{method} {path[:60]} -> {status or problem}")
        if conn is not None:
            conn.close()

    def start(self) -> None:
        self._threads = [
            threading.Thread(target=self._client, args=(n,), daemon=True)
            for n in range(self.clients)
        ]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=60)


# --- the roll -----------------------------------------------------------------------


def roll(dep: Deployment, settle: float = 2.0, clients: int = 4) -> dict:
    """Build a new index and roll it (then a restart) across the instances under load."""
    load = Load(dep.port, request_mix(dep.index_dir), clients=clients)
    started = time.monotonic()
    load.start()
    try:
        time.sleep(settle)
        old = {i.port: build_of(i.port) for i in dep.instances}
        t0 = time.monotonic()
        build_index(dep.index_dir)
        new = os.readlink(dep.index_dir / "current").rstrip("/").rsplit("/", 1)[-1]
        wait_until(
            lambda: all(build_of(i.port) == new for i in dep.instances),
            "every instance on the new build",
        )
        swap_seconds = time.monotonic() - t0
        t0 = time.monotonic()
        for instance in dep.instances:  # one at a time: the others keep serving
            dep.drain({instance.port})  # nginx stops sending to it
            instance.stop()  # gunicorn finishes what it serves
            instance.start()
            dep.drain(set())  # back into rotation
            time.sleep(SETTLE_AFTER_RESTART)
        restart_seconds = time.monotonic() - t0
        time.sleep(settle)
        final = {i.port: build_of(i.port) for i in dep.instances}
    finally:
        load.stop()
    seconds = time.monotonic() - started
    failed = sum(n for status, n in load.statuses.items() if status == 0 or status >= 400)
    return {
        "instances": len(dep.instances),
        "requests": load.sent,
        "failed": failed,
        "statuses": {str(k): v for k, v in sorted(load.statuses.items())},
        "first_failures": load.failures[:10],
        "nginx_errors": [
            line
            for line in dep.nginx_log.read_text(errors="replace").splitlines()
            if "[error]" in line or "[alert]" in line or "[crit]" in line
        ][:20],
        "seconds": round(seconds, 1),
        "requests_per_second": round(load.sent / seconds, 1),
        "builds_before": sorted(set(old.values()), key=str),
        "new_build": new,
        "builds_after": sorted(set(final.values()), key=str),
        "index_swap_seconds": round(swap_seconds, 2),
        "rolling_restart_seconds": round(restart_seconds, 2),
        "ok": failed == 0 and set(final.values()) == {new} and new not in old.values(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--instances", type=int, default=2, help="gunicorn instances (>= 2)")
    parser.add_argument("--workers", type=int, default=1, help="workers per instance")
    parser.add_argument("--clients", type=int, default=4, help="concurrent clients")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds of load around")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args()
    # the load clients all send from 127.0.0.1: nginx's per-address limit must not count them
    with deployment(args.instances, args.workers, LOAD_LIMIT) as dep:
        report = roll(dep, settle=args.settle, clients=args.clients)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print(
            f"{report['instances']} instances behind nginx, {report['requests']} requests "
            f"in {report['seconds']} s ({report['requests_per_second']} req/s): "
            f"{report['failed']} failed; statuses {report['statuses']}"
        )
        print(
            f"index {report['builds_before']} -> {report['new_build']} on every instance "
            f"in {report['index_swap_seconds']} s; rolling restart "
            f"{report['rolling_restart_seconds']} s; now {report['builds_after']}"
        )
        for failure in report["first_failures"]:
            print(f"  failed: {failure}")
        print("OK" if report["ok"] else "FAILED")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
