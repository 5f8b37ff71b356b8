"""A judge on a venue's bad wifi: the line drops in the middle of a request, or is gone
after one visit. What was typed is not lost, and a page that needs the server says so."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.test_chat_e2e import FIRST, FOLLOWUP, ask

pytestmark = pytest.mark.browser


def test_without_javascript_a_followup_lost_on_a_dropped_line_is_back_in_the_field(nojs):
    # the browser's own error page is fine; Back must not make the judge retype the question
    nojs.goto("/ask")
    ask(nojs, FIRST)
    expect(nojs.locator("#chat-log li.turn")).to_have_count(1)
    nojs.route(
        "**/ask*",
        lambda route: (
            route.abort("internetdisconnected")
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    ask(nojs, FOLLOWUP)
    nojs.wait_for_url("chrome-error://**")
    nojs.unroute("**/ask*")
    nojs.go_back()
    expect(nojs.locator("#chat-log li.turn")).to_have_count(1)
    expect(nojs.locator("#chat-q")).to_have_value(FOLLOWUP)
