"""Variants of the key-sentence feature "caps" (a word emphasised in capitals), tried on
`dump_rich.py`'s dump of the training questions (round 37).

    .venv/bin/python research/key_sentence/caps.py TRAIN.jsonl

A code review found that the shipped "caps" fires on names and abbreviations as much as on
emphasis ("BATTLEMIST", "USA", "SPD", "FAQ" beside "NICHT", "NUR", "SOFORT"). Each variant
replaces "caps" among the four round-36 features and is cross-validated as `explore.py` does
(5 folds, three shuffles, `faq_bot.learn.fit_choice`); a variant ships only if it beats the
shipped definition beyond the spread of the shuffles.

Round 37, on the 3,016 multi-sentence paragraphs of the training questions: caps (shipped)
0.7231 ± 0.0005, caps_common 0.7233, caps_mixed 0.7249 ± 0.0006, caps_both 0.7238, no caps
feature 0.7213. The best variant gains 5 paragraphs of 3,016 and would need the corpus's
mixed-case words stored with the index; not shipped (docs/quality-journal.md).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import explore  # noqa: E402

from faq_bot.lexicon import common_words  # noqa: E402
from faq_bot.text import fold  # noqa: E402

CAPS = re.compile(r"\b[A-ZÄÖÜ]{3,}\b")
COMMON = common_words()
CORPUS = Path(__file__).resolve().parents[2] / "corpus"
# words the corpus also writes in lower or title case (emphasis of an ordinary word, not a
# name or an abbreviation that only ever appears in capitals)
MIXED = frozenset(
    w.lower()
    for f in CORPUS.glob("*.txt")
    for w in re.findall(r"\b[A-Za-zÄÖÜäöüß]{3,}\b", f.read_text("utf-8"))
    if not w.isupper()
)


def variants(sentence: str) -> dict[str, float]:
    words = CAPS.findall(sentence) if not sentence.isupper() else []
    return {
        "caps": float(bool(words)),
        "caps_common": float(any(fold(w.lower()) in COMMON for w in words)),
        "caps_mixed": float(any(w.lower() in MIXED for w in words)),
        "caps_both": float(any(w.lower() in MIXED and fold(w.lower()) in COMMON for w in words)),
        "caps_none": 0.0,
    }


def main() -> None:
    data = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
    base = ["example", "rule", "exclaim"]
    shipped = explore.extra
    for name in ("caps", "caps_common", "caps_mixed", "caps_both", "caps_none"):

        def extra(group, name=name):
            rows = shipped(group)
            for (span, _f), row in zip(group["rows"], rows, strict=True):
                row[name] = variants(group["text"][span[0] : span[1]].strip())[name]
            return rows

        explore.extra = extra
        gs = explore.groups(data, [*base, name])
        mean, sd = explore.cross_validated(gs)
        print(f"{name:12s} cv {mean:.4f} ± {sd:.4f} (n={len(gs)})", flush=True)
    explore.extra = shipped


if __name__ == "__main__":
    main()
