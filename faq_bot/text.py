"""Text helpers every stage shares: slugs, folding, words, sentences, citations.

``clean_input(text)``    what a user typed, tidied: invisible format characters dropped,
                         control characters as spaces (a query of only those is empty), NFC.
``READABLE_PATTERN``     a JSON Schema pattern: text with a character `clean_input` keeps.
``slugify(text)``        URL slug ("Ölfeld" -> "oelfeld"), used for ids and aliases.
``fold(word)``           lower case, umlauts/ß folded, accents dropped (the analyzer's form).
``written_out(word)``    lower case, umlauts written out as without them ("Länder" -> "laender").
``usual_spelling(spellings)`` of a word's spellings (with counts), the one to show.
``written_out_spellings(words)`` written-out form -> usual spelling, of the words with umlauts.
``words(text)``          the folded words of a text.
``split_sentences(text)`` (start, end) of each sentence; abbreviations and "1." do not end one.
``sentence_window(text, start, end, limit)`` whole sentences around a span, at most `limit` long.
``squash(text)``        each run of white space as one space, stripped.
``clip(text, limit)``    `text` (spaces collapsed) cut at a word to `limit` characters, "…".
``said_back(value, limit=80)`` a value a user sent, quoted „…“ as an error message says it back.
``citation(title, doc, url="")`` "„Title“ – Document, Stand: date. url" (German, as shown);
                         ``paragraph=n``: "„Title“, Absatz n – …".
``paragraph_citation(text, title, doc, n, url)`` a paragraph quoted, then its citation.
``fingerprint(text)``    a short hash of a passage's text: whether a new build changed it.
``paragraph_path(entry_id, index, text)`` a paragraph's permalink ``/entry/<id>/absatz/<n>?v=…``.
``entry_id_in(link)``    the entry id in a pasted address of its page (or None).
"""

from __future__ import annotations

import difflib
import hashlib
import re
import unicodedata
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from functools import lru_cache
from typing import Any, TypeVar
from urllib.parse import quote

__all__ = [
    "LINK_INVISIBLE",
    "LINK_TAIL",
    "LIST_MARK",
    "NEAR_SIMILARITY",
    "READABLE_PATTERN",
    "HIDDEN_SENT",
    "NOTHING_VISIBLE",
    "UNDATED",
    "alphabetical",
    "citation",
    "clean_input",
    "clip",
    "collation_key",
    "compatible",
    "entry_id_in",
    "fingerprint",
    "has_surrogate",
    "fold",
    "fold_letters",
    "paragraph_citation",
    "paragraph_path",
    "nearest",
    "read_as",
    "said_back",
    "sentence_link",
    "sentence_window",
    "slugify",
    "split_sentences",
    "squash",
    "usual_spelling",
    "without_format",
    "without_link_tail",
    "words",
    "written_out",
    "written_out_spellings",
]

T = TypeVar("T", bound=Hashable)
_WORD = re.compile(r"\w+")
# a name typed with a slip: difflib's similarity to the one meant at least this (a mistyped
# address, `faq_bot.names.entries_near`; a card name the catalog lacks, `faq_bot.stack.catalog`)
NEAR_SIMILARITY = 0.8
UNDATED = "ohne Datum"  # what the pages say for the date of a document without one
FINGERPRINT_LENGTH = 8  # hex digits of the SHA-256 of a passage's text
# the invisible format characters a copy brings along with a link (soft hyphen, zero-width
# space and joiners, bidi marks, embeddings and isolates, word joiner, byte order mark), as
# the inside of a regular expression's class
LINK_INVISIBLE = "\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
# one character of what a forum's autolinker or the sentence after a link may add to the
# link's end ("…/absatz/3)", "…?v=803f02e1.", "…wird?“"), or a copy brings along
# (`LINK_INVISIBLE`): a regular expression's class, for the permalinks' tidying
# (`faq_bot.web.permalink`) and the chat's links (`faq_bot.chat.shown.as_linked`)
LINK_TAIL = r"[\s)\]}>.,;:!?'\"»«“”„’‘" + LINK_INVISIBLE + "]"
_LINK_TAIL_END = re.compile(LINK_TAIL + "+$")


