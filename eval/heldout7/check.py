"""Check eval/heldout7-questions.jsonl and eval/heldout7-followups.jsonl (held-out set 7) with
the one checker every set uses (eval/setcheck.py).

Usage: python3 eval/heldout7/check.py [SEED_DIR]   (default /work/shared/seeds)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from setcheck import SetSpec, main  # noqa: E402

SPEC = SetSpec(
    name="heldout7",
    question_prefix="h7-",
    followup_prefix="h7f",
    answerable=85,
    unanswerable=15,
    followups=12,
    docs={"000": 50, "001": 9, "002": 10, "003": 6, "004": 10},
    earlier=[
        "heldout-questions.jsonl",
        "heldout2-questions.jsonl",
        "heldout3-questions.jsonl",
        "heldout3-followups.jsonl",
        "heldout4-questions.jsonl",
        "heldout4-followups.jsonl",
        "heldout5-questions.jsonl",
        "heldout5-followups.jsonl",
        "dev3-followups.jsonl",
        "dev-questions.jsonl",
        "dev2-questions.jsonl",
        "dev2-followups.jsonl",
        "heldout6-questions.jsonl",
        "heldout6-followups.jsonl",
        "dev4-questions.jsonl",
        "dev4-followups.jsonl",
    ],
    # golds are chosen freely (not steered away from earlier golds): overlaps are only counted
    strict=[],
)

if __name__ == "__main__":
    sys.exit(main(SPEC))
