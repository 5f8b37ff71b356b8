"""Parsed JSON checked once for what no later step can take (`strictjson.flaw`)."""

from __future__ import annotations

import pytest

from faq_bot.strictjson import flaw


def nested(levels: int) -> list:
    value: list = []
    for _ in range(levels - 1):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("value", "found"),
    [
        (nested(32), None),
        (nested(33), ("deep", [0] * 32)),
        (nested(5000), ("deep", [0] * 32)),  # no recursion, however deep
        ({"a": [1, "ok", {"b": "x\ud800"}]}, ("surrogate", ["a", 2, "b"])),
        ({"a": {"\udc80": 1}}, ("surrogate", ["a"])),  # a key: its object's path
        ("\ud800", ("surrogate", [])),
        ({"a": ["\U0001f600", "Zerstörer"]}, None),  # JSON's "\\ud83d\\ude00" parses to it
        (5, None),
    ],
)
def test_flaw_finds_too_deep_nesting_and_lone_surrogates_with_their_path(value, found):
    assert flaw(value, 32) == found
