"""The Host header: one that cannot be read, or that is not one of the host names the
service answers to (``FAQ_BOT_TRUSTED_HOSTS``), gets a German 400, never a 500 (the
error page builds links, which need a host)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faq_bot.config import trusted_hosts
from faq_bot.web import create_app
from faq_bot.web.errors import HOST_DETAIL

LONG_LABEL = "x" * 300  # an IDNA label may have 63 characters


@pytest.mark.parametrize("path", ["/", "/entry/spiel", "/search?q=Bombe", "/nirgends"])
def test_an_unreadable_host_gets_a_german_page_with_400(client, path):
    response = client.get(path, headers={"Host": LONG_LABEL})
    assert response.status_code == 400
    page = response.get_data(as_text=True)
    assert "Ungültige Anfrage" in page and "Host-Header" in page
    assert response.headers["Content-Security-Policy"]  # the app's headers still apply


def test_an_unreadable_host_gets_the_api_error_shape(client):
    response = client.get("/api/search?q=Bombe", headers={"Host": LONG_LABEL})
    assert response.status_code == 400
    assert response.get_json() == {"error": "bad_request", "detail": HOST_DETAIL}


@pytest.fixture(scope="module")
def trusting_app(built_index):
    return create_app({"INDEX_DIR": str(built_index), "TRUSTED_HOSTS": ["faq.example.org"]})


def test_a_host_not_trusted_is_refused_in_german(trusting_app):
    client = trusting_app.test_client()
    page = client.get("/entry/spiel", headers={"Host": "evil.example"})
    api = client.get("/api/search?q=Bombe", headers={"Host": "evil.example"})
    assert page.status_code == api.status_code == 400
    assert "evil.example" not in page.get_data(as_text=True)  # not echoed
    assert api.get_json()["detail"] == HOST_DETAIL


def test_a_trusted_host_is_served_with_its_name_in_the_links(trusting_app):
    response = trusting_app.test_client().get("/entry/spiel", headers={"Host": "faq.example.org"})
    assert response.status_code == 200
    assert "http://faq.example.org/entry/spiel" in response.get_data(as_text=True)


def test_trusted_hosts_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("FAQ_BOT_TRUSTED_HOSTS", " faq.example.org, ,localhost ")
    assert trusted_hosts() == ["faq.example.org", "localhost"]
    monkeypatch.setenv("FAQ_BOT_TRUSTED_HOSTS", "")
    assert trusted_hosts() is None


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=300))
def test_no_host_header_makes_a_page_fail(client, host: str):
    response = client.get("/entry/spiel", headers={"Host": host})
    assert response.status_code in (200, 400)
