"""Check eval/heldout31-questions.jsonl and eval/heldout31-followups.jsonl (held-out set 31) with
the one checker every set uses (eval/setcheck.py).

Usage: python3 eval/heldout31/check.py [SEED_DIR]   (default /work/shared/seeds)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from setcheck import SetSpec, earlier_than, main  # noqa: E402

SPEC = SetSpec(
    name="heldout31",
    question_prefix="h31-",
    followup_prefix="h31f",
    answerable=100,
    unanswerable=20,
    followups=15,
    docs={"000": 58, "001": 11, "002": 12, "003": 7, "004": 12},
    earlier=earlier_than("heldout31"),
    # golds are chosen freely (not steered away from earlier golds): overlaps are only counted
    strict=[],
)

if __name__ == "__main__":
    sys.exit(main(SPEC))
