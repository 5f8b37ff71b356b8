"""A tournament judge settling a dispute at a table: a 360 px phone, bad wifi, in a hurry."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_phone_e2e import QUESTION, phone_ctx, wait_for_service_worker

pytestmark = pytest.mark.browser

__all__ = ["phone_ctx"]  # the fixture, used here by name


def test_offline_a_question_the_chat_cannot_send_links_to_its_search_in_the_stored_copy(
    phone_ctx,
):
    # the chat needs the server; the stored copy can still search: the error says where
    page = phone_ctx.new_page()
    page.goto("/ask")
    wait_for_service_worker(page)
    phone_ctx.set_offline(True)
    try:
        page.locator("#chat-q").fill(QUESTION)
        page.locator("#chat-form button[type=submit]").click()
        expect(page.locator("#chat-error")).to_contain_text("Keine Verbindung zum Server")
        search = page.locator("#chat-error a")
        expect(search).to_have_text(f"In der Suche nachsehen: „{QUESTION}“")
        search.click()
        expect(page.locator(".offline-banner")).to_be_visible()
        expect(page).to_have_url(re.compile(r"/search\?q=Wer\+bezahlt"))
        expect(page.locator(".hit-title a").first).to_be_visible()  # from the stored copy
    finally:
        phone_ctx.set_offline(False)
