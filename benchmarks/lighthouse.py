"""Lighthouse (mobile) on every page type, against a local gunicorn.

Run with ``make lighthouse`` or ``.venv/bin/python benchmarks/lighthouse.py
[--runs N] [--port P] [--cpu-multiplier auto|X]`` (needs the index, Debian's
chromium and Lighthouse from ``scripts/ensure-lighthouse``; a benchmark tool,
never a runtime dependency, not run in CI: about 30 s per page and run).

It starts ``faq-bot serve`` (gunicorn, 2 workers) on a free port in
5720–5729, runs Lighthouse's default mobile audit (a Moto G Power on "slow
4G", simulated throttling) on the start page, a search, a ruling, a chat
answer, the checker, the FAQ's contents, a 404 and the offline page, and
prints performance, accessibility, best practices and SEO per page (the median
of ``--runs``), with every audit that cost points. Exit status 1 when
performance, accessibility or best practices is below 100 on any page (SEO is
reported only: search, error and offline pages are ``noindex`` on purpose),
except for the one point a 404 page cannot avoid: Lighthouse logs the page's
own 404 status as a console error (best practices, "errors-in-console").

CPU: Lighthouse simulates the phone by slowing the host's CPU down 4× and
assumes a host with a benchmark index of at least 1000 (below it, it warns
that "the tested device appears to have a slower CPU than Lighthouse expects"
and the score is not meaningful). ``--cpu-multiplier auto`` (the default)
keeps 4× on such a host and scales it down on a slower or busy one
(4 × index / 1000, at least 1×), so the simulated phone stays the same
device; the index and multiplier of every run are printed. ``--cpu-multiplier
4`` forces Lighthouse's own setting.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NPM_DIR = ROOT / "benchmarks" / "npm"
LIGHTHOUSE = NPM_DIR / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = os.environ.get("FAQ_BOT_CHROMIUM", "/usr/bin/chromium")
PORTS = range(5720, 5730)

PAGES = [
    ("start", "/"),
    ("search", "/search?q=227er"),
    ("ruling", "/entry/227-pfund-bombe-basisausbau"),
    ("chat answer", "/ask?q=Wer+bezahlt%2C+wenn+meine+227er+gekontert+wird%3F"),
    ("checker", "/check"),
    ("FAQ contents", "/docs/how-faq"),
    ("404", "/entry/gibt-es-nicht"),  # audited despite its status (--ignore-status-code)
    ("offline", "/offline"),
]
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
REQUIRED = ("performance", "accessibility", "best-practices")  # must be 100
METRICS = (
    ("FCP", "first-contentful-paint"),
    ("LCP", "largest-contentful-paint"),
    ("TBT", "total-blocking-time"),
    ("CLS", "cumulative-layout-shift"),
)
# Lighthouse's own flakes ("Please run Lighthouse again"): such a run is repeated
RETRY_ON = {"NO_NAVSTART", "NO_FCP", "NO_LCP", "PROTOCOL_TIMEOUT", "NO_TRACING_STARTED"}
RETRIES = 2
HOST_INDEX = 1000  # Lighthouse's own threshold for a host fast enough for 4x
BENCHMARK_JS = (
    "import {pageFunctions} from 'lighthouse/core/lib/page-functions.js';"
    "console.log(pageFunctions.computeBenchmarkIndex.toString())"
)


def free_port(preferred: int | None) -> int:
    for port in [preferred] if preferred else PORTS:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise SystemExit(f"no free port among {preferred or f'{PORTS.start}–{PORTS.stop - 1}'}")


def start_server(port: int) -> subprocess.Popen:
    command = [
        str(ROOT / ".venv" / "bin" / "faq-bot"),
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        "2",
    ]
    server = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: stopped as a whole
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(
                f"faq-bot serve stopped: {server.stderr.read() if server.stderr else ''}"
            )
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return server
        except OSError:
            time.sleep(0.5)
    server.terminate()
    raise SystemExit("faq-bot serve did not answer /healthz within 120 s")


class Calibration:
    """Lighthouse's own CPU benchmark (``computeBenchmarkIndex``, the function it runs
    in the page at the start of every run), run just before each run in a chromium
    like the one Lighthouse starts, so the multiplier fits the host's load right now."""

    def __init__(self) -> None:
        from playwright.sync_api import sync_playwright

        source = subprocess.run(
            ["node", "--input-type=module", "-e", BENCHMARK_JS],
            cwd=NPM_DIR,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        self.function = source.strip()
        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless=new", "--no-sandbox", "--disable-gpu"]
        )
        self.page = self.browser.new_page()

    def index(self) -> float:
        return float(self.page.evaluate(f"({self.function})()"))

    def close(self) -> None:
        self.browser.close()
        self.playwright.stop()


def cpu_multiplier(setting: str, calibration: Calibration | None) -> float:
    if setting != "auto" or calibration is None:
        return float(setting)
    return round(max(1.0, min(4.0, 4.0 * calibration.index() / HOST_INDEX)), 2)


