"""Re-choose one of the weights a follow-up is read with (`faq_bot.chat.answer`:
``TOPIC_WEIGHT``, the pull of the earlier answer's entry vector, or ``CONTEXT_WEIGHT``,
the weight of the earlier question's terms) on the training follow-ups: for each value,
how many answerable follow-ups are answered from an entry holding a gold passage (the
criterion) and with a passage holding one. Prints counts only.

Usage: python scripts/choose_followup_weight.py [--index index] [--name TOPIC_WEIGHT]
       W [W ...] -- FILE [FILE ...]
(FILE: follow-up files; `training_questions` refuses the held-out sets)
"""

from __future__ import annotations

import argparse
import importlib
import sys

from faq_bot.chat.answer import answer, replay
from faq_bot.evaluate import EvalFileError, is_hit, judged_text, training_questions
from faq_bot.index import open_index

WEIGHTS = ("TOPIC_WEIGHT", "CONTEXT_WEIGHT")


def main() -> None:
    split = sys.argv.index("--") if "--" in sys.argv else len(sys.argv)
    ap = argparse.ArgumentParser()
    ap.add_argument("--index", default="index")
    ap.add_argument("--name", choices=WEIGHTS, default=WEIGHTS[0])
    ap.add_argument("weights", nargs="+", type=float)
    args = ap.parse_args(sys.argv[1:split])
    try:
        questions = [q for q in training_questions(sys.argv[split + 1 :]) if q.get("history")]
    except EvalFileError as exc:
        sys.exit(str(exc))
    module = importlib.import_module("faq_bot.chat.answer")  # the package re-exports `answer`
    index = open_index(args.index)
    turns = {q["id"]: replay(index, q["history"]) for q in questions}
    topic = sum(1 for t in turns.values() if t and t[-1].entry)
    for weight in args.weights:
        setattr(module, args.name, weight)
        entry = passage = 0
        for q in questions:
            result = answer(index, q["q"], turns[q["id"]])
            if result.passage is None:
                continue
            record = index.entry(result.passage.entry)
            entry += bool(record) and is_hit(record.text, q["gold"])
            passage += is_hit(judged_text(index, result.passage), q["gold"])
        print(
            f"{args.name} {weight}: Eintrag richtig {entry}, Absatz richtig {passage} "
            f"von {len(questions)} ({topic} mit früherer Antwort)",
            flush=True,
        )


if __name__ == "__main__":
    main()
