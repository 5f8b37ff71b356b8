"""Fitting the chatbot's confidence (`faq_bot.chat.fit`): the threshold is chosen
for questions the model has not seen."""

from __future__ import annotations

import numpy as np
import pytest

from faq_bot.chat.confidence import OPTIONAL, SIGNALS
from faq_bot.chat.fit import (
    _figures,
    _held_out_threshold,
    _prob,
    _threshold,
    fit_served,
    outcome_weights,
)
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
            "held_out": _held_out_threshold(x, y, ans)[0],
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
    t, t_followup = _held_out_threshold(x, y, ans)
    assert t_followup == t  # no follow-ups: one bar
    w, b = fit_logistic(x, y, sample=outcome_weights(y, ans))
    figures = _figures(_prob(x, w, b) >= t, y, ans)
    assert t < 0.95
    assert figures["passage@1"] > 0.5


def test_follow_ups_get_a_bar_of_their_own_that_keeps_their_confident_wrong_bounded():
    # follow-ups whose answers are right less often at the same signal values: one
    # threshold over the mix lets them be wrong with confidence more often than the
    # bound allows (and holds first questions to a stricter bar than theirs); their
    # own threshold holds the bound for them too
    rng = np.random.default_rng(3)
    n = 1200
    followup = rng.random(n) < 0.3
    ans = followup | (rng.random(n) < 0.8)  # the follow-ups are all answerable
    signal = rng.normal(size=n) - np.where(ans, 0.0, 2.5)  # unanswerable: lower signal
    right = rng.random(n) < 1 / (1 + np.exp(-(2.5 * signal + np.where(followup, -1.0, 1.5))))
    y = (right & ans).astype(float)
    x = np.column_stack([signal, rng.normal(size=n)])
    first, later = _held_out_threshold(x, y, ans, followup)
    assert later > first
    w, b = fit_logistic(x, y, sample=outcome_weights(y, ans))
    p = _prob(x, w, b)
    mixed = _held_out_threshold(x, y, ans)[0]
    assert _figures(p[followup] >= mixed, y[followup], ans[followup])["confident_wrong"] > 0.06
    assert _figures(p[followup] >= later, y[followup], ans[followup])["confident_wrong"] <= 0.05
    # and the first questions, held to the bound on their own, are answered more often
    assert first < mixed


def test_a_follow_up_bar_is_never_below_the_first_questions():
    x, y, ans = _noise(7, n=200)
    followup = np.zeros(len(y), dtype=bool)
    followup[:20] = True
    y[:20] = 1.0  # a few follow-ups that happen to be right: their bar alone would fall
    ans[:20] = True
    first, later = _held_out_threshold(x, y, ans, followup)
    assert later >= first


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

    first = SimpleNamespace(fold=2, answerable=True, followup=False, tuned=True)
    assert _unseen_by(first, 2) and not _unseen_by(first, 0)
    # no embedder is tuned on unanswerable questions or follow-ups: they stay known
    assert not _unseen_by(SimpleNamespace(fold=2, answerable=False, followup=False, tuned=True), 2)
    assert not _unseen_by(SimpleNamespace(fold=2, answerable=True, followup=True, tuned=True), 2)
    # nor on questions trained on but not tuned on (Makefile TRAIN_UNTUNED): the shipped
    # embedder meets them unread too, so every fold keeps them
    untuned = SimpleNamespace(fold=2, answerable=True, followup=False, tuned=False)
    assert not any(_unseen_by(untuned, k) for k in range(5))


def test_the_passage_feature_precedent_meets_the_folds_known_questions_without_its_own_set():
    from types import SimpleNamespace

    from faq_bot.chat.fit import _compared, _matrix, _rows
    from faq_bot.chat.passage import FEATURES, Candidate, Row
    from faq_bot.index import EntryRecord
    from faq_bot.known import KnownQuestions

    rule_a, rule_b = "Eine gesperrte Einheit darf nicht blocken.", "Das Depot wird gemischt."
    entry = EntryRecord(
        id="x", doc="d", title="X", paragraphs=(rule_a, rule_b), position=0,
        plain_paragraphs=(rule_a, rule_b),
    )  # fmt: skip
    cand = Candidate(entry, 1.0, frozenset(), frozenset())
    rows = [(cand, Row(i, dict.fromkeys(FEATURES, 0.0), lambda: (0, 1), 0.5)) for i in (0, 1)]
    unit = np.eye(4, dtype=np.float32)
    # a-1 and a-2 (one set) near the query, c-1 (another set, rule B) less near, b-1 and
    # b-2 far from it and twins of each other
    vectors = np.array(
        [unit[0] + unit[1], unit[0] - unit[1], unit[3], unit[3] + 0.1 * unit[2],
         unit[0] + 2 * unit[2]]
    )  # fmt: skip
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    known = KnownQuestions.of(
        ["a-1", "a-2", "b-1", "b-2", "c-1"], vectors, [True] * 5, "m",
        [[rule_a], [rule_a], [rule_b], [rule_b], [rule_b]],
    )  # fmt: skip
    query = unit[0]
    folded = np.array([unit[2], query])  # the question embedded by fold 0's and fold 1's model
    case = SimpleNamespace(
        id="a-1", rows=rows, fold=1, fold_vectors=folded, vector=None, right=[True, False]
    )
    got = [row.features["precedent"] for _c, row in _rows(case, _compared(case, {1: known}))]
    own = known.own_set("a-1")
    assert own == {"a-1", "a-2"}
    assert got == [
        known.precedent(query, rule_a, exclude=own, twin=known.twin),
        known.precedent(query, rule_b, exclude=own, twin=known.twin),
    ]
    # left without its set, only c-1 (rule B) is near: it vouches for B, against A
    assert got[1] > 0 > got[0]
    # with its set, the questions on rule A would vouch for it
    assert known.precedent(query, rule_a, twin=known.twin) > 0
    # the fold's vector, not another fold's: by fold 0's vector c-1 is nearer
    other = SimpleNamespace(**{**vars(case), "fold": 0})
    assert [
        row.features["precedent"] for _c, row in _rows(other, _compared(other, {0: known}))
    ] != got
    # the passage model is fitted on that column
    x, y = _matrix(case, {1: known})
    assert list(x[:, FEATURES.index("precedent")]) == pytest.approx(got)
    assert list(y) == [1.0, 0.0]
    assert _compared(case, None) is None  # no known questions: no comparison
    assert [row.features for _c, row in _rows(case, None)] == [r.features for _c, r in rows]


