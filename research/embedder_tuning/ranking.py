"""Does a tuned embedder help the hybrid ranking? Run with the project's venv after
`cv.py --engine --save DIR`, which leaves each fold's 4-bit unit vectors and the vectors of
that fold's held-out questions (out of fold: the model that made them never saw them):

    .venv/bin/python research/embedder_tuning/ranking.py --index index DATA.json DIR

For every answerable training question it computes the ranker's candidate features twice,
with the shipped embedder's vectors and with its fold's tuned vectors (lexical features
alike), and cross-validates the listwise ranker on each (the shipped procedure: 5 folds x 5
shuffles, L2 as in faq_bot/data/ranker.json): R@1 and R@3."""

import argparse
import copy
import json
import sys
from pathlib import Path

import numpy as np

from faq_bot.dense import dense_for
from faq_bot.errors import FaqBotError
from faq_bot.hybrid import FEATURES, features
from faq_bot.index import open_index
from faq_bot.query import QueryError
from faq_bot.search import FUSE_DEPTH, prepare_query, rank

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from train_ranker import OUT, cross_validate, listwise  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--index", default="index")
parser.add_argument("--l2", type=float, default=None, help="default: the shipped ranker's")
parser.add_argument("data")
parser.add_argument("folds", type=Path)
args = parser.parse_args()
try:
    index = open_index(args.index)
except FaqBotError as exc:  # no index yet: the message says what to run
    raise SystemExit(str(exc)) from None
stock = dense_for(index)
if stock is None:
    sys.exit("Der Index hat keine Vektoren.")
data = json.loads(Path(args.data).read_text(encoding="utf-8"))
if [tuple(u[:4]) for u in data["units"]] != [tuple(u) for u in stock.units]:
    sys.exit("The data file's units are not the index's: export again from this index.")
by_id = {q["id"]: q for q in data["questions"]}
l2 = args.l2 if args.l2 is not None else json.loads(OUT.read_text(encoding="utf-8"))["l2"]
tuned = copy.copy(stock)  # the same units, its vectors replaced by each fold's
groups: dict[str, list] = {"stock": [], "tuned": []}
for path in sorted(args.folds.glob("fold*.npz")):
    saved = np.load(path)
    tuned.vectors = saved["units"]
    for qid, tuned_query in zip(saved["ids"], saved["queries"], strict=True):
        q = by_id[str(qid)]
        try:
            pq = prepare_query(index, q["raw"])
            lexical, _total = rank(index, pq, "lexical", limit=FUSE_DEPTH)
            analyzed = pq.analyzed
        except QueryError:
            lexical, analyzed = [], None
        for name, retriever, vector in (
            ("stock", stock, stock.embed(q["q"])),
            ("tuned", tuned, tuned_query),
        ):
            dense = retriever.scores_of(np.asarray(vector, dtype=np.float32))
            ranked = features(index, lexical, dense, None, None, analyzed)
            x = np.array([[r.features[f] for f in FEATURES] for r in ranked], dtype=float)
            y = np.array([r.entry in q["ents"] for r in ranked], dtype=float)
            groups[name].append((x.reshape(-1, len(FEATURES)), y))
for name, gs in groups.items():
    _per_fold, per_seed = cross_validate(gs, listwise(l2))
    r1, r3 = np.mean(per_seed["recall@1"]), np.mean(per_seed["recall@3"])
    print(f"{name} vectors: {len(gs)} questions, ranking CV R@1 {r1:.4f} R@3 {r3:.4f}")
