"""The confidence signals of the known questions (`faq_bot.known`):
``unanswered_like``, how much a question resembles the training questions the rulings do
not answer, and ``precedent``, whether the training questions nearest it were answered
by the passage the bot chose."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from faq_bot import hybrid
from faq_bot.chat.confidence import OPTIONAL, SIGNALS, model, probability
from faq_bot.dense import dense_for, swapped_retriever
from faq_bot.embed import get_embedder
from faq_bot.hybrid import dense_scores, embedding_text
from faq_bot.index import open_index
from faq_bot.known import (
    K_PRECEDENT,
    RECENT_VECTORS,
    TWIN_SHARE,
    K,
    KnownQuestions,
    compared,
    entry_precedent,
    fitting,
    known_questions,
    read_known,
)
from faq_bot.query import analyze_query
from faq_bot.search import rank_entries


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
    assert compared(known, None, "m") is None
    assert compared(known, _unit([1, 0, 0]), "another-model") is None
    assert compared(None, _unit([1, 0, 0]), "m") is None
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
    values = dict.fromkeys(SIGNALS, 0.5)
    missing = {k: v for k, v in values.items() if k not in OPTIONAL}
    # each model its own: the first questions' and the follow-ups'
    first = model("hybrid")["first"]["fallback"]
    assert set(first) == set(OPTIONAL)
    assert probability(missing) == pytest.approx(probability(values | first))
    later = model("hybrid")["followup"]["fallback"]
    assert set(later) == set(OPTIONAL)
    assert probability(missing, followup=True) == pytest.approx(
        probability(values | later, followup=True)
    )
    fallbacks = model("hybrid")["fallback"]  # the training questions' model
    assert set(fallbacks) == set(OPTIONAL)
    fallback = fallbacks["unanswered_like"]
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
    assert med[0] < first["unanswered_like"] < med[1]


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
    assert again.golds is None and again.precedent(v, "text") is None


def test_gold_passages_survive_a_save_and_load(tmp_path: Path):
    known = _answered()
    path = tmp_path / "known.npz"
    known.save(path)
    again = KnownQuestions.load(path.read_bytes())
    assert again.golds == known.golds
    v = _unit([0, 1, 0.2])
    for text in (PASSAGE_A, PASSAGE_B):
        assert again.precedent(v, text) == pytest.approx(known.precedent(v, text), abs=1e-3)


def test_the_shipped_known_questions_fit_the_shipped_embedder_and_confidence_model(dense_on):
    known = known_questions()
    assert known is not None, "faq_bot/data/known_questions.npz missing or unreadable"
    embedder = get_embedder()
    assert embedder is not None
    assert known.model == embedder.id
    assert known.vectors.shape[1] == len(embedder.query("Wer darf angreifen?"))
    assert (~known.answerable).sum() >= K and known.answerable.sum() >= K
    assert "unanswered_like" in SIGNALS and model("hybrid") is not None
    # every answerable known question keeps its gold passages for ``precedent``
    assert known.golds is not None and "precedent" in SIGNALS
    assert all(bool(g) == a for g, a in zip(known.golds, known.answerable, strict=True))


def test_a_shop_question_resembles_the_unanswered_training_questions_more_than_a_rules_one(
    dense_on,
):
    from faq_bot.hybrid import embedding_text

    embedder = get_embedder()
    known = known_questions()
    assert embedder is not None and known is not None

    def like(question: str) -> float:
        vector = embedder.query(embedding_text(question))
        comparison = compared(known, vector, embedder.id)
        assert comparison is not None
        return comparison.signals("")["unanswered_like"]

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
    comparison = compared(known, asked_again, "m")
    got = comparison.signals("").get("unanswered_like") if comparison is not None else None
    # scored as if new, as every fitted question was: without itself, with its neighbour
    assert got is not None and got == known.unanswered_like(asked_again, exclude="u1")
    assert got < known.unanswered_like(asked_again)


PASSAGE_A = "Eine gesperrte Einheit darf nicht blocken. Sie bleibt gesperrt."
PASSAGE_B = "Das Depot wird gemischt, wenn es leer ist."


def _answered() -> KnownQuestions:
    # answerable questions near y answered by passage A, near z by passage B; one
    # unanswerable question near x
    vectors = [_unit([0, 1, 0.1]), _unit([0.1, 1, 0]), _unit([0, 0.1, 1]), _unit([0.1, 0, 1]),
               _unit([1, 0, 0])]  # fmt: skip
    golds = [
        ["eine gesperrte  Einheit darf nicht blocken."],  # matched folded, as eval does
        ["Sie bleibt gesperrt."],
        ["Das Depot wird gemischt"],
        ["wenn es leer ist"],
        [],
    ]
    return KnownQuestions.of(
        ["a1", "a2", "b1", "b2", "u1"], vectors, [True, True, True, True, False], "m", golds
    )


def test_an_answer_the_nearest_known_questions_got_is_vouched_for_and_another_is_not():
    known = _answered()
    near_a = _unit([0, 1, 0.2])
    assert known.precedent(near_a, PASSAGE_A) > 0.5
    assert known.precedent(near_a, PASSAGE_B) < -0.5
    near_b = _unit([0, 0.2, 1])
    assert known.precedent(near_b, PASSAGE_B) > 0.5 > known.precedent(near_b, PASSAGE_A)


def _nearest_known(known: KnownQuestions, v: np.ndarray) -> float:
    """The nearest known question that is not a twin: its similarity, negated when
    the rulings answer it (what ``nearest_known`` should be)."""
    sims = known.vectors @ v
    j = max((i for i in range(len(sims)) if sims[i] < known.twin), key=lambda i: sims[i])
    return float(sims[j]) * (-1.0 if known.answerable[j] else 1.0)


def test_precedent_needs_gold_passages_the_same_model_and_a_vector():
    known = _answered()
    v = _unit([0, 1, 0])
    comparison = compared(known, v, "m")
    assert comparison is not None and comparison.signals(PASSAGE_A) == {
        "unanswered_like": known.unanswered_like(v, twin=known.twin),
        "nearest_known": _nearest_known(known, v),
        "precedent": known.precedent(v, PASSAGE_A, twin=known.twin),
    }
    assert compared(known, v, "another-model") is None
    assert compared(known, None, "m") is None
    assert compared(None, v, "m") is None
    assert _known().precedent(v, PASSAGE_A) is None  # written without gold passages
    without_golds = _known().compare(v)
    assert without_golds is not None and set(without_golds.signals(PASSAGE_A)) == {
        "unanswered_like",
        "nearest_known",
    }
    assert known.precedent(_unit([0, 1, 0, 0]), PASSAGE_A) is None  # another size


def test_one_comparison_gives_the_precedent_of_any_text_and_both_signals():
    known = _answered()
    v = _unit([0, 1, 0.2])
    comparison = compared(known, v, "m")
    assert comparison is not None
    for text in (PASSAGE_A, PASSAGE_B, PASSAGE_A + " " + PASSAGE_B, "nichts davon"):
        assert comparison.precedent(text) == known.precedent(v, text, twin=known.twin)
        signals = comparison.signals(text)
        assert signals.pop("nearest_known") == pytest.approx(_nearest_known(known, v))
        assert signals == {
            "unanswered_like": known.unanswered_like(v, twin=known.twin),
            "precedent": known.precedent(v, text, twin=known.twin),
        }
    own = known.compare(known.vectors[0], exclude="a1")
    assert own is not None and own.precedent(PASSAGE_A) == known.precedent(
        known.vectors[0], PASSAGE_A, exclude="a1"
    )
    assert compared(known, v, "another-model") is None
    assert compared(known, None, "m") is None
    assert compared(None, v, "m") is None
    assert known.compare(_unit([0, 1, 0, 0])) is None  # another size


def test_a_known_question_does_not_vouch_for_its_own_answer():
    known = _answered()
    own = known.vectors[0]
    with_itself = known.precedent(own, PASSAGE_A)
    assert known.precedent(own, PASSAGE_A, exclude="a1") < with_itself
    assert known.precedent(own, PASSAGE_A, twin=0.999) == known.precedent(
        own, PASSAGE_A, exclude="a1"
    )


def test_only_the_nearest_known_questions_count():
    axis = np.eye(K_PRECEDENT + 3, dtype=np.float32)
    q = _unit(axis[0] + 0.01 * axis[1])
    # K_PRECEDENT answered elsewhere close to q, one answered by A far from it
    vectors = [_unit(axis[0] + 0.1 * axis[j + 1]) for j in range(K_PRECEDENT)]
    vectors.append(axis[K_PRECEDENT + 2])
    golds = [["Das Depot wird gemischt"]] * K_PRECEDENT + [["Sie bleibt gesperrt."]]
    ids = [f"q{i}" for i in range(K_PRECEDENT + 1)]
    known = KnownQuestions.of(ids, vectors, [True] * len(ids), "m", golds)
    # no near question was answered by A: the smallest of the near similarities stands in
    near = sorted((known.vectors[:K_PRECEDENT] @ q).tolist())
    assert known.precedent(q, PASSAGE_A) == pytest.approx(near[0] - near[-1], abs=1e-6)


@given(
    st.lists(st.floats(-1, 1), min_size=3, max_size=3).filter(lambda v: np.linalg.norm(v) > 0.1),
    st.sampled_from([PASSAGE_A, PASSAGE_B, PASSAGE_A + " " + PASSAGE_B, "", "<b>x</b>"]),
)
def test_an_answer_holding_every_known_gold_is_never_doubted_and_one_holding_none_never_vouched(
    v, text
):
    known = _answered()
    got = known.precedent(_unit(v), text)
    assert got is not None
    if text == PASSAGE_A + " " + PASSAGE_B:  # every known answer lies in it
        assert got >= 0.0
    if text in ("", "<b>x</b>"):  # none does
        assert got <= 0.0


def test_a_file_written_without_gold_passages_is_read_and_says_the_signal_falls_back(
    tmp_path: Path, caplog
):
    path = tmp_path / "known.npz"
    _known().save(path)
    with caplog.at_level("WARNING"):
        known = read_known(path.read_bytes())
    assert known is not None and known.golds is None
    assert "precedent" in caplog.text


def test_a_signal_that_is_not_a_number_counts_as_missing():
    values = dict.fromkeys(SIGNALS, 0.5)
    for bad in (float("nan"), float("inf")):
        assert probability(values | {"precedent": bad}) == pytest.approx(
            probability({k: v for k, v in values.items() if k != "precedent"})
        )


# --- the ranking feature ``known_entry`` (`entry_precedent`) ---


def _ranking_known(index) -> tuple[KnownQuestions, list[str]]:
    """Three answerable known questions, each answered by a sentence of another entry of
    the tiny index: on the x, the y and the z axis; and two unanswerable near twins (so
    that the twin cosine lies near 1)."""
    entries = list(index.iter_entries())[:3]
    golds = [[e.text.split(".")[0]] for e in entries] + [[], []]
    vectors = [_unit([1, 0, 0, 0]), _unit([0, 1, 0, 0]), _unit([0, 0, 1, 0]),
               _unit([0, 0, 0.1, 1]), _unit([0, 0, -0.1, 1])]  # fmt: skip
    answerable = [True, True, True, False, False]
    known = KnownQuestions.of(["a-1", "a-2", "b-1", "u-1", "u-2"], vectors, answerable, "m", golds)
    return known, [e.id for e in entries]


def test_known_entry_is_zero_for_the_entry_that_answered_the_nearest_known_question(
    tiny_built_index,
):
    index = open_index(tiny_built_index)
    known, (first, second, third) = _ranking_known(index)
    with fitting(known, frozenset()):
        value = entry_precedent(index, _unit([1, 0.5, 0.1, 0]), "m")
    assert value is not None
    assert value(first) == 0.0
    assert value(third) < value(second) < 0.0  # the farther its known question, the lower
    assert value("an entry no known question names") == value(third)  # the floor: the last


def test_in_fitting_the_questions_left_out_are_not_compared(tiny_built_index):
    index = open_index(tiny_built_index)
    known, (first, second, _third) = _ranking_known(index)
    with fitting(known, frozenset({"a-1"})):  # the question's own set
        value = entry_precedent(index, _unit([1, 0.5, 0.1, 0]), "m")
    assert value is not None and value(second) == 0.0 and value(first) < 0.0


def test_without_known_questions_of_the_serving_model_there_is_no_feature(tiny_built_index):
    index = open_index(tiny_built_index)
    known, _ids = _ranking_known(index)
    with fitting(known, frozenset()):
        assert entry_precedent(index, _unit([1, 0, 0, 0]), "another-model") is None
        assert entry_precedent(index, None, "m") is None
    with fitting(None, frozenset()):
        assert entry_precedent(index, _unit([1, 0, 0, 0]), "m") is None


@given(st.lists(st.floats(-1, 1, allow_nan=False), min_size=4, max_size=4))
def test_known_entry_is_never_positive_and_never_below_the_floor(tiny_index_once, v):
    if np.linalg.norm(v) < 1e-3:
        return
    index = tiny_index_once
    known, ids = _ranking_known(index)
    with fitting(known, frozenset()):
        value = entry_precedent(index, _unit(v), "m")
    assert value is not None
    floor = value("no such entry")
    assert all(floor <= value(e) <= 0.0 for e in ids)


@pytest.fixture(scope="module")
def tiny_index_once(tiny_built_index):
    return open_index(tiny_built_index)


def test_the_ranking_compares_the_query_embedding_with_the_known_questions(dense_on, dense_index):
    index = open_index(dense_index)
    retriever = dense_for(index)
    patt, modus = index.entry("runde-patt"), index.entry("runde-modus")
    asked = ["Was gilt bei einem Patt?", "Wann wird der Moduswürfel geworfen?"]
    known = KnownQuestions.of(
        ["k-1", "k-2", "u-1", "u-2"],
        [retriever.embed(embedding_text(q)) for q in [*asked, "Preis?", "Preis??"]],
        [True, True, False, False],
        retriever.model,
        [[patt.text.split(".")[0]], [modus.text.split(".")[0]], [], []],
    )
    question = "Wer gewinnt, wenn es ein Patt gibt?"
    aq = analyze_query(index, question)
    with fitting(known, frozenset()):
        ranked = hybrid.features(
            index, rank_entries(index, aq), dense_scores(index, question), None, None, aq
        )
    got = {r.entry: r.features["known_entry"] for r in ranked}
    assert got["runde-patt"] == 0.0
    assert min(got.values()) < 0.0
    with fitting(known, frozenset({"k-1"})):  # the Patt question left out
        ranked = hybrid.features(
            index, rank_entries(index, aq), dense_scores(index, question), None, None, aq
        )
    assert {r.entry: r.features["known_entry"] for r in ranked}["runde-modus"] == 0.0


def test_a_near_twin_of_the_question_does_not_vouch_for_its_entry(tiny_index_once):
    index = tiny_index_once
    known, (first, second, _third) = _ranking_known(index)
    twin_of_first = _unit([1, 0.05, 0, 0])  # the first question reworded by a word
    assert float(known.vectors[0] @ twin_of_first) >= known.twin
    with fitting(known, frozenset()):
        value = entry_precedent(index, twin_of_first, "m")
    assert value is not None and value(second) == 0.0 and value(first) < 0.0


def test_a_known_follow_up_does_not_count_for_the_ranking(tiny_index_once):
    index = tiny_index_once
    known, (first, second, _third) = _ranking_known(index)
    marked = KnownQuestions.of(
        known.ids, known.vectors, known.answerable, "m", known.golds,
        [True, False, False, False, False],
    )  # fmt: skip
    with fitting(marked, frozenset()):
        value = entry_precedent(index, _unit([1, 0.5, 0.1, 0]), "m")
    assert value is not None and value(second) == 0.0 and value(first) < 0.0


def test_the_follow_up_marks_survive_saving(tmp_path):
    known = KnownQuestions.of(["a", "b"], [_unit([1, 0]), _unit([0, 1])], [True, True], "m",
                              [["x"], ["y"]], [False, True])  # fmt: skip
    known.save(tmp_path / "k.npz")
    back = read_known((tmp_path / "k.npz").read_bytes())
    assert back is not None and back.followup is not None
    assert back.followup.tolist() == [False, True]


def test_a_fold_retriever_without_the_fitting_block_is_refused(
    dense_on, dense_index, tiny_index_once
):
    index = open_index(dense_index)
    with swapped_retriever(index, dense_for(index)), pytest.raises(RuntimeError, match="fitting"):
        entry_precedent(index, _unit([1, 0, 0, 0]), "m")


def test_when_serving_the_ranking_compares_with_the_shipped_known_questions(dense_on, dense_index):
    index = open_index(dense_index)
    retriever = dense_for(index)
    shipped = known_questions()
    assert shipped is not None and shipped.model == retriever.model
    question = "Was passiert bei einem Patt am Ende der Runde?"
    aq = analyze_query(index, question)
    ranked = hybrid.features(
        index, rank_entries(index, aq), dense_scores(index, question), None, None, aq
    )
    values = [r.features["known_entry"] for r in ranked]
    assert max(values) <= 0.0 and min(values) < 0.0  # the shipped questions said something


def test_a_questions_own_set_is_its_writers_questions(tiny_index_once):
    known, _ids = _ranking_known(tiny_index_once)
    assert known.own_set("a-1") == {"a-1", "a-2"}
    assert known.own_set("c-7") == {"c-7"}  # a question not among them: itself


def test_fitting_leaves_out_the_questions_own_set_for_the_chat_signals(tiny_index_once):
    known, _ids = _ranking_known(tiny_index_once)
    near_a2 = _unit([0.3, 1, 0.3, 0])  # nearest a-2, a sibling of a-1 (not its twin)
    alone = known.precedent(near_a2, "nichts davon", exclude="a-1", twin=known.twin)
    without_set = known.precedent(
        near_a2, "nichts davon", exclude=known.own_set("a-1"), twin=known.twin
    )
    assert alone is not None and without_set is not None and without_set != alone


def test_warming_a_hybrid_build_loads_the_known_questions_and_their_twin(dense_on, dense_index):
    """So that the first question of a server does not pay for them (~0.1 s)."""
    known_questions.cache_clear()
    index = open_index(dense_index)
    index.warm_up()
    assert known_questions.cache_info().currsize == 1
    assert "twin" in vars(known_questions())  # the cached cosine, computed once


@given(n=st.integers(min_value=2, max_value=40), block=st.integers(min_value=1, max_value=9))
def test_twin_computed_in_row_blocks_equals_the_whole_matrix(n: int, block: int):
    # a worker computes `twin` at warm-up: in blocks its memory does not grow with the
    # square of the known questions, and the cosine is the same
    from faq_bot import known as known_module

    vectors = np.random.default_rng(n).normal(size=(n, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    whole = vectors @ vectors.T
    np.fill_diagonal(whole, -1.0)
    expected = float(np.quantile(whole.max(axis=1), 1.0 - TWIN_SHARE))
    original = known_module.TWIN_BLOCK
    known_module.TWIN_BLOCK = block
    try:
        known = KnownQuestions.of([f"q{i}" for i in range(n)], vectors, [True] * n, "m")
        assert known.twin == pytest.approx(expected, abs=1e-6)
    finally:
        known_module.TWIN_BLOCK = original


def test_nearest_known_is_the_nearest_questions_similarity_signed_by_its_kind():
    known = _known()
    near_unanswered = known.compare(_unit([1, 0.05, 0])).signals("")["nearest_known"]
    near_answered = known.compare(_unit([0, 1, 0.05])).signals("")["nearest_known"]
    assert near_unanswered > 0.9  # nearest: an unanswerable one, similarity as is
    assert near_answered < -0.9  # nearest: an answerable one, similarity negated


def test_nearest_known_reads_the_nearest_alone_where_unanswered_like_is_outvoted():
    # one unanswerable known question right beside the question (two others far away),
    # three answerable ones a little further: the means of the K nearest of each kind
    # say "answered", the nearest alone says not
    vectors = [_unit([1, 0, 0]), _unit([0, 0, 1]), _unit([0, 0, -1]), _unit([0.9, 0.3, 0]),
               _unit([0.9, -0.3, 0]), _unit([0.9, 0.2, 0.2])]  # fmt: skip
    known = KnownQuestions.of(
        ["u1", "u2", "u3", "a1", "a2", "a3"], vectors, [False] * 3 + [True] * 3, "m"
    )
    signals = known.compare(_unit([1, 0.01, 0])).signals("")
    assert signals["unanswered_like"] < 0 < signals["nearest_known"]


def test_nearest_known_leaves_out_twins_and_known_follow_ups():
    vectors = [_unit([1, 0, 0]), _unit([0.8, 0.6, 0]), _unit([0.6, 0.8, 0])]
    known = KnownQuestions.of(
        ["twin", "f", "a"], vectors, [False, True, True], "m", followup=[False, True, False]
    )
    # the unanswerable twin (cosine 1) and the follow-up are left out: the answerable one counts
    value = known.compare(_unit([1, 0, 0]), twin=0.99).signals("")["nearest_known"]
    assert value == pytest.approx(-0.6, abs=1e-6)


def test_one_question_vector_reads_the_known_vectors_once_for_ranking_and_answer():
    """The ranking's known_entry and the answer's signals compare the same vector: the
    10 MB matrix is multiplied once (a profile: 2 of an ask's 2.3 products were repeats),
    and the shared similarities cannot be changed by a caller."""
    known = _known()
    vector = _unit([0.2, 1, 0])
    first = known._similarities(vector)
    assert known._similarities(vector.copy()) is first
    assert not first.flags.writeable
    assert known._similarities(_unit([1, 0, 0])) is not first


def test_the_recent_similarities_are_safe_to_share_between_serving_threads():
    """A load probe: one ask in about 2,300 was a 500, "dictionary changed size during
    iteration" where a serving thread dropped the oldest kept similarities while another
    added its own. Threads switching as often as they can, none may fail."""
    import sys
    import threading

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    known = _known()
    rng = np.random.default_rng(0)
    vectors = [_unit(v) for v in rng.normal(size=(64, 3))]
    failures: list[BaseException] = []

    def ask_many() -> None:
        try:
            for i in range(3000):
                known._similarities(vectors[i % len(vectors)])
        except BaseException as error:  # noqa: BLE001 - what a serving thread would raise
            failures.append(error)

    threads = [threading.Thread(target=ask_many) for _ in range(8)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
    assert len(known._recent) <= RECENT_VECTORS


def test_an_answer_sorts_the_nearest_known_questions_once_for_all_its_paragraphs(monkeypatch):
    vectors = [_unit([1, 0.1, 0]), _unit([0.1, 1, 0]), _unit([0, 1, 0.1])]
    known = KnownQuestions.of(
        ["u1", "a1", "a2"], vectors, [False, True, True], "m", golds=[[], ["alpha"], ["beta"]]
    )
    comparison = compared(known, _unit([0.5, 1, 0.2]), "m")
    assert comparison is not None
    calls = []
    real = KnownQuestions.nearest_answered
    monkeypatch.setattr(
        KnownQuestions, "nearest_answered", lambda self, *a: calls.append(1) or real(self, *a)
    )
    values = [comparison.precedent(text) for text in ("Alpha.", "Beta.", "Gamma.")]
    assert len(calls) == 1
    assert len(set(values)) > 1  # still read per paragraph text
