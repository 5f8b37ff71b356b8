"""Print, for each item of held-out set 198 only, the highest token-set Jaccard of its q (and
history) with the q/history of the sets its check compares with and with any other text
of this set, as numbers (`setcheck.novelty`). Never prints another set's text.

Usage: python3 eval/heldout198/novelty.py [SEED_DIR] [-v]
"""

import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parent.parent)]
from check import SPEC  # noqa: E402
from setcheck import novelty  # noqa: E402

if __name__ == "__main__":
    sys.exit(novelty(SPEC))
