"""Write eval/dev12-questions.jsonl and eval/dev12-followups.jsonl.

Training set dev12 (the models learn from it), written blind from the five seed documents
only (see eval/README.md). Persona: a forum poster describing a concrete situation from a
game that just happened and asking who was right. Golds were not steered: each gold is the
passage that answers the question. The question order is shuffled with a fixed seed so that
documents and kinds are mixed. The questions live in q000.py (FAQ) and qrest.py (the other
four documents, the unanswerable questions and the follow-ups).
"""

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]
from q000 import Q000  # noqa: E402
from qrest import FOLLOWUPS, Q001, Q002, Q003, Q004, UNANSWERABLE  # noqa: E402
from setcheck import write_set  # noqa: E402

SEED = 20261212


def main() -> None:
    questions = []
    for doc, items in (("000", Q000), ("001", Q001), ("002", Q002), ("003", Q003), ("004", Q004)):
        questions += [(doc, kind, q, gold) for kind, q, gold in items]
    questions += [(None, "unanswerable", q, []) for q in UNANSWERABLE]
    followups = list(FOLLOWUPS)
    rng = random.Random(SEED)
    rng.shuffle(questions)
    rng.shuffle(followups)
    write_set("dev12", "d12-", "d12f", questions, followups)


if __name__ == "__main__":
    main()
