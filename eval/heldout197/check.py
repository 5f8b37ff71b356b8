"""Check eval/heldout197-questions.jsonl and eval/heldout197-followups.jsonl (held-out set 197) with
the one checker every set uses (eval/setcheck.py).

Usage: python3 eval/heldout197/check.py [SEED_DIR]   (default /work/shared/seeds)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from setcheck import SetSpec, earlier_than, main  # noqa: E402

SPEC = SetSpec(
    name="heldout197",
    question_prefix="h197-",
    followup_prefix="h197f",
    answerable=100,
    unanswerable=20,
    followups=15,
    docs={"000": 58, "001": 11, "002": 12, "003": 7, "004": 12},
    earlier=earlier_than("heldout197"),
    # golds are chosen freely (not steered away from earlier golds): overlaps are only counted
    strict=[],
)

if __name__ == "__main__":
    sys.exit(main(SPEC))
