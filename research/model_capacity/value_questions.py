"""Would a signal "the passage states no number where the question asks for a value" tell
the unanswerable questions in the documents' words from the answerable ones? The
unanswerable questions the bot answers with confidence mostly ask for a value the corpus
never states ("Welchen MW hat ...", "wie viele Siegpunkte bringt Kreta?"). The shipped
`quantity_missing` only looks for any number in the passage; this checks a finer version:
a sentence of the passage that states a number and shares a word (5-letter prefix, no stop
word) with the question. Shipped models, in sample (the chosen passages of training
questions), so it only asks whether the two groups differ at all.

Usage: python research/model_capacity/value_questions.py QUESTION_FILES...
(the index at ./index). Prints, for quantity and value questions, how often each check
fires among unanswerable questions and among answerable ones with the right passage.
"""

from __future__ import annotations

import re
import sys

from faq_bot.chat import answer
from faq_bot.evaluate import answerable, is_hit, training_questions
from faq_bot.index import open_index
from faq_bot.lexicon import load_stopwords
from faq_bot.question import asks_quantity
from faq_bot.text import fold, has_number, split_sentences, words

# "Welchen DEF-Wert hat ...", "welche Kosten ...": a value asked without "wie viel"
VALUE = re.compile(
    r"\bwelche[nrms]?\b[^?.!]{0,40}?(wert|kost|punkte|anzahl|mw\b|def\b|atk\b|ag\b|spd\b"
    r"|tw\b|sp\b|bp\b)",
    re.IGNORECASE,
)


def _keys(text: str, stop: frozenset[str]) -> set[str]:
    return {fold(w)[:5] for w in words(text) if len(w) >= 3 and fold(w) not in stop}


def main() -> None:
    index, stop = open_index("index"), load_stopwords()
    groups: dict[str, list[tuple[bool, bool, bool]]] = {"unanswerable": [], "right": []}
    for q in training_questions(sys.argv[1:]):  # refuses held-out files
        if not (asks_quantity(q["q"]) or VALUE.search(q["q"])):
            continue
        result = answer(index, q["q"], [])
        text = result.passage.text if result.passage else ""
        keys = _keys(q["q"], stop)
        spans = [text[a:b] for a, b in split_sentences(text)] if text else []
        near = any(has_number(s) and keys & _keys(s, stop) for s in spans)
        row = (result.confident, has_number(text), near)
        if not answerable(q):
            groups["unanswerable"].append(row)
        elif text and is_hit(text, q["gold"]):
            groups["right"].append(row)
    for name, rows in groups.items():
        sure = [r for r in rows if r[0]]
        print(
            f"{name}: {len(rows)} ({len(sure)} answered with confidence); no number: "
            f"{sum(not r[1] for r in rows)} (of the confident {sum(not r[1] for r in sure)}); "
            f"no number near a question word: {sum(not r[2] for r in rows)} "
            f"(of the confident {sum(not r[2] for r in sure)})"
        )


if __name__ == "__main__":
    main()
