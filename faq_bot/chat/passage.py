"""The passage: the best entry's paragraph that answers the question.

``candidates(index, aq, dense) -> Ranking``
    The best entries of the ranking (search's, fused with the dense one when
    there are vectors); a reference-only entry is replaced by its target.
``choose_passage(index, candidates, aq, question, support, dense, precedent) -> Passage | None``
    With dense scores the entry comes first: the paragraphs of the best entry
    compete, scored by a conditional logit model over `FEATURES`
    (``faq_bot/data/passage.json``, fitted by ``scripts/train_chat.py`` with
    cross-validation, one weight set per retrieval mode: without the embedder
    the dense features are 0 and the lexical weights apply);
    ``Passage.probability`` is the model's share for the chosen paragraph.
    Without a model file the paragraphs of all candidates compete by the hand-set
    `_lexical_score`.
``with_precedent(rows, precedent)``: the rows with their ``precedent`` feature (what
the training questions nearest the question say of each paragraph, `faq_bot.known`).
``with_neighbours(record, passage, whole_lists=False) -> Passage``
    The passage with its lead-in, sub-heading or list neighbour (≤ `PASSAGE_CHARS`); with
    `whole_lists` (what an answer shows) a list item in its whole list when it fits.
``passage_table(record, passage)``
    The rows of a passage that is a table alone (shown as a table, not its text).

The key sentence a passage highlights is `faq_bot.chat.keysentence`'s; how paragraphs hang
together (lead-ins, list items, sub-headings) is `faq_bot.chat.layout`'s.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from faq_bot.corpus.model import ShownTable, paragraph_table
from faq_bot.dense import DenseScores
from faq_bot.fitted import fitted, mode_weights
from faq_bot.hybrid import fused_ranking
from faq_bot.index import EntryRecord, Index
from faq_bot.names import named_entry
from faq_bot.query import AnalyzedQuery
from faq_bot.rankfeatures import dense_within
from faq_bot.search import ScoredEntry, named_first, paragraph_scores, rank_entries

from .keysentence import W_DENSE, best_sentence, key_sentence
from .layout import (
    PASSAGE_CHARS,
    colon_lead_in,
    heading_like,
    item_in_list,
    lead_in_of,
    sub_heading,
    with_list,
)
from .terms import Coverage, entry_terms, reference_target

__all__ = [
    "FEATURES",
    "Candidate",
    "Passage",
    "Ranking",
    "candidates",
    "choose_passage",
    "paragraph_features",
    "passage_table",
    "read_text",
    "row_text",
    "with_neighbours",
    "with_precedent",
]

CANDIDATES = 8  # entries whose paragraphs compete for the answer (lexical mode)
HEADWORD_BONUS = 0.15  # the question names the answer entry's headword

# Lexical mode (no embedder):
# entry^ENTRY_POWER * (W_PARA * para + W_SENT * sentence + W_BM25 * bm25)
ENTRY_POWER = 0.5
W_PARA = 0.45
W_SENT = 0.35
W_BM25 = 0.2

FEATURES = (
    "para",  # coverage of the question by the paragraph (with the entry's heading)
    "sentence",  # the same for its best sentence
    "bm25",  # the paragraph's BM25 score relative to the best paragraph of the query
    "dense_para",  # dense similarity of the whole paragraph
    "dense_sent",  # dense similarity of its best sentence
    "best_para",  # 1 for the paragraph of the entry with the highest coverage
    "best_dense",  # 1 for the paragraph of the entry with the highest dense similarity
    "heading",  # a short heading-like paragraph ("Sonderfall:")
    "first",  # the entry's first paragraph
    "length",  # log of the paragraph's characters
    # among the training questions nearest the question, the similarity of the nearest
    # whose gold lies in the paragraph (with its neighbours) minus that of the nearest
    # whose gold lies elsewhere (`faq_bot.known`, the chat's confidence signal of that
    # name); 0 without known questions
    "precedent",
)


@dataclass(frozen=True)
class Passage:
    entry: str
    paragraph: int
    text: str
    score: float
    coverage: float  # of the question itself, plus the headword bonus
    highlight: tuple[int, int]  # the key sentence: offsets into text
    via: str | None = None  # reference-only entry it was reached through
    named: bool = False  # the question names the entry's headword
    evidence: int = 0  # distinctive question words the passage matches
    dense: float = 0.0  # dense similarity of the paragraph (or its best sentence)
    probability: float = 1.0  # the passage model's share for this paragraph in its entry
    missing: float = 0.0  # highest IDF of a question word the passage and its heading lack
    # a list longer than PASSAGE_CHARS shown in part: (its first paragraph not shown, how
    # many of its items are not shown); the pages link there
    rest: tuple[int, int] | None = None


@dataclass
class Candidate:
    record: EntryRecord
    score: float  # entry score relative to the best entry
    heading: frozenset[str]
    headword: frozenset[str]
    via: str | None = None


@dataclass
class Ranking:
    """The best entries of a question and what the fused ranking says about them."""

    candidates: list[Candidate]
    scored: list[ScoredEntry]
    margin: float = 0.0  # score of the first entry minus the second's
    top: float = 0.0  # score of the first entry (a fused logit, or BM25F without dense)
    lexical_top: str | None = None  # the first entry of the lexical ranking alone
    dense_top: str | None = None  # ... and of the dense ranking alone
    # the fitted ranker's softmax share of the first entry and the entropy over its
    # candidates (`faq_bot.hybrid.Certainty`; 0 without one)
    share: float = 0.0
    entropy: float = 0.0
    named: str | None = None  # the entry the question names as a whole (`named_entry`)


def candidates(
    index: Index, aq: AnalyzedQuery, dense: DenseScores | None, doc: str | None = None
) -> Ranking:
    """The best entries and the ranking (of document `doc` only, if given)."""
    scored = rank_entries(index, aq, doc)
    ranking = Ranking([], [], lexical_top=scored[0].entry if scored else None)
    if scored:  # lexical: BM25F scores
        ranking.top = scored[0].score
        ranking.margin = scored[0].score - scored[1].score if len(scored) > 1 else 0.0
    if dense is not None:
        dense_order = dense_within(index, dense, doc)
        ranking.dense_top = dense_order[0][0] if dense_order else None
        scored, sure = fused_ranking(index, aq.text, scored, doc=doc, dense=dense, aq=aq)
        ranking.share, ranking.entropy = sure
        if scored:
            ranking.top = scored[0].score
            ranking.margin = scored[0].score - scored[1].score if len(scored) > 1 else 0.0
    # a question that is a headword as a whole ("Endphase") is about that entry; what the
    # ranking said (margin, share) stays as it was, for the confidence to read
    ranking.named = named_entry(index, aq.text, doc)
    scored = named_first(scored, ranking.named)
    if dense is not None:
        # the fused score is a logit (or RRF): relative scores from its rank
        scored = [ScoredEntry(s.entry, 1.0 / (i + 1), s.paragraph) for i, s in enumerate(scored)]
    top = scored[0].score if scored and scored[0].score > 0 else 1.0
    out: list[Candidate] = []
    seen: set[str] = set()
    for s in scored[:CANDIDATES]:
        record = index.entry(s.entry)
        if record is None:
            continue
        et = entry_terms(index, record)
        heading, headword = et.heading, et.headword
        target = reference_target(index, record)
        via = None
        if target is not None:
            via, record = record.id, target
            heading = heading | entry_terms(index, target).heading
            headword = headword | entry_terms(index, target).headword
        if record.id in seen:
            continue
        seen.add(record.id)
        out.append(Candidate(record, s.score / top, heading, headword, via))
    ranking.candidates, ranking.scored = out, scored
    return ranking


@dataclass(frozen=True)
class Row:
    """One paragraph of a candidate entry with its features. Its key sentence is chosen
    when asked for (`span`): only the paragraph that becomes the passage needs one."""

    paragraph: int
    features: dict[str, float]
    key: Callable[[], tuple[int, int]]  # the key sentence's span (`key_sentence`)
    dense: float

    @property
    def span(self) -> tuple[int, int]:
        return self.key()


def _key_span(*args: Any) -> tuple[int, int]:
    # looked up when called: scripts/train_key_sentence.py records through it
    return key_sentence(*args)


def paragraph_features(
    index: Index,
    cand: Candidate,
    aq: AnalyzedQuery,
    dense: DenseScores | None,
    bm25: dict[tuple[str, int], float] | None = None,
) -> list[Row]:
    """The `FEATURES` of every non-empty paragraph of `cand`'s entry."""
    coverage = Coverage(index, aq.terms, aq.words)
    if bm25 is None:
        bm25 = paragraph_scores(index, aq)
    top_bm25 = max(bm25.values(), default=1.0) or 1.0
    et = entry_terms(index, cand.record)
    mode = "hybrid" if dense is not None else "lexical"  # which key-sentence weights apply
    rows = []
    for i, text in enumerate(cand.record.plain_paragraphs):
        if not text.strip():
            continue
        key = (cand.record.id, i)
        spans = (dense.sentences.get(key) or []) if dense is not None else []
        sims = {x[:2]: x[2] for x in spans}
        lexical, _ = best_sentence(et.sentences[i], cand.heading, coverage)
        span = functools.cache(
            functools.partial(_key_span, text, et.sentences[i], cand.heading, coverage, sims, mode)
        )
        d_para = dense.paragraph.get(key, 0.0) if dense is not None else 0.0
        d_sent = max(sims.values(), default=d_para)
        f = {
            "para": coverage(et.paragraphs[i], cand.heading),
            "sentence": lexical,
            "bm25": bm25.get(key, 0.0) / top_bm25,
            "dense_para": d_para,
            "dense_sent": d_sent,
            "best_para": 0.0,
            "best_dense": 0.0,
            "heading": float(heading_like(text)),
            "first": float(i == 0),
            "length": math.log1p(len(text)),
            "precedent": 0.0,
        }
        rows.append(Row(i, f, span, dense.unit(*key) if dense is not None else 0.0))
    if rows:
        max(rows, key=lambda r: r.features["para"]).features["best_para"] = 1.0
        max(rows, key=lambda r: r.dense).features["best_dense"] = 1.0
    return rows


