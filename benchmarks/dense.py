"""Cost of hybrid retrieval: prints figures, asserts nothing.

    .venv/bin/python benchmarks/dense.py [--scratch]

- query embedding alone (one per request), search p50/p90 lexical vs hybrid,
  ask p50/p90 (the chatbot, hybrid) over the development questions;
- rebuild of unchanged text (every vector from the cache beside the builds);
- with ``--scratch``: a build from scratch into a fresh folder (no cache);
- peak RSS of this process, which holds what a worker holds (index + model).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from faq_bot.chat import answer  # noqa: E402
from faq_bot.dense import dense_for  # noqa: E402
from faq_bot.index import build_index, open_index  # noqa: E402
from faq_bot.search import search  # noqa: E402


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] * 1000


def questions() -> list[str]:
    for base in (ROOT.parent.parent / "shared" / "eval", Path("/work/shared/eval")):
        path = base / "dev2-questions.jsonl"
        if path.is_file():
            return [json.loads(line)["q"] for line in path.read_text("utf-8").splitlines()][:120]
    return ["Wer bezahlt die 227er?", "Darf ich auf eine Reaktion nochmal reagieren?"] * 20


def timed(fn, items) -> list[float]:
    out = []
    for item in items:
        t = time.perf_counter()
        fn(item)
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scratch", action="store_true", help="also time a build from scratch")
    args = ap.parse_args()
    index_dir = ROOT / "index"
    t = time.perf_counter()
    report = build_index(ROOT / "corpus", index_dir)
    print(f"rebuild, unchanged text (vectors from the cache): {time.perf_counter() - t:.1f} s")
    index = open_index(index_dir)
    retriever = dense_for(index)
    if retriever is None:
        print("no embedder: search is lexical; nothing dense to measure")
        return
    qs = questions()
    retriever.embedder.query("Aufwärmen")
    fresh = [f"{q} ({i})" for i, q in enumerate(qs[:40])]
    emb = timed(retriever.embedder.query, fresh)
    print(f"query embedding: p50 {pct(emb, 0.5):.0f} ms, p90 {pct(emb, 0.9):.0f} ms")
    lex = timed(lambda q: search(index, q, mode="lexical"), qs)
    print(f"search lexical: p50 {pct(lex, 0.5):.0f} ms, p90 {pct(lex, 0.9):.0f} ms")
    hyb = timed(lambda q: search(index, q + " ?", mode="hybrid"), qs)
    print(f"search hybrid:  p50 {pct(hyb, 0.5):.0f} ms, p90 {pct(hyb, 0.9):.0f} ms")
    before = retriever.embedder.query_embeddings
    ask = timed(lambda q: (answer(index, q + " !"), search(index, q + " !", mode="hybrid")), qs)
    per_request = (retriever.embedder.query_embeddings - before) / len(qs)
    print(
        f"ask (answer + search of one request): p50 {pct(ask, 0.5):.0f} ms, "
        f"p90 {pct(ask, 0.9):.0f} ms, mean {statistics.mean(ask) * 1000:.0f} ms; "
        f"{per_request:.2f} query embeddings per request"
    )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS (index + model + answering): {rss:.0f} MiB")
    if args.scratch:
        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            build_index(ROOT / "corpus", Path(tmp) / "idx")
            print(f"build from scratch (no cache): {time.perf_counter() - t:.1f} s")
    del report


if __name__ == "__main__":
    main()
