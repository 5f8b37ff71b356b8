"""Splitter for short rules texts whose sections are bare heading lines.

Document shape (``corpus/003_…``, the miniatures round rules), one paragraph per line::

    Das Spiel wird in Runden gespielt …        <- text before the first heading
    Runde                                      <- heading
    Zu Beginn einer Runde werden …
    Befehl
    Ein Befehl für eine Gruppe besteht aus
    - Modus                                    <- list naming the headings that follow
    - Bewegung
    Modus                                      <- heading, part of "Befehl"
    …
    Bewegung
    Wenn gewünscht, kann nun die Gruppe …
    Bewegt werden darf nur in geraden Linien.  <- a sentence, not a heading
    …
    Patt

Granularity: one entry per heading, the lines below it its paragraphs (a run of
"- " list lines is kept together as one markdown list paragraph).

* A heading is a line of at most four words and 40 characters that starts with a
  capital letter, has no punctuation (``.,:;!?``), is not a list item and is
  followed by a line that is not a heading too.
* The text before the first heading states how the game runs and ends, which a
  player asks about, so it becomes an entry titled "Einleitung" (the only title
  not taken from the text) rather than preamble.
* When a section lists items ("- Modus", "- Bewegung", …) whose names are the
  titles of the headings right after it, those headings are its parts and get
  it as their `section` ("Befehl").

Ids are the slugged heading ("runde-bewegung"); paragraphs are markdown.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from faq_bot.corpus.splitters import LIST_ITEM, EntryMaker, Split, short_heading

INTRO_TITLE = "Einleitung"
MAX_WORDS = 4
MAX_CHARS = 40


@dataclass
class _Draft:
    title: str
    paragraphs: list[str] = field(default_factory=list)
    section: str | None = None


def _candidate(line: str) -> bool:
    return short_heading(line, max_words=MAX_WORDS, max_chars=MAX_CHARS)


def _is_heading(lines: list[str]) -> list[bool]:
    flags = [False] * len(lines)
    for i in range(len(lines) - 2, -1, -1):
        flags[i] = _candidate(lines[i]) and not flags[i + 1] and not _candidate(lines[i + 1])
    return flags


def _paragraphs(lines: list[str]) -> list[str]:
    """One paragraph per line; consecutive list items form one paragraph."""
    out: list[str] = []
    in_list = False
    for line in lines:
        item = bool(LIST_ITEM.match(line))
        if item and in_list:
            out[-1] += "\n" + line
        else:
            out.append(line)
        in_list = item
    return out


def split(text: str, *, doc_id: str, id_prefix: str) -> Split:
    lines = [line.rstrip() for line in text.split("\n") if line.strip()]
    flags = _is_heading(lines)
    drafts: list[_Draft] = []
    body: list[str] = []
    intro: list[str] = []
    for line, heading in zip(lines, flags, strict=True):
        if heading:
            if drafts:
                drafts[-1].paragraphs = _paragraphs(body)
            else:
                intro = body
            drafts.append(_Draft(title=line.strip()))
            body = []
        else:
            body.append(line)
    if drafts:
        drafts[-1].paragraphs = _paragraphs(body)
    else:
        intro = body
    if intro:
        drafts.insert(0, _Draft(title=INTRO_TITLE, paragraphs=_paragraphs(intro)))

    for i, d in enumerate(drafts):
        items = {
            LIST_ITEM.sub("", item).strip()
            for p in d.paragraphs
            for item in p.split("\n")
            if LIST_ITEM.match(item)
        }
        for later in drafts[i + 1 :]:
            if later.title not in items:
                break
            later.section = d.title

    maker = EntryMaker(doc_id, id_prefix, "markdown")
    for d in drafts:
        maker.add(d.title, d.paragraphs, id_source=d.title, section=d.section)
    return Split((), tuple(maker.entries))
