"""Fit the hybrid ranking's weights and report cross-validated figures.

    .venv/bin/python scripts/train_ranker.py [--folds 5] [--write] QUESTIONS.jsonl...

For every answerable question the candidates of the lexical and the dense
ranking get the generic features of `faq_bot.hybrid.features` (lexical score
and reciprocal rank, dense entry/paragraph/sentence similarity and rank, the
margin to the best dense entry, entry length, RRF); an entry is relevant when
its text contains a gold passage. A logistic regression (numpy, L2, gradient
descent on standardised features) is fitted; k-fold cross-validation by
question reports Recall@1/@3 and MRR@10 of the re-ranking on the folds it did
not see, next to plain RRF. ``--write`` fits on all questions and writes
``faq_bot/data/ranker.json`` (weights on the raw features). Needs a built index
with dense vectors (``faq-bot index``). Never fitted to held-out sets.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from faq_bot.evaluate import answerable, is_hit, load_questions
from faq_bot.hybrid import FEATURES, dense_scores, features
from faq_bot.index import open_index
from faq_bot.search import QueryError, analyze_query, rank_entries

OUT = Path(__file__).resolve().parent.parent / "faq_bot" / "data" / "ranker.json"
L2 = 1e-2


def collect(index, questions):
    groups = []
    for q in questions:
        if not answerable(q):
            continue
        try:
            lexical = rank_entries(index, analyze_query(index, q["q"]))
        except QueryError:
            lexical = []
        dense = dense_scores(index, q["q"])
        if dense is None:
            sys.exit("Der Index hat keine Vektoren (faq-bot index mit Einbettungsmodell).")
        ranked = features(index, lexical, dense, None, None)
        x = np.array([[r.features[f] for f in FEATURES] for r in ranked], dtype=float)
        y = np.array([is_hit(index.entry(r.entry).text, q["gold"]) for r in ranked], dtype=float)
        groups.append((x, y))
    return groups


def fit(groups):
    x = np.vstack([g[0] for g in groups])
    y = np.concatenate([g[1] for g in groups])
    mu, sd = x.mean(0), x.std(0) + 1e-9
    z = (x - mu) / sd
    w, b = np.zeros(z.shape[1]), 0.0
    pos = max(y.mean(), 1e-6)
    sample = np.where(y > 0, 0.5 / pos, 0.5 / (1 - pos))  # balance the classes
    for _ in range(3000):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        g = (p - y) * sample
        w -= 0.5 * (z.T @ g / len(y) + L2 * w)
        b -= 0.5 * g.mean()
    raw = w / sd
    return raw, b - float((mu * raw).sum())


def figures(groups, score):
    r1 = r3 = rr = 0.0
    for x, y in groups:
        order = np.argsort(-score(x), kind="stable")
        hits = np.nonzero(y[order] > 0)[0]
        if len(hits):
            rank = hits[0] + 1
            r1 += rank <= 1
            r3 += rank <= 3
            rr += 1 / rank if rank <= 10 else 0.0
    n = len(groups)
    return {"recall@1": r1 / n, "recall@3": r3 / n, "mrr@10": rr / n, "n": n}


MAX_CONFIDENT_WRONG = 0.04  # below the 5 % target, on the training folds
MIN_DECLINED = 0.85


def collect_confidence(index, questions):
    """Signals of each question's chosen passage, whether it is right, answerable."""
    import faq_bot.chat.confidence as conf
    from faq_bot.chat import QuestionError, answer

    conf._MODEL["m"] = None  # the signals, not a fitted model's verdict
    rows = []
    for q in questions:
        try:
            result = answer(index, q["q"])
        except QuestionError:
            continue
        if not result.signals:
            rows.append((None, 0.0, answerable(q)))
            continue
        right = answerable(q) and is_hit(result.passage.text, q["gold"])
        rows.append(([result.signals[k] for k in conf.SIGNALS], float(right), answerable(q)))
    conf._MODEL.clear()
    return rows


def confidence_figures(p, y, ans):
    def at(t):
        sure = p >= t
        n = max(ans.sum(), 1)
        return (
            (sure & (y > 0)).sum() / n,
            (sure & ans & (y == 0)).sum() / n,
            (~sure & ~ans).sum() / max((~ans).sum(), 1),
        )

    return at


def choose_threshold(p, y, ans):
    at = confidence_figures(p, y, ans)
    for t in np.linspace(0.05, 0.95, 91):
        _hit, wrong, declined = at(t)
        if wrong <= MAX_CONFIDENT_WRONG and declined >= MIN_DECLINED:
            return float(t)
    return 0.95


