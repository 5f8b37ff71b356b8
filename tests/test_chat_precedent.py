"""The ``unanswered_like`` confidence signal (`faq_bot.chat.precedent`): how much a
question resembles the training questions the rulings do not answer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from faq_bot.chat.confidence import SIGNALS, model, probability
from faq_bot.chat.precedent import (
    TWIN_SHARE,
    K,
    KnownQuestions,
    known_questions,
    likeness,
    read_known,
)
from faq_bot.embed import get_embedder


def _unit(v) -> np.ndarray:
    v = np.asarray(v, dtype=np.float32)
    return v / np.linalg.norm(v)


def _known() -> KnownQuestions:
    # two unanswerable questions near the x axis, three answerable ones near y
    vectors = [_unit([1, 0.1, 0]), _unit([1, -0.1, 0]), _unit([0.1, 1, 0]), _unit([0, 1, 0.1]),
               _unit([-0.1, 1, 0])]  # fmt: skip
    return KnownQuestions.of(
        ["u1", "u2", "a1", "a2", "a3"], vectors, [False, False, True, True, True], "m"
    )


def test_a_question_like_the_unanswered_ones_scores_high_and_one_like_the_answered_low():
    known = _known()
    assert known.unanswered_like(_unit([1, 0, 0])) > 0.5
    assert known.unanswered_like(_unit([0, 1, 0])) < -0.5


def test_a_known_question_scored_as_new_leaves_itself_out():
    known = _known()
    v = known.vectors[0]
    assert known.unanswered_like(v, exclude="u1") < known.unanswered_like(v)


def test_without_a_vector_another_model_or_another_size_there_is_no_signal():
    known = _known()
    assert likeness(known, None, "m") is None
    assert likeness(known, _unit([1, 0, 0]), "another-model") is None
    assert likeness(None, _unit([1, 0, 0]), "m") is None
    assert known.unanswered_like(_unit([1, 0, 0, 0])) is None


def test_only_one_kind_of_known_question_gives_no_signal():
    known = KnownQuestions.of(["a", "b"], [_unit([1, 0]), _unit([0, 1])], [True, True], "m")
    assert known.unanswered_like(_unit([1, 1])) is None


def test_near_twins_are_left_out_when_a_question_is_scored_as_new():
    known = _known()
    twin = _unit([1, 0.1, 0.001])  # u1 again, but for a rounding
    with_twin = known.unanswered_like(twin)
    without = known.unanswered_like(twin, twin=0.995)
    assert with_twin is not None and without is not None and without < with_twin


def test_a_mismatched_file_shape_is_refused():
    with pytest.raises(ValueError):
        KnownQuestions.of(["a", "b"], [_unit([1, 0]), _unit([0, 1])], [True], "m")


@pytest.mark.parametrize("cut", [0, 10, 200, -20])
def test_a_truncated_or_corrupt_file_reads_as_no_known_questions(tmp_path: Path, cut: int):
    path = tmp_path / "known.npz"
    _known().save(path)
    data = path.read_bytes()
    broken = data[:cut] if cut >= 0 else data[:cut] + bytes(20)
    assert read_known(broken) is None


def test_without_known_questions_the_model_reads_its_neutral_fallback(monkeypatch):
    fallback = model("hybrid")["fallback"]["unanswered_like"]
    values = dict.fromkeys(SIGNALS, 0.5)
    missing = {k: v for k, v in values.items() if k != "unanswered_like"}
    assert probability(missing) == pytest.approx(
        probability(values | {"unanswered_like": fallback})
    )
    # the neutral value lies between the answerable and the unanswerable questions' medians
    known = known_questions()
    assert known is not None
    sims = [
        known.unanswered_like(v, exclude=i, twin=known.twin)
        for i, v in zip(known.ids, known.vectors, strict=True)
    ]
    med = [
        np.median([s for s, a in zip(sims, known.answerable, strict=True) if a == kind])
        for kind in (True, False)
    ]
    assert med[0] < fallback < med[1]


def test_twins_are_the_share_of_known_questions_closest_to_another_whatever_the_scale():
    rng = np.random.default_rng(0)
    base = rng.normal(size=(100, 16))
    base[:10] = base[10:20] + 0.01 * rng.normal(size=(10, 16))  # ten reworded questions
    for spread in (1.0, 0.2):  # a model that spreads questions apart, or one that does not
        vectors = base + (1 - spread) * 3.0  # a shared component raises every cosine
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        known = KnownQuestions.of([f"q{i}" for i in range(100)], vectors, [True] * 100, "m")
        nearest = (vectors @ vectors.T - 2 * np.eye(100)).max(axis=1)
        assert np.mean(nearest >= known.twin) == pytest.approx(TWIN_SHARE, abs=0.011)
        assert (nearest[:20] >= known.twin).sum() >= 3  # the reworded ones are among them


def test_question_ids_must_be_unique():
    with pytest.raises(ValueError):
        KnownQuestions.of(["a", "a"], [_unit([1, 0]), _unit([0, 1])], [True, False], "m")


def test_known_questions_survive_a_save_and_load(tmp_path: Path):
    known = _known()
    path = tmp_path / "known.npz"
    known.save(path)
    again = KnownQuestions.load(path.read_bytes())
    assert again.ids == known.ids and again.model == "m"
    assert np.array_equal(again.answerable, known.answerable)
    v = _unit([1, 0.2, 0])
    assert again.unanswered_like(v) == pytest.approx(known.unanswered_like(v), abs=1e-3)


def test_the_shipped_known_questions_fit_the_shipped_embedder_and_confidence_model(dense_on):
    known = known_questions()
    assert known is not None, "faq_bot/data/known_questions.npz missing or unreadable"
    embedder = get_embedder()
    assert embedder is not None
    assert known.model == embedder.id
    assert known.vectors.shape[1] == len(embedder.query("Wer darf angreifen?"))
    assert (~known.answerable).sum() >= K and known.answerable.sum() >= K
    assert "unanswered_like" in SIGNALS and model("hybrid") is not None


def test_a_shop_question_resembles_the_unanswered_training_questions_more_than_a_rules_one(
    dense_on,
):
    from faq_bot.hybrid import embedding_text

    embedder = get_embedder()
    known = known_questions()
    assert embedder is not None and known is not None

    def like(question: str) -> float:
        return likeness(known, embedder.query(embedding_text(question)), embedder.id)

    assert like("Was kostet ein Booster im Laden und wo kann man ihn kaufen?") > like(
        "Darf ich eine gesperrte Einheit zum Blocken verwenden?"
    )


def test_when_answering_a_known_question_does_not_find_itself():
    dim = 16
    axis = np.eye(dim, dtype=np.float32)
    vectors = [axis[0], _unit(0.8 * axis[0] + 0.6 * axis[1]), axis[2], axis[3]]
    ids, answerable = ["u1", "u2", "a1", "a2"], [False, False, True, True]
    for j in range(4, 14):  # ten pairs of reworded questions: they set the twin cosine
        vectors += [axis[j], _unit(0.99 * axis[j] + 0.14 * axis[15])]
        ids += [f"t{j}", f"t{j}'"]
        answerable += [True, True]
    known = KnownQuestions.of(ids, vectors, answerable, "m")
    assert 0.8 < known.twin < 1.0  # u2 is a neighbour of u1, not its twin
    asked_again = known.vectors[0]
    got = likeness(known, asked_again, "m")
    # scored as if new, as every fitted question was: without itself, with its neighbour
    assert got is not None and got == known.unanswered_like(asked_again, exclude="u1")
    assert got < known.unanswered_like(asked_again)
