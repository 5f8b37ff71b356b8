"""Splitter for rules prose whose step headings were lost, with recurring worked examples.

Document shape (``corpus/001_…``, phase 3 of a territory game), one paragraph per line::

    3. Beordern und Kämpfen |                     <- document heading: preamble
    Diese Phase besteht aus 4 Schritten …:       <- announces a list that is missing
    Der aktive Spieler platziert nun …            <- step 1 (its heading was lost)
    Achtung: … / Tipp: … / Hinweis: …             <- notes
    Beispiel „China“                              <- worked example; the same names
    Das Gebiet „China“ hat 7 Produktionspunkte …     recur in every step
    Der aktive Spieler bewegt nun …               <- step 2
    …
    Die Kampfrunde                                <- a real heading
    - Rückzug / - Würfel werfen / - …             <- its agenda: names of the sub-steps
    Zu Beginn jeder Kampfrunde …                  <- sub-step "Rückzug"
    …
    Sind am Ende einer Kampfrunde … Kampfresultate:
    A. Der Verteidiger hat keine Einheiten mehr im Gebiet.   <- outcome
    …
    Beispiel „Verteidiger hat keine Einheiten mehr“          <- illustrates outcome A

Granularity: one entry per step a player goes through. Examples and notes are
never entries; they stay with the step they illustrate. Boundaries:

* A short heading-like line (at most five words, no punctuation, followed by
  text) starts an entry titled by it. A list right below it is its agenda.
* The first text line after an agenda starts the agenda's first item; later, a
  text line containing every word of the next agenda item ("… einen grauen
  Würfel werfen") starts that item. Those entries are titled by the item and
  have the heading as `section`.
* An example ("Beispiel …") runs on while its lines are concrete (they contain a
  digit or a quotation mark: names of territories, counts). The first general
  line after it starts a new step: that is where the rulebook moves on.
* A general line right after a line ending in ":" that is not followed by its
  list starts a new step (the announced enumeration was lost in extraction).
* "A. …", "B. …" lines are outcomes of the current step: entries with the
  step's path as `section`.
* An example whose quoted name consists of words of an earlier entry's title
  ("Beispiel „Angreifer hat keine Einheiten mehr“" for outcome B) is moved to
  that entry, even when the source prints it later. This is the only reordering.

Titles: a heading, agenda item or outcome keeps the source wording. A step
without a heading is titled by what it does (`action_title`, HanTa's tags): the
first full verb of its text in the infinitive with its noun, e.g. "Der aktive
Spieler platziert nun beliebig viele Einheiten …" -> "Einheiten platzieren".
Without such a verb (or without HanTa) it is titled by its first sentence
(parenthesised asides dropped) when that has at most twelve words, else by its
first clause cut after the last capitalised word within the first ten words
(`derive_title`); that earlier title stays an alias id, so its old URL answers
with a 301. A step whose action is the title of an agenda item printed later
("Für jede Infanterie-Einheit … Würfel werfen" before "Die Kampfrunde") is that
item's text displaced by the extraction and is joined to it; its example goes to
the sibling item the example names ("… für einen Rückzug" -> "Rückzug"). The first entry,
before any boundary, takes the document heading ("Beordern und Kämpfen").
A list whose items are whole sentences holds unrelated rules: one paragraph per
item; a list of actions without full stops stays one paragraph.
Ids are the slugged titles; paragraphs are markdown (lists), one per line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from faq_bot.corpus.splitters import LIST_ITEM, EntryMaker, Split, short_heading
from faq_bot.morphology import tagger

SECTION_SEP = " › "
_NOTE = re.compile(r"^(Achtung|Tipp|Hinweis|Wichtig|Anmerkung|Beachte)\s*:", re.I)
_EXAMPLE = re.compile(r"^Beispiel\b\s*(.*)$")
_OUTCOME = re.compile(r"^([A-Z])\.\s+(\S.*?)\.?$")
_DOC_NUMBER = re.compile(r"^\d+(?:\.\d+)*\.?\s+")
_CONCRETE = re.compile(r"[\d„“”\"‚‘»«]")
_QUOTED = re.compile(r"[„“\"‚»«](.+?)[“”\"‘«»]")
_ASIDE = re.compile(r"\s*\([^()]*\)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZÄÖÜ„])|[.!?:]\s*$")
_WORD = re.compile(r"\w+")
_TOKEN = re.compile(r"\w[\w-]*")
MAX_SENTENCE_WORDS = 12
MAX_CLAUSE_WORDS = 10


@dataclass
class _Draft:
    title: str | None  # None: derive from the first paragraph
    name: str | None = None  # title without enumeration, first alias
    section: str | None = None
    paragraphs: list[str] = field(default_factory=list)


def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


def _heading_like(line: str) -> bool:
    return short_heading(line, max_words=5) and not _EXAMPLE.match(line.strip())


def _doc_heading(line: str) -> str | None:
    """The document heading's text ("3. Beordern und Kämpfen |" -> its words), or None."""
    stripped = line.strip()
    if not (re.match(r"^\d+(\.\d+)*\.?\s", stripped) or stripped.endswith("|")):
        return None
    # the words after the number, without one "|" at the end (a pattern with two "\s*"
    # around an optional "|" took minutes on a line with a long run of spaces)
    text = _DOC_NUMBER.sub("", stripped, count=1).rstrip().removesuffix("|").strip()
    return text or None


