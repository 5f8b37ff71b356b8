"""Parsed JSON checked once for what no later step can take (`strictjson.flaw`)."""

from __future__ import annotations

import pytest

from faq_bot.strictjson import flaw, loads, refusal_german


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


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"x": NaN}', "„NaN“ ist in JSON keine Zahl"),
        ('{"x": -Infinity}', "„-Infinity“ ist in JSON keine Zahl"),
        ("[Infinity]", "„Infinity“ ist in JSON keine Zahl"),
        ('{"tw": 1e999999}', "eine Zahl, die zu groß ist"),
        ('{"tw": -1.5e400}', "eine Zahl, die zu groß ist"),
        # a probe: read as 0.0, "cost": 2e-400 passed as the integer 0
        ('{"cost": 2e-400}', "so nah an 0"),
        ('{"cost": -0.0000001e-330}', "so nah an 0"),
    ],
)
def test_loads_refuses_what_is_no_finite_json_number(text, said):
    """An HTTP probe: /api/ask took {"x": NaN} (RFC 8259 has no NaN or Infinity), and
    /api/check called "tw": 1e999999 "keine ganze Zahl"; Python's json reads both."""
    with pytest.raises(ValueError) as raised:
        loads(text)
    assert said in refusal_german(raised.value)


def test_loads_keeps_finite_numbers():
    assert loads('{"a": 1.5e300, "b": -0.0, "c": 12}') == {"a": 1.5e300, "b": -0.0, "c": 12}
    assert loads("[0e-400, 0.000e5, 1e-320]") == [0.0, 0.0, 1e-320]
