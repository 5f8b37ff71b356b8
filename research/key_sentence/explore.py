"""Candidate key-sentence features, tried offline on `dump_rich.py`'s dumps (round 36).

    .venv/bin/python research/key_sentence/explore.py TRAIN.jsonl [MEASURE.jsonl]

For each candidate set: the 5-fold cross-validated share of multi-sentence paragraphs whose
chosen sentence overlaps the gold (three shuffles; `faq_bot.learn.fit_choice`, as
`scripts/train_key_sentence.py`), the twelve features before round 36 plus the candidates;
with MEASURE (held-out sets read with ``--measure``), the same fitted on all of TRAIN and
read there. The four shipped in round 36 (example, rule, caps, exclaim) were chosen by the
cross-validated figure alone (docs/quality-journal.md, "thirty-sixth round").
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import numpy as np

from faq_bot.chat.keysentence import SENTENCE_FEATURES
from faq_bot.learn import fit_choice, folds

BASE = SENTENCE_FEATURES[:12]  # the features before round 36, which the dumps hold
RULE = re.compile(
    r"\b(nicht|kein\w*|darf|dürfen|kann|können|muss|müssen|nur|immer|nie|niemals|jede\w*|alle)\b"
)
COND = re.compile(r"^\W*(wenn|falls|sobald|sollte\w*|solange)\b")
EXAMPLE = re.compile(r"^\W*(beispiel|bsp|z\.\s?b\.)", re.IGNORECASE)
CONCLUDE = re.compile(r"^\W*(d\.\s?h\.|also|daher|somit|deshalb|dadurch)\b")
AMOUNT_Q = re.compile(r"\b(wie\s?viele?|wieviel\w*|wie\s+oft|wie\s+weit|wie\s+lange?|maximal)\b")
CANDIDATES = (
    "novel", "rule", "cond", "dense_gap", "cover_gap", "after_best_dense", "position",
    "colon", "example", "qmatch", "caps", "exclaim", "conclude", "amount",
)  # fmt: skip


def extra(group: dict[str, Any]) -> list[dict[str, float]]:
    """The candidate features of each sentence of one dumped paragraph."""
    rows = group["rows"]
    query, heading, idf = set(group["query"]), set(group["heading"]), group["idf"]
    dense = [f["dense"] for _s, f in rows]
    cover = [f["cover"] for _s, f in rows]
    best_dense = int(np.argmax(dense)) if rows else 0
    amount = AMOUNT_Q.search(group["q"].lower()) is not None
    out = []
    for k, ((start, end), f) in enumerate(rows):
        sentence = group["text"][start:end].strip()
        low = sentence.lower()
        terms = set(group["terms"][k])
        total = sum(idf.get(t, 0.0) for t in terms) or 1.0
        out.append(
            {
                "novel": sum(idf.get(t, 0.0) for t in terms - query - heading) / total,
                "rule": float(RULE.search(low) is not None),
                "cond": float(COND.search(low) is not None),
                "dense_gap": f["dense"] - max(dense),
                "cover_gap": f["cover"] - max(cover),
                "after_best_dense": float(k == best_dense + 1),
                "position": k / (len(rows) - 1) if len(rows) > 1 else 0.0,
                "colon": float(sentence.endswith(":")),
                "example": float(EXAMPLE.search(sentence) is not None),
                "qmatch": len(terms & query) / (len(query) or 1),
                "caps": float(
                    re.search(r"\b[A-ZÄÖÜ]{3,}\b", sentence) is not None and not sentence.isupper()
                ),
                "exclaim": float(sentence.rstrip("\"“”'’)").endswith("!")),
                "conclude": float(CONCLUDE.search(low) is not None),
                "amount": float(amount and any(c.isdigit() for c in sentence)),
            }
        )
    return out


def groups(data: list[dict[str, Any]], names: list[str]) -> list[tuple[np.ndarray, np.ndarray]]:
    out = []
    for group in data:
        rows = zip(group["rows"], extra(group), strict=True)
        x = np.array([[f[k] for k in BASE] + [e[k] for k in names] for (_s, f), e in rows])
        y = np.array(group["y"], dtype=float)
        if len(y) > 1 and y.any():
            out.append((x, y))
    return out


def pick(x: np.ndarray, w: np.ndarray) -> int:
    return int(np.argmax(x @ w + 1e-9 * -np.arange(len(x))))


def cross_validated(gs: list, k: int = 5, shuffles: int = 3) -> tuple[float, float]:
    shares = []
    for seed in range(shuffles):
        fold = folds(len(gs), k, seed)
        hits = 0
        for f in range(k):
            w = fit_choice([g for g, ff in zip(gs, fold, strict=True) if ff != f])
            hits += sum(g[1][pick(g[0], w)] > 0 for g, ff in zip(gs, fold, strict=True) if ff == f)
        shares.append(hits / len(gs))
    return float(np.mean(shares)), float(np.std(shares))


def measured(train: list, held_out: list) -> float:
    w = fit_choice(train)
    return sum(g[1][pick(g[0], w)] > 0 for g in held_out) / len(held_out)


def main() -> None:
    load = lambda path: [json.loads(line) for line in open(path, encoding="utf-8")]  # noqa: E731
    train = load(sys.argv[1])
    held_out = load(sys.argv[2]) if len(sys.argv) > 2 else []
    trials = [[], *([c] for c in CANDIDATES), ["example", "rule", "caps", "exclaim"]]
    for names in trials:
        tr = groups(train, names)
        mean, sd = cross_validated(tr)
        te = groups(held_out, names) if held_out else []
        there = f"  measured {measured(tr, te):.4f} (n={len(te)})" if te else ""
        print(f"{'+'.join(names) or 'before':40s} cv {mean:.4f} ± {sd:.4f} (n={len(tr)}){there}")


if __name__ == "__main__":
    main()
