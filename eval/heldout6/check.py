"""Check eval/heldout6-questions.jsonl and eval/heldout6-followups.jsonl (held-out set 6) with
the one checker every set uses (eval/setcheck.py).

Usage: python3 eval/heldout6/check.py [SEED_DIR]   (default /work/shared/seeds)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from setcheck import SetSpec, earlier_than, main  # noqa: E402

SPEC = SetSpec(
    name="heldout6",
    question_prefix="h6-",
    followup_prefix="h6f",
    answerable=85,
    unanswerable=15,
    followups=12,
    docs={"000": 45, "001": 10, "002": 17, "003": 3, "004": 10},
    earlier=earlier_than("heldout6"),
)

if __name__ == "__main__":
    sys.exit(main(SPEC))
