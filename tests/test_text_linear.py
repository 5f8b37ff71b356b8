"""`faq_bot.text.split_sentences` does work linear in its text: it copied the text from a
sentence's start (or from 0) at every break, time with the square of the length ("vs. A "
70,000 times: 5 s; a paragraph, a preview's source and an answer's window are split)."""

from __future__ import annotations

from typing import Any

import pytest

from faq_bot.text import sentence_window, split_sentences

LENGTH = 20_000  # characters of each text
PER_CHARACTER = 20  # characters copied per character of text, at most (2 to 10 are)


class Counted(str):
    """A text that counts the characters its slices copy (class-wide, `copied`)."""

    copied = 0

    def __getitem__(self, key: Any) -> str:
        part = str.__getitem__(self, key)
        Counted.copied += len(part)
        return part


# breaks that end a sentence, ones that do not (abbreviations, ordinals), quotations
UNITS = {
    "sentences": "A. ",
    "abbreviations": "vs. A ",
    "ordinals": "1. A ",
    "ellipses": "… A ",
    "quotations": "„x. A“ ",
    "open quotations": "„x. A ",
}


@pytest.mark.parametrize("unit", UNITS.values(), ids=list(UNITS))
@pytest.mark.parametrize("helper", ["split_sentences", "sentence_window"])
def test_splitting_sentences_copies_a_bounded_amount_per_character(unit, helper) -> None:
    text = Counted(unit * (LENGTH // len(unit)))
    Counted.copied = 0
    if helper == "split_sentences":
        spans = split_sentences(text)
        assert len(spans) >= 1 and spans[-1][1] <= len(text)
    else:
        low, high = sentence_window(text, len(text) // 2, len(text) // 2 + 1, 700)
        assert 0 <= low <= len(text) // 2 < high
    assert Counted.copied <= PER_CHARACTER * len(text), Counted.copied / len(text)
