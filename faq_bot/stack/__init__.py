"""The scenario checker: who resolves first, what fizzles, who pays what.

Three separate, pure calls, in the manner of python-chess (parse / is_legal / push):

    scenario = read_scenario(text)      # raises ScenarioFormatError
    errors = validate(scenario)         # rule violations as data
    result = resolve(scenario, rules)   # validates, then resolves LIFO

`check(data, rules)` does all three; `result_to_json` gives the JSON of
`stack-scenarios.md`. `rules` maps FAQ titles to entry ids and comes from
`faq_bot.stack.rules.rule_ids_from_corpus(corpus)`; this package itself never
reads the corpus, the index or the web.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from faq_bot.stack.catalog import (
    CatalogCard,
    catalog_card_to_json,
    catalog_suggestions,
    find_card,
    load_catalog,
)
from faq_bot.stack.model import (
    Card,
    Effect,
    EffectType,
    Error,
    ErrorCode,
    Kind,
    Outcome,
    Phase,
    Player,
    Reason,
    Result,
    Scenario,
    StackEntry,
    Step,
    Zone,
)
from faq_bot.stack.permalink import PermalinkError, decode_permalink, encode_permalink
from faq_bot.stack.read import ScenarioFormatError, read_scenario, scenario_to_json
from faq_bot.stack.resolve import resolve, rule_titles
from faq_bot.stack.validate import validate

__all__ = [
    "Card",
    "CatalogCard",
    "Effect",
    "EffectType",
    "Error",
    "ErrorCode",
    "Kind",
    "Outcome",
    "PermalinkError",
    "Phase",
    "Player",
    "Reason",
    "Result",
    "Scenario",
    "ScenarioFormatError",
    "StackEntry",
    "Step",
    "Zone",
    "catalog_card_to_json",
    "catalog_suggestions",
    "check",
    "decode_permalink",
    "encode_permalink",
    "find_card",
    "load_catalog",
    "read_scenario",
    "resolve",
    "result_to_json",
    "rule_titles",
    "scenario_to_json",
    "validate",
]


def check(data: str | bytes | Mapping[str, Any], rules: Mapping[str, str] | None = None) -> Result:
    """Read, validate and resolve a scenario. Raises ScenarioFormatError for non-scenarios."""
    return resolve(read_scenario(data), rules)


def result_to_json(result: Result) -> dict[str, Any]:
    """The checker's answer as the JSON of `stack-scenarios.md`.

    An illegal scenario has `ok: false`, its `errors`, no `order` or `steps`, and
    `end_of_phase` and `final` are null. Beyond the contract, legal or not: `hints`
    (`faq_bot.stack.hints`).
    """
    return {
        "ok": result.ok,
        "errors": [
            {"code": e.code.value, "entry": e.entry, "message": e.message, "rules": list(e.rules)}
            for e in result.errors
        ],
        # beyond stack-scenarios.md: what the cards' FAQ entries say besides (`hints`)
        "hints": [
            {"entry": h.entry, "message": h.message, "rules": list(h.rules)} for h in result.hints
        ],
        "order": list(result.order),
        "steps": [
            {
                "entry": s.entry,
                "outcome": s.outcome.value,
                "reason": s.reason.value if s.reason else None,
                "paid": s.paid,
                "explanation": s.explanation,
                "rules": list(s.rules),
            }
            for s in result.steps
        ],
        "end_of_phase": None
        if result.end_of_phase is None
        else {
            "damage": dict(result.end_of_phase.damage),
            "destroyed": list(result.end_of_phase.destroyed),
        },
        "final": None
        if result.final is None
        else {
            "players": {p.name: {"tw": p.tw, "drawn": p.drawn} for p in result.final.players},
            "cards": {c.id: {"zone": c.zone.value, "locked": c.locked} for c in result.final.cards},
        },
    }