def model(mode: str = "hybrid") -> dict[str, float] | None:
    """The fitted passage weights for `mode` ("hybrid", or "lexical" without the
    embedder), or None (then `_lexical_score` decides), also when the hybrid weights
    were fitted for another embedder than the one that serves (`faq_bot.fitted`)."""
    return fitted("passage", _weights, mode)


_weights = mode_weights(FEATURES)


def _lexical_score(cand: Candidate, row: Row) -> float:
    f = row.features
    entry = max(cand.score, 0.0) ** ENTRY_POWER
    score = entry * (W_PARA * f["para"] + W_SENT * f["sentence"] + W_BM25 * f["bm25"])
    score += W_DENSE * row.dense
    return score * (0.5 if f["heading"] else 1.0)


def choose_row(
    scored_rows: Sequence[tuple[Candidate, Row]], weights: dict[str, float] | None
) -> tuple[Candidate, Row, float, float] | None:
    """The best (candidate, paragraph) with its score and its share of the model's
    softmax over the rows (1.0 without a model: the lexical score decides)."""
    if not scored_rows:
        return None
    if weights is not None:
        raw = [sum(weights[k] * row.features[k] for k in FEATURES) for _c, row in scored_rows]
    else:
        raw = [_lexical_score(cand, row) for cand, row in scored_rows]
    # ties: the earlier paragraph
    best = max(range(len(raw)), key=lambda i: raw[i] - 0.0005 * scored_rows[i][1].paragraph)
    share = 1.0
    if weights is not None:
        top = max(raw)
        share = math.exp(raw[best] - top) / sum(math.exp(x - top) for x in raw)
    cand, row = scored_rows[best]
    return cand, row, raw[best] - 0.0005 * row.paragraph, share


