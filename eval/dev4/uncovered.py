"""List stretches of the seed documents that no earlier gold passage covers.

Adapted from eval/heldout5/uncovered.py, with held-out 5 and the dev3 follow-ups added to
the earlier sets. Prints only uncovered seed text (at least 30 characters) with line
numbers, never an earlier question or gold passage.
Usage: python3 eval/dev4/uncovered.py [DOC_PREFIX]
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
prefix = sys.argv[1] if len(sys.argv) > 1 else ""
sys.argv = sys.argv[:1]
from check import EARLIER, SEEDS, load, norm  # noqa: E402

golds: dict[str, list[str]] = {}
for p in EARLIER:
    if p.exists():
        for r in load(p):
            for g in r.get("gold", []):
                golds.setdefault(r["doc"], []).append(norm(g).lower())

for path in sorted(SEEDS.glob(f"{prefix}*.txt")):
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = norm(line)
        low = text.lower()
        covered = [False] * len(text)
        for g in golds.get(path.name, []):
            start = low.find(g)
            while start >= 0:
                for i in range(start, start + len(g)):
                    covered[i] = True
                start = low.find(g, start + 1)
        i = 0
        while i < len(text):
            if covered[i]:
                i += 1
                continue
            j = i
            while j < len(text) and not covered[j]:
                j += 1
            span = text[i:j].strip()
            if len(span) >= 30:
                print(f"{path.name[:3]}:{n}: {span}")
            i = j
