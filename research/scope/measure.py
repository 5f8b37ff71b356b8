"""The chat limited to one document (`answer(..., doc=...)`) against the whole corpus, on
question files nothing was fitted on. Prints figures, asserts nothing.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python research/scope/measure.py FILE [FILE ...]

- answerable first questions, unscoped and limited to their own document: Passage@1 and
  confident-wrong (as `faq-bot eval` counts them);
- unanswerable first questions, unscoped and limited to each document: how many are answered
  with confidence;
- answerable first questions limited to each document that does not hold their answer: how
  many get a confident (hence wrong) answer, the risk of a choice that does not fit;
- answerable follow-ups (their earlier questions answered first, as `faq-bot eval` does),
  unscoped and with the whole conversation limited to their own document.
"""

from __future__ import annotations

import sys

from faq_bot.chat import answer
from faq_bot.chat.answer import replay
from faq_bot.evaluate import answerable, is_hit, load_questions
from faq_bot.index import open_index


def main(files: list[str]) -> None:
    index = open_index("index")
    doc_of_file = {d["file"]: d["id"] for d in index.documents}
    ids = list(doc_of_file.values())
    questions = [q for f in files for q in load_questions(f)]
    first = [q for q in questions if not q.get("history")]
    followups = [q for q in questions if q.get("history") and answerable(q)]
    figures = {"unscoped": [0, 0, 0], "own document": [0, 0, 0]}  # right, wrong, n
    unanswered = {"unscoped": [0, 0], **{d: [0, 0] for d in ids}}  # confident, n
    wrong_scope = [0, 0]
    for q in first:
        if not answerable(q):
            for d in (None, *ids):
                counts = unanswered["unscoped" if d is None else d]
                counts[0] += bool(answer(index, q["q"], doc=d).confident)
                counts[1] += 1
            continue
        own = doc_of_file[q["doc"]]
        for label, d in (("unscoped", None), ("own document", own)):
            r = answer(index, q["q"], doc=d)
            right = bool(r.passage) and is_hit(r.passage.text, q["gold"])
            counts = figures[label]
            counts[2] += 1
            if r.confident:
                counts[0 if right else 1] += 1
        for d in ids:
            if d != own:
                r = answer(index, q["q"], doc=d)
                right = bool(r.passage) and is_hit(r.passage.text, q["gold"])
                wrong_scope[0] += r.confident and not right
                wrong_scope[1] += 1
    for q in followups:
        own = doc_of_file[q["doc"]]
        for label, d in (("follow-ups unscoped", None), ("follow-ups, own document", own)):
            r = answer(index, q["q"], replay(index, q["history"], doc=d), doc=d)
            right = bool(r.passage) and is_hit(r.passage.text, q["gold"])
            counts = figures.setdefault(label, [0, 0, 0])
            counts[2] += 1
            if r.confident:
                counts[0 if right else 1] += 1
    for label, (right, wrong, n) in figures.items():
        print(
            f"answerable, {label}: Passage@1 {right / n:.3f} ({right} of {n}), "
            f"confident-wrong {wrong / n:.3f} ({wrong})"
        )
    for label, (confident, n) in unanswered.items():
        print(f"unanswerable, {label}: answered with confidence {confident} of {n}")
    print(
        f"answerable, limited to another document: confidently wrong {wrong_scope[0]} "
        f"of {wrong_scope[1]}"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
