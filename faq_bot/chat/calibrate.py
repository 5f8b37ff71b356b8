"""The first-question confidence threshold, calibrated on held-out questions.

The training questions' confidence model (`faq_bot.chat.fit`) comes with a threshold
picked on their out-of-fold probabilities. The training pool mixes sets written over many
rounds, and its oldest sets are the hardest: there the chosen bar gives 4 % confident-wrong,
while on questions written blind later it gives 1-3 % and declines 10-15 right answers of
100. This module picks the bar instead on the calibration sets (`CALIBRATION_SETS`), which
the ranker and the passage model were never fitted on; since the thirty-second round the
model that scores first questions is fitted on them too, and the bar is picked on each
question's out-of-fold probability (`faq_bot.chat.fit.fit_served`), with a margin for their
finite number: the lowest threshold at which the one-sided Wilson bounds of
confident-wrong and of the declined share meet issue 9's targets, and at which a new
set of questions would meet them too, as far as the calibration sets can tell: at
least `PAIR_SHARE` of all pairs of calibration sets, each pair pooled (200 answerable
and 40 unanswerable questions, the size of a fresh evaluation here), meet each target.
The Wilson bounds alone bound the pooled rate of the calibration sets; a new set
scatters around it as the sets do (sets written to one brief differ), and a bar placed
where the pooled bound just meets 5 % gave 12 confident wrong answers of 200 on a fresh
pair (docs/quality-journal.md, "2026-11-29 (seventh round)").

``wilson(k, n, z) -> (low, high)``
    The Wilson score interval of k successes in n trials.
``Outcome``
    One calibration question as answered: the probability (since the thirty-second round
    the out-of-fold one of the first-question model, `faq_bot.chat.fit.fit_served`),
    whether the passage is right, whether the question is answerable.
``calibrated_threshold(outcomes, ...) -> Calibration | None``
    The lowest threshold on the grid meeting both bounds and both pair shares (None if
    none does).
``pair_shares(outcomes, thresholds) -> (confident_wrong_met, declined_met) | None``
    At each threshold, the share of pairs of question sets (`Outcome.group`) meeting each
    target (arrays; None for fewer than three sets, where pairs say nothing new).
``reliability_steps(outcomes) -> list[(probability, share)]``
    The share of right passages as a non-decreasing step function of the probability
    (isotonic regression, pool adjacent violators): what an answer of that probability
    was worth on the calibration questions. The chat says so when it is under `SURE`.
``models_digest(data_dir, names=MODEL_FILES) -> str``
    A hash of the fitted models outcomes come from (``calibration.json`` records it,
    so a refit without a new calibration is caught by the tests).
``scripts/calibrate_threshold.py`` reads the calibration questions, fits the first-question
model on them and writes it with the threshold (``make calibrate``, run by ``make train``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = [
    "CALIBRATION_SETS",
    "MAX_CONFIDENT_WRONG",
    "MIN_DECLINED",
    "RULE",
    "Z_ONE_SIDED_90",
    "Calibration",
    "Outcome",
    "calibrated_threshold",
    "figures_at",
    "models_digest",
    "pair_shares",
    "reliability_steps",
    "wilson",
]

# the held-out sets that are not among the known questions (29-40 are: KNOWN_ONLY in the
# Makefile) and whose first questions have been run, none ever fitted on (eval/README.md):
# 41-52 until the thirteenth round, 41-70 until the sixteenth, 41-78 until the
# twenty-fourth, 41-98 until the thirty-first (the same bar, 0.22), 41-118 in it (0.23);
# from the thirty-second 41-124, which the hybrid confidence model is also fitted on, each
# question scored out of fold (0.20); since the thirty-ninth 41-140, 12,000 questions, the
# sets 125-140 read once each as a fresh status before (0.22) (scripts/calibrate_threshold.py;
# docs/quality-journal.md, "thirteenth round", "sixteenth round", "thirty-first round",
# "thirty-second round", "thirty-ninth round")
CALIBRATION_SETS = tuple(range(41, 141))
MAX_CONFIDENT_WRONG = 0.05  # issue 9: confident-wrong <= 5 % of answerable questions
MIN_DECLINED = 0.85  # issue 9: >= 85 % of unanswerable questions declined
Z_ONE_SIDED_90 = 1.2816  # the bounds hold with 90 % confidence, one-sided
PAIR_SHARE = 0.90  # the share of pairs of calibration sets that must meet each target
GRID = np.round(np.linspace(0.05, 0.95, 91), 2)
RULE = (
    "lowest threshold (0.01 grid) whose one-sided 90 % Wilson upper bound of "
    f"confident-wrong is <= {MAX_CONFIDENT_WRONG} and lower bound of declined is "
    f">= {MIN_DECLINED}, and at which at least {PAIR_SHARE * 100:.0f} % of all pairs of "
    "calibration sets, each pooled, meet each of the two targets"
)
MODEL_FILES = ("ranker.json", "passage.json", "confidence.json")
KNOWN_FILE = "known_questions.npz"  # the known questions (faq_bot.known): outcomes depend on them
# what calibrating writes into confidence.json besides the first-question model (``first``,
# which the outcomes come from and so is part of the digest): not part of the models
CALIBRATED_KEYS = ("threshold", "threshold_followup", "calibration", "reliability")


def wilson(k: int, n: int, z: float = Z_ONE_SIDED_90) -> tuple[float, float]:
    """The Wilson score interval of `k` successes in `n` trials (0..1 for n = 0)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    # exactly 0 and 1 at the edges, where the formula gives them up to rounding
    low = 0.0 if k == 0 else max(0.0, min(p, (centre - spread) / denominator))
    high = 1.0 if k == n else min(1.0, max(p, (centre + spread) / denominator))
    return low, high


