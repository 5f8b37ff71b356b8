"""Questions as people type them: normalisation, validation and follow-up shape.

``tidy_question(text) -> str``
    The question as written, tidied (what an answer shows back).
``normalize_question(text) -> str``
    Unicode NFC, whitespace runs collapsed, invisible characters dropped,
    repeated punctuation ("??", "!!!", "...") reduced to one mark, and typical
    chat slang of question phrasing spelled out ("nen" -> "einen", "ne" -> "eine",
    "gibts" -> "gibt es", "wieviele" -> "wie viele"). The topic words stay as
    they were typed: abbreviations and player slang ("227er", "TW", "wegbomben")
    are expanded by the search analyzer through the one synonyms table
    (`faq_bot/data/synonyms.toml`), so search and the chatbot understand the
    same words. German question phrasing ("darf ich", "was passiert, wenn",
    "muss ich", "kann man", "wie viele") is dropped by the analyzer's stop
    words; this module only removes the filler words of questions that the
    analyzer keeps because they are content words in rulings (`FILLER`).

``check_question(value) -> str``
    The normalised question; raises `QuestionError` (German message) when it
    is not text, empty, or longer than `MAX_QUESTION_LENGTH` characters.

``is_followup(text) -> bool``
    Whether a question has the shape of a follow-up that only makes sense with
    the conversation before it: it starts with a connective ("und", "aber",
    "was ist, wenn", "und wenn", "was ist mit", "gilt das auch", ...), or it is
    short (at most `SHORT_FOLLOWUP` words) and refers back with a pronoun
    ("er", "sie", "es", "dann", "dabei", ...; "der/die/das" only when no noun
    follows, so "die Feuerwehr" is an article, "gilt das auch" a pronoun; "das"
    also before a noun with a suffix, which cannot be its article, "Bringt das
    Punkte?", unless a comma or a noun before it begins a relative clause), or
    it is short and names nothing of its own: stop words and fillers only
    ("Warum nicht?", "Wie viele?", "Was passiert?", "Darf ich?").

``content_words(text)``
    The folded words of a question without stop words and fillers (for tests
    and the follow-up shape).
"""

from __future__ import annotations

import re

from faq_bot.errors import InputError
from faq_bot.lexicon import load_stopwords
from faq_bot.morphology import inflected_noun
from faq_bot.text import clean_input, fold, squash

__all__ = [
    "FILLER",
    "MAX_QUESTION_LENGTH",
    "NO_QUESTION",
    "QuestionError",
    "check_question",
    "content_words",
    "is_followup",
    "normalize_question",
    "strip_fillers",
    "tidy_question",
]

MAX_QUESTION_LENGTH = 500
SHORT_FOLLOWUP = 8  # words; a longer question stands on its own unless it starts like a follow-up

_REPEATED = re.compile(r"([?!.,;:])[?!.,;:]*(?<!\.\.\.)")
_ELLIPSIS = re.compile(r"\.{2,}|…")
_WORD = re.compile(r"\w+")
# a question needs a digit or a (Latin) letter; the API's schema states the same
# pattern (`faq_bot.web.ask`), which both Python and ECMA regexes read alike
QUESTION_PATTERN = "[0-9A-Za-zÀ-ÖØ-öø-ÿ]"
QUESTION_CHAR = re.compile(QUESTION_PATTERN)

# Chat spellings of words of question phrasing (folded key -> replacement).
SLANG = {
    "nen": "einen",
    "nem": "einem",
    "ner": "einer",
    "nes": "eines",
    "ne": "eine",
    "gibts": "gibt es",
    "gehts": "geht es",
    "wieviel": "wie viel",
    "wieviele": "wie viele",
    "wielange": "wie lange",
    "kannste": "kannst du",
    "darfste": "darfst du",
    "haste": "hast du",
    "isses": "ist es",
    "aufm": "auf dem",
    "ausm": "aus dem",
    "innem": "in einem",
}

# Words that only phrase a question ("Was passiert eigentlich genau, wenn ...",
# "Stimmt es, dass ...", "Ich hätte mal eine Frage"). They are content words in
# some ruling somewhere, so the analyzer keeps them; in a question they carry no topic.
FILLER = frozenset(
    fold(w)
    for w in (
        "frage",
        "fragen",
        "hätte",
        "stimmt",
        "richtig",
        "bitte",
        "danke",
        "hallo",
        "hi",
        "weiß",
        "weiss",
        "jemand",
        "sicher",
        "eigentlich",
        "genau",
        "nochmal",
        "kurz",
        "beim",
        "heißt",
        "steht",
        "funktioniert",
        "läuft",
        "regel",
        "regelung",
        "regeln",
    )
)

_CONNECTIVES = (
    "und",
    "aber",
    "oder",
    "auch",
    "dann",
    "was ist wenn",
    "was ist mit",
    "was wenn",
    "wenn aber",
    "und wenn",
    "und falls",
    "falls",
    "gilt das",
    "geht das",
    "klappt das",
    "zählt das",
    "wie ist es",
    "wie sieht es",
    "und bei",
    "und mit",
    "und im",
    "und in",
    "selbst wenn",
    "sogar wenn",
    "trotzdem",
)
_CONNECTIVE_WORDS = tuple(tuple(fold(w) for w in c.split()) for c in _CONNECTIVES)