def make_passage(
    index: Index,
    cand: Candidate,
    row: Row,
    score: float,
    share: float,
    question: Coverage,
    support: Coverage,
) -> Passage:
    """The passage of paragraph `row` of `cand`, with the coverage of the question
    itself (plus the headword bonus) and the evidence of `support`."""
    et = entry_terms(index, cand.record)
    found = (et.paragraphs[row.paragraph], cand.heading)
    own = question(*found)
    named = support.names(cand.headword)
    if named:
        own = min(1.0, own + HEADWORD_BONUS)
    return Passage(
        cand.record.id,
        row.paragraph,
        cand.record.plain_paragraphs[row.paragraph],
        score,
        own,
        row.span,
        cand.via,
        named,
        support.evidence(*found),
        row.dense,
        share,
        question.missing(*found),
    )


def competing_rows(
    index: Index,
    cands: list[Candidate],
    aq: AnalyzedQuery,
    dense: DenseScores | None,
    entry_first: bool | None = None,
) -> list[tuple[Candidate, Row]]:
    """The paragraphs that compete: with a fitted model (or `entry_first`) those of
    the best entry (the entry first), else those of every candidate."""
    if entry_first is None:
        entry_first = model("hybrid" if dense is not None else "lexical") is not None
    if entry_first:
        cands = cands[:1]
    bm25 = paragraph_scores(index, aq)  # computed by rank_entries for the same query
    return [(c, row) for c in cands for row in paragraph_features(index, c, aq, dense, bm25)]


