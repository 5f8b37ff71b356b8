"""Search benchmark: index build time, query latency, index size, peak memory.

Run with ``.venv/bin/python benchmarks/run.py [--corpus DIR] [--questions FILE]``.
Prints figures only; it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

from faq_bot.config import ROOT
from faq_bot.index import build_index, open_index
from faq_bot.search import QueryError, search, search_paragraphs

DEFAULT_QUESTIONS = ROOT.parent / "shared" / "eval" / "dev-questions.jsonl"
FALLBACK_QUERIES = [
    "wer bezahlt die 227er",
    "Stapel",
    "Schaeden verteilen",
    "kartenziehpahse",
    "Darf ich Karten aus dem Deck abwerfen?",
    "SoW Verteidiger Stadt Bonus",
]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    low, high = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    parser.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    parser.add_argument("--rounds", type=int, default=5, help="query passes over the questions")
    args = parser.parse_args()

    if args.questions.is_file():
        lines = args.questions.read_text(encoding="utf-8").splitlines()
        queries = [json.loads(line)["q"] for line in lines if line.strip()]
    else:
        queries = FALLBACK_QUERIES

    with tempfile.TemporaryDirectory() as tmp:
        index_dir = Path(tmp) / "index"
        started = time.perf_counter()
        report = build_index(args.corpus, index_dir)
        build_seconds = time.perf_counter() - started
        tracemalloc.start()  # a second build, traced (tracing slows it down)
        report = build_index(args.corpus, index_dir)
        _, build_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()

        started = time.perf_counter()
        index = open_index(index_dir)
        open_seconds = time.perf_counter() - started

        for q in queries:  # warm caches once
            try:
                search(index, q)
            except QueryError:
                pass
        entry_ms: list[float] = []
        para_ms: list[float] = []
        for _ in range(args.rounds):
            for q in queries:
                try:
                    t0 = time.perf_counter()
                    search(index, q)
                    t1 = time.perf_counter()
                    search_paragraphs(index, q)
                    t2 = time.perf_counter()
                except QueryError:
                    continue
                entry_ms.append((t1 - t0) * 1000)
                para_ms.append((t2 - t1) * 1000)
        tracemalloc.start()  # one traced pass for the memory figure
        for q in queries:
            try:
                search(index, q)
                search_paragraphs(index, q)
            except QueryError:
                continue
        _, query_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        size = folder_size(report.path)
        index.close()

    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"corpus: {report.documents} documents, {report.entries} entries, "
        f"{report.paragraphs} paragraphs, {report.links} links"
    )
    print(f"index build: {build_seconds:.2f} s (peak traced memory {build_peak / 2**20:.1f} MiB)")
    print(f"index open: {open_seconds * 1000:.0f} ms")
    print(f"index size on disk: {size / 2**20:.2f} MiB")
    for name, values in (("search", entry_ms), ("search_paragraphs", para_ms)):
        print(
            f"{name}: {len(values)} queries, p50 {percentile(values, 50):.1f} ms, "
            f"p90 {percentile(values, 90):.1f} ms, p99 {percentile(values, 99):.1f} ms, "
            f"mean {statistics.fmean(values):.1f} ms"
        )
    print(f"peak traced memory while querying: {query_peak / 2**20:.1f} MiB")
    print(f"peak RSS of the process: {rss_mb:.0f} MiB")


if __name__ == "__main__":
    main()
