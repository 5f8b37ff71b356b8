"""Fit the key-sentence choice (the sentence an answer highlights); report cross-validated figures.

    .venv/bin/python scripts/train_key_sentence.py [--write] [--index DIR]
        [--crossfit FOLDS_DIR] [--untuned FILE...] QUESTIONS.jsonl...

The bot's answer is a paragraph with one sentence highlighted: the one a judge reads first.
For every answerable first question of the training files whose best passage holds its
gold, this reads the sentences of that paragraph with their `SENTENCE_FEATURES`
(`faq_bot.chat.keysentence.sentence_features`, with the similarities the answer read), a
sentence being right when it overlaps the gold passage. It cross-validates a conditional
logit over them (`faq_bot.learn.fit_choice`; 5 folds by question, three shuffles) against
the hand-set rule it replaces (`best_sentence`: coverage plus the dense similarity) on the
paragraphs of more than one sentence, and with ``--write`` fits it on all of them and writes
``faq_bot/data/sentence.json`` (one weight set per retrieval mode: "lexical" is the same fit
with the dense features at 0). With ``--crossfit`` (``make train``) each question is read
by the embedder tuned without its fold, as for the other chat models
(`faq_bot.crossfit`). The held-out sets are refused (`faq_bot.evaluate.training_questions`).
Nothing of the passage choice or the confidence depends on the key sentence: their
``sentence`` feature is the lexical best sentence's coverage, unchanged.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from faq_bot.chat import answer
from faq_bot.chat import passage as passage_module
from faq_bot.chat.keysentence import SENTENCE_FEATURES, W_DENSE, sentence_features
from faq_bot.crossfit import add_crossfit_arguments, by_fold, embedder_id, training_set
from faq_bot.evaluate import EvalFileError, answerable, gold_spans
from faq_bot.fitted import reload as reload_models
from faq_bot.index import open_index
from faq_bot.learn import fit_choice, folds

DATA = Path(__file__).resolve().parent.parent / "faq_bot" / "data"
DENSE = ("dense", "best_dense")  # what the lexical mode reads as 0
Group = tuple[np.ndarray, np.ndarray]  # one paragraph's sentences: features, right (1/0)


def read(index: Any, questions: list[dict[str, Any]]) -> list[Group | None]:
    """Each question's key-sentence group (None: not answerable, no passage, or the best
    passage does not hold the gold)."""
    seen: dict[str, list] = {}
    shipped = passage_module.key_sentence

    def recording(text, sentences, heading, coverage, similarity=None, mode="hybrid"):
        seen[text] = sentence_features(text, sentences, heading, coverage, similarity)
        return shipped(text, sentences, heading, coverage, similarity, mode)

    passage_module.key_sentence = recording
    groups: list[Group | None] = []
    try:
        for q in questions:
            seen.clear()
            result = answer(index, q["q"]) if answerable(q) and not q.get("history") else None
            found = result.passage if result is not None else None
            record = index.entry(found.entry) if found is not None else None
            text = record.plain_paragraphs[found.paragraph] if record is not None else ""
            rows = seen.get(text) if text else None
            spans = gold_spans(text, q.get("gold") or []) if rows else []
            if not rows or not spans:
                groups.append(None)
                continue
            x = np.array([[f[k] for k in SENTENCE_FEATURES] for _span, f in rows])
            y = np.array([float(any(s < ge and gs < e for gs, ge in spans)) for (s, e), _f in rows])
            groups.append((x, y) if y.any() else None)
    finally:
        passage_module.key_sentence = shipped
    return groups


def save_groups(path: Path, groups: list[Group]) -> None:
    """The groups with their feature names, to fit again without reading (``--from-dump``)."""
    sizes = np.array([len(y) for _x, y in groups])
    x = np.vstack([x for x, _y in groups])
    y = np.concatenate([y for _x, y in groups])
    np.savez_compressed(path, x=x, y=y, sizes=sizes, features=np.array(SENTENCE_FEATURES))


def load_groups(path: Path) -> list[Group]:
    data = np.load(path)
    if tuple(data["features"]) != SENTENCE_FEATURES:
        raise SystemExit(f"{path}: andere Merkmale als SENTENCE_FEATURES; neu lesen.")
    bounds = np.concatenate([[0], np.cumsum(data["sizes"])])
    return [(data["x"][a:b], data["y"][a:b]) for a, b in zip(bounds, bounds[1:], strict=False)]


def rule_choice(x: np.ndarray) -> int:
    """`best_sentence`'s choice among the rows of `x` (the rule without a model)."""
    col = {k: i for i, k in enumerate(SENTENCE_FEATURES)}
    key = x[:, col["cover"]] + 0.01 * x[:, col["cover_self"]] + W_DENSE * x[:, col["dense"]]
    return int(np.argmax(key + 1e-9 * -np.arange(len(x))))