def derive_title(text: str) -> str:
    """A short title in the text's own words: its first sentence or clause (see module doc)."""
    text = _ASIDE.sub("", text).strip()
    first = _SENTENCE_END.split(text, maxsplit=1)[0].strip().rstrip(".!?:").strip()
    words = first.split()
    if len(words) <= MAX_SENTENCE_WORDS:
        return first or text
    clause = re.split(r"[,;:]", first, maxsplit=1)[0].split()
    if len(clause) <= MAX_CLAUSE_WORDS:
        return " ".join(clause)
    head = clause[:MAX_CLAUSE_WORDS]
    for end in range(len(head), 2, -1):
        if head[end - 1][:1].isupper():
            return " ".join(head[:end])
    return " ".join(head)


def action_title(text: str) -> str | None:
    """What a step does, as "<noun> <verb>": the first full verb of its text in
    the infinitive with its object or subject (the first noun after it, else the
    nearest before it), e.g. "Der aktive Spieler platziert nun beliebig viele
    Einheiten …" -> "Einheiten platzieren". An existential "gibt es" is no action
    and is skipped. None without HanTa or without such a verb and noun."""
    hanta = tagger()
    if hanta is None:
        return None
    for sentence in _SENTENCE_END.split(_ASIDE.sub("", text)):
        tokens = _TOKEN.findall(sentence)
        if not tokens:
            continue
        tagged = hanta.tag_sent(tokens)
        for i, (_word, lemma, tag) in enumerate(tagged):
            if not tag.startswith("VV") or tag == "VV(PP)":
                continue
            if i + 1 < len(tagged) and tagged[i + 1][0].lower() == "es":
                continue
            after = [w for w, _l, t in tagged[i + 1 :] if t == "NN"]
            before = [w for w, _l, t in tagged[:i] if t == "NN"]
            noun = after[0] if after else (before[-1] if before else None)
            if noun and lemma.isalpha():
                return f"{noun} {lemma.lower()}"
    return None


