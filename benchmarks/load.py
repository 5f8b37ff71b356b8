"""Throughput benchmark: wrk against ``gunicorn -w 2`` on loopback.

Run with ``make load`` (or ``make bench``; ``scripts/ensure-wrk`` installs
Debian's wrk) or ``.venv/bin/python benchmarks/load.py [--duration 10]``.

Builds the index into a temporary folder, starts gunicorn with the production
settings (``deploy/gunicorn.conf.py``) and two workers, and lets wrk drive, for
a bounded time each:

- ``/api/search?q=…&mode=lexical`` with the real questions of the question
  files (each a different query, in turn), target >= 400 req/s (``--hybrid``:
  the hybrid mode, with the embedder, for comparison);
- ``/entry/<id>`` over every entry, target >= 1,000 req/s;

each twice: as wrk sends by default (no ``Accept-Encoding``: uncompressed
answers) and as a browser does (``Accept-Encoding: gzip, deflate, br``: brotli).
It prints requests per second, latency p50/p99, errors (connect, read, write,
timeouts, answers >= 400; the target is 0) and the CPU time the gunicorn
workers spent per request (from /proc; steadier than req/s on a shared
machine). It asserts nothing; wrk and the server share the machine, so the
figures are a floor.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

from faq_bot.config import ROOT
from faq_bot.index import open_index
from faq_bot.indexbuild import build_index

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent
# the real question files: held-out sets in the repository, the development
# set beside the checkout when it is there
QUESTION_FILES = [
    ROOT / "eval" / "heldout-questions.jsonl",
    ROOT / "eval" / "heldout2-questions.jsonl",
    ROOT.parent / "shared" / "eval" / "dev-questions.jsonl",
]
TARGETS = {"/api/search": 400.0, "/entry/<id>": 1000.0}
# (label, request headers): what wrk sends by default, and what a browser sends
ENCODINGS = [("identity", []), ("br", ["-H", "Accept-Encoding: gzip, deflate, br"])]


def questions() -> list[str]:
    for path in QUESTION_FILES[:2]:  # in the repository: never run without them
        if not path.is_file():
            sys.exit(f"benchmarks/load.py: question file missing: {path}")
    found = [path for path in QUESTION_FILES if path.is_file()]
    queries: list[str] = []
    for path in found:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                queries.append(json.loads(line)["q"])
    return list(dict.fromkeys(queries))


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            sys.exit(f"gunicorn ended with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    sys.exit("gunicorn did not become healthy")


def workers_cpu_seconds(master: int) -> float | None:
    """User + system CPU seconds of the gunicorn workers so far (None without /proc)."""
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
        total = 0
        for pid in children:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    except OSError:
        return None
    return total / os.sysconf("SC_CLK_TCK")


def run_wrk(url: str, paths_file: Path, seconds: int, connections: int, headers: list[str]) -> dict:
    command = [
        "wrk",
        "-t2",
        f"-c{connections}",
        f"-d{seconds}s",
        "--timeout",
        "5s",
        *headers,
        "-s",
        str(HERE / "wrk_paths.lua"),
        url,
        "--",
        str(paths_file),
    ]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=10, help="seconds per route")
    parser.add_argument("--connections", type=int, default=16, help="open connections")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument("--worker-class", default=None, help="gunicorn -k (default: gthread)")
    parser.add_argument(
        "--hybrid",
        action="store_true",
        help="build with the embedder and search in hybrid mode (default: lexical, the "
        "mode the throughput target is for; a hybrid query adds one embedding)",
    )
    args = parser.parse_args()
    mode = "hybrid" if args.hybrid else "lexical"
    if not args.hybrid:
        os.environ["FAQ_BOT_DENSE"] = "0"  # no vectors needed: builds in seconds
    if shutil.which("wrk") is None:
        sys.exit("wrk fehlt: ./scripts/ensure-wrk installiert Debians wrk")

    queries = questions()
    with tempfile.TemporaryDirectory(prefix="faq-bot-load-") as tmp:
        work = Path(tmp)
        index_dir = work / "index"
        build_index(ROOT / "corpus", index_dir)
        index = open_index(index_dir)
        ids = [record.id for record in index.entries()]
        index.close()
        routes = {
            "/api/search": [f"/api/search?q={quote(q)}&mode={mode}" for q in queries],
            "/entry/<id>": [f"/entry/{quote(i)}" for i in ids],
        }
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        env = {**os.environ, "FAQ_BOT_INDEX": str(index_dir), "FAQ_BOT_ACCESS_LOG": "0"}
        log = (work / "gunicorn.log").open("wb")
        server = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "-c",
                str(ROOT / "deploy" / "gunicorn.conf.py"),
                "-w",
                str(args.workers),
                *(["-k", args.worker_class] if args.worker_class else []),
                "-b",
                f"127.0.0.1:{port}",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=ROOT,
        )
        try:
            wait_healthy(url, server)
            print(
                f"wrk -t2 -c{args.connections} -d{args.duration}s against gunicorn "
                f"-w {args.workers} ({args.worker_class or 'gthread'}) on loopback; "
                f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; "
                f"{len(queries)} queries, {len(ids)} entries"
            )
            for route, paths in routes.items():
                paths_file = work / "paths.txt"
                paths_file.write_text("\n".join(paths) + "\n", encoding="utf-8")
                for label, headers in ENCODINGS:
                    # warm-up, not counted
                    run_wrk(url, paths_file, 2, args.connections, headers)
                    cpu_before = workers_cpu_seconds(server.pid)
                    figures = run_wrk(url, paths_file, args.duration, args.connections, headers)
                    cpu_after = workers_cpu_seconds(server.pid)
                    seconds = figures["duration_us"] / 1e6
                    rate = figures["requests"] / seconds
                    errors = sum(
                        figures[k] for k in ("connect", "read", "write", "status", "timeout")
                    )
                    cpu = (
                        f"{(cpu_after - cpu_before) / figures['requests'] * 1000:.2f} ms"
                        if cpu_before is not None and cpu_after is not None
                        else "?"
                    )
                    target = TARGETS[route]
                    verdict = "met" if rate >= target and errors == 0 else "NOT met"
                    print(
                        f"{route:12} {label:8} {rate:6.0f} req/s  "
                        f"p50 {figures['p50_us'] / 1000:5.1f} ms  "
                        f"p99 {figures['p99_us'] / 1000:6.1f} ms  errors {errors} "
                        f"({figures['requests']} requests)  server CPU {cpu}/request  "
                        f"load {os.getloadavg()[0]:.1f}  "
                        f"target >= {target:.0f} req/s, 0 errors: {verdict}"
                    )
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            log.close()


if __name__ == "__main__":
    main()
