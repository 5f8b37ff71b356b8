"""Check eval/heldout55-questions.jsonl and eval/heldout55-followups.jsonl (held-out set 55) with
the one checker every set uses (eval/setcheck.py).

Usage: python3 eval/heldout55/check.py [SEED_DIR]   (default /work/shared/seeds)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from setcheck import SetSpec, earlier_than, main  # noqa: E402

SPEC = SetSpec(
    name="heldout55",
    question_prefix="h55-",
    followup_prefix="h55f",
    answerable=100,
    unanswerable=20,
    followups=15,
    docs={"000": 58, "001": 11, "002": 12, "003": 7, "004": 12},
    earlier=earlier_than("heldout55"),
    # golds are chosen freely (not steered away from earlier golds): overlaps are only counted
    strict=[],
)

if __name__ == "__main__":
    sys.exit(main(SPEC))