@dataclass(frozen=True)
class Outcome:
    """One calibration question as answered: `probability` of the confidence model
    (0 when no passage was found), whether the `right` passage was found (False for
    unanswerable questions), whether it is `answerable`."""

    probability: float
    right: bool
    answerable: bool
    group: str = ""  # the question set (one writer's), for the pairs of sets


@dataclass(frozen=True)
class Calibration:
    threshold: float
    answerable: int
    unanswerable: int
    passage_at_1: float
    confident_wrong: float
    confident_wrong_upper: float
    declined: float
    declined_lower: float
    # the shares of pairs of sets meeting each target (None: fewer than three sets)
    pairs_confident_wrong_met: float | None = None
    pairs_declined_met: float | None = None


def figures_at(outcomes: Sequence[Outcome], threshold: float) -> Calibration:
    """What the bot does on `outcomes` with `threshold` as its bar."""
    ans = [o for o in outcomes if o.answerable]
    unans = [o for o in outcomes if not o.answerable]
    right = sum(1 for o in ans if o.probability >= threshold and o.right)
    wrong = sum(1 for o in ans if o.probability >= threshold and not o.right)
    declined = sum(1 for o in unans if o.probability < threshold)
    n, m = len(ans), len(unans)
    return Calibration(
        threshold=float(threshold),
        answerable=n,
        unanswerable=m,
        passage_at_1=right / n if n else 0.0,
        confident_wrong=wrong / n if n else 0.0,
        confident_wrong_upper=wilson(wrong, n)[1],
        declined=declined / m if m else 0.0,
        # no unanswerable questions: nothing bounds the declines (0), as wilson(0, 0) gives
        declined_lower=wilson(declined, m)[0],
    )


def pair_shares(
    outcomes: Sequence[Outcome],
    thresholds: Sequence[float],
    max_confident_wrong: float = MAX_CONFIDENT_WRONG,
    min_declined: float = MIN_DECLINED,
) -> tuple[np.ndarray, np.ndarray] | None:
    """At each of `thresholds`: the share of all pairs of question sets
    (`Outcome.group`), each pair pooled, whose confident-wrong is at most
    `max_confident_wrong`, and the share whose declined share is at least `min_declined`
    (a pair without unanswerable questions has nothing to decline and meets it). None
    for fewer than three sets."""
    groups = sorted({o.group for o in outcomes})
    if len(groups) < 3:
        return None
    t = np.asarray(thresholds, dtype=float)[:, None]
    # per set and threshold: confident wrong answers, answerable, declined, unanswerable
    counts = np.zeros((4, len(groups), len(t)))
    for g, group in enumerate(groups):
        mine = [o for o in outcomes if o.group == group]
        p = np.array([o.probability for o in mine])
        right = np.array([o.right for o in mine], dtype=bool)
        ans = np.array([o.answerable for o in mine], dtype=bool)
        confident = p[None, :] >= t
        counts[0, g] = (confident & ans & ~right).sum(axis=1)
        counts[1, g] = ans.sum()
        counts[2, g] = (~confident & ~ans).sum(axis=1)
        counts[3, g] = (~ans).sum()
    a, b = np.triu_indices(len(groups), k=1)
    wrong, n, declined, m = (c[a] + c[b] for c in counts)  # pairs x thresholds
    cw_met = np.where(n > 0, wrong <= max_confident_wrong * n + 1e-9, True)
    declined_met = np.where(m > 0, declined >= min_declined * m - 1e-9, True)
    return cw_met.mean(axis=0), declined_met.mean(axis=0)


