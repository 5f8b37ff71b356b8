"""Check eval/heldout11-questions.jsonl and eval/heldout11-followups.jsonl (held-out set 11) with
the one checker every set uses (eval/setcheck.py).

Usage: python3 eval/heldout11/check.py [SEED_DIR]   (default /work/shared/seeds)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from setcheck import SetSpec, earlier_than, main  # noqa: E402

SPEC = SetSpec(
    name="heldout11",
    question_prefix="h11-",
    followup_prefix="h11f",
    answerable=85,
    unanswerable=15,
    followups=12,
    docs={"000": 50, "001": 9, "002": 10, "003": 6, "004": 10},
    earlier=earlier_than("heldout11"),
    # golds are chosen freely (not steered away from earlier golds): overlaps are only counted
    strict=[],
)

if __name__ == "__main__":
    sys.exit(main(SPEC))
