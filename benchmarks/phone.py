"""Phone benchmark: bytes on the wire per page and a cold search on a slow network.

Run with ``.venv/bin/python benchmarks/phone.py [--runs N]`` (needs the index
and Debian's chromium, as the browser tests do). Prints figures only; it
asserts nothing (the issue's target, first paint ≤ 1.0 s, is printed as met or
missed).

1. Transferred bytes per page (body bytes) without compression, with gzip and
   with brotli, through the app's own compression layer.
2. A cold ``/search?q=227er`` in chromium on a throttled network (CDP
   ``Network.emulateNetworkConditions``: 400 kbit/s both ways, 400 ms round
   trip; and a 2 s round trip): per run the first contentful paint (the page
   paints once, with its first hit) and when the HTML's first and last byte
   arrived, then the medians and the bytes chromium received.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time

from werkzeug.serving import make_server

from faq_bot.config import ROOT, default_index_dir
from faq_bot.web import create_app

PAGES = [
    "/",
    "/search?q=227er",
    "/entry/227-pfund-bombe-basisausbau",
    "/entry/schadenverteilungsphase",
    "/docs/how-faq",
    "/ask?q=Wer+bezahlt,+wenn+meine+227er+gekontert+wird?",
    "/check",
    "/api/search?q=Bombe",
    "/static/print.css",
    "/static/app.js",
    "/offline-data.json",
]
# first contentful paint (ms after navigation start); the page is painted only once
# its render-blocking stylesheet arrived, so this is when the hit is on screen
PAINT_JS = """() => new Promise((resolve) => {
  new PerformanceObserver((list) => {
    const fcp = list.getEntries().find((e) => e.name === "first-contentful-paint");
    if (fcp) resolve(fcp.startTime);
  }).observe({ type: "paint", buffered: true });
  setTimeout(() => resolve(-1), 5000);
})"""
NAVIGATION_JS = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  return [nav.responseStart, nav.responseEnd];
}"""
FIRST_PAINT_TARGET = 1.0  # seconds, issue 11: a cold search at 400 kbit/s and 400 ms
WAIT_FOR_WORKER = """() => navigator.serviceWorker.ready.then(() => new Promise((resolve) => {
  if (navigator.serviceWorker.controller) resolve(true);
  else navigator.serviceWorker.addEventListener("controllerchange", () => resolve(true));
}))"""
CHROMIUM = os.environ.get("FAQ_BOT_CHROMIUM", "/usr/bin/chromium")


def transferred_bytes(app) -> None:
    client = app.test_client()
    print(f"{'page':55} {'plain':>8} {'gzip':>8} {'brotli':>8}")
    for path in PAGES:
        sizes = []
        for encoding in ("identity", "gzip", "br"):
            with client.get(path, headers={"Accept-Encoding": encoding}) as response:
                sizes.append(len(response.get_data()))
        print(f"{path[:55]:55} {sizes[0]:8d} {sizes[1]:8d} {sizes[2]:8d}")


def throttled_search(
    base_url: str, latency_ms: int, kbps: int, runs: int = 3, warm: bool = False
) -> None:
    """`warm`: visit "/" first (service worker installed, stylesheet cached), then search.

    Chromium's network emulation does not apply to the service worker's own
    fetches, so a warm run measures the cache, not the network.
    """
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        times, paints, received, first_bytes, last_bytes = [], [], [], [], []
        for _ in range(runs):
            context = browser.new_context(
                base_url=base_url, viewport={"width": 360, "height": 740}, is_mobile=True
            )
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send(
                "Network.emulateNetworkConditions",
                {
                    "offline": False,
                    "latency": latency_ms,
                    "downloadThroughput": kbps * 1000 / 8,
                    "uploadThroughput": kbps * 1000 / 8,
                },
            )
            if warm:
                page.goto("/")
                page.evaluate(WAIT_FOR_WORKER)
            got = [0]
            cdp.on(
                "Network.loadingFinished",
                lambda e, got=got: got.__setitem__(0, got[0] + int(e["encodedDataLength"])),
            )
            started = time.perf_counter()
            page.goto("/search?q=227er", wait_until="commit")
            page.locator(".hit-title a").first.wait_for(state="visible")
            times.append(time.perf_counter() - started)
            page.wait_for_load_state("load")
            fcp = page.evaluate(PAINT_JS)
            paints.append(fcp / 1000)
            first_byte, last_byte = page.evaluate(NAVIGATION_JS)
            first_bytes.append(first_byte / 1000)
            last_bytes.append(last_byte / 1000)
            received.append(got[0])
            context.close()
        browser.close()
    fcp_median = statistics.median(paints)
    print(
        f"{'after one visit to /' if warm else 'cold'} /search?q=227er at {kbps} kbit/s, "
        f"{latency_ms} ms RTT, {runs} runs:\n"
        f"  first contentful paint (the hit painted): "
        f"{' '.join(f'{p:.2f}' for p in paints)} s, median {fcp_median:.2f} s"
        + (
            f" (target ≤ {FIRST_PAINT_TARGET:.1f} s: "
            f"{'met' if fcp_median <= FIRST_PAINT_TARGET else 'missed'})"
            if (latency_ms, kbps, warm) == (400, 400, False)
            else ""
        )
        + f"\n  HTML first byte median {statistics.median(first_bytes):.2f} s, "
        f"last byte {statistics.median(last_bytes):.2f} s; first hit seen by Playwright "
        f"{statistics.median(times):.2f} s; {int(statistics.median(received))} bytes received"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="cold loads at 400 ms (default 7)")
    args = parser.parse_args()
    index_dir = os.environ.get("FAQ_BOT_INDEX", str(default_index_dir()))
    app = create_app({"INDEX_DIR": index_dir, "CORPUS_DIR": str(ROOT / "corpus")})
    print("== transferred bytes per page (response body)")
    transferred_bytes(app)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_port}"
        print("== throttled cold search (chromium, CDP network emulation)")
        throttled_search(base, latency_ms=400, kbps=400, runs=args.runs)
        throttled_search(base, latency_ms=2000, kbps=400, runs=1)
    finally:
        server.shutdown()


if __name__ == "__main__":
    import logging

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    main()
