"""A judge on a line that works but a server that answers slowly: the service worker cuts a
page off after a few seconds and shows the stored copy; "Erneut versuchen" must then wait
for the server instead of cutting it off again."""

from __future__ import annotations

import http.client
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, _context
from tests.e2e.test_phone_e2e import wait_for_service_worker

pytestmark = pytest.mark.browser

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "proxy-connection", "upgrade"}


class DelayProxy:
    """A real HTTP proxy on loopback in front of the test server that holds the requests
    whose path starts with a prefix in `slow` for that many seconds, as a congested venue
    line or a busy server would."""

    def __init__(self, upstream: str) -> None:
        parts = urlsplit(upstream)
        self.slow: dict[str, float] = {}
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # quiet
                pass

            def forward(self) -> None:
                for prefix, seconds in proxy.slow.items():
                    if self.path.startswith(prefix):
                        time.sleep(seconds)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                upstream_conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
                try:
                    upstream_conn.request(self.command, self.path, body=body, headers=headers)
                    response = upstream_conn.getresponse()
                    data = response.read()
                finally:
                    upstream_conn.close()
                self.send_response(response.status, response.reason)
                for key, value in response.getheaders():
                    if key.lower() not in HOP_BY_HOP and key.lower() != "content-length":
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            do_GET = do_POST = do_HEAD = forward

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> DelayProxy:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def slow_phone(browser, base_url):
    """(a phone page behind a `DelayProxy`, controlled by the service worker, the proxy)."""
    with DelayProxy(base_url) as proxy:
        context = _context(browser, proxy.url, viewport=PHONE, is_mobile=True, has_touch=True)
        try:
            page = context.new_page()
            page.goto("/")
            wait_for_service_worker(page)
            yield page, proxy
        finally:
            context.close()


def test_a_retry_from_the_offline_page_waits_for_a_slow_server(slow_phone):
    page, proxy = slow_phone
    proxy.slow["/check"] = 8.0  # over the worker's 6 s cut-off, under a retry's 60 s
    page.goto("/check", timeout=20_000)
    banner = page.locator(".offline-banner")
    expect(banner).to_be_visible()  # cut off: the stored copy says so
    expect(page.locator("#offline-app")).to_contain_text("braucht eine Verbindung")
    # the click waits for the navigation it starts (8 s)
    banner.get_by_role("link", name="Erneut versuchen").click(timeout=30_000)
    # the worker waited for the server this time: the checker itself, not the copy
    expect(page.locator("#offline-app")).to_have_count(0, timeout=30_000)
    expect(page.locator("#resolve")).to_be_visible()
    # once: the next load of a slow page is cut off again as before
    page.goto("/check", timeout=20_000)
    expect(page.locator(".offline-banner")).to_be_visible()


def test_a_retry_whose_address_redirects_waits_for_the_page_it_leads_to(slow_phone):
    """The review of the retry: a forum's "/check/" is a 301 to "/check"; the browser follows
    it with a navigation of its own, which must get the retry's patience too."""
    page, proxy = slow_phone
    proxy.slow["/check"] = 7.0  # "/check/" and "/check" alike
    page.goto("/check/", timeout=20_000)
    banner = page.locator(".offline-banner")
    expect(banner).to_be_visible()
    # the click waits for the navigation it starts: the 301 and the page, 7 s each
    banner.get_by_role("link", name="Erneut versuchen").click(timeout=40_000)
    expect(page.locator("#offline-app")).to_have_count(0, timeout=40_000)
    expect(page.locator("#resolve")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/check$"))
