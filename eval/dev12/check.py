"""Check eval/dev12-questions.jsonl and eval/dev12-followups.jsonl (training set dev12) with
the one checker every set uses (eval/setcheck.py).

Usage: python3 eval/dev12/check.py [SEED_DIR]   (default /work/shared/seeds)
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from setcheck import SetSpec, earlier_than, main  # noqa: E402

SPEC = SetSpec(
    name="dev12",
    question_prefix="d12-",
    followup_prefix="d12f",
    answerable=125,
    unanswerable=25,
    followups=25,
    docs={"000": 73, "001": 13, "002": 15, "003": 9, "004": 15},
    earlier=earlier_than("dev12"),
    # golds are chosen freely (not steered away from earlier golds): overlaps are only counted
    strict=[],
)

if __name__ == "__main__":
    sys.exit(main(SPEC))
