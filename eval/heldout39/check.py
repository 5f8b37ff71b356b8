"""Check eval/heldout39-questions.jsonl and eval/heldout39-followups.jsonl (held-out set 39) with
the one checker every set uses (eval/setcheck.py).

Usage: python3 eval/heldout39/check.py [SEED_DIR]   (default /work/shared/seeds)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from setcheck import SetSpec, earlier_than, main  # noqa: E402

SPEC = SetSpec(
    name="heldout39",
    question_prefix="h39-",
    followup_prefix="h39f",
    answerable=100,
    unanswerable=20,
    followups=15,
    docs={"000": 58, "001": 11, "002": 12, "003": 7, "004": 12},
    earlier=earlier_than("heldout39"),
    # golds are chosen freely (not steered away from earlier golds): overlaps are only counted
    strict=[],
)

if __name__ == "__main__":
    sys.exit(main(SPEC))
