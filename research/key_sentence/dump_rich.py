"""Dump what the key-sentence choice reads, with the texts, to try new sentence features
offline (round 36): one JSON line per question whose best passage holds its gold: the
question, the paragraph text, each sentence's span and `SENTENCE_FEATURES`, which sentences
overlap the gold, and the question's and the sentences' analyzed terms. Training files are
read as `scripts/train_key_sentence.py` reads them (``--crossfit``); held-out sets only with
``--measure``, as shipped, to measure on (never fitted on).

    .venv/bin/python research/key_sentence/dump_rich.py OUT.jsonl \
        --crossfit FOLDS FILES... --untuned FILES...
    .venv/bin/python research/key_sentence/dump_rich.py --measure OUT.jsonl HELD_OUT_FILES...
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from faq_bot.chat import answer
from faq_bot.chat import passage as passage_module
from faq_bot.chat.keysentence import sentence_features
from faq_bot.crossfit import add_crossfit_arguments, by_fold, training_set
from faq_bot.evaluate import answerable, gold_spans, load_questions
from faq_bot.index import open_index
from faq_bot.search import term_idf


def read(index, questions):
    seen = {}
    extra = {}
    index_ref = [index]
    shipped = passage_module.key_sentence

    def recording(text, sentences, heading, coverage, similarity=None, mode="hybrid"):
        seen[text] = sentence_features(text, sentences, heading, coverage, similarity)
        extra[text] = {
            "terms": [sorted(t) for _s, _e, t in sentences],
            "query": {t: float(w) for t, w in coverage.typed.items()},
            "idf": {t: float(term_idf(index_ref[0], t)) for _s, _e, ts in sentences for t in ts}
            | {t: float(coverage.idf[t]) for t in coverage.typed},
            "heading": sorted(heading),
        }
        return shipped(text, sentences, heading, coverage, similarity, mode)

    passage_module.key_sentence = recording
    out = []
    try:
        for q in questions:
            seen.clear()
            extra.clear()
            result = answer(index, q["q"]) if answerable(q) and not q.get("history") else None
            found = result.passage if result is not None else None
            record = index.entry(found.entry) if found is not None else None
            text = record.plain_paragraphs[found.paragraph] if record is not None else ""
            rows = seen.get(text) if text else None
            spans = gold_spans(text, q.get("gold") or []) if rows else []
            if not rows or not spans:
                out.append(None)
                continue
            y = [int(any(s < ge and gs < e for gs, ge in spans)) for (s, e), _f in rows]
            out.append(
                {
                    "id": q["id"],
                    "q": q["q"],
                    "title": record.title,
                    "text": text,
                    "rows": [[list(span), f] for span, f in rows],
                    "y": y,
                    "chosen": list(found.highlight) if found else None,
                    "confident": bool(result.confident),
                    **extra[text],
                }
                if any(y)
                else None
            )
    finally:
        passage_module.key_sentence = shipped
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--index", default="index", type=Path)
    ap.add_argument("--measure", action="store_true")
    add_crossfit_arguments(ap)
    args = ap.parse_args()
    if args.measure:  # held-out sets, read as shipped, to measure on (never fitted on)
        questions, untuned = [q for f in args.files for q in load_questions(f)], frozenset()
    else:
        questions, untuned = training_set(args.files, args.untuned)
    index = open_index(args.index)
    if args.crossfit:
        rows = by_fold(
            index, args.index, questions, args.crossfit, lambda qs: read(index, qs), untuned
        )
    else:
        rows = read(index, questions)
    with args.out.open("w", encoding="utf-8") as fh:
        for r in rows:
            if r is not None:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