def right(group: Group, chosen: int) -> bool:
    return bool(group[1][chosen] > 0)


def lexical(group: Group) -> Group:
    x = group[0].copy()
    for name in DENSE:
        x[:, SENTENCE_FEATURES.index(name)] = 0.0
    return x, group[1]


def cross_validate(groups: list[Group], k: int = 5, shuffles: int = 3) -> dict[str, float]:
    """Out-of-fold accuracy of the model and of the rule on the groups of two or more."""
    many = [g for g in groups if len(g[1]) > 1]
    model_acc, rule_acc = [], []
    for seed in range(shuffles):
        fold = folds(len(many), k, seed)
        hits = 0
        for f in range(k):
            w = fit_choice([g for g, ff in zip(many, fold, strict=True) if ff != f])
            for g, ff in zip(many, fold, strict=True):
                if ff == f:
                    hits += right(g, int(np.argmax(g[0] @ w + 1e-9 * -np.arange(len(g[1])))))
        model_acc.append(hits / len(many))
        rule_acc.append(sum(right(g, rule_choice(g[0])) for g in many) / len(many))
    return {
        "paragraphs": len(many),
        "model": float(np.mean(model_acc)),
        "model_sd": float(np.std(model_acc)),
        "rule": float(np.mean(rule_acc)),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--index", default="index", type=Path)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--dump", type=Path, help="die gelesenen Sätze als .npz speichern")
    ap.add_argument("--from-dump", type=Path, help="gespeicherte Sätze statt zu lesen")
    add_crossfit_arguments(ap)
    args = ap.parse_args()
    try:
        questions, untuned = training_set(args.files, args.untuned)
    except EvalFileError as exc:
        print(exc, file=sys.stderr)
        return 2
    index = open_index(args.index)
    if args.from_dump:
        kept = load_groups(args.from_dump)
    else:
        if args.crossfit:
            groups = by_fold(
                index, args.index, questions, args.crossfit, lambda qs: read(index, qs), untuned
            )
        else:
            groups = read(index, questions)
        kept = [g for g in groups if g is not None]
    if args.dump:
        save_groups(args.dump, kept)
    figures = {
        mode: cross_validate(kept if mode == "hybrid" else [lexical(g) for g in kept])
        for mode in ("hybrid", "lexical")
    }
    for mode, f in figures.items():
        print(
            f"{mode}: {f['paragraphs']} Absätze mit mehreren Sätzen; Kernsatz trifft Gold: "
            f"Modell {f['model']:.3f} ± {f['model_sd']:.3f}, Regel {f['rule']:.3f}"
        )
    if args.write:
        modes = {}
        for mode in ("hybrid", "lexical"):
            data = kept if mode == "hybrid" else [lexical(g) for g in kept]
            w = fit_choice([g for g in data if len(g[1]) > 1])
            modes[mode] = {"weights": dict(zip(SENTENCE_FEATURES, map(float, w), strict=True))}
        out = {
            "model": "conditional logit over faq_bot.chat.keysentence.SENTENCE_FEATURES",
            "embedder": embedder_id(index),
            "trained_on": [Path(f).name for f in [*args.files, *args.untuned]],
            "cross_validated": figures,
            "modes": modes,
        }
        path = DATA / "sentence.json"
        path.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
        reload_models()
        print(f"geschrieben: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
