"""Check eval/dev4-questions.jsonl and eval/dev4-followups.jsonl (development set 4) with
the one checker every set uses (eval/setcheck.py).

Usage: python3 eval/dev4/check.py [SEED_DIR]   (default /work/shared/seeds)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from setcheck import SetSpec, earlier_than, main  # noqa: E402

SPEC = SetSpec(
    name="dev4",
    question_prefix="d4-",
    followup_prefix="d4f",
    answerable=120,
    unanswerable=40,
    followups=24,
    docs={"000": 62, "001": 14, "002": 20, "003": 10, "004": 14},
    earlier=earlier_than("dev4"),
    # held-out 6 was written in parallel and is blind: no gold of this set may overlap it
    strict=["heldout6-questions.jsonl", "heldout6-followups.jsonl"],
)

if __name__ == "__main__":
    sys.exit(main(SPEC))
