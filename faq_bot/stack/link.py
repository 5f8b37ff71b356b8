"""The checker link for a chatbot question about the action stack.

``check_url_for(question) -> str | None``
    A question that names cards of the checker's catalog
    (`faq_bot.stack.load_catalog`, names and aliases) and uses a word about the
    action stack (`STACK_WORDS`: kontern, Reaktion, Stapel, zuerst, bezahlen,
    abhandeln, ...) gets ``/check?s=<permalink>&aus=frage#result`` of a scenario with
    those cards, alternately owned by players A and B (5 TW each), marked as made from a
    question (``aus=frage``: the page says the scenario is guessed) and opening at the
    result. Where the catalog gives a card's default effect and a fitting target among
    the other player's named cards, the card also gets a stack entry: abilities without a
    target (a Radarstation drawing) at the bottom, the others in the order named, counters
    last (whichever the question names first), each answering the other player's topmost
    entry, of the kind it counters where there is one; the scenario is validated. None when
    the guessed stack is empty or not legal (a link to the cards alone resolves nothing),
    and when the question names one card twice (a scenario holds each card once: it would
    drop an action).
"""

from __future__ import annotations

import re
from typing import Any

from faq_bot.text import fold

__all__ = ["FROM_QUESTION", "RESULT", "STACK_WORDS", "check_url_for"]

# ``aus=frage`` in a checker link made from a question: the page says that its scenario
# (owners, TW, the order of the stack) is guessed from the question's words
FROM_QUESTION = "frage"
# the id of the checker page's result: a link opens there (on a phone the result lies below
# the page's heading and lead)
RESULT = "result"

_WORD = re.compile(r"\w+")
UNTARGETED = ("draw", "produce_tw", "other")
STACK_WORDS = tuple(
    fold(w)
    for w in (
        "konter",
        "reaktion",
        "reagier",
        "stapel",
        "zuerst",
        "zuletzt",
        "bezahl",
        "zahlen",
        "zahlt",
        "abhandel",
        "abgehandelt",
        "abwickel",
        "verpuff",
        "reihenfolge",
        "ansag",
        "angesagt",
        "lifo",
        "kette",
        "antwort",
        "aufgelöst",
        "auflös",
    )
)


def _named_cards(question: str) -> list[Any] | None:
    """The catalog cards `question` names, in the order named; None when it names one
    card twice ("ich kontere mit meiner 227er auf seine 227er"): a scenario holds each
    card once, so it would drop an action and could contradict the answer."""
    from faq_bot.stack import load_catalog

    folded = " " + " ".join(fold(w) for w in re.findall(r"[\w]+", question)) + " "
    found: list[tuple[int, Any]] = []
    for card in load_catalog():
        spans: list[tuple[int, int]] = []
        for name in (card.name, *card.aliases):
            key = " ".join(fold(w) for w in re.findall(r"[\w]+", name))
            at = folded.find(f" {key} ") if key else -1
            while at >= 0:
                spans.append((at, at + len(key) + 1))
                at = folded.find(f" {key} ", at + 1)
        if not spans:
            continue
        if _separate(spans) > 1:
            return None
        found.append((min(spans)[0], card))
    found.sort(key=lambda pc: pc[0])
    return [card for _pos, card in found]


def _separate(spans: list[tuple[int, int]]) -> int:
    """How many places the overlapping `spans` make ("227er-Bombe" holds "227er": one)."""
    count, end = 0, -1
    for start, stop in sorted(spans):
        if start >= end:
            count += 1
        end = max(end, stop)
    return count


def _mentions_stack(question: str) -> bool:
    return any(w.startswith(STACK_WORDS) for w in (fold(x) for x in _WORD.findall(question)))


