"""Print the seed text no earlier gold covers, to steer held-out set 6's golds to unused text
(eval/setcheck.py `uncovered`; never prints an earlier question or gold).

Usage: python3 eval/heldout6/uncovered.py [DOC_PREFIX] [MIN_CHARS]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from check import SPEC  # noqa: E402
from setcheck import uncovered  # noqa: E402

if __name__ == "__main__":
    uncovered(SPEC)
