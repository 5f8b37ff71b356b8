"""The word lists the analysis reads from ``faq_bot/data``: abbreviations, stop words and
common German words.

``synonym_table()``: ``data/synonyms.toml`` as parsed (abbreviations and extra stop words).
``load_synonyms()``: folded abbreviation -> the folded words it stands for.
``load_stopwords()``: folded German stop words (Whoosh's list plus the table's extra ones).
``common_words()``: folded common German words (Zipf >= `COMMON_ZIPF`), from
``data/common_words_de.txt`` (written by ``scripts/make-common-words``): a word this common
is a real word even where the corpus lacks it, so spelling correction leaves it alone.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

from whoosh.lang.stopwords import stoplists

from faq_bot.text import fold, words

__all__ = [
    "COMMON_ZIPF",
    "MIN_WORD",
    "common_words",
    "load_stopwords",
    "load_synonyms",
    "synonym_table",
]

# shortest word that counts: a vocabulary word, a compound part, a term HanTa adds
MIN_WORD = 3
# A word at least this frequent in German (Zipf scale: 3 = once per million words,
# the scale's line between everyday and rare words) is never "corrected".
COMMON_ZIPF = 3.0


@cache
def synonym_table() -> dict:
    data = resources.files("faq_bot").joinpath("data/synonyms.toml").read_text("utf-8")
    return tomllib.loads(data)


@cache
def load_synonyms() -> dict[str, tuple[str, ...]]:
    """Folded abbreviation -> the folded words it stands for."""
    table = synonym_table().get("abbreviations", {})
    return {fold(k): tuple(words(v)) for k, v in table.items()}


@cache
def common_words() -> frozenset[str]:
    """Folded common German words (Zipf >= `COMMON_ZIPF`), from
    `data/common_words_de.txt` (written by `scripts/make-common-words`)."""
    text = resources.files("faq_bot").joinpath("data/common_words_de.txt").read_text("utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


@cache
def load_stopwords() -> frozenset[str]:
    extra = synonym_table().get("stopwords", {}).get("words", [])
    return frozenset(fold(w) for w in (*stoplists["de"], *extra))
