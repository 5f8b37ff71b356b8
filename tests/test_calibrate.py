"""The first-question threshold is calibrated on held-out questions the ranker and the passage
model were never fitted on, each scored out of fold by the first-question model fitted on them
(`faq_bot.chat.calibrate`): the lowest threshold whose one-sided Wilson bounds meet
issue 9's targets and at which nine in ten pairs of calibration sets meet each target;
the shipped threshold is the one the recorded outcomes give."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from faq_bot.chat import confidence
from faq_bot.chat.calibrate import (
    CALIBRATION_SETS,
    GRID,
    Outcome,
    calibrated_threshold,
    figures_at,
    models_digest,
    pair_shares,
    reliability_steps,
    wilson,
)
from faq_bot.evaluate import HELD_OUT_SETS, answerable, load_questions, question_set

DATA = Path(__file__).resolve().parent.parent / "faq_bot" / "data"
EVAL = Path(__file__).resolve().parent.parent / "eval"


def _outcomes(right: list[float], wrong: list[float], unanswerable: list[float]) -> list[Outcome]:
    return (
        [Outcome(p, True, True) for p in right]
        + [Outcome(p, False, True) for p in wrong]
        + [Outcome(p, False, False) for p in unanswerable]
    )


def _probabilities(low: float, high: float, min_size: int, max_size: int):
    return st.lists(
        st.floats(low, high).map(lambda p: round(p, 3)), min_size=min_size, max_size=max_size
    )


# samples like a calibration set: mostly right answers with high probabilities, some wrong
# ones and unanswerable questions lower down, so that a threshold usually exists
outcomes_st = st.builds(
    _outcomes,
    _probabilities(0.1, 1.0, 100, 300),
    _probabilities(0.0, 0.7, 0, 20),
    _probabilities(0.0, 0.6, 10, 80),
)


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_interval_holds_the_observed_share_within_zero_and_one(k: int, n: int):
    k = min(k, n)
    low, high = wilson(k, n)
    assert 0.0 <= low <= k / n <= high <= 1.0


@given(st.integers(1, 50))
def test_wilson_interval_narrows_with_more_trials_of_the_same_share(n: int):
    a, b = wilson(n, 4 * n), wilson(10 * n, 40 * n)
    assert b[1] - b[0] < a[1] - a[0]


def test_wilson_interval_without_trials_is_everything():
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_interval_matches_the_score_interval_at_90_percent_one_sided():
    # reference values: the roots of the score quadratic, solved independently
    low, high = wilson(15, 600)
    assert abs(low - 0.018037) < 1e-5 and abs(high - 0.034557) < 1e-5
    assert abs(wilson(108, 120)[0] - 0.85932) < 1e-5


def test_a_probability_equal_to_the_threshold_is_confident():
    # as the bot decides: confident when the margin p - threshold is >= 0
    assert figures_at([Outcome(0.5, True, True)], 0.5).passage_at_1 == 1.0


def test_figures_count_confident_right_wrong_and_declined():
    outcomes = [
        Outcome(0.9, True, True),  # confident and right
        Outcome(0.8, False, True),  # confident and wrong
        Outcome(0.1, True, True),  # right but declined
        Outcome(0.2, False, False),  # unanswerable, declined
        Outcome(0.7, False, False),  # unanswerable, answered
    ]
    f = figures_at(outcomes, 0.5)
    assert (f.answerable, f.unanswerable) == (3, 2)
    assert f.passage_at_1 == 1 / 3 and f.confident_wrong == 1 / 3 and f.declined == 1 / 2


@given(outcomes_st)
def test_the_calibrated_threshold_is_the_lowest_meeting_both_bounds(outcomes: list[Outcome]):
    chosen = calibrated_threshold(outcomes)
    feasible = [
        t
        for t in GRID
        if figures_at(outcomes, t).confident_wrong_upper <= 0.05
        and figures_at(outcomes, t).declined_lower >= 0.85
    ]
    if not feasible:
        assert chosen is None
    else:
        assert chosen is not None and chosen.threshold == min(feasible)
        # the one just below answers more and breaks a bound
        below = [t for t in GRID if t < chosen.threshold]
        assert not below or max(below) not in feasible


def test_a_sample_too_small_to_bound_the_risk_gets_no_threshold():
    # three right answers say nothing about a 5 % risk at 90 % confidence
    assert calibrated_threshold([Outcome(0.9, True, True)] * 3) is None


def test_without_unanswerable_questions_the_declines_are_unbounded_and_no_threshold_is_chosen():
    assert calibrated_threshold([Outcome(0.9, True, True)] * 600) is None


def test_more_evidence_of_the_same_quality_allows_a_lower_threshold():
    def outcomes(n: int) -> list[Outcome]:
        right = [Outcome(0.1 + 0.8 * i / n, True, True) for i in range(n)]
        wrong = [Outcome(0.1 + 0.8 * i / n, False, True) for i in range(0, n, 40)]
        unanswerable = [Outcome(0.05 + 0.4 * i / n, False, False) for i in range(0, n, 5)]
        return right + wrong + unanswerable

    small, large = calibrated_threshold(outcomes(200)), calibrated_threshold(outcomes(2000))
    assert small is not None and large is not None
    assert large.threshold < small.threshold


def _in_sets(outcomes: list[Outcome], sets: int) -> list[Outcome]:
    """`outcomes` dealt round-robin into `sets` question sets."""
    return [dataclasses.replace(o, group=f"h{i % sets}") for i, o in enumerate(outcomes)]


@given(outcomes_st, st.integers(3, 8))
def test_with_three_or_more_sets_nine_in_ten_pairs_meet_each_target_at_the_threshold(
    outcomes: list[Outcome], sets: int
):
    grouped = _in_sets(outcomes, sets)
    chosen, pooled = calibrated_threshold(grouped), calibrated_threshold(outcomes)
    if chosen is None:
        return
    assert pooled is not None and chosen.threshold >= pooled.threshold  # a further condition
    assert chosen.pairs_confident_wrong_met is not None and chosen.pairs_declined_met is not None
    assert chosen.pairs_confident_wrong_met >= 0.9 and chosen.pairs_declined_met >= 0.9
    shares = pair_shares(grouped, [chosen.threshold])
    assert shares is not None
    assert shares[0][0] == chosen.pairs_confident_wrong_met


@given(outcomes_st, st.integers(3, 6), st.lists(st.floats(0.0, 1.0), min_size=1, max_size=5))
def test_pair_shares_are_the_shares_of_all_pairs_and_never_fall_as_the_bar_rises(
    outcomes: list[Outcome], sets: int, bars: list[float]
):
    grouped = _in_sets(outcomes, sets)
    bars = sorted({round(b, 2) for b in bars})
    shares = pair_shares(grouped, bars)
    assert shares is not None
    names = sorted({o.group for o in grouped})
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    for k, t in enumerate(bars):
        cw_met = declined_met = 0
        for a, b in pairs:
            f = figures_at([o for o in grouped if o.group in (a, b)], t)
            cw_met += f.confident_wrong <= 0.05 + 1e-12
            declined_met += f.unanswerable == 0 or f.declined >= 0.85 - 1e-12
        assert shares[0][k] == cw_met / len(pairs)
        assert shares[1][k] == declined_met / len(pairs)
    assert all(x <= y for x, y in zip(shares[0], shares[0][1:], strict=False))
    assert all(x <= y for x, y in zip(shares[1], shares[1][1:], strict=False))


def test_pair_shares_count_the_pairs_of_sets_meeting_each_target():
    def one_set(name: str, wrong: int, passed: int) -> list[Outcome]:
        # 100 answerable (`wrong` of them confidently wrong), 20 unanswerable (`passed`
        # of them answered) at the threshold 0.5
        return (
            [Outcome(0.9, False, True, name)] * wrong
            + [Outcome(0.9, True, True, name)] * (100 - wrong)
            + [Outcome(0.9, False, False, name)] * passed
            + [Outcome(0.1, False, False, name)] * (20 - passed)
        )

    # pairs: (a, b) 4 wrong of 200, 2 of 40 passed: both met; (a, c) 7 of 200, 8 of 40:
    # confident-wrong met, declines (80 %) not; (b, c) 11 of 200, 10 of 40: neither
    outcomes = one_set("a", 0, 0) + one_set("b", 4, 2) + one_set("c", 7, 8)
    shares = pair_shares(outcomes, [0.5])
    assert shares is not None
    cw_met, declined_met = shares
    assert cw_met[0] == 2 / 3 and declined_met[0] == 1 / 3


def test_fewer_than_three_sets_have_no_pairs_to_read():
    two = [Outcome(0.5, True, True, "h1"), Outcome(0.5, True, True, "h2")]
    assert pair_shares(two, [0.5]) is None


def test_sets_that_agree_leave_the_wilson_threshold():
    # every set alike: every pair pools the shares of all, so only the Wilson bounds bind
    one = (
        [Outcome(0.2 + 0.7 * i / 100, True, True) for i in range(100)]
        + [Outcome(0.3, False, True), Outcome(0.1, False, True)]
        + [Outcome(0.05 * i, False, False) for i in range(10)]
        + [Outcome(0.5, False, False)]
    )
    sets = [dataclasses.replace(o, group=f"h{g}") for g in range(10) for o in one]
    pooled = calibrated_threshold([dataclasses.replace(o, group="") for o in sets])
    chosen = calibrated_threshold(sets)
    assert pooled is not None and chosen is not None
    assert chosen.threshold == pooled.threshold


def test_one_set_whose_unanswerable_questions_pass_raises_the_threshold():
    # one writer's unanswerable questions look answerable: pooled with seven others as
    # independent questions they hardly move the shares; a quarter of all pairs hold them
    easy = [Outcome(0.2 + 0.7 * i / 100, True, True) for i in range(100)] + [
        Outcome(0.02 * i, False, False) for i in range(20)
    ]
    hard = [Outcome(0.2 + 0.7 * i / 100, True, True) for i in range(100)] + [
        Outcome(0.3 + 0.02 * i, False, False) for i in range(20)
    ]
    sets = [dataclasses.replace(o, group=f"h{g}") for g in range(7) for o in easy]
    sets += [dataclasses.replace(o, group="h7") for o in hard]
    pooled = calibrated_threshold([dataclasses.replace(o, group="") for o in sets])
    chosen = calibrated_threshold(sets)
    assert pooled is not None and chosen is not None
    assert chosen.threshold > pooled.threshold


def _recorded() -> dict:
    return json.loads((DATA / "calibration.json").read_text("utf-8"))


def test_the_shipped_threshold_is_the_one_the_recorded_outcomes_give():
    recorded = _recorded()
    outcomes = [
        Outcome(p, right, ans, question_set(qid)) for qid, p, right, ans in recorded["outcomes"]
    ]
    chosen = calibrated_threshold(outcomes)
    assert chosen is not None
    hybrid = json.loads((DATA / "confidence.json").read_text("utf-8"))["modes"]["hybrid"]
    assert hybrid["threshold"] == chosen.threshold == confidence.threshold("hybrid")
    # the follow-ups' model has a bar of its own, chosen by the same rule on its outcomes
    later = [
        Outcome(p, right, ans, question_set(qid))
        for qid, p, right, ans in recorded["followup_outcomes"]
    ]
    chosen_later = calibrated_threshold(later, min_declined=0.0)
    assert chosen_later is not None
    assert hybrid["threshold_followup"] == chosen_later.threshold
    assert confidence.threshold("hybrid", followup=True) == chosen_later.threshold


@given(outcomes_st)
def test_reliability_is_a_rising_step_function_that_keeps_the_count_of_right_answers(
    outcomes: list[Outcome],
):
    steps = reliability_steps(outcomes)
    starts = [start for start, _ in steps]
    shares = [share for _, share in steps]
    assert starts == sorted(set(starts)) and starts[0] == min(o.probability for o in outcomes)
    assert all(0 <= a < b <= 1 for a, b in zip(shares, shares[1:], strict=False))
    assert all(0 <= share <= 1 for share in shares)
    # each outcome read at its step: the shares add up to the right answers (pooled means)
    at = [shares[max(i for i, s in enumerate(starts) if s <= o.probability)] for o in outcomes]
    assert abs(sum(at) - sum(o.right for o in outcomes)) < 1e-6


def test_reliability_pools_a_step_that_would_fall_with_the_one_before():
    # 0.3: 1 of 2 right, 0.5: 0 of 1, 0.8: 2 of 2 -> 0.3 and 0.5 pooled (1 of 3)
    outcomes = _outcomes([0.3, 0.8, 0.8], [0.3], [0.5])
    assert reliability_steps(outcomes) == [(0.3, 1 / 3), (0.8, 1.0)]


def test_the_shipped_reliability_is_the_one_the_recorded_outcomes_give():
    recorded = _recorded()
    outcomes = [Outcome(p, right, ans) for _qid, p, right, ans in recorded["outcomes"]]
    steps = reliability_steps(outcomes)
    hybrid = json.loads((DATA / "confidence.json").read_text("utf-8"))["modes"]["hybrid"]
    assert hybrid["reliability"] == [[round(p, 4), round(share, 4)] for p, share in steps]
    for p, share in steps:  # in whole percent, rounded down
        said = confidence.reliability(round(p, 4) + 1e-9, "hybrid")
        assert said == int(round(share, 4) * 100 + 1e-9) / 100 and said <= round(share, 4)
    # the answers at the bar were right for fewer than nine in ten: they say so
    assert confidence.reliability(confidence.threshold("hybrid")) < confidence.SURE


def test_the_recorded_outcomes_come_from_the_shipped_models():
    # a refit (make train) without a new calibration would leave a stale threshold
    recorded = _recorded()
    assert recorded["models"] == models_digest(DATA)
    # answered in the hybrid mode, by the embedder the models were fitted for
    shipped = json.loads((DATA / "confidence.json").read_text("utf-8"))["embedder"]
    assert recorded["embedder"] == shipped is not None


def test_the_calibration_questions_are_the_first_questions_of_held_out_sets():
    recorded = _recorded()
    assert set(CALIBRATION_SETS) <= set(HELD_OUT_SETS)  # never trained on
    names = [f"heldout{n}-questions.jsonl" for n in CALIBRATION_SETS]
    assert recorded["sets"] == names
    questions = [q for name in names for q in load_questions(EVAL / name)]
    assert [row[0] for row in recorded["outcomes"]] == [q["id"] for q in questions]
    for (_id, _p, right, ans), q in zip(recorded["outcomes"], questions, strict=True):
        assert ans == answerable(q) and not q.get("history")
        assert ans or not right  # an unanswerable question has no right passage
    # the follow-ups' model: those of the same sets read with their earlier question
    followups = {
        q["id"]: q
        for n in CALIBRATION_SETS
        for q in load_questions(EVAL / f"heldout{n}-followups.jsonl")
    }
    later = [row[0] for row in recorded["followup_outcomes"]]
    assert len(later) == len(set(later)) and set(later) <= set(followups)
    assert len(later) > len(followups) // 2  # most are read with it
