"""What one chat request of made-up words costs a worker, beside a real question's.

    .venv/bin/python benchmarks/hostile_ask.py [--index DIR] [--repeat N]

A visitor can send a question and three earlier questions as text (`POST /api/ask`, each
up to 500 characters), or ten earlier turns on the no-JS page: each is read again, with
HanTa's morphology (bounded per request, `faq_bot.morphology.MORPH_REQUEST_COST`) and the
embedder (each reading cut at `faq_bot.embed.MAX_QUERY_TOKENS`). This opens the index like
a server (`create_app`, warm-up), then times in one run, side by side, a real question with
two earlier ones (the blind sets' questions, other ones each time), posts of made-up words
of 40 and of 5 letters, and the page with ten made-up earlier turns; each made-up post with
fresh words every time (nothing cached), and prints milliseconds, the ratio to the real post
and HanTa's share. No target is asserted: the bound is a design figure (docs/web.md,
"Safety"), this shows where it stands.

Measured 2026-12-06 on the shared 2-core machine (hybrid index, one thread): the
40-letter post 4.7 s with a budget counted in letters, 3.1 s counted by cost (HanTa
0.95 s of it). This script the same day (best of 3): a real question with two earlier
ones 313 ms; 4 x 40-letter words 3.2 s (10x, HanTa 26 %); 4 x 5-letter words 3.0 s (9.5x,
13 %); the page with ten turns of 40-letter words 1.8 s (5.8x, 46 %). Most of an API post
of made-up words is now the embedder's four readings, each cut at 160 tokens (about 0.46 s
apiece for made-up text, where a real question has at most about 100 tokens).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from werkzeug.datastructures import MultiDict  # noqa: E402

from faq_bot import morphology  # noqa: E402
from faq_bot.web import create_app  # noqa: E402

LETTERS = "bcdfghklmnprstzaeiouäöü"
ROOT = Path(__file__).resolve().parent.parent


def real_questions() -> list[str]:
    """The blind sets' questions (eval/heldout*-questions.jsonl)."""
    return [
        json.loads(line)["q"]
        for path in sorted((ROOT / "eval").glob("heldout*-questions.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]


def made_up(rng: random.Random, length: int) -> str:
    """500 characters of made-up words of `length` letters."""
    words = " ".join("".join(rng.choices(LETTERS, k=length)) for _ in range(500))
    return words[:500].rsplit(" ", 1)[0]


def hanta_seconds() -> Callable[[], float]:
    """Wraps HanTa's analysis to add up its time; returns a reader of the running total."""
    total = [0.0]
    real = morphology.hanta_analysis

    def timed(word: str):
        start = time.perf_counter()
        try:
            return real(word)
        finally:
            total[0] += time.perf_counter() - start

    morphology.hanta_analysis = timed  # type: ignore[assignment]
    return lambda: total[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", help="index directory (default: the configured one)")
    parser.add_argument("--repeat", type=int, default=3, help="posts of each kind (default 3)")
    args = parser.parse_args()
    config = {"TESTING": True} | ({"INDEX_DIR": args.index} if args.index else {})
    client = create_app(config).test_client()
    rng = random.Random(58)
    questions = real_questions()
    rng.shuffle(questions)

    def real() -> Any:
        turn = [questions.pop() for _ in range(3)]
        return client.post("/api/ask", json={"question": turn[0], "history": turn[1:]})

    real()  # HanTa and the embedder loaded
    hanta = hanta_seconds()

    def api(length: int) -> Callable[[], Any]:
        def post():
            texts = [made_up(rng, length) for _ in range(4)]
            return client.post("/api/ask", json={"question": texts[0], "history": texts[1:]})

        return post

    def page() -> Any:
        turns = [("t", f"-~{made_up(rng, 40)}") for _ in range(10)]
        return client.post("/ask", data=MultiDict([("q", made_up(rng, 40)), *turns]))

    kinds: list[tuple[str, Callable[[], Any], int]] = [  # name, post, its status
        ("real question, two earlier", real, 200),
        ("/api/ask, 4 x 40-letter words", api(40), 200),
        ("/api/ask, 4 x 5-letter words", api(5), 200),
        ("/ask page, 10 turns of 40 letters", page, 303),  # answered, then redirected
    ]
    print(f"budget {morphology.MORPH_REQUEST_COST:,} (cost of a word: length² + 12)")
    base = None
    for name, post, status in kinds:
        times, hantas = [], []
        for _ in range(args.repeat):
            before, start = hanta(), time.perf_counter()
            response = post()
            if response.status_code != status:  # a refusal is no answer's time
                raise SystemExit(f"{name}: HTTP {response.status_code}, expected {status}")
            times.append(time.perf_counter() - start)
            hantas.append(hanta() - before)
        best = min(times)
        base = base or best
        share = hantas[times.index(best)] / best
        print(f"{name:36} {best * 1000:7.0f} ms  {best / base:5.1f}x  HanTa {share:4.0%}")


if __name__ == "__main__":
    main()