def _scenario(cards: list[Any]) -> dict[str, Any]:
    from faq_bot.stack.model import AMOUNT_EFFECTS

    players = ("A", "B")
    scenario_cards = []
    for i, card in enumerate(cards):
        item = {"id": f"k{i + 1}", "name": card.name, "owner": players[i % 2]}
        item["kind"] = card.kind.value
        scenario_cards.append(item)
    stack: list[dict[str, Any]] = []
    # abilities without a target (draw, produce) are what the others answer: bottom first;
    # counters last, whichever the question names first: a counter answers an entry below it
    order = sorted(
        range(len(cards)),
        key=lambda i: (cards[i].effect.value == "counter", cards[i].effect.value not in UNTARGETED),
    )
    for i in order:
        card = cards[i]
        owner = players[i % 2]
        effect: dict[str, Any] = {"type": card.effect.value}
        kind = card.effect.value
        if kind in ("destroy", "lock", "unlock", "protect", "damage", "prevent_damage", "discard"):
            wanted_owner = owner if kind == "protect" else players[(i + 1) % 2]
            targets = [
                c
                for j, c in enumerate(scenario_cards)
                if j != i
                and c["owner"] == wanted_owner
                and (card.target_kind is None or c["kind"] == card.target_kind.value)
            ]
            if not targets:
                continue
            effect["target"] = targets[0]["id"]
        elif kind == "counter":
            answered = _countered(stack, scenario_cards, players[(i + 1) % 2], card.target_kind)
            if answered is None:
                continue
            effect["target"] = answered
        elif kind == "other":
            effect["text"] = card.description[:200]
        elif kind == "declare_attack":
            continue
        if card.effect in AMOUNT_EFFECTS:
            effect["amount"] = card.amount if card.amount is not None else 1
        entry: dict[str, Any] = {
            "id": f"s{len(stack) + 1}",
            "by": owner,
            "source": f"k{i + 1}",
            "effect": effect,
        }
        if card.cost is not None:
            entry["cost"] = card.cost
        if card.play_cost is not None:
            entry["play_cost"] = card.play_cost
        if card.sacrifice:
            entry["sacrifice"] = True
        if card.lock_source:
            entry["lock_source"] = True
        stack.append(entry)
    return {
        "phase": "Bauphase",
        "players": {p: {"tw": 5} for p in players},
        "cards": scenario_cards,
        "stack": stack,
    }


def _countered(
    stack: list[dict[str, Any]], cards: list[dict[str, Any]], other: str, kind: Any
) -> str | None:
    """The entry a counter of the player facing `other` answers: `other`'s topmost entry
    whose card is of the counter's target `kind` (an action card for Erfolgreiche Abwehr),
    else `other`'s topmost entry (the checker's hint then says what the card counters);
    None when `other` has nothing on the stack."""
    kinds = {c["id"]: c["kind"] for c in cards}
    theirs = [e for e in stack if e["by"] == other]
    fitting = [e for e in theirs if kind is None or kinds[e["source"]] == kind.value]
    chosen = (fitting or theirs)[-1:]
    return chosen[0]["id"] if chosen else None


def check_url_for(question: str) -> str | None:
    """``/check?s=...&aus=frage#result`` for a question naming catalog cards and the stack,
    else None; None too when nothing can be put on the stack (no card's target is named,
    or the guess would be illegal): the link's words promise a stack played through, and a
    form with the cards alone resolves nothing (two phone reviews: the chat's own example
    question, one card, opened „Noch nichts auf dem Aktionsstapel“)."""
    from faq_bot.stack import encode_permalink, read_scenario, validate

    if not _mentions_stack(question):
        return None
    cards = _named_cards(question)
    if not cards:
        return None
    scenario = _scenario(cards[:8])
    if not scenario["stack"]:
        return None
    try:
        if validate(read_scenario(scenario)):
            return None
        return f"/check?s={encode_permalink(scenario)}&aus={FROM_QUESTION}#{RESULT}"
    except ValueError:  # ScenarioFormatError / PermalinkError: no link rather than a bad one
        return None
