"""Scenario checker figures: reading (JSON Schema validation) and resolving, per scenario.

    .venv/bin/python benchmarks/stack_check.py

Prints milliseconds per call for the FAQ's example 2 and for a scenario at the
reader's limits (200 cards, 200 stack entries). No target is asserted here.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from faq_bot.stack import check, read_scenario
from faq_bot.stack.read import MAX_ITEMS

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE2 = ROOT / "tests" / "data" / "scenarios" / "example2_bomb_on_bomb.json"


def largest() -> dict:
    return {
        "players": {"A": {"tw": 1000}, "B": {"tw": 1000}},
        "cards": [
            {"id": f"c{i}", "name": "Basis", "owner": "AB"[i % 2], "kind": "base"}
            for i in range(MAX_ITEMS)
        ],
        "stack": [
            {
                "id": f"s{i}",
                "by": "AB"[i % 2],
                "source": f"c{i}",
                "effect": {"type": "draw", "amount": 1},
                "cost": 1,
            }
            for i in range(MAX_ITEMS)
        ],
    }


def per_call(function, repeat: int) -> float:
    function()
    start = time.perf_counter()
    for _ in range(repeat):
        function()
    return (time.perf_counter() - start) / repeat * 1000


def main() -> None:
    example = json.loads(EXAMPLE2.read_text(encoding="utf-8"))
    big = largest()
    for name, data, repeat in (("example 2", example, 500), ("200 entries", big, 20)):
        read_ms = per_call(lambda d=data: read_scenario(d), repeat)
        check_ms = per_call(lambda d=data: check(d), repeat)
        print(f"{name:12} read {read_ms:8.2f} ms   read+validate+resolve {check_ms:8.2f} ms")


if __name__ == "__main__":
    main()
