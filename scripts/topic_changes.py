"""Topic changes: every first question of the files, asked after a question on another
document, for measuring what a conversation's context does to a question that stands
alone (`faq_bot.chat.answer` may read a question not shaped like a follow-up with the
earlier answer as context). Writes question lines (JSONL) to stdout; ``faq-bot eval``
scores them as usual. Ids get the suffix ``-t``, so a derived held-out question keeps
an id the fitting scripts refuse.

With ``--same-document`` the earlier question is one of the question's own document
instead (other golds): the harder change, where the earlier answer's entry may be a
neighbour of the one asked about.

Usage: python scripts/topic_changes.py [--seed N] [--same-document] FILE [FILE ...]
    > topic-changes.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from faq_bot.evaluate import EvalFileError, answerable, load_questions


def topic_changes(questions: list[dict], seed: int, same_document: bool = False) -> list[dict]:
    """Each question without a history, with one earlier question: an answerable one
    on another document, drawn with `seed`; with `same_document` one on the question's
    own document sharing no gold instead (questions without a document are left out)."""
    rng = random.Random(seed)
    first = [q for q in questions if not q.get("history")]
    out = []
    for q in first:
        if same_document:
            others = [
                o
                for o in first
                if answerable(o) and q.get("doc") and o.get("doc") == q["doc"]
                if set(o["gold"]).isdisjoint(q.get("gold") or [])
            ]
        else:
            others = [
                o for o in first if answerable(o) and o.get("doc") and o["doc"] != q.get("doc")
            ]
        if not others:
            continue
        earlier = rng.choice(others)
        out.append({**q, "id": f"{q['id']}-t", "history": [earlier["q"]]})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--same-document",
        action="store_true",
        help="the earlier question on the same document (other golds), not on another",
    )
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    try:
        questions = [q for path in args.files for q in load_questions(path)]
    except EvalFileError as exc:
        sys.exit(str(exc))
    for item in topic_changes(questions, args.seed, args.same_document):
        print(json.dumps(item, ensure_ascii=False))


if __name__ == "__main__":
    main()