def row_text(cand: Candidate, row: Row) -> str:
    """The text the models read for paragraph `row` of `cand` (its neighbours included,
    `with_neighbours` without whole lists; an answer shows a list item in its whole list):
    what gold passages and known questions are matched against."""
    return _read_form(cand.record, row.paragraph)


def _read_form(record: EntryRecord, paragraph: int) -> str:
    """Paragraph `paragraph` of `record` with its neighbours as the models read it (the
    text only: no key sentence is needed or chosen for it)."""
    text = record.plain_paragraphs[paragraph]
    return with_neighbours(record, Passage(record.id, paragraph, text, 0.0, 0.0, (0, 0))).text


def read_text(record: EntryRecord, passage: Passage) -> str:
    """The text the models read for an answer's `passage` (shown with ``whole_lists``):
    its paragraph with the neighbours `with_neighbours` gives it without whole lists, or the
    shown text itself when that is the bare paragraph (no neighbours: a lexical answer).
    What `faq_bot.evaluate` judges, as the models were fitted: showing more of a list does
    not count as answering."""
    text = record.plain_paragraphs[passage.paragraph]
    return text if passage.text == text else _read_form(record, passage.paragraph)


def with_precedent(
    rows: Sequence[tuple[Candidate, Row]], precedent: Callable[[str], float | None] | None
) -> list[tuple[Candidate, Row]]:
    """`rows` with their ``precedent`` feature (`faq_bot.known.Comparison.precedent`; 0 when
    there is none), as new rows: fitting reads the same rows with the known questions of
    each fold."""
    out = []
    for cand, row in rows:
        value = precedent(row_text(cand, row)) if precedent is not None else None
        features = {**row.features, "precedent": float(value) if value is not None else 0.0}
        out.append((cand, dataclasses.replace(row, features=features)))
    return out