def train_confidence(index, questions, folds_n, write):
    from faq_bot.chat.confidence import SIGNALS

    rows = collect_confidence(index, questions)
    x = np.array([r[0] if r[0] is not None else [0.0] * len(SIGNALS) for r in rows])
    y = np.array([r[1] for r in rows])
    ans = np.array([r[2] for r in rows])
    has = np.array([r[0] is not None for r in rows])
    folds = np.random.default_rng(1).permutation(len(rows)) % folds_n
    oof = np.zeros(len(rows))
    prob = np.zeros(len(rows))
    thresholds = []
    for k in range(folds_n):
        tr = (folds != k) & has
        w, b = fit([(x[tr], y[tr])])
        p_tr = 1 / (1 + np.exp(-(x[folds != k] @ w + b)))
        p_tr[~has[folds != k]] = 0.0
        t = choose_threshold(p_tr, y[folds != k], ans[folds != k])
        thresholds.append(t)
        te = folds == k
        prob[te] = np.where(has[te], 1 / (1 + np.exp(-(x[te] @ w + b))), 0.0)
        oof[te] = prob[te] >= t
    hit, wrong, declined = confidence_figures(oof, y, ans)(0.5)
    print(
        f"Konfidenz (CV): Passage@1={hit:.3f}  sicher-falsch={wrong:.3f}  "
        f"abgelehnt (unbeantwortbar)={declined:.3f}  Schwellen={[round(t, 2) for t in thresholds]}"
    )
    curve = confidence_figures(prob, y, ans)
    for t in (0.3, 0.4, 0.5, 0.6, 0.7):
        h, wr, d = curve(t)
        print(f"  Schwelle {t:.1f}: Passage@1={h:.3f} sicher-falsch={wr:.3f} abgelehnt={d:.3f}")
    if write:
        w, b = fit([(x[has], y[has])])
        p_all = np.where(has, 1 / (1 + np.exp(-(x @ w + b))), 0.0)
        t = choose_threshold(p_all, y, ans)
        data = {
            "model": "logistic regression over faq_bot.chat.confidence.SIGNALS",
            "threshold": round(float(np.median(thresholds)), 3),
            "threshold_all": round(t, 3),
            "cross_validated": {
                "passage@1": round(float(hit), 4),
                "confident_wrong": round(float(wrong), 4),
                "declined": round(float(declined), 4),
            },
            "weights": {
                "bias": round(b, 6),
                **{f: round(float(v), 6) for f, v in zip(SIGNALS, w, strict=True)},
            },
        }
        out = OUT.parent / "confidence.json"
        out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"geschrieben: {out}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--index", default="index")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--confidence", action="store_true", help="fit the chatbot's confidence")
    args = ap.parse_args()
    index = open_index(args.index)
    questions = [q for f in args.files for q in load_questions(f)]
    if args.confidence:
        train_confidence(index, questions, args.folds, args.write)
        return
    groups = collect(index, questions)
    rrf = FEATURES.index("rrf")
    rng = np.random.default_rng(0)
    folds = rng.permutation(len(groups)) % args.folds
    cv_scores = []
    for k in range(args.folds):
        train = [g for g, f in zip(groups, folds, strict=True) if f != k]
        test = [g for g, f in zip(groups, folds, strict=True) if f == k]
        w, b = fit(train)
        cv_scores.append((figures(test, lambda x, w=w, b=b: x @ w + b), len(test)))
    n = sum(m for _f, m in cv_scores)
    cv = {key: sum(f[key] * m for f, m in cv_scores) / n for key in ("recall@1", "recall@3")}
    cv["mrr@10"] = sum(f["mrr@10"] * m for f, m in cv_scores) / n
    base = figures(groups, lambda x: x[:, rrf])
    print(f"Fragen: {len(groups)} beantwortbare, {args.folds}-fach kreuzvalidiert")
    print("RRF (k=60)        " + "  ".join(f"{k}={base[k]:.3f}" for k in cv))
    print("gelernt (CV)      " + "  ".join(f"{k}={cv[k]:.3f}" for k in cv))
    if args.write:
        w, b = fit(groups)
        data = {
            "model": "logistic regression over faq_bot.hybrid.FEATURES (raw values)",
            "trained_on": [Path(f).name for f in args.files],
            "cross_validated": {k: round(v, 4) for k, v in cv.items()},
            "rrf_baseline": {k: round(base[k], 4) for k in cv},
            "weights": {
                "bias": round(b, 6),
                **{f: round(float(v), 6) for f, v in zip(FEATURES, w, strict=True)},
            },
        }
        OUT.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"geschrieben: {OUT}")


if __name__ == "__main__":
    main()