def split(text: str, *, doc_id: str, id_prefix: str) -> Split:
    lines = [line.rstrip() for line in text.split("\n") if line.strip()]
    preamble: list[str] = []
    doc_title: str | None = None
    if lines and (doc_title := _doc_heading(lines[0])) is not None:
        preamble.append(lines.pop(0).strip())

    drafts: list[_Draft] = []
    current: _Draft | None = None
    example_target: _Draft | None = None  # set while an example runs
    agenda_parent: str | None = None
    agenda: list[str] = []
    item: str | None = None
    agenda_open = False  # the heading's list is being read
    start_agenda = False  # the next text line starts the first agenda item
    prev = ""

    def new(draft: _Draft) -> _Draft:
        nonlocal current, example_target
        drafts.append(draft)
        current, example_target = draft, None
        return draft

    def add(draft: _Draft, line: str) -> None:
        if LIST_ITEM.match(line) and draft.paragraphs and LIST_ITEM.match(draft.paragraphs[-1]):
            last = draft.paragraphs[-1].rsplit("\n", 1)[-1]
            # a list of whole-sentence rules is one rule per paragraph
            if LIST_ITEM.match(last) and not (last.endswith(".") and line.endswith(".")):
                draft.paragraphs[-1] += "\n" + line
                return
        draft.paragraphs.append(line)

    for i, line in enumerate(lines):
        stripped = line.strip()
        nxt = lines[i + 1] if i + 1 < len(lines) else None
        is_list = bool(LIST_ITEM.match(line))
        if agenda_open and not is_list:
            agenda_open = False
            start_agenda = bool(agenda)

        if is_list:
            target = example_target or current or new(_Draft(title=doc_title))
            add(target, line)
            if agenda_open:
                agenda.append(LIST_ITEM.sub("", line).strip())
        elif (
            _heading_like(line)
            and nxt is not None
            and not _heading_like(nxt)
            and not _OUTCOME.match(stripped)
        ):
            new(_Draft(title=stripped))
            agenda_parent, agenda, item = stripped, [], None
            agenda_open, start_agenda = True, False
        elif m := _OUTCOME.match(stripped):
            path = [p for p in (agenda_parent, item) if p]
            if not path and current is not None and current.title:
                path = [current.title]
            new(
                _Draft(
                    title=stripped,
                    name=m.group(2),
                    section=SECTION_SEP.join(path) or None,
                )
            )
        elif m := _EXAMPLE.match(stripped):
            quoted = _QUOTED.search(m.group(1))
            example_to: _Draft | None = current
            if quoted and len(_words(quoted.group(1))) >= 2:
                wanted = _words(quoted.group(1))
                for d in drafts:
                    if d.title and wanted <= _words(d.name or d.title):
                        example_to = d
                        break
            example_to = example_to or new(_Draft(title=doc_title))
            example_to.paragraphs.append(line)
            example_target = example_to
        elif _NOTE.match(stripped):
            add(current or new(_Draft(title=doc_title)), line)
        else:
            general = not _CONCRETE.search(stripped)
            starts_item = start_agenda or bool(
                agenda and general and _words(agenda[0]) <= _words(stripped)
            )
            boundary = current is not None and (
                starts_item
                or (example_target is not None and general)
                or (general and prev.endswith(":") and not LIST_ITEM.match(prev))
            )
            start_agenda = False
            if current is None:
                new(_Draft(title=doc_title))
            elif boundary:
                if agenda and (starts_item or agenda_parent):
                    item = agenda.pop(0)
                    new(_Draft(title=item, section=agenda_parent))
                else:
                    agenda_parent, agenda, item = None, [], None
                    new(_Draft(title=None))
            assert current is not None
            add(example_target or current, line)
        prev = stripped

    # steps without a heading: titled by what they do; their earlier title (the
    # first sentence) stays an alias id. A step whose action is the title of an
    # agenda item printed elsewhere is that item's displaced text: joined to it.
    old_ids: dict[int, list[str]] = {}
    for d in list(drafts):
        if d.title is not None or not d.paragraphs:
            continue
        old = derive_title(d.paragraphs[0])
        action = action_title(d.paragraphs[0])
        same = [o for o in drafts if o is not d and o.title and action and _same(o.title, action)]
        if same:
            rules, example = _split_example(d.paragraphs)
            same[0].paragraphs[:0] = rules
            if example:
                _example_home(example, same[0], drafts).paragraphs.extend(example)
            old_ids.setdefault(id(same[0]), []).append(old)
            drafts.remove(d)
            continue
        d.title = action or old
        if action:
            old_ids.setdefault(id(d), []).append(old)

    maker = EntryMaker(doc_id, id_prefix, "markdown")
    for d in drafts:
        title = d.title or "Abschnitt"
        name = d.name or title
        maker.add(
            title,
            d.paragraphs,
            id_source=name,
            alias_sources=old_ids.get(id(d), ()),
            aliases=(name,) if name != title else (),
            section=d.section,
        )
    return Split(tuple(preamble), tuple(maker.entries))


def _split_example(paragraphs: list[str]) -> tuple[list[str], list[str]]:
    """(the rules, the example from its "Beispiel" line on) of displaced text."""
    for i, p in enumerate(paragraphs):
        if _EXAMPLE.match(p.strip()):
            return paragraphs[:i], paragraphs[i:]
    return paragraphs, []


def _example_home(example: list[str], item: _Draft, drafts: list[_Draft]) -> _Draft:
    """The sibling agenda item (same section) whose title the example's text
    names ("… entscheidet sich für einen Rückzug" -> "Rückzug"), else `item`."""
    text = _words(" ".join(example))
    for d in drafts:
        if d is not item and d.section == item.section and d.title and _words(d.title) <= text:
            return d
    return item


def _same(a: str, b: str) -> bool:
    return a.casefold().split() == b.casefold().split()
