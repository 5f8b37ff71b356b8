"""The fitted model files in ``faq_bot/data`` (``ranker.json``, ``passage.json``,
``confidence.json``, written by ``scripts/train_ranker.py`` and ``scripts/train_chat.py``):
read once per process, checked by their user, and used only with the embedder they were
fitted for.

``fitted(name, part, mode="hybrid") -> T | None``
    ``part(data, mode)`` of the file ``data/<name>.json`` (`part` picks and checks what its
    user needs, raising ValueError, KeyError, TypeError or AttributeError for anything
    else). None when the file is missing, unreadable or refused by `part` (logged as a
    warning), when it holds no model for `mode` (not logged: the rule stands in), and, for the
    "hybrid" mode, when it was fitted on the similarities of another embedder than the one
    that serves (`faq_bot.embed.fitted_for_serving`: another model's similarities lie on
    another scale). The "lexical" models read no similarities and always apply.
``mode_weights(features) -> part``
    A `part` for a model of one weight per feature for each mode (``modes.<mode>.weights``,
    exactly `features`): made once per model, at import, as `fitted` caches by `part`.
``reload()``
    Read every file again on the next call (after a refit wrote it).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from functools import cache
from importlib import resources
from typing import Any, TypeVar

from faq_bot.embed import fitted_for_serving

__all__ = ["fitted", "mode_weights", "reload"]

T = TypeVar("T")
log = logging.getLogger(__name__)

Part = Callable[[dict[str, Any], str], T]


def fitted(name: str, part: Part[T], mode: str = "hybrid") -> T | None:
    value, embedder = _read(name, part, mode)
    if mode == "hybrid" and not fitted_for_serving(embedder):
        return None
    return value


def mode_weights(features: Sequence[str]) -> Part[dict[str, float]]:
    """The `part` that reads ``modes.<mode>.weights`` as one float per name of `features`
    (ValueError when the names differ: a file fitted on other features)."""
    names = frozenset(features)

    def part(data: dict[str, Any], mode: str) -> dict[str, float]:
        weights = data["modes"][mode]["weights"]
        if set(weights) != names:
            raise ValueError("features differ")
        return {k: float(v) for k, v in weights.items()}

    return part


@cache
def _read(name: str, part: Part[T], mode: str) -> tuple[T | None, object]:
    try:
        text = resources.files("faq_bot").joinpath(f"data/{name}.json").read_text("utf-8")
        data = json.loads(text)
        modes = data.get("modes") if isinstance(data, dict) else None
        if isinstance(modes, dict) and mode not in modes:
            # fitted for the other mode only (the chat's models for hybrid): the rule
            # stands in, as designed; nothing is wrong with the file
            log.debug("Modelldatei %s.json: kein Modell für %s", name, mode)
            return None, data.get("embedder")
        return part(data, mode), data.get("embedder")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        # read once per process: the rule or fusion without a model stands in
        log.warning("Modelldatei %s.json (%s) nicht verwendbar: %s", name, mode, exc)
        return None, None


def reload() -> None:
    _read.cache_clear()
