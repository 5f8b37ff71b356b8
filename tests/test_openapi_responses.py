"""API responses validated against the schemas of /api/openapi.json (with the
semantics of the OpenAPI version it declares), and the documented limits match
the server."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_profiles import examples

from faq_bot.query import MAX_QUERY_LENGTH


def _resolve(node: Any, spec: dict) -> Any:
    if isinstance(node, dict):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[-1]
            return _resolve(spec["components"]["schemas"][name], spec)
        return {k: _resolve(v, spec) for k, v in node.items()}
    if isinstance(node, list):
        return [_resolve(v, spec) for v in node]
    return node


@pytest.fixture
def spec(client) -> dict:
    return client.get("/api/openapi.json").get_json()


def _schema(spec: dict, path: str, method: str, status: int, media: str) -> dict:
    response = spec["paths"][path][method]["responses"][str(status)]
    return _resolve(response["content"][media]["schema"], spec)


def assert_valid(spec, path, method, response, media="application/json") -> None:
    # imported here, not at collection: jsonschema and its kin cost every pytest
    # process (each xdist worker) a few tenths of a second
    from openapi_schema_validator import OAS30Validator, OAS31Validator

    schema = _schema(spec, path, method, response.status_code, media)
    validator = OAS31Validator if spec["openapi"].startswith("3.1") else OAS30Validator
    validator(schema).validate(response.get_json(force=True))


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("/api/search?q=Depot", "/api/search"),
        ("/api/search?q=wer+bezahlt+die+227er&n=3", "/api/search"),
        ("/api/search?q=", "/api/search"),
        ("/api/suggest?q=Bom", "/api/suggest"),
        ("/api/entries/depot", "/api/entries/{entry_id}"),
        ("/api/entries/gibt-es-nicht", "/api/entries/{entry_id}"),
        ("/api/entries/radarstation-kaputt", "/api/entries/{entry_id}"),  # with suggestions
        ("/api/entries/227-pfund-bombe", "/api/entries/{entry_id}"),  # an alias: 301 JSON
        ("/healthz", "/healthz"),
    ],
)
def test_get_responses_match_their_openapi_schema(client, spec, url, path):
    assert_valid(spec, path, "get", client.get(url))


def test_opensearch_suggestions_match_their_documented_type(client, spec):
    response = client.get("/api/suggest?q=Bom&format=opensearch")
    assert response.mimetype == "application/x-suggestions+json"
    assert_valid(spec, "/api/suggest", "get", response, "application/x-suggestions+json")


def test_ask_responses_match_their_openapi_schema(client, spec):
    ok = client.post("/api/ask", json={"question": "Wer bezahlt die Bombe?", "history": None})
    assert_valid(spec, "/api/ask", "post", ok)
    bad = client.post(
        "/api/ask", data='{"question": "Bombe \\ud800"}', content_type="application/json"
    )
    assert bad.status_code == 400
    assert_valid(spec, "/api/ask", "post", bad)


def test_hit_schema_names_every_field_a_hit_has(client, spec):
    hit = client.get("/api/search?q=Depot").get_json()["hits"][0]
    assert set(hit) <= set(spec["components"]["schemas"]["Hit"]["properties"])


def test_entry_schema_names_every_field_an_entry_has(client, spec):
    entry = client.get("/api/entries/aktionsstapel").get_json()
    assert set(entry) <= set(spec["components"]["schemas"]["Entry"]["properties"])


def test_documented_query_length_is_the_server_limit(client, spec):
    q = next(p for p in spec["paths"]["/api/search"]["get"]["parameters"] if p["name"] == "q")
    assert q["schema"]["maxLength"] == MAX_QUERY_LENGTH
    assert client.get("/api/search?q=" + "a" * MAX_QUERY_LENGTH).status_code == 200
    assert client.get("/api/search?q=" + "a" * (MAX_QUERY_LENGTH + 1)).status_code == 400


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.text(
        st.sampled_from(" \t\n\x00\x1c\x85\xa0\xad\u200b\u200e\u202a\u2060\u3000\ufeffaÄ1?"),
        max_size=6,
    )
)
def test_the_search_query_pattern_admits_what_the_server_reads_as_a_query(client, spec, q):
    """An API probe: a zero-width space alone matched the documented pattern of /api/search's
    q and was a 400 („Bitte einen Suchbegriff angeben“)."""
    (param,) = [p for p in spec["paths"]["/api/search"]["get"]["parameters"] if p["name"] == "q"]
    documented = bool(q) and re.search(param["schema"]["pattern"], q) is not None
    response = client.get("/api/search", query_string={"q": q, "n": 1})
    assert (response.status_code == 200) is documented, (q, response.status_code)


def test_the_category_enum_is_in_one_order_in_every_worker(spec):
    """A name and its slug fold alike („Basisausbau“, „basisausbau“): sorted by the folded
    form alone, their order came from a set's iteration, which differs between worker
    processes (hash seeds), so each worker served another document under another ETag."""
    parameter = next(
        p for p in spec["paths"]["/api/search"]["get"]["parameters"] if p["name"] == "category"
    )
    enum = parameter["schema"]["enum"]
    assert "Basisausbau" in enum and "basisausbau" in enum
    assert enum == sorted(enum, key=lambda s: (s.casefold(), s))


def test_every_post_documents_the_refusals_of_its_body(spec):
    # a probe: POST /check answered 415 (Content-Encoding) and 501 (Transfer-Encoding: gzip)
    # that its description did not name; every route that reads a body refuses both
    posts = {p: ops["post"] for p, ops in spec["paths"].items() if "post" in ops}
    assert posts
    for path, op in posts.items():
        assert {"413", "415", "501"} <= set(op["responses"]), path


def test_a_checker_link_redirect_is_documented(spec):
    assert "301" in spec["paths"]["/check"]["get"]["responses"]


def test_the_documented_length_of_a_history_entry_id_is_the_server_limit(client, spec):
    """An API probe: the schema allowed any length, the server refuses more than 200."""
    body = spec["paths"]["/api/ask"]["post"]["requestBody"]["content"]["application/json"]
    turn = body["schema"]["properties"]["history"]["items"]["oneOf"][1]
    limit = turn["properties"]["entry"]["maxLength"]
    for length, status in ((limit, 200), (limit + 1, 400)):
        history = [{"question": "Wie viele Karten hat ein Depot?", "entry": "e" * length}]
        response = client.post("/api/ask", json={"question": "Und mehr?", "history": history})
        assert response.status_code == status


def test_the_readable_pattern_lists_every_character_cleaning_drops_or_blanks():
    """READABLE_PATTERN is written out (deriving it cost every web worker 0.1 s at start);
    derived again here from `clean_input` and `str.strip` over the Basic Multilingual Plane."""
    from faq_bot.text import READABLE_PATTERN, clean_input

    ranges: list[list[int]] = []
    for code in range(0x10000):
        if 0xD800 <= code <= 0xDFFF or clean_input(chr(code)).strip():
            continue
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    escaped = (f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in ranges)
    assert READABLE_PATTERN == "[^" + "".join(escaped) + "]"
