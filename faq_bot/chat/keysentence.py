"""The key sentence: the sentence of the passage's paragraph that answers, highlighted.

``key_sentence(text, sentences, heading, coverage, similarity, mode) -> (start, end)``
    Chosen by a conditional logit over `SENTENCE_FEATURES` (``faq_bot/data/sentence.json``,
    fitted by ``scripts/train_key_sentence.py``), or by `best_sentence` (coverage plus
    `W_DENSE` times the dense similarity) without a model.
``sentence_features(...)``: each sentence's features, as the model and its fitting read them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from faq_bot.fitted import fitted, mode_weights

from .layout import CLOSING_QUOTES
from .terms import Coverage

__all__ = [
    "SENTENCE_FEATURES",
    "W_DENSE",
    "best_sentence",
    "key_sentence",
    "sentence_features",
    "sentence_model",
]

W_DENSE = 1.0  # sentence choice: coverage + dense similarity of the sentence


def best_sentence(
    sentences: Sequence[tuple[int, int, frozenset[str]]],
    heading: frozenset[str],
    coverage: Coverage,
    similarity: dict[tuple[int, int], float] | None = None,
) -> tuple[float, tuple[int, int]]:
    """The sentence that answers: coverage of the question (with the heading), plus
    its dense similarity to the question when there is one."""
    best = (-1.0, (0, 0))
    for start, end, terms in sentences:
        key = coverage(terms, heading) + 0.01 * coverage(terms)  # ties: matches by itself
        if similarity:
            key += W_DENSE * similarity.get((start, end), 0.0)
        if key > best[0] + 1e-9:
            best = (key, (start, end))
    return max(0.0, best[0]), best[1]


# The key sentence (the one highlighted) is chosen among the passage paragraph's sentences
# by a conditional logit over these features (``faq_bot/data/sentence.json``, fitted by
# ``scripts/train_key_sentence.py`` with cross-validation on the training questions' golds);
# without it, by coverage plus `W_DENSE` times the dense similarity (`best_sentence`).
SENTENCE_FEATURES = (
    "cover",  # coverage of the question by the sentence with the entry's heading
    "cover_self",  # the same by the sentence alone
    "dense",  # dense similarity of the sentence to the question (0 without the embedder)
    "best_cover",  # 1 for the sentence of the paragraph with the highest coverage
    "best_dense",  # 1 for the sentence with the highest dense similarity
    "first",  # the paragraph's first sentence
    "last",  # its last sentence
    "length",  # log of the sentence's characters
    "number",  # it holds a digit (an amount, a cost, a count)
    "asks",  # it ends with "?" (a question the paragraph then answers)
    "after_best",  # the sentence before it has the highest coverage (states the situation)
    "after_asks",  # the sentence before it ends with "?" (this one may answer it)
    "example",  # it starts as an example ("Beispiel", "Bsp.", "z. B."): restates a situation
    "rule",  # it holds a modal verb or a negation ("darf", "muss", "kann", "nicht", "nur")
    "caps",  # it emphasises a word in capitals ("MÜSSEN", "SOFORT"), as rulings do
    "exclaim",  # it ends with "!"
)
# the words of a sentence that states what may, must or cannot be done (`SENTENCE_FEATURES`'
# "rule"); lower case
_RULE_WORDS = re.compile(
    r"\b(?:nicht|kein\w*|darf|dürfen|kann|können|muss|müssen|nur|immer|nie|niemals|jede\w*|alle)\b"
)
_EXAMPLE = re.compile(r"\W*(?:beispiel|bsp|z\.\s?b\.)", re.IGNORECASE)
_CAPS_WORD = re.compile(r"\b[A-ZÄÖÜ]{3,}\b")


def sentence_features(
    text: str,
    sentences: Sequence[tuple[int, int, frozenset[str]]],
    heading: frozenset[str],
    coverage: Coverage,
    similarity: dict[tuple[int, int], float] | None = None,
) -> list[tuple[tuple[int, int], dict[str, float]]]:
    """The `SENTENCE_FEATURES` of each sentence of the paragraph `text`: (span, features)."""
    sims = similarity or {}
    rows = []
    for k, (start, end, terms) in enumerate(sentences):
        sentence = text[start:end].strip()
        rows.append(
            (
                (start, end),
                {
                    "cover": coverage(terms, heading),
                    "cover_self": coverage(terms),
                    "dense": sims.get((start, end), 0.0),
                    "best_cover": 0.0,
                    "best_dense": 0.0,
                    "first": float(k == 0),
                    "last": float(k == len(sentences) - 1),
                    "length": math.log1p(len(sentence)),
                    "number": float(any(c.isdigit() for c in sentence)),
                    "asks": float(sentence.rstrip(CLOSING_QUOTES + ")").endswith("?")),
                    "after_best": 0.0,
                    "after_asks": 0.0,
                    "example": float(_EXAMPLE.match(sentence) is not None),
                    "rule": float(_RULE_WORDS.search(sentence.lower()) is not None),
                    # a heading-like line all in capitals emphasises nothing
                    "caps": float(
                        _CAPS_WORD.search(sentence) is not None and not sentence.isupper()
                    ),
                    "exclaim": float(sentence.rstrip(CLOSING_QUOTES + ")").endswith("!")),
                },
            )
        )
    if rows:
        best = max(range(len(rows)), key=lambda k: rows[k][1]["cover"])
        rows[best][1]["best_cover"] = 1.0
        if best + 1 < len(rows):
            rows[best + 1][1]["after_best"] = 1.0
        if sims:
            max(rows, key=lambda r: r[1]["dense"])[1]["best_dense"] = 1.0
        for before, row in zip(rows, rows[1:], strict=False):
            row[1]["after_asks"] = before[1]["asks"]
    return rows


def key_sentence(
    text: str,
    sentences: Sequence[tuple[int, int, frozenset[str]]],
    heading: frozenset[str],
    coverage: Coverage,
    similarity: dict[tuple[int, int], float] | None = None,
    mode: str = "hybrid",
) -> tuple[int, int]:
    """The span of the sentence that answers, to highlight: the fitted sentence model's
    choice (`sentence_model`), or `best_sentence`'s without one."""
    weights = sentence_model(mode)
    if weights is None or not sentences:
        return best_sentence(sentences, heading, coverage, similarity)[1]
    rows = sentence_features(text, sentences, heading, coverage, similarity)
    # ties: the earlier sentence
    return max(rows, key=lambda r: sum(weights[k] * r[1][k] for k in SENTENCE_FEATURES))[0]


def sentence_model(mode: str = "hybrid") -> dict[str, float] | None:
    """The fitted key-sentence weights for `mode`, or None (then `best_sentence` decides),
    also when the hybrid weights were fitted for another embedder (`faq_bot.fitted`)."""
    return fitted("sentence", _sentence_weights, mode)


_sentence_weights = mode_weights(SENTENCE_FEATURES)
