"""End-to-end fixtures: a real server on localhost and Debian's chromium via Playwright.

The browser is never downloaded: Playwright drives ``/usr/bin/chromium``
(installed by ``scripts/ensure-chromium``). Screenshots go to
``artifacts/screenshots/`` (gitignored).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from faq_bot.config import ROOT
from faq_bot.web import create_app

CHROMIUM = os.environ.get("FAQ_BOT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def base_url(built_index: Path) -> Iterator[str]:
    """A real threaded HTTP server on a free localhost port, serving the real index."""
    app = create_app({"INDEX_DIR": str(built_index)})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        message = f"{CHROMIUM} fehlt: ./scripts/ensure-chromium installiert Debians chromium"
        if os.environ.get("CI"):
            # in CI a missing browser is a broken install step, never a reason to skip
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def _context(browser, base_url: str, **options):
    context = browser.new_context(base_url=base_url, locale="de-DE", **options)
    context.set_default_timeout(10_000)
    return context


@contextmanager
def offline(context) -> Iterator[None]:
    """The browser `context` without a network for the block, online again after it, also
    when the block fails (the tests after it load pages from the server)."""
    context.set_offline(True)
    try:
        yield
    finally:
        context.set_offline(False)


@pytest.fixture
def page(browser, base_url):
    context = _context(browser, base_url, viewport=DESKTOP)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def routed(browser, base_url):
    """A desktop page whose requests `page.route` can hold or drop.

    Playwright's docs: routes do not see requests a service worker intercepts, so block
    service workers when routing. In CI a held follow-up reached the server while the
    worker was taking control of the page. The offline tests have their own context.
    """
    context = _context(browser, base_url, viewport=DESKTOP, service_workers="block")
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def phone(browser, base_url):
    context = _context(browser, base_url, viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def nojs(browser, base_url):
    context = _context(browser, base_url, viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture(scope="session")
def shots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
