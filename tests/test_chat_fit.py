"""Fitting the chatbot's confidence (`faq_bot.chat.fit`): the threshold is chosen
for questions the model has not seen."""

from __future__ import annotations

import numpy as np

from faq_bot.chat.fit import _figures, _held_out_threshold, _prob, _threshold, outcome_weights
from faq_bot.learn import fit_logistic


def _noise(seed: int, n: int = 80, k: int = 12):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, k))
    ans = rng.random(n) < 0.75
    y = ((rng.random(n) < 0.7) & ans).astype(float)
    return x, y, ans


def test_the_threshold_declines_unseen_questions_as_the_target_says():
    # signals that carry no information still separate the questions a model was
    # fitted on; a threshold chosen on that fit answers too much on new questions.
    # Chosen on out-of-fold probabilities it declines far more of them.
    declined: dict[str, list[float]] = {"in_sample": [], "held_out": []}
    for seed in range(5):
        x, y, ans = _noise(seed)
        w, b = fit_logistic(x, y, sample=outcome_weights(y, ans))
        thresholds = {
            "in_sample": _threshold(_prob(x, w, b), y, ans),
            "held_out": _held_out_threshold(x, y, ans),
        }
        fresh_x, fresh_y, fresh_ans = _noise(100 + seed, n=2000)
        p = _prob(fresh_x, w, b)
        for name, t in thresholds.items():
            declined[name].append(_figures(p >= t, fresh_y, fresh_ans)["declined"])
    assert np.mean(declined["held_out"]) >= np.mean(declined["in_sample"]) + 0.1
    assert np.mean(declined["held_out"]) >= 0.8


def test_informative_signals_keep_a_threshold_that_answers():
    rng = np.random.default_rng(0)
    n = 200
    ans = rng.random(n) < 0.8
    y = ((rng.random(n) < 0.8) & ans).astype(float)
    x = np.column_stack([y * 2.0 + rng.normal(scale=0.5, size=n), rng.normal(size=n)])
    t = _held_out_threshold(x, y, ans)
    w, b = fit_logistic(x, y, sample=outcome_weights(y, ans))
    figures = _figures(_prob(x, w, b) >= t, y, ans)
    assert t < 0.95
    assert figures["passage@1"] > 0.5


def _case(answerable: bool, best: float | None):
    from types import SimpleNamespace

    ranking = [] if best is None else [("e", best), ("f", best - 0.05)]
    dense = None if best is None else SimpleNamespace(ranking=lambda: ranking)
    return SimpleNamespace(answerable=answerable, reading=SimpleNamespace(dense=dense))


def test_the_related_floor_lies_between_answerable_and_unanswerable_best_similarities():
    from faq_bot.chat.fit import related_floor

    answerable = [_case(True, s) for s in (0.86, 0.90, 0.91, 0.92, 0.95)]
    unanswerable = [_case(False, s) for s in (0.80, 0.82, 0.84, 0.85, 0.99)]
    floor = related_floor([*answerable, *unanswerable, _case(True, None)])
    # three of four answerable reach 0.90, three of four unanswerable stay below 0.85
    assert floor is not None and np.isclose(floor, (0.90 + 0.85) / 2)
    assert related_floor(answerable) is None  # needs both kinds
    assert related_floor([_case(True, None), _case(False, None)]) is None  # lexical


def test_in_crossfitting_known_questions_are_those_the_folds_embedder_was_tuned_on():
    from types import SimpleNamespace

    from faq_bot.chat.fit import _unseen_by

    first = SimpleNamespace(fold=2, answerable=True, followup=False)
    assert _unseen_by(first, 2) and not _unseen_by(first, 0)
    # no embedder is tuned on unanswerable questions or follow-ups: they stay known
    assert not _unseen_by(SimpleNamespace(fold=2, answerable=False, followup=False), 2)
    assert not _unseen_by(SimpleNamespace(fold=2, answerable=True, followup=True), 2)