def without_link_tail(text: str) -> str:
    """`text` (the end of a link) without what a forum or a copy added after it
    (`LINK_TAIL`): for a value whose own characters never include those."""
    return _LINK_TAIL_END.sub("", text)


_SLUG_FOLD = str.maketrans(
    {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "ae", "Ö": "oe", "Ü": "ue"}
)
_UMLAUT = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ß": "ss"})
# "ae"/"oe"/"ue" written for an umlaut; not the diphthong in "neue", "Bauer", nor "Quelle";
# read before the umlauts are folded, so that an umlaut typed with an e after it ("Zerstöer")
# keeps that e as the slip it is
_DIGRAPH = re.compile(r"(?<![aeiouqäöü])([aou])e")
# a sentence ends at . ! ? … followed by space and an upper-case letter, digit or quote
_SENTENCE_END = re.compile(r"[.!?…][\"“”»)]?\s+(?=[\"„»(]?[A-ZÄÖÜ0-9])")
_ABBREVIATIONS = frozenset(
    "z b d h s vgl bzw ggf u a usw evtl inkl ca nr bsp max min etc abs std zb dh ua o ä vs".split()
)
# a short quotation (a keyword such as “Initiative! Land”) is not split into sentences
_QUOTATION_SPAN = 40  # characters a quotation may reach on either side of a break
_OPENING_QUOTES = '„“"'
_CLOSING_QUOTES = '“”"'


# control characters but tab and line breaks (Unicode's Cc, C1 included)
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """`text` as it is shown, on a page or a terminal: control characters but tab and line
    breaks as spaces (an escape sequence in a corpus line or an argument would set a
    terminal's title or colours; NUL is an HTML parse error)."""
    return CONTROL.sub(" ", text) if CONTROL.search(text) else text


def clean_input(text: str) -> str:
    """Text a user typed, as the stages read it: format characters (Unicode category
    Cf: zero-width spaces and joiners, soft hyphens, bidirectional controls, tags) are
    invisible, so dropped; control characters (Cc: NUL, escape, DEL, tab, ...) are never
    text, so spaces ("%00" alone is an empty query); NFC last, so that a mark a dropped
    character stood before still combines."""
    if text.isascii() and text.isprintable():
        return text
    kept = (" " if unicodedata.category(c) == "Cc" else c for c in without_format(text))
    return unicodedata.normalize("NFC", "".join(kept))


def nearest(word: str, spelled: Mapping[str, T], n: int) -> list[T]:
    """The values of at most `n` keys of `spelled` that `word` (spelled as the keys are)
    most likely meant, most similar first, each value once: difflib's similarity at least
    `NEAR_SIMILARITY` (a mistyped address, `faq_bot.names.entries_near`; a card name the
    catalog lacks, `faq_bot.stack.catalog.cards_near`)."""
    close = difflib.get_close_matches(word, list(spelled), 2 * n, NEAR_SIMILARITY)
    return list(dict.fromkeys(spelled[key] for key in close))[:n]


# A JSON Schema pattern for text with something readable in it: a character `clean_input`
# keeps and `str.strip` does not strip. The class lists those of the Basic Multilingual Plane
# (``\\uXXXX`` escapes, read alike by ECMA-262 and Python; a test derives it from
# `clean_input` again); format characters beyond it (a few tags) are admitted here and
# dropped by `clean_input` all the same. Written out: deriving it took 0.1 s of every web
# worker's start.
READABLE_PATTERN = (
    r"[^\u0000-\u0020\u007f-\u00a0\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891"
    r"\u08e2\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u2066-\u206f\u3000\ufeff"
    r"\ufff9-\ufffb]"
)


