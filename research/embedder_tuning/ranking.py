"""Does a tuned embedder help the hybrid ranking? Run with the project's venv after
`cv.py --engine --save DIR`, which leaves each fold's 4-bit unit vectors and the vectors of
that fold's held-out questions (out of fold: the model that made them never saw them):

    .venv/bin/python research/embedder_tuning/ranking.py --index index DATA.json DIR

For every answerable training question it computes the ranker's candidate features twice,
with the shipped embedder's vectors and with its fold's tuned vectors (lexical features
alike), and cross-validates the listwise ranker on each (the shipped procedure: 5 folds x 5
shuffles, L2 as in faq_bot/data/ranker.json): R@1 and R@3."""

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from faq_bot.dense import dense_for
from faq_bot.hybrid import FEATURES, features
from faq_bot.index import open_index
from faq_bot.learn import fit_choice, folds
from faq_bot.search import FUSE_DEPTH, QueryError, prepare_query, rank

parser = argparse.ArgumentParser()
parser.add_argument("--index", default="index")
parser.add_argument("--l2", type=float, default=None)
parser.add_argument("data")
parser.add_argument("folds", type=Path)
args = parser.parse_args()
index = open_index(args.index)
retriever = dense_for(index)
if retriever is None:
    sys.exit("Der Index hat keine Vektoren.")
data = json.loads(Path(args.data).read_text(encoding="utf-8"))
if [tuple(u[:4]) for u in data["units"]] != [tuple(u) for u in retriever.units]:
    sys.exit("The data file's units are not the index's: export again from this index.")
gold = {q["id"]: q for q in data["questions"]}
base_vectors = retriever.vectors
l2 = args.l2
if l2 is None:
    l2 = json.loads(Path("faq_bot/data/ranker.json").read_text())["l2"]
source = {}
for path in sorted(args.folds.glob("fold*.npz")):
    z = np.load(path)
    for i, qid in enumerate(z["ids"]):
        source[str(qid)] = (z["units"], z["queries"][i])
groups: dict[str, list] = {"base": [], "tuned": []}
for qid, (tuned_units, tuned_query) in source.items():
    q = gold[qid]
    text = q["q"]
    try:
        pq = prepare_query(index, q["raw"])
        lexical, _total = rank(index, pq, "lexical", limit=FUSE_DEPTH)
        aq = pq.analyzed
    except QueryError:
        lexical, aq = [], None
    for name, units, vector in (
        ("base", base_vectors, retriever.embed(text)),
        ("tuned", tuned_units, tuned_query),
    ):
        retriever.vectors = units
        dense = retriever.scores_of(np.asarray(vector, dtype=np.float32))
        ranked = features(index, lexical, dense, None, None, aq)
        x = np.array([[r.features[f] for f in FEATURES] for r in ranked], dtype=float)
        y = np.array([r.entry in q["ents"] for r in ranked], dtype=float)
        groups[name].append((x.reshape(-1, len(FEATURES)), y))
retriever.vectors = base_vectors
for name, gs in groups.items():
    r1 = r3 = n = 0
    for seed in range(5):
        fo = folds(len(gs), 5, seed)
        for k in range(5):
            w = fit_choice([g for g, f in zip(gs, fo, strict=True) if f != k], l2=l2)
            for (x, y), f in zip(gs, fo, strict=True):
                if f == k:
                    n += 1
                    order = np.argsort(-(x @ w)) if len(y) else []
                    r1 += bool(len(y)) and y[order[0]] > 0
                    r3 += bool(len(y)) and y[order[:3]].max() > 0
    print(f"{name}: {len(gs)} questions, ranking CV R@1 {r1 / n:.4f} R@3 {r3 / n:.4f}")