def test_the_written_bars_are_chosen_on_out_of_fold_runs_pooled_over_shuffles():
    from types import SimpleNamespace

    from faq_bot.chat.crossval import OutOfFold, out_of_fold_thresholds

    # 100 first questions (all right) and 100 follow-ups over probabilities 0.3 to 0.9. In
    # one shuffle the follow-ups below 0.7 are wrong, in the other those below 0.5 (its
    # refitted passage weights chose other passages): pooled, each with its own outcomes,
    # the follow-ups' bar lies between the two shuffles' own bars
    n = 200
    later = np.arange(n) >= 100
    cases = [
        SimpleNamespace(answerable=True, reading=SimpleNamespace(context=[1] if f else []))
        for f in later
    ]
    p = np.tile(np.linspace(0.3, 0.9, 100), 2)
    strict = np.where(later, p >= 0.7, True).astype(float)
    lenient = np.where(later, p >= 0.5, True).astype(float)
    runs = [OutOfFold(p, p >= 0.5, strict, {}), OutOfFold(p.copy(), p >= 0.5, lenient, {})]
    first, followup = out_of_fold_thresholds(runs, cases)
    assert first <= 0.3
    assert 0.55 <= followup <= 0.66
    pooled = np.concatenate([strict, lenient])[np.tile(later, 2)]
    sure = np.tile(p[later], 2) >= followup
    assert _figures(sure, pooled, np.ones(len(pooled), bool))["confident_wrong"] <= 0.04
    # in the other order the same bars: no shuffle's outcomes stand in for another's
    assert out_of_fold_thresholds(runs[::-1], cases) == (first, followup)


def _sets(seed: int, sets: int = 12, per_set: int = 40):
    rng = np.random.default_rng(seed)
    n = sets * per_set
    x = rng.normal(size=(n, len(SIGNALS)))
    ans = rng.random(n) < 0.8
    y = ((x[:, 0] + rng.normal(size=n) > 0) & ans).astype(float)
    groups = np.repeat([f"h{i}" for i in range(sets)], per_set)
    return x, y, ans, groups


def test_a_served_fit_scores_each_set_by_a_model_that_never_saw_its_answers():
    # the bars are chosen on these probabilities: they must not know the set's outcomes
    x, y, ans, groups = _sets(1)
    _model, before = fit_served(x, y, ans, groups, k=4)
    flipped = y.copy()
    mine = groups == "h3"
    flipped[mine & ans] = 1.0 - flipped[mine & ans]
    _model, after = fit_served(x, flipped, ans, groups, k=4)
    assert np.array_equal(before[mine], after[mine])
    assert not np.allclose(before[~mine], after[~mine])  # the others' models read them


def test_a_served_fit_writes_every_signal_and_a_fallback_for_the_optional_ones():
    x, y, ans, groups = _sets(2)
    x[::5, SIGNALS.index("precedent")] = np.nan  # known questions missing for some
    model, out = fit_served(x, y, ans, groups)
    assert set(model["weights"]) == {*SIGNALS, "bias"}
    assert set(model["fallback"]) == set(OPTIONAL)
    assert np.isfinite(out).all() and ((out > 0) & (out < 1)).all()
    # the informative signal is learned, out of fold too: right answers score higher
    assert model["weights"][SIGNALS[0]] > 0
    assert out[y > 0].mean() > out[(y == 0) & ans].mean() + 0.1


def test_a_served_fit_needs_two_folds_of_question_sets():
    x, y, ans, groups = _sets(3, sets=1)
    with pytest.raises(ValueError):
        fit_served(x, y, ans, groups)
    x, y, ans, groups = _sets(3)
    with pytest.raises(ValueError):
        fit_served(x, y, ans, groups, k=1)