def without_format(text: str) -> str:
    """`text` without format characters (Unicode category Cf: zero-width spaces, bidi
    controls, ...), as `clean_input` reads it too: for a value that is said back but is no
    question (a filter's name), whose control characters stay an error of their own."""
    if text.isascii():
        return text
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def has_surrogate(text: str) -> bool:
    """Whether `text` holds a lone surrogate: a byte that was not UTF-8, as Python keeps
    it from a command line or stdin ("surrogateescape"); no later step could encode it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def slugify(text: str) -> str:
    """A URL slug: lower case ASCII words joined by hyphens ("Ölfeld" -> "oelfeld"); an
    umlaut written as a letter and a combining mark (NFD, "o\u0308") slugs as one."""
    text = unicodedata.normalize("NFC", text).translate(_SLUG_FOLD)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "eintrag"


def fold(word: str) -> str:
    """Lower case, umlauts and ß folded, accents dropped: "Schäden" -> "schaden"."""
    # the analyzer folds every token several times: words are cached, long texts not
    return _fold_word(word) if len(word) <= FOLD_CACHED_LENGTH else _fold(word)


FOLD_CACHED_LENGTH = 40
FOLD_CACHE = 16_384  # bounded (queries bring any word); a build folds ~7,000 distinct words


@lru_cache(maxsize=FOLD_CACHE)
def _fold_word(word: str) -> str:
    return _fold(word)


def _fold(word: str) -> str:
    return _letters(_DIGRAPH.sub(r"\1", compatible(word).lower()))


def written_out(word: str) -> str:
    """`word` in lower case with its umlauts written as a keyboard without them writes
    them ("Schäden" -> "schaeden"); ß stays (an "ss" is a spelling of its own: "Russ" is
    no „Ruß“)."""
    return word.lower().translate(_WRITTEN_OUT)


_WRITTEN_OUT = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})


def written_out_spellings(words: Counter[str]) -> dict[str, str]:
    """Of `words` (with how often each occurs), those with an umlaut by their `written_out`
    form, each with its `usual_spelling` („laender“: „Länder“ where „LÄNDER“ heads a
    section); less the forms that are themselves among `words` („Mueller“ where the text
    also writes it so)."""
    spelt = {w.lower() for w in words}
    spellings: dict[str, Counter[str]] = {}
    for word, n in words.items():
        out = written_out(word)
        if out != word.lower() and out not in spelt:
            spellings.setdefault(out, Counter())[word] += n
    return {out: usual_spelling(c) for out, c in spellings.items()}


def usual_spelling(spellings: Counter[str]) -> str:
    """Of a word's `spellings` (with how often each occurs), the most frequent one not in
    capitals; a word only ever in capitals is a heading's („NAHKAMPFPHASE“: „Nahkampfphase“)
    when longer than an abbreviation („TW“, „FLAK“ stay)."""
    ranked = [word for word, _n in spellings.most_common()]
    found = next((word for word in ranked if not (len(word) > 1 and word.isupper())), None)
    if found is not None:
        return found
    return ranked[0].capitalize() if len(ranked[0]) > 4 else ranked[0]


def fold_letters(word: str) -> str:
    """`fold` without reading "ae"/"oe"/"ue" as umlauts: the letters as typed
    ("Fuerwehr" -> "fuerwehr", which `fold` makes "furwehr", two edits from "feuerwehr");
    the spelling correction reads both."""
    return _letters(compatible(word).lower())


def compatible(word: str) -> str:
    """`word` in Unicode's compatibility form (NFKC) when it is not ASCII: styled letters
    („𝐅𝐞𝐮𝐞𝐫“, math alphanumerics pasted from a post) have no lower case of their own and
    would stay capitals; full-width ones are read as plain letters before the digraphs, a
    ligature copied from a PDF („ﬂ“) as its letters."""
    return word if word.isascii() else unicodedata.normalize("NFKC", word)


def _letters(word: str) -> str:
    word = word.translate(_UMLAUT)
    if not word.isascii():
        word = unicodedata.normalize("NFKD", word)
        word = "".join(c for c in word if not unicodedata.combining(c))
    return word


def collation_key(name: str) -> tuple[str, str, str]:
    """The place of `name` in a list shown to a reader, in German dictionary order (DIN
    5007-1): an umlaut as its base letter („Ölfeld“ between „Obertyp“ and „Opfern“, where
    its code point put it after „z“), ß as ss, accents and case aside („basisausbau“ beside
    „Basisausbau“); ties by case, then the text itself, so the order never depends on where
    the names came from (a set's order differs between worker processes)."""
    return (fold_letters(name), name.casefold(), name)


def alphabetical(names: Iterable[str]) -> list[str]:
    """`names` in the order a list shown to a reader has (`collation_key`)."""
    return sorted(names, key=collation_key)


def words(text: str) -> list[str]:
    """The folded words of `text`, in order."""
    return [fold(w) for w in _WORD.findall(text)]


def split_sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of the sentences of `text`; abbreviations and "1." do not end one."""
    spans = []
    start = 0
    # only slices near a break: copying from `start` (or from 0) at every break took time
    # with the square of the length ("vs. A " 70,000 times: 5 s)
    for m in _SENTENCE_END.finditer(text):
        mark = m.start()
        last = _WORD.findall(text[max(start, mark - 11) : mark + 1])
        token = last[-1].lower() if last else ""
        if text[mark] == "." and (token in _ABBREVIATIONS or token.isdigit()):
            continue
        if _inside_quotation(text, mark, m.end()):
            continue
        end = m.end()
        sentence_end = start + len(text[start:end].rstrip())
        if sentence_end > start:
            spans.append((start, sentence_end))
        start = end
    if start < len(text):
        tail_end = len(text.rstrip())
        if tail_end > start:
            spans.append((start, tail_end))
    return spans or [(0, len(text))]


def _inside_quotation(text: str, mark: int, after: int) -> bool:
    """Whether the sentence mark at `mark` (the break ending at `after`) lies inside a
    short quotation: a quote opened shortly before it (at the start of a word) and closed
    shortly after the break, with no quote between."""
    if text[mark + 1 : mark + 2] in _CLOSING_QUOTES:
        return False  # the quotation closes with the sentence
    low = max(0, mark - _QUOTATION_SPAN)
    opened = max(text.rfind(q, low, mark) for q in _OPENING_QUOTES)
    if opened < 0:
        return False
    if opened > 0 and not (text[opened - 1].isspace() or text[opened - 1] in "(["):
        return False  # an inch mark or a closing quote, not an opening one
    if any(q in text[opened + 1 : mark] for q in _CLOSING_QUOTES):
        return False
    ahead = text[after : after + _QUOTATION_SPAN]
    closes = [i for i in (ahead.find(q) for q in _CLOSING_QUOTES) if i >= 0]
    return bool(closes) and not any(q in ahead[: min(closes)] for q in "„.!?")


def squash(text: str) -> str:
    """`text` with each run of white space (any Unicode space, tab, line break) as one
    space, stripped: titles, captions and questions compared or shown on one line."""
    return " ".join(text.split())


def read_as(value: str) -> str:
    """A user's value as it reads on one line (`clean_input`, spaces squashed): what
    `said_back` quotes, a scenario's names, an id compared with the one it names."""
    return squash(clean_input(value))


def clip(text: str, limit: int) -> str:
    """`text`, whitespace collapsed, cut at a word to at most `limit` characters with an
    ellipsis when longer (punctuation before the cut dropped)."""
    text = squash(text)
    if len(text) <= limit:
        return text
    return text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:–- ") + "…"


NOTHING_VISIBLE = "„“ (leer oder nur unsichtbare Zeichen)"
HIDDEN_SENT = "(mit Leer- oder unsichtbaren Zeichen gesendet)"


def said_back(value: str, limit: int = 80) -> str:
    """A value a user sent (an id, a number, a parameter, a JSON key), as an error message
    quotes it, German quotes included: read as typed text is (`clean_input`: a bidi control
    said back turned the rest of the sentence around), spaces squashed, and cut to `limit`
    characters with "…" (a 5,000-character value was said back whole), where it falls: an
    id cut at a word seemed to be another id. One with nothing visible says so, and one that
    held more than it shows (a zero-width space, a space at its end) says that: "muss eine
    ganze Zahl sein, nicht „5“" read as if 5 had been refused."""
    text = read_as(value)
    if not text:
        return NOTHING_VISIBLE
    quoted = f"„{text if len(text) <= limit else text[: limit - 1] + '…'}“"
    return quoted if text == unicodedata.normalize("NFC", value) else f"{quoted} {HIDDEN_SENT}"


def sentence_window(text: str, start: int, end: int, limit: int) -> tuple[int, int]:
    """(start, end) of the whole sentences of `text` around the span `start`..`end` (a key
    sentence), at most `limit` characters when they fit: the sentences the span touches,
    then one before and one after in turn while they fit (the one before first: it often
    states the case the span rules on), with at most a third of `limit` before the span while
    sentences after it remain, so that it stays near the top of a small screen. The whole
    text when it is no longer than `limit`, or when the window would leave out less than a
    third of `limit` (a cut that small saves nothing)."""
    if len(text) <= limit:
        return 0, len(text)
    spans = split_sentences(text)
    inside = [i for i, (s, e) in enumerate(spans) if s < max(end, start + 1) and e > start]
    if not inside:
        return start, end
    first, last = inside[0], inside[-1]
    low, high = spans[first][0], spans[last][1]
    grown = True
    while grown:
        grown = False
        more_after = last + 1 < len(spans)
        before = start - spans[first - 1][0] if first > 0 else limit
        if (
            first > 0
            and high - spans[first - 1][0] <= limit
            and (before <= limit // 3 or not more_after)
        ):
            first -= 1
            low = spans[first][0]
            grown = True
        if more_after and spans[last + 1][1] - low <= limit:
            last += 1
            high = spans[last][1]
            grown = True
    if len(text) - (high - low) < limit // 3:
        return 0, len(text)
    return low, high


def citation(
    title: str,
    doc: dict[str, Any],
    url: str = "",
    *,
    paragraph: int | None = None,
) -> str:
    """How an entry is cited, the one format of pages, chat, API and CLI: „title“ –
    document title, Stand: date. url (a document without a date: "ohne Datum", as the
    pages' heads say). With `paragraph` (counted from 1, as the pages label it) its
    paragraph: „title“, Absatz n – …."""
    stand = f", Stand: {doc['date_text']}" if doc.get("date_text") else f", {UNDATED}"
    where = f", Absatz {paragraph}" if paragraph is not None else ""
    return f"„{title}“{where} – {doc.get('title', '')}{stand}. {url}"


def paragraph_citation(text: str, title: str, doc: dict[str, Any], number: int, url: str) -> str:
    """A paragraph quoted for a forum: its text (`text`, whitespace collapsed) in German
    quotation marks on a line of its own, then its `citation` (paragraph `number`, counted
    from 1) with the date or "ohne Datum": a quotation travels without its page."""
    quoted = squash(text)
    return f"„{quoted}“\n" + citation(title, doc, url, paragraph=number)


_NUMBER = re.compile(
    r"\d|\b(?:null|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwanzig|dreißig"
    r"|hundert|tausend|einmal|zweimal|dreimal|doppelte?n?|dreifache?n?|hälfte|halbe?n?"
    r"|keine?n?|einzige?n?|beliebig(?:e|en|er)?|unbegrenzt)\b",
    re.IGNORECASE,
)


def has_number(text: str) -> bool:
    """Whether `text` states an amount: a digit or a German number word ("zwei",
    "doppelt", "Hälfte", "keine", "beliebig viele"); the article "ein" is not one."""
    return _NUMBER.search(text) is not None


def fingerprint(text: str) -> str:
    """A short hash of a passage's text as shown: whether a new build changed it (a chat
    turn's token and a paragraph's permalink carry it)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:FINGERPRINT_LENGTH]


def sentence_link(url: str, sentence: str, words: int = 4, before: str = "") -> str:
    """`url` with a text fragment (``#:~:text=``) naming `sentence`: a browser that knows
    them (Chrome, Safari 16.1, Firefox 131) scrolls to the sentence and marks it, others open
    `url` as before. A judge who opened an answer's ruling looked for the quoted sentence in a
    paragraph four screens long. A sentence of more than 2 × `words` words is named by its
    first and last `words` words (the start and end of a range), a shorter one whole. The
    last words of `before` (the text before the sentence in its paragraph, on its line) go
    first as the directive's prefix: a browser marks from the first place the start words
    stand, and „Wenn der TRANSPORTER sich“ began the sentence before too."""
    directive = text_directive(sentence, words, before)
    if directive is None:
        return url
    return f"{url}{':~:' if '#' in url else '#:~:'}{directive}"


# a list item's mark at a line's start („- “, „* “, „1. “), which a page draws as a bullet
# or number, not as text a text fragment could find
LIST_MARK = re.compile(r"^\s*(?:[-*+•]|\d{1,9}\.)\s+")


def text_directive(sentence: str, words: int = 4, before: str = "") -> str | None:
    """The text directive (``text=…``) of `sentence_link`, for a link that puts it after
    a query and an anchor of its own; None for a sentence without a word. A list item's
    mark at the start of the sentence or of its line before it is left out (`LIST_MARK`):
    „- Häfen …“ was found nowhere on a page that draws the dash as a bullet (a review)."""
    parts = LIST_MARK.sub("", sentence, count=1).split() or sentence.split()
    if not parts:
        return None
    directive = ",".join(_directive_text(p) for p in _named_by(parts, words))
    lead = LIST_MARK.sub("", before.rsplit("\n", 1)[-1], count=1).split()[-3:]
    if lead and "…" not in lead:  # a line "…" stands for list items the passage leaves out
        directive = f"{_directive_text(lead)}-,{directive}"
    return f"text={directive}"


def _named_by(parts: list[str], words: int) -> list[list[str]]:
    """The start and end words that name the sentence of `parts` in a text fragment: the
    first `words`, and as many last words as it takes for the browser's first match of
    them after the start to be the sentence's end („1 H oder E“ stood in a table row three
    times); the whole sentence when that leaves nothing between."""
    if len(parts) <= 2 * words:
        return [parts]
    whole, after_start = " ".join(parts), len(" ".join(parts[:words]))
    for count in range(words, len(parts) - words):
        end = " ".join(parts[-count:])
        if whole.find(end, after_start) + len(end) == len(whole):
            return [parts[:words], parts[-count:]]
    return [parts]


def _directive_text(words: list[str]) -> str:
    # "-", "," and "&" separate a directive's parts: encoded like any other character
    return quote(" ".join(words), safe="").replace("-", "%2D")


def entry_path(entry_id: str, paragraph: int | None = None) -> str:
    """The page of an entry, ``/entry/<id>``, at the anchor of paragraph `paragraph`
    (0-based, ``#p<n>``) when one is given: the one place an entry's address is made."""
    return f"/entry/{entry_id}" + (f"#p{paragraph}" if paragraph is not None else "")


# an entry's page in an address: /entry/<id>, with or without a host, a paragraph's
# permalink after it (/absatz/2?v=…) or an anchor (#p1)
_ENTRY_IN_LINK = re.compile(r"(?:^|/)entry/([^/?#\s]+)")


def entry_id_in(link: str) -> str | None:
    """The entry id an address of its page (`entry_path`, `paragraph_path`, absolute or
    not) names, as a user pastes it from the address bar or a forum; None for other text
    (an id or a title typed)."""
    from urllib.parse import unquote

    found = _ENTRY_IN_LINK.search(link.strip())
    return unquote(found.group(1)) if found else None


def paragraph_path(entry_id: str, index: int, text: str) -> str:
    """The permalink of paragraph `index` (0-based) of an entry, whose plain text is
    `text`: ``/entry/<id>/absatz/<n>?v=<fingerprint>`` with `n` counted from 1 as the
    page labels it ("Absatz 3"), and the fingerprint of the text, so that a link made
    before a rebuild finds its paragraph again or says that it changed. The chat cites
    with it and the web serves it (`faq_bot.web.pages`)."""
    return f"{entry_path(entry_id)}/absatz/{index + 1}?v={fingerprint(text)}"
