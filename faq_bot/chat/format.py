"""An answer as German text for a terminal (``faq-bot ask``)."""

from __future__ import annotations

import textwrap
from typing import Any

from faq_bot.search import UNWORDED

from .wording import search_first_heading

__all__ = ["format_answer"]


def format_answer(data: dict[str, Any], width: int = 88) -> str:
    """An answer's JSON (`Answer.to_json`) as German text for a terminal."""
    lines = []
    if data.get("context"):
        lines.append(f"(im Zusammenhang mit: „{data['context']}“)")
    elif data.get("alone"):  # shaped like a follow-up, read on its own, as the chat says
        lines.append("(für sich gelesen, nicht im Zusammenhang mit der vorigen Frage)")
    lines.append(data["message"])
    if data.get("caution"):
        lines.append(data["caution"])
    found = data.get("answer")
    if found:
        lines.append("")
        if found.get("table"):  # row by row, cells apart; its "key sentence" is all of them
            lines.extend(_indented(found.get("table_lead") or "", width))  # prose before it
            lines.extend("  " + " | ".join(row) for row in found["table"])
            lines.append("")
        else:
            lines.extend(_indented(found["text"], width))
            if found.get("rest"):  # a list too long for an answer: what it leaves out
                lines.append(f"  {found['rest']['label']}: {found['rest']['url']}")
            lines.append("")
            lines.append(f"Kernsatz: „{found['highlight']['text']}“")
        lines.append(f"Zitat: {found['citation']}")
    related = data.get("related") or []
    if related:
        lines.append("")
        if found:  # a declined answer's message already introduces its closest entries
            lines.append("Siehe auch:")
        lines.extend(f"  - {r['title']}  {r['url']}" for r in related)
    earlier = data.get("earlier")
    if earlier:  # a declined answer in a conversation: the entry it was about
        lines.append("")
        lines.append("Zuletzt ging es um:")
        lines.append(f"  - {earlier['title']}  {earlier['url']}")
    searched = data.get("search_first") or []
    if searched:  # a declined answer: the search's first hits not listed above
        lines.append("")
        lines.append(search_first_heading(related))
        lines.extend(
            f"  - {s['title']}  {s['url']}" + ("" if s.get("matched", True) else f"  ({UNWORDED})")
            for s in searched
        )
    if data.get("suggestion"):
        lines.append(f"Meinten Sie: {data['suggestion']}?")
    if data.get("check_url"):
        lines.append("")
        lines.append(f"Im Aktionsstapel-Prüfer nachspielen: {data['check_url']}")
    return "\n".join(lines)


def _indented(text: str, width: int) -> list[str]:
    """`text` wrapped and indented, each of its lines apart: a lead-in and the list items
    or paragraph joined to it keep their own lines, as on the page."""
    return [
        wrapped
        for line in text.split("\n")
        for wrapped in textwrap.wrap(line, width, initial_indent="  ", subsequent_indent="  ")
    ]
