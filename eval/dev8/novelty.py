"""Print, for each item of training set dev8 only, the highest token-set Jaccard of its q (and
history) with any earlier set's q/history and with any other text of this set, as numbers.
Never prints another set's text.

Usage: python3 eval/dev8/novelty.py [SEED_DIR]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from setcheck import EVAL, earlier_than, jaccard, load, seeds_dir, set_paths, tokens  # noqa: E402


def main() -> None:
    other = []
    for p in set_paths(earlier_than("dev8"), seeds_dir()):
        if p.exists():
            for r in load(p):
                other += [tokens(r["q"]), *(tokens(h) for h in r.get("history", []))]
    mine = [(r["id"], r["q"]) for r in load(EVAL / "dev8-questions.jsonl")]
    for r in load(EVAL / "dev8-followups.jsonl"):
        mine += [(r["id"], r["q"]), (r["id"] + "(history)", r["history"][0])]
    bad = 0
    for i, (k, q) in enumerate(mine):
        t = tokens(q)
        e = max(jaccard(t, o) for o in other)
        w = max(jaccard(t, tokens(x)) for j, (_, x) in enumerate(mine) if j != i)
        flag = " <-- reword" if max(e, w) >= 0.5 else ""
        bad += bool(flag)
        if flag or "-v" in sys.argv:
            print(f"{k}: earlier {e:.2f} within {w:.2f}{flag}")
    print(f"{bad} of {len(mine)} texts reach 0.5")


if __name__ == "__main__":
    main()
