"""Sentences of a paragraph, shared by the dense index and the chatbot.

``split_sentences(text) -> list[(start, end)]``
    Character spans of the sentences of `text`. A sentence ends at . ! ? …
    followed by space and an upper-case letter, digit or quote; abbreviations
    ("z. B.", "vgl.") and numbers ("1.") do not end one.
"""

from __future__ import annotations

import re

__all__ = ["split_sentences"]

_WORD = re.compile(r"\w+")
_SENTENCE_END = re.compile(r"[.!?…][\"“”»)]?\s+(?=[\"„»(]?[A-ZÄÖÜ0-9])")
_ABBREVIATIONS = frozenset(
    "z b d h s vgl bzw ggf u a usw evtl inkl ca nr bsp max min etc abs std zb dh ua o ä".split()
)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of the sentences of `text`; abbreviations and "1." do not end one."""
    spans = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        before = text[start : m.start() + 1]
        last = _WORD.findall(before[-12:])
        token = last[-1].lower() if last else ""
        if text[m.start()] == "." and (token in _ABBREVIATIONS or token.isdigit()):
            continue
        end = m.end()
        sentence_end = len(text[:end].rstrip())
        if sentence_end > start:
            spans.append((start, sentence_end))
        start = end
    if start < len(text):
        tail_end = len(text.rstrip())
        if tail_end > start:
            spans.append((start, tail_end))
    return spans or [(0, len(text))]