# pronouns that always refer back
PRONOUNS = frozenset(
    fold(w)
    for w in (
        "er",
        "sie",
        "es",
        "ihn",
        "ihm",
        "ihr",
        "ihre",
        "ihren",
        "ihrem",
        "sein",
        "seine",
        "seinen",
        "seinem",
        "dies",
        "diese",
        "dieser",
        "dieses",
        "diesen",
        "dann",
        "dabei",
        "dafür",
        "damit",
        "davon",
        "dagegen",
        "darauf",
        "daran",
        "dadurch",
        "dazu",
        "dort",
        "derselbe",
        "dieselbe",
        "dasselbe",
    )
)
# articles that are pronouns when no noun follows ("gilt das auch?", "und die?")
ARTICLES = frozenset(("der", "die", "das", "den", "dem", "denen", "deren"))
_EXPLETIVE_BEFORE = frozenset(("gibt", "gab", "geht", "ging", "klappt", "reicht"))


class QuestionError(InputError):
    """The question cannot be answered as given; the message (German) says why."""


def tidy_question(text: str) -> str:
    """The question as its asker wrote it, tidied: NFC, single spaces, one punctuation
    mark (what an answer shows back)."""
    text = clean_input(text)
    text = _ELLIPSIS.sub(" … ", text)
    text = _REPEATED.sub(r"\1", text)
    return squash(text)


# full-width forms of ASCII (some phone keyboards: "ＢＯＭＢＥ") -> ASCII, one for one
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def normalize_question(text: str) -> str:
    """The question tidied (`tidy_question`), full-width letters and signs read as the
    ASCII ones they show (as search folds them), slang spelled out: what is searched."""

    def spell(match: re.Match[str]) -> str:
        word = match.group()
        return SLANG.get(fold(word), word)

    return _WORD.sub(spell, tidy_question(text).translate(_FULL_WIDTH))


NO_QUESTION = "Bitte eine Frage eingeben."  # an empty question, wherever it comes in


def check_question(value: object) -> str:
    """The normalised question, or `QuestionError` with a German reason: not text, too
    long, empty, or no letter or digit to search for (signs or emoji alone)."""
    if not isinstance(value, str):
        raise QuestionError("Die Frage muss Text sein.")
    if len(value) > MAX_QUESTION_LENGTH * 2:  # before normalising: do not work on huge input
        raise QuestionError(
            f"Die Frage ist zu lang ({len(value)} Zeichen, höchstens {MAX_QUESTION_LENGTH})."
        )
    text = normalize_question(value)
    if not text:
        raise QuestionError(NO_QUESTION)
    if not QUESTION_CHAR.search(text):
        raise QuestionError("In der Frage steht kein Wort, nach dem sich suchen lässt.")
    if len(text) > MAX_QUESTION_LENGTH:
        raise QuestionError(
            f"Die Frage ist zu lang ({len(text)} Zeichen, höchstens {MAX_QUESTION_LENGTH})."
        )
    return text


def strip_fillers(text: str) -> str:
    """`text` without the filler words of questions (`FILLER`), punctuation kept."""
    out = _WORD.sub(lambda m: "" if fold(m.group()) in FILLER else m.group(), text)
    return squash(out)


def content_words(text: str) -> list[str]:
    """Folded words of `text` that are neither stop words nor fillers."""
    stop = load_stopwords()
    return [w for w in (fold(x) for x in _WORD.findall(text)) if w not in stop | FILLER]


def is_followup(text: str) -> bool:
    """Whether `text` has the shape of a follow-up question (see the module docstring)."""
    found = list(_WORD.finditer(text))
    raw = [m.group() for m in found]
    words = [fold(w) for w in raw]
    if not words:
        return False
    for connective in _CONNECTIVE_WORDS:
        if tuple(words[: len(connective)]) == connective:
            return True
    if len(words) > SHORT_FOLLOWUP:
        return False
    if not content_words(text):
        return True  # names nothing of its own ("Warum nicht?", "Wie viele?")
    stop = load_stopwords()
    for i, word in enumerate(words):
        if word == "es" and i > 0 and words[i - 1] in _EXPLETIVE_BEFORE:
            continue  # "gibt es", "geht es": no reference back
        if word in PRONOUNS:
            return True
        if word in ARTICLES:
            following = words[i + 1] if i + 1 < len(words) else ""
            # an article when a noun or adjective follows ("die Feuerwehr", "der 227er")
            if not following or following in stop:
                return True
            # a neuter singular noun after its article "das" has no suffix: before
            # "Punkte" or "Reaktionen", "das" is the pronoun, unless it begins a relative
            # clause ("ein Ereignis, das Punkte bringt"; a noun or a comma before it)
            if word == "das" and following and not _relative(text, found, i):
                if inflected_noun(raw[i + 1]):
                    return True
    return False


def _relative(text: str, found: list[re.Match[str]], i: int) -> bool:
    """Whether word `i` of `text` (`found`: its words) may begin a relative clause: a comma
    or a capitalised word other than the first stands before it."""
    if text[: found[i].start()].rstrip().endswith(","):
        return True
    return i > 1 and found[i - 1].group()[:1].isupper()


# Interrogatives that ask for an amount, a size or a price: their answer holds a number.
_QUANTITY = re.compile(
    r"\b(wie\s*viele?|wie\s+hoch|wie\s+gro(?:ß|ss)|wie\s+lange?|wie\s+weit|wie\s+oft"
    r"|wie\s+teuer|was\s+kostet|ab\s+wie\s*viele?n?)\b",
    re.IGNORECASE,
)


def asks_quantity(text: str) -> bool:
    """Whether the question asks for an amount ("wie viele", "wie weit", "was kostet")."""
    return _QUANTITY.search(text) is not None
