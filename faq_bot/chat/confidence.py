"""Calibrated confidence: how likely the chosen passage answers the question.

``SIGNALS``: coverage of the question by the passage (with the headword bonus),
the headword named, distinctive words matched, the passage's dense similarity
to the question, the best entry's dense similarity and its margin over the
runner-up entries, the margin of the fused ranking's best entry over the second,
and whether the question names a thing the corpus never mentions.

``probability(signals) -> float | None``
    A logistic model over `SIGNALS` (``faq_bot/data/confidence.json``, written by
    ``scripts/train_ranker.py --confidence``); None when there is no model (then
    the coverage rule of `faq_bot.answer` decides).
``threshold() -> float``
    The probability above which the bot answers, chosen by cross-validation on
    the development questions (see the training script).
"""

from __future__ import annotations

import json
import math
from importlib import resources
from typing import Any

__all__ = ["SIGNALS", "model", "probability", "threshold"]

SIGNALS = (
    "coverage",
    "named",
    "evidence",
    "dense_passage",
    "dense_entry",
    "dense_margin",
    "rank_margin",
    "foreign",
)
_MODEL: dict[str, Any] = {}


def model() -> dict[str, Any] | None:
    if "m" not in _MODEL:
        try:
            text = resources.files("faq_bot").joinpath("data/confidence.json").read_text("utf-8")
            data = json.loads(text)
            weights = data["weights"]
            if set(weights) != {*SIGNALS, "bias"}:
                raise ValueError("signals differ")
            _MODEL["m"] = data
        except (OSError, ValueError, KeyError):
            _MODEL["m"] = None
    return _MODEL["m"]


def probability(signals: dict[str, float]) -> float | None:
    data = model()
    if data is None:
        return None
    w = data["weights"]
    z = w["bias"] + sum(w[k] * float(signals.get(k, 0.0)) for k in SIGNALS)
    return 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))


def threshold() -> float:
    data = model()
    return float(data["threshold"]) if data else 0.5