def choose_passage(
    index: Index,
    cands: list[Candidate],
    aq: AnalyzedQuery,
    question: Coverage,
    support: Coverage,
    dense: DenseScores | None = None,
    precedent: Callable[[str], float | None] | None = None,
    entry_first: bool | None = None,
) -> Passage | None:
    """The best paragraph of the candidates. `question` measures the coverage of the
    question itself; `support` (the question with its follow-up context) the evidence;
    `precedent`: what the known questions say of a paragraph's text; `entry_first`: only
    the first candidate's paragraphs compete (as with a fitted model; None: as
    `competing_rows` decides)."""
    weights = model("hybrid" if dense is not None else "lexical")
    rows = competing_rows(index, cands, aq, dense, entry_first)
    chosen = choose_row(with_precedent(rows, precedent), weights)
    if chosen is None:
        return None
    cand, row, score, share = chosen
    return make_passage(index, cand, row, score, share, question, support)


def passage_table(record: EntryRecord, passage: Passage) -> ShownTable | None:
    """The table of the passage's paragraph (`paragraph_table`: a table, or prose and a
    table) when the paragraph is shown alone, with no lead-in or neighbour joined to it:
    what the pages and `faq-bot ask` show as a table instead of its text, which runs the
    cells together."""
    i = passage.paragraph
    if not 0 <= i < len(record.paragraphs) or passage.text != record.plain_paragraphs[i]:
        return None
    return paragraph_table(record.paragraphs[i], record.markup)


def with_neighbours(record: EntryRecord, passage: Passage, whole_lists: bool = False) -> Passage:
    """The passage with what belongs to it, when together they stay within
    `PASSAGE_CHARS`: a paragraph with the lead-in ending in ":" before it, a lead-in with
    the list after it (`with_list`: as many items as fit, ``rest`` says where the others
    begin and how many they are), another item of a list with its lead-in (and a line "…"
    for the items between: `lead_in_of`), else a lead-in ending in ":" with the paragraph
    after it; a sub-heading (`sub_heading`) with the paragraph after it, and that paragraph
    with the sub-heading above it.

    `whole_lists`: a list item is shown in its list as its lead-in shows it, when the items
    that fit reach it (`item_in_list`): what an answer shows. Without it (what the passage
    and confidence models read, as they were fitted) an item comes with its lead-in alone,
    a line "…" for the items between."""
    paras = record.plain_paragraphs
    i, text, (start, end) = passage.paragraph, passage.text, passage.highlight
    rest = None
    listed = with_list(record, i, text)  # the list it leads in (an item may lead one too)
    j = lead_in_of(record, i) if not sub_heading(paras, i) else None  # its own lead-in
    # an item that leads a list of its own ("See" before "- Schlachtschiff") shows that
    whole = None
    if whole_lists and j is not None and listed is None:
        whole = item_in_list(record, j, i, text)
    if whole is not None:  # the list as its lead-in shows it, this item among it
        text, shift, rest = whole
        start, end = start + shift, end + shift
    elif i > 0 and (colon_lead_in(paras[i - 1]) or sub_heading(paras, i - 1)):
        lead = paras[i - 1].strip()
        if len(lead) + 1 + len(text) <= PASSAGE_CHARS:
            shift = len(lead) + 1
            text, start, end = f"{lead}\n{text}", start + shift, end + shift
    elif listed is not None:
        text, shown, left = listed
        if left:
            rest = (i + 1 + shown, left)
    elif j is not None:  # the lead-in, "…" for the items between, the item
        lead = paras[j].strip()
        gap = "\n" if j == i - 1 else "\n…\n"  # the items between, left out
        if len(lead) + len(gap) + len(text) <= PASSAGE_CHARS:
            shift = len(lead) + len(gap)
            text, start, end = f"{lead}{gap}{text}", start + shift, end + shift
    elif i + 1 < len(paras) and (colon_lead_in(text) or sub_heading(paras, i)):
        if paras[i + 1].strip() and len(text) + 1 + len(paras[i + 1]) <= PASSAGE_CHARS:
            text = f"{text}\n{paras[i + 1].strip()}"
    if text == passage.text and rest is None:
        return passage
    return dataclasses.replace(passage, text=text, highlight=(start, end), rest=rest)