def calibrated_threshold(
    outcomes: Sequence[Outcome],
    max_confident_wrong: float = MAX_CONFIDENT_WRONG,
    min_declined: float = MIN_DECLINED,
    grid: Sequence[float] = tuple(GRID),
) -> Calibration | None:
    """The lowest threshold of `grid` whose confident-wrong upper bound is at most
    `max_confident_wrong` and whose declined lower bound is at least `min_declined`, and,
    for outcomes from three or more sets, at which at least `PAIR_SHARE` of the pairs of
    sets meet each target (`pair_shares`). All are monotone in the threshold for
    questions without history, so the lowest is the one that answers most. None when no
    threshold meets them."""
    ordered = sorted(grid)
    pairs = pair_shares(outcomes, ordered, max_confident_wrong, min_declined)
    for i, t in enumerate(ordered):
        f = figures_at(outcomes, t)
        if pairs is not None:
            cw_met, declined_met = float(pairs[0][i]), float(pairs[1][i])
            if cw_met < PAIR_SHARE or declined_met < PAIR_SHARE:
                continue
            f = dataclasses.replace(
                f, pairs_confident_wrong_met=cw_met, pairs_declined_met=declined_met
            )
        if f.confident_wrong_upper <= max_confident_wrong and f.declined_lower >= min_declined:
            return f
    return None


def reliability_steps(outcomes: Sequence[Outcome]) -> list[tuple[float, float]]:
    """The share of `outcomes` whose passage was right, as a non-decreasing step function
    of the probability: (lowest probability of a step, its share right), ascending.

    Isotonic regression by pooling adjacent violators: outcomes sorted by probability
    (equal probabilities in one block) are pooled while a block's share is not above the
    share of the block before it, so every step is the pooled share of the outcomes it
    spans. Unanswerable questions count as wrong. No bins or widths to choose."""
    tied: dict[float, list[float]] = {}  # probability -> [right, count]: one block each
    for o in outcomes:
        counts = tied.setdefault(o.probability, [0.0, 0.0])
        counts[0] += float(o.right)
        counts[1] += 1
    blocks: list[list[float]] = []  # [lowest probability, right, count]
    for p in sorted(tied):
        blocks.append([p, *tied[p]])
        while len(blocks) > 1 and blocks[-2][1] * blocks[-1][2] >= blocks[-1][1] * blocks[-2][2]:
            _p, right_last, count_last = blocks.pop()
            blocks[-1][1] += right_last
            blocks[-1][2] += count_last
    return [(start, right / count) for start, right, count in blocks]


def models_digest(data_dir: Path, names: Sequence[str] = MODEL_FILES) -> str:
    """A hash of the fitted models in `data_dir` the outcomes come from: the ranker, the
    passage choice and the confidence model without what calibrating writes (`names`: of
    those), and the known questions their signals compare with (`KNOWN_FILE`, when there
    is one)."""
    h = hashlib.sha256()
    for name in names:
        data = json.loads((data_dir / name).read_text("utf-8"))
        if name == "confidence.json":
            for mode in data["modes"].values():
                for key in CALIBRATED_KEYS:
                    mode.pop(key, None)
        h.update(json.dumps(data, sort_keys=True).encode())
    known = data_dir / KNOWN_FILE
    if known.exists():
        h.update(hashlib.sha256(known.read_bytes()).digest())
    return h.hexdigest()[:16]