def lighthouse(url: str, multiplier: float) -> dict:
    with tempfile.TemporaryDirectory(prefix="faq-bot-lighthouse-") as tmp:
        report = Path(tmp) / "report.json"
        command = [
            str(LIGHTHOUSE),
            url,
            "--quiet",
            "--output=json",
            f"--output-path={report}",
            f"--only-categories={','.join(CATEGORIES)}",
            f"--throttling.cpuSlowdownMultiplier={multiplier}",
            "--ignore-status-code",
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
        ]
        env = dict(os.environ, CHROME_PATH=CHROMIUM, TMPDIR=tmp)
        # its own process group, so Lighthouse and the chromium it starts stop together
        proc = subprocess.Popen(
            command, env=env, stderr=subprocess.PIPE, text=True, start_new_session=True
        )
        try:
            _out, err = proc.communicate(timeout=300)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        if not report.exists():
            raise SystemExit(f"Lighthouse failed on {url}:\n{err[-2000:]}")
        return json.loads(report.read_text())


def only_own_status(report: dict, audit_id: str) -> bool:
    """True when `audit_id` failed only because the page itself answered 404 (a 404
    page must: Lighthouse logs the document's status as a console error)."""
    if audit_id != "errors-in-console":
        return False
    items = report["audits"][audit_id].get("details", {}).get("items", [])
    url = report.get("finalDisplayedUrl") or report.get("requestedUrl")
    return bool(items) and all(
        item.get("source") == "network"
        and item.get("sourceLocation", {}).get("url") == url
        and "status of 404" in item.get("description", "")
        for item in items
    )


def lost_points(report: dict) -> list[tuple[str, str, bool]]:
    """(category, text, expected) of each audit that cost points."""
    out = []
    for cat in report["categories"].values():
        if cat["score"] is None or cat["score"] >= 1:
            continue
        for ref in cat["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref["weight"] > 0 and audit["score"] is not None and audit["score"] < 1:
                value = audit.get("displayValue") or ""
                text = f"{cat['id']}: {ref['id']} {audit['score']:.2f} {value}".rstrip()
                out.append((cat["id"], text, only_own_status(report, ref["id"])))
    return out


def shown(report: dict, audit: str) -> str:
    """An audit's display value ("0.8 s"), "–" when the run has none."""
    return report["audits"].get(audit, {}).get("displayValue", "–").replace("\u00a0", " ")


def score(report: dict, category: str) -> int | None:
    value = report["categories"][category]["score"]
    return None if value is None else round(value * 100)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="runs per page (median; default 1)")
    parser.add_argument("--port", type=int, help="port for faq-bot serve (default: 5720–5729)")
    parser.add_argument(
        "--cpu-multiplier",
        default="auto",
        help="Lighthouse's CPU slowdown (default auto: 4x on a host with index ≥ 1000)",
    )
    parser.add_argument("--only", help="only pages whose path contains this text")
    parser.add_argument("--save", type=Path, help="write each JSON report into this folder")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        raise SystemExit("Lighthouse fehlt: scripts/ensure-lighthouse ausführen.")
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        raise SystemExit("chromium fehlt: scripts/ensure-chromium ausführen.")
    pages = [(n, p) for n, p in PAGES if not args.only or args.only in p]
    port = free_port(args.port)
    # a SIGTERM (timeout, kill) stops the server and browsers too, as Ctrl-C does
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    server = start_server(port)
    calibration = Calibration() if args.cpu_multiplier == "auto" else None
    failed = False
    header = f"{'page':14} {'perf':>4} {'a11y':>4} {'bp':>4} {'seo':>4}"
    header += "".join(f" {name:>6}" for name, _ in METRICS) + "  cpu (index)"
    try:
        print(f"Lighthouse mobile, faq-bot serve on port {port}, {args.runs} run(s) per page")
        print(header)
        for name, path in pages:
            reports = []
            cpus = []
            for _ in range(args.runs):
                for _attempt in range(RETRIES + 1):
                    multiplier = cpu_multiplier(args.cpu_multiplier, calibration)
                    report = lighthouse(f"http://127.0.0.1:{port}{path}", multiplier)
                    error = report.get("runtimeError", {}).get("code")
                    if error not in RETRY_ON:
                        break
                    print(f"    ({name}: Lighthouse {error}, running again)")
                cpus.append(f"{multiplier}x ({report['environment']['benchmarkIndex']:.0f})")
                reports.append(report)
                if args.save:
                    args.save.mkdir(parents=True, exist_ok=True)
                    slug = name.replace(" ", "-")
                    (args.save / f"{slug}-{len(reports)}.json").write_text(json.dumps(report))
            # the run with the median performance score stands for the page
            reports.sort(key=lambda r: score(r, "performance") or 0)
            middle = reports[len(reports) // 2]
            scores = {c: statistics.median([score(r, c) or 0 for r in reports]) for c in CATEGORIES}
            metrics = "".join(f" {shown(middle, audit):>6}" for _, audit in METRICS)
            print(
                f"{name:14} "
                + " ".join(f"{scores[c]:4.0f}" for c in CATEGORIES)
                + metrics
                + "  "
                + ", ".join(cpus)
            )
            if middle.get("runtimeError"):
                print(f"    runtime error: {middle['runtimeError'].get('message')}")
            lost = lost_points(middle)
            for _cat, text, expected in lost:
                print(
                    f"    {text}" + (" (the page's own 404 status: expected)" if expected else "")
                )
            for category in REQUIRED:
                if scores[category] < 100 and not all(
                    expected for cat, _text, expected in lost if cat == category
                ):
                    failed = True
    finally:
        if calibration is not None:
            calibration.close()
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    print(
        "FAILED: below 100" if failed else "OK: 100 for performance, accessibility, best practices"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
