"""Check eval/heldout5-questions.jsonl and eval/heldout5-followups.jsonl (held-out set 5) with
the one checker every set uses (eval/setcheck.py).

Usage: python3 eval/heldout5/check.py [SEED_DIR]   (default /work/shared/seeds)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from setcheck import SetSpec, earlier_than, main  # noqa: E402

SPEC = SetSpec(
    name="heldout5",
    question_prefix="h5-",
    followup_prefix="h5f",
    answerable=85,
    unanswerable=15,
    followups=12,
    docs={"000": 45, "001": 10, "002": 10, "003": 10, "004": 10},
    earlier=earlier_than("heldout5"),
)

if __name__ == "__main__":
    sys.exit(main(SPEC))
