"""Worker memory under words it has never seen: prints figures, asserts nothing.

    .venv/bin/python benchmarks/word_caches.py [--words N] [--threads T] [--index DIR]

Every word a query brings is analysed once and kept in bounded per-process caches
(HanTa's morphology, the stemmer's per-thread cache, folding, players' words, IDF per
term). A visitor typing made-up words fills them up to their bounds, so a worker's
memory grows until the bounds are reached and then stays. This opens the index like a
server (`create_app`, warm-up), then sends ``GET /api/search`` requests of 30 made-up
words each from `T` threads (a gunicorn worker serves 4), and prints the worker's RSS
after each step and the size of the four ``functools`` caches among them against their
bounds. The figure that matters is the growth once they are full: it should stay flat.

Measured 2026-11-29 on the shared 2-core machine (4 threads, hybrid index): 122 MiB after
warm-up; the first made-up word loads HanTa's tagger (+32 MiB, once per worker); about 270
MiB after 10,000 made-up words, 282 MiB after 40,000, then flat (the caches full). Smaller
bounds on the word caches (16,384 instead of 65,536 analyses, the same per stemmer) left
the plateau where it was (282 MiB), as did ``MALLOC_ARENA_MAX=2`` (261 MiB): most of the
growth is the allocator's high-water mark from analysing words, not the caches' contents
(tracemalloc traces about 2 KB per new word). So the bounds were kept.

Again in the tenth round, with RSS split into its anonymous part and the pages of mapped
files (60,000 made-up words, 4 threads; the same machine, the embedder being tuned beside):
- glibc's defaults and each thread's stemmer caching 50,000 stems: 290 MiB (anonymous 211,
  mapped files 78);
- the allocator as a worker now sets it (`faq_bot.gunicorn_worker.tame_allocator`: 2
  arenas, the mmap threshold kept at 128 KiB): 271 MiB (193, 77);
- and each thread's stemmer caching 4,096 stems (`faq_bot.jargon.STEMMER_CACHE`; one
  stemmer with 50,000 made-up stems holds 16 MiB): **262 MiB (184, 78)**.
The mapped files are the embedding model's pages (its vocabulary table, touched row by row
as new subwords come: the embedder alone went from 33 to 65 MiB of them over 400 made-up
questions, its heap flat) and the index's: shared with the other workers through the page
cache and reclaimable by the kernel, unlike the anonymous part.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

LETTERS = "abcdefghiklmnoprstuäöü"
PER_QUERY = 30


def memory_mib() -> dict[str, float]:
    """VmRSS and its two parts: RssAnon (anonymous memory, mostly the heap: caches, the
    tagger, the allocator's high-water mark; also thread stacks) and RssFile (pages of
    mapped files: the embedding model, the index; shared with the other workers and
    reclaimable by the kernel)."""
    out = {}
    with open(f"/proc/{os.getpid()}/status", encoding="ascii") as f:
        for line in f:
            key = line.split(":")[0]
            if key in ("VmRSS", "RssAnon", "RssFile"):
                out[key] = int(line.split()[1]) / 1024
    return out


def memory_line() -> str:
    m = memory_mib()
    return (
        f"RSS {m.get('VmRSS', 0):.0f} MiB (anonymous {m.get('RssAnon', 0):.0f}, "
        f"mapped files {m.get('RssFile', 0):.0f})"
    )


def made_up(rng: random.Random) -> str:
    return "".join(rng.choice(LETTERS) for _ in range(rng.randint(8, 14)))


def caches() -> dict[str, tuple[int, int]]:
    """(entries now, bound) of the process-wide word caches."""
    from faq_bot import jargon, morphology, text

    out = {}
    for name, fn in (
        ("morphology", morphology._morphology),
        ("word_class", morphology._word_class),
        ("fold", text._fold_word),
        ("word_stems", jargon._word_stems),
    ):
        info = fn.cache_info()
        out[name] = (info.currsize, info.maxsize or 0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=120_000, help="made-up words in all")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--index", default=str(ROOT / "index"))
    parser.add_argument(
        "--glibc-defaults",
        action="store_true",
        help="leave the allocator as glibc sets it (a worker tames it: tame_allocator)",
    )
    args = parser.parse_args()

    from faq_bot.gunicorn_worker import tame_allocator

    if not args.glibc_defaults:
        print("allocator as a worker sets it:", ", ".join(tame_allocator()) or "unchanged")

    from faq_bot.web import create_app

    app = create_app({"INDEX_DIR": args.index})
    client = app.test_client()
    client.get("/api/search?q=Depot")  # warm-up, as a server's first request
    steps = 6
    per_step = args.words // steps // PER_QUERY // args.threads
    print(f"after opening the index and one search: {memory_line()}")
    for step in range(1, steps + 1):

        def send(seed: int) -> None:
            rng = random.Random(seed)
            own = app.test_client()
            for _ in range(per_step):
                q = " ".join(made_up(rng) for _ in range(PER_QUERY))
                own.get("/api/search", query_string={"q": q[:500]})

        threads = [
            threading.Thread(target=send, args=(step * 1000 + t,)) for t in range(args.threads)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seen = step * per_step * PER_QUERY * args.threads
        sizes = ", ".join(f"{k} {n}/{bound}" for k, (n, bound) in caches().items())
        print(f"{seen:>7} made-up words: {memory_line()} ({sizes})", flush=True)


if __name__ == "__main__":
    main()
