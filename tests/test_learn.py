"""The numpy learners behind the fitted ranking, passage choice and confidence."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from faq_bot.learn import crossfit_fold, fit_choice, fit_logistic, folds


def test_fit_choice_learns_which_feature_marks_the_right_row():
    rng = np.random.default_rng(3)
    groups = []
    for _ in range(60):
        x = rng.normal(size=(6, 3))
        right = int(np.argmax(x[:, 1] + 0.1 * rng.normal(size=6)))
        y = np.zeros(6)
        y[right] = 1
        groups.append((x, y))
    w = fit_choice(groups)
    assert w[1] > abs(w[0]) and w[1] > abs(w[2])
    chosen = [int(np.argmax(x @ w)) == int(np.argmax(y)) for x, y in groups]
    assert sum(chosen) >= 0.9 * len(groups)


def test_fit_choice_ignores_groups_without_a_right_row_and_refuses_when_none_has_one():
    x = np.eye(3)
    w = fit_choice([(x, np.array([0.0, 0.0, 1.0])), (x, np.zeros(3))])
    assert int(np.argmax(x @ w)) == 2
    try:
        fit_choice([(x, np.zeros(3))])
    except ValueError:
        pass
    else:
        raise AssertionError("no positive row must be refused")


def test_fit_logistic_weights_apply_to_raw_features_and_sample_weights_shift_the_boundary():
    x = np.array([[0.0], [1.0], [2.0], [3.0], [10.0], [11.0], [12.0], [13.0]]) * 100
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1], dtype=float)
    w, b = fit_logistic(x, y)
    p = 1 / (1 + np.exp(-(x @ w + b)))
    assert (p[:4] < 0.5).all() and (p[4:] > 0.5).all()
    heavy_negatives = np.where(y > 0, 1.0, 10.0)
    w2, b2 = fit_logistic(x, y, sample=heavy_negatives)
    p2 = 1 / (1 + np.exp(-(x @ w2 + b2)))
    assert (p2[4:] < p[4:]).all()  # negatives weigh more: positives less probable


@given(st.integers(1, 400), st.integers(2, 10), st.integers(0, 5))
def test_folds_are_balanced_and_repeatable(n, k, seed):
    f = folds(n, k, seed)
    sizes = np.bincount(f, minlength=k)
    assert sizes.max() - sizes.min() <= 1
    assert np.array_equal(f, folds(n, k, seed))


@given(st.text(min_size=1, max_size=30), st.integers(2, 10))
def test_a_questions_crossfit_fold_is_one_of_k(qid, k):
    assert 0 <= crossfit_fold(qid, k) < k


def test_a_questions_crossfit_fold_never_changes():
    """The fold models in research/embedder_tuning/folds were tuned with these folds: a fold that
    changed (another hash, a salted one) would read questions with a model tuned on them."""
    ids = ("d2-001", "q01", "h4-017", "d4f03")
    assert [crossfit_fold(i) for i in ids] == [1, 4, 1, 4]


def test_crossfit_folds_are_near_balanced_over_many_ids():
    sizes = np.bincount([crossfit_fold(f"q{i:04d}") for i in range(1000)], minlength=5)
    assert sizes.min() > 160 and sizes.max() < 240
