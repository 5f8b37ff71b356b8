"""Print the chatbot's confidence feature on a question file (to choose the threshold).

Usage: .venv/bin/python scripts/answer_threshold.py [QUESTIONS.jsonl] [INDEX_DIR]

For every question: its coverage (the confidence feature of `faq_bot.chat.confidence`),
whether the best passage holds a gold passage (+ yes, - no), its entry and the
question. Answerable and unanswerable questions are listed apart, sorted by
coverage, so the gap between them is visible.
"""

from __future__ import annotations

import sys

from faq_bot.chat import answer
from faq_bot.chat.confidence import CONFIDENCE_THRESHOLD
from faq_bot.config import ROOT
from faq_bot.evaluate import answerable, is_hit, load_questions
from faq_bot.index import open_index


def main() -> None:
    path = (
        sys.argv[1]
        if len(sys.argv) > 1
        else str(ROOT.parent / "shared" / "eval" / "dev-questions.jsonl")
    )
    index = open_index(sys.argv[2] if len(sys.argv) > 2 else "index")
    rows = []
    for q in load_questions(path):
        a = answer(index, q["q"])
        p = a.passage
        hit = p is not None and is_hit(p.text, q["gold"])
        where = f"{p.entry}#p{p.paragraph}" if p else "-"
        rows.append((answerable(q), a.confidence, hit, q["id"], where, q["q"]))
    for label, flag in (("beantwortbar", True), ("unbeantwortbar", False)):
        print(f"--- {label}")
        for _a, conf, hit, qid, where, text in sorted(r for r in rows if r[0] == flag):
            mark = "+" if hit else ("-" if flag else " ")
            print(f"{conf:.3f} {mark} {qid} {where[:40]:<40} {text[:70]}")
    print(f"Schwelle: {CONFIDENCE_THRESHOLD}")


if __name__ == "__main__":
    main()
