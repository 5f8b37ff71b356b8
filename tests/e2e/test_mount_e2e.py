"""Served under a path (gunicorn's ``SCRIPT_NAME=/faq``, as behind a proxy's
``location /faq/``), the scripts stay under it too: the chat asks ``/faq/api/ask`` and
links its passage under ``/faq``, the search box's suggestions come from
``/faq/api/suggest``, the checker's address stays under it, and the offline copy (its
service worker at ``/faq/sw.js``) reads ``/faq/entry/…`` and ``/faq/search`` as its own
addresses."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import DESKTOP, _context, offline
from tests.e2e.test_check_e2e import fill_example2
from tests.live_server import start_gunicorn

ROOT = "/faq"


@pytest.fixture(scope="module")
def mounted(built_index: Path) -> Iterator[str]:
    """The app under /faq on a real gunicorn: its address with the root."""
    server = start_gunicorn(built_index, root=ROOT)
    yield server.url + ROOT
    server.stop()


@pytest.fixture
def context(browser, mounted):
    context = _context(browser, mounted, viewport=DESKTOP)
    yield context
    context.close()


def test_the_chat_under_a_root_answers_and_links_under_it(context, mounted):
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/ask" in r.url else None)
    page.goto(mounted + "/ask")
    page.locator("#chat-q").fill("Wer bezahlt, wenn meine 227er gekontert wird?")
    page.locator("#chat-form button[type=submit]").click()
    link = page.locator("#chat-log li.turn a.passage-link").first
    expect(link).to_have_attribute(
        "href", re.compile(rf"^{ROOT}/entry/[^#/]+/absatz/\d+\?v=\w+#:~:text=[^#]+$")
    )
    assert asked and all(u.startswith(mounted + "/api/ask") for u in asked)
    expect(page).to_have_url(re.compile(rf"^{mounted}/ask\?t=[^#&]+#neu$"))
    link.click()
    expect(page).to_have_url(re.compile(rf"^{mounted}/entry/[^#/]+/absatz/\d+\?v=\w+"))
    expect(page.locator("h1")).to_be_visible()


def test_title_suggestions_under_a_root_come_from_under_it(context, mounted):
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/suggest" in r.url else None)
    page.goto(mounted + "/")
    page.locator("#q").press_sequentially("Aktions", delay=30)
    expect(page.locator('#title-suggestions option[value="Aktionsstapel"]')).to_have_count(1)
    assert asked and all(u.startswith(mounted + "/api/suggest?") for u in asked)


def test_the_offline_copy_under_a_root_reads_its_addresses(context, mounted):
    page = context.new_page()
    page.goto(mounted + "/")
    # the worker controls the page once installed (a root's worker would never do so here)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    worker = page.evaluate("() => navigator.serviceWorker.controller.scriptURL")
    assert worker == mounted + "/sw.js"
    with offline(context):
        page.goto(mounted + "/entry/flakbatterie")
        expect(page.locator("h1")).to_have_text("Flakbatterie (Basisausbau)")
        crumbs = page.locator("nav.crumbs a")
        expect(crumbs.first).to_have_attribute("href", ROOT + "/")
        page.goto(mounted + "/entry/flakbatterie/absatz/1")  # a paragraph's permalink
        expect(page.locator("h1")).to_have_text("Flakbatterie (Basisausbau)")
        expect(page).to_have_url(re.compile(rf"^{mounted}/entry/flakbatterie/absatz/1#p0$"))
        page.goto(mounted + "/search?q=Flakbatterie")
        hit = page.locator("#offline-app a[href*='/entry/']").first
        expect(hit).to_have_attribute("href", re.compile(rf"^{ROOT}/entry/"))
        page.goto(mounted + "/")  # the start page, with the documents
        expect(page.locator("#offline-app a[href*='/docs/']").first).to_have_attribute(
            "href", re.compile(rf"^{ROOT}/docs/")
        )


def test_the_checker_under_a_root_keeps_its_address_under_it(context, mounted):
    page = context.new_page()
    page.goto(mounted + "/check")
    page.evaluate("window.__sameDocument = true")
    fill_example2(page)
    page.locator("#resolve").click()
    expect(page.locator("#timeline > li")).to_have_count(3)
    assert page.evaluate("window.__sameDocument === true")  # check.js's fetch, not a reload
    expect(page).to_have_url(re.compile(rf"^{mounted}/check\?s=[\w-]+&n=[\w.-]+$"))
    rule = page.locator("#timeline a", has_text="227-Pfund Bombe (Basisausbau)").first
    expect(rule).to_have_attribute("href", ROOT + "/entry/227-pfund-bombe-basisausbau")
