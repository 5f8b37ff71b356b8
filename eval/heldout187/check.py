"""Check eval/heldout187-questions.jsonl and eval/heldout187-followups.jsonl (held-out set 187) with
the one checker every set uses (eval/setcheck.py).

Usage: python3 eval/heldout187/check.py [SEED_DIR]   (default /work/shared/seeds)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from setcheck import SetSpec, earlier_than, main  # noqa: E402

SPEC = SetSpec(
    name="heldout187",
    question_prefix="h187-",
    followup_prefix="h187f",
    answerable=100,
    unanswerable=20,
    followups=15,
    docs={"000": 58, "001": 11, "002": 12, "003": 7, "004": 12},
    earlier=earlier_than("heldout187"),
    # golds are chosen freely (not steered away from earlier golds): overlaps are only counted
    strict=[],
)

if __name__ == "__main__":
    sys.exit(main(SPEC))
