"""Paragraph permalinks: ``/entry/<id>/absatz/<n>?v=<fingerprint>``.

`faq_bot.text.paragraph_path` builds them: `n` is the paragraph's number as the
page labels it ("Absatz 3", counted from 1; its anchor is ``#p2``), `v` the fingerprint
(`faq_bot.text.fingerprint`) of its plain text when the link was made. A rebuild may
move, reword or drop paragraphs; `locate` says where such a link leads now, so the view
(`faq_bot.web.pages.paragraph`) can redirect, show the paragraph, or say what changed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from faq_bot.text import FINGERPRINT_LENGTH, LINK_INVISIBLE, LINK_TAIL, fingerprint

# "3", never "03" or "+3" (one address per paragraph), as the OpenAPI description gives it;
# a longer number is read by `tidy_number`, a number past the end of every entry all the
# same ("…/absatz/100000": the entry has 4)
NUMBER_PATTERN = "^[1-9][0-9]{0,38}$"
_NUMBER = re.compile(NUMBER_PATTERN)
# A link's "v" is the fingerprint or its first `MIN_VERSION` digits or more: forums and
# chat apps cut long links short ("…?v=803f02e" of "…?v=803f02e1"), and four hex digits
# still tell an entry's paragraphs apart (65,536 values for a few dozen paragraphs).
MIN_VERSION = 4
VERSION_PATTERN = f"^[0-9a-f]{{{MIN_VERSION},{FINGERPRINT_LENGTH}}}$"
_VERSION = re.compile(VERSION_PATTERN)
# a fingerprint in any case, after what a copy may put before it ("?v= 803f02e1"), then
# what a sentence or an autolinker adds ("…?v=803f02e1)."); the same class both sides, which
# JavaScript reads alike (its \s is not Python's)
_TIDY = re.compile(
    rf"[^0-9A-Za-z]{{0,8}}([0-9A-Fa-f]{{{MIN_VERSION},{FINGERPRINT_LENGTH}}})[^0-9A-Za-z]{{0,8}}"
)

Where = Literal["here", "moved", "changed", "gone", "missing"]


@dataclass(frozen=True)
class Located:
    """Where a permalink leads: `index` (0-based) is the paragraph to show, mark or
    redirect to; for "gone" and "missing" the one that was asked for.

    - ``here``: the paragraph exists with the linked text (or the link has no `v`);
    - ``moved``: another paragraph of the entry has the linked text (redirect there);
    - ``changed``: the paragraph exists, no paragraph has the linked text any more;
    - ``gone``: the entry has no such paragraph any more, none has the linked text;
    - ``missing``: no such paragraph and no `v` to say there ever was one (a 404).
    """

    where: Where
    index: int


# What a permalink says when it no longer leads to the linked text, said the same on the
# ruling page, in the 404 for a number past the end (`link_note`) and offline (the offline
# shell hands them to static/offline.js, which fills in the same placeholders).
LINK_NOTES = {
    "changed": "Dieser Absatz hat sich geändert, seit der Link erstellt wurde: "
    "Sie lesen seine aktuelle Fassung.",
    "gone": "Den verlinkten Absatz {number} gibt es in diesem Eintrag nicht mehr: Der Eintrag "
    "hat sich geändert, seit der Link erstellt wurde. Unten steht der Eintrag in seiner "
    "aktuellen Fassung.",
    "missing": "Der Eintrag „{title}“ hat keinen Absatz {number}; er hat {count}.",
    "count_one": "einen Absatz",
    "count_many": "{n} Absätze",
}


def link_note(where: Where, number: int, title: str, paragraphs: int) -> str:
    """The note of `LINK_NOTES` for a link to paragraph `number` (from 1) of the entry
    titled `title`, which has `paragraphs` paragraphs; "" where the link leads to its text."""
    if where not in ("changed", "gone", "missing"):
        return ""
    one, many = LINK_NOTES["count_one"], LINK_NOTES["count_many"]
    count = one if paragraphs == 1 else many.format(n=paragraphs)
    return LINK_NOTES[where].format(number=number, title=title, count=count)


def paragraph_number(raw: str) -> int | None:
    """The number of ``/absatz/<raw>`` (from 1), or None when it is none."""
    return int(raw) if _NUMBER.fullmatch(raw) else None


# what a forum's autolinker or a sentence adds after a link ("3)", "3.", "3),"), or a copy
# (`LINK_TAIL`), and here also a base64 tool's "=" padding (a checker link is base64url
# without it; a chat link's question may end in "=", so `LINK_TAIL` has none)
ADDED_AFTER = "(?:" + LINK_TAIL + "|=)" + "{0,8}"
# a number written with leading zeros ("03"), spaces or invisible characters before it
# (" 3", a no-break space, a zero-width space: what static/offline.js reads alike) or with
# that after it
_TIDY_NUMBER = re.compile(f"[ \u00a0{LINK_INVISIBLE}]{{0,8}}0*([1-9][0-9]*)" + ADDED_AFTER)
# a checker's share link (`faq_bot.stack.permalink`'s alphabet) with that after it, or
# Markdown's emphasis a forum put around the link ("**…Xy9**", "~~…~~"; its "_" is a
# letter of the alphabet: `shared_meant`)
_TIDY_SHARED = re.compile(r"([A-Za-z0-9_-]+)" + "(?:" + LINK_TAIL + "|[=*~])" + "{0,8}")
# trailing "_" a link may have lost as Markdown's emphasis ("_…Xy9_", "__…__")
EMPHASIS_UNDERSCORES = 2
# characters of a number worth tidying: any number of digits in a link someone could mean
# (a number past the end of every entry is still a number, „…/absatz/100000“)
TIDY_LONGEST = 200


def tidy_number(raw: str) -> int | None:
    """The paragraph number `raw` meant once leading spaces and zeros and what a forum or a
    sentence added after it are dropped ("03" -> 3, " 3" -> 3, "3)" -> 3), as
    `tidy_version` does for ``v``; None when that is none."""
    found = _TIDY_NUMBER.fullmatch(raw) if len(raw) <= TIDY_LONGEST else None
    return int(found.group(1)) if found else None


def shared_meant(raw: str) -> list[str]:
    """The links a checker's share link ``s`` may have meant before a forum or a sentence
    added to it (``…Xy9.``, ``…Xy9)``, ``…Xy9==``, a zero-width space, ``…Xy9**``), most
    likely first: the link without that, then without one or two "_" more (Markdown's
    ``_…_``, whose "_" the alphabet has too: only a decoding can tell). Empty when `raw`
    has nothing that can be dropped."""
    found = _TIDY_SHARED.fullmatch(raw)  # the classes do not overlap: linear in `raw`
    if not found:
        return []
    link = found.group(1)
    meant = [link] if link != raw else []
    for n in range(1, EMPHASIS_UNDERSCORES + 1):
        if len(link) > n and link[-n:] == "_" * n:
            meant.append(link[:-n])
    return meant


def valid_version(raw: str) -> bool:
    """Whether `raw` has the shape of a paragraph fingerprint (lower-case hex)."""
    return _VERSION.fullmatch(raw) is not None


def tidy_version(raw: str) -> str | None:
    """`raw` as a fingerprint once what a copy put before it and what a forum's autolinker
    or a sentence adds after it are dropped (" 803f02e1", "803f02e1)", "803f02e1.") and
    upper case is lowered; None when that is none."""
    found = _TIDY.fullmatch(raw)  # anchored both ends: linear in `raw`, however long
    return found.group(1).lower() if found else None


def tidy_link(number: str, version: str) -> tuple[int | None, str, bool]:
    """The paragraph number (None when it is none) and `v` a link meant, with what a forum
    or a copy added dropped (`tidy_number`, `tidy_version`; a `v` that cannot be tidied as
    given), and whether either was tidied: such a link is redirected once, to what it
    meant."""
    n, tidied = paragraph_number(number), False
    if n is None and (meant := tidy_number(number)) is not None:  # "…/absatz/3)"
        # a number longer than `NUMBER_PATTERN` as it is is no tidying: redirected to itself
        # it would loop ("…/absatz/100000?v=<a text gone>")
        n, tidied = meant, str(meant) != number
    if version and not valid_version(version) and (tidy := tidy_version(version)) is not None:
        version, tidied = tidy, True  # "…?v=803f02e1)" from a forum
    return n, version, tidied


def locate(plains: Sequence[str], index: int, version: str) -> Located:
    """Where the link to paragraph `index` (0-based) made for the text with fingerprint
    `version` ("" for a link without one; a fingerprint cut short matches the paragraphs
    whose fingerprint it begins) leads among the entry's plain paragraphs `plains` now.
    When several paragraphs have the text, the one nearest to `index`."""
    exists = 0 <= index < len(plains)
    if not version:
        return Located("here" if exists else "missing", index)
    if exists and fingerprint(plains[index]).startswith(version):
        return Located("here", index)
    same = [i for i, text in enumerate(plains) if fingerprint(text).startswith(version)]
    if same:
        return Located("moved", min(same, key=lambda i: (abs(i - index), i)))
    return Located("changed" if exists else "gone", index)
