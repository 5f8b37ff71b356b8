"""Cost of hybrid retrieval (issue 9): prints figures; asserts only the one-embedding rule.

    .venv/bin/python benchmarks/dense.py [--no-scratch] [--questions N]

In a fresh temporary index folder (no embeddings or HanTa cache):

- build from scratch, each phase's wall and CPU seconds (`faq_bot.buildphases`;
  CPU includes the embedding worker processes), and how many texts were embedded;
- rebuild of unchanged text (vectors and HanTa analyses from the caches);
- a worker process per mode, opening the build like a server (`create_app`, warm-up),
  answering the dev2 questions through the Flask test client: ``POST /api/ask``
  p50/p99, ``GET /api/search`` p50/p99 and the chat page without JavaScript
  (``POST /ask`` with `PAGE_HISTORY` earlier turns), hybrid and lexical
  (``FAQ_BOT_DENSE=0``), the worker's RSS (current and peak) after all requests,
  and how many query embeddings each ``/api/ask``, ``/api/search``,
  ``/api/suggest`` and ``POST /ask`` request computed. The issue's rule, at most
  one query embedding per request (none for suggestions), is asserted: the run
  fails when a request computes two;
- in the hybrid worker, one query embedding of each question alone (CPU p50, tokens,
  milliseconds per token): the host's speed, which the ask's and the build's times follow.

The load average is printed with the figures: on the shared 2-core machine the
times vary 2-3x with it; CPU seconds (for requests: the serving thread's CPU time)
vary much less and show what an idle machine would give.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

from benchmarks.run import SHARED_EVAL, rss_mib, rss_split_mib  # noqa: E402

PAGE_HISTORY = 5  # earlier turns of the no-JS chat page requests
PATHS = {
    "ask": "/api/ask",
    "search": "/api/search",
    "suggest": "/api/suggest",
    "page": "POST /ask + GET",
}


def load() -> str:
    return "load average " + " / ".join(f"{x:.1f}" for x in os.getloadavg())


def pct(values: list[float], p: float) -> float:
    """The p-quantile (nearest rank) in milliseconds."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000


def questions(limit: int) -> list[str]:
    path = SHARED_EVAL / "dev2-questions.jsonl"
    if not path.is_file():
        sys.exit(f"benchmark: {path} is missing (set FAQ_BOT_SHARED_EVAL)")
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
    return [json.loads(ln)["q"] for ln in lines][:limit]


# --- the worker: one process, like a gunicorn worker ----------------------------------


def worker(index_dir: str, limit: int) -> None:
    from faq_bot.embed import get_embedder
    from faq_bot.gunicorn_worker import tame_allocator
    from faq_bot.web import create_app

    tame_allocator()  # as a gunicorn worker does before it loads the app
    app = create_app({"TESTING": True, "INDEX_DIR": index_dir})
    client = app.test_client()
    embedder = get_embedder()
    mode = client.get("/healthz").get_json().get("search", "?")

    def computed() -> int:
        return embedder.query_embeddings if embedder is not None else 0

    def forget() -> None:  # every question is new to the embedder again
        if embedder is not None:
            embedder._recent.clear()

    for q in ("Wer bezahlt die 227er?", "Darf ich reagieren?"):  # warm-up, not timed
        client.post("/api/ask", json={"question": q})
        client.get("/api/search", query_string={"q": q})
    qs = questions(limit)
    out: dict = {"mode": mode, "questions": len(qs)}
    # a no-JS chat conversation of PAGE_HISTORY earlier turns (as /api/ask gives them)
    history = [
        client.post("/api/ask", json={"question": q}).get_json()["turn"] for q in qs[:PAGE_HISTORY]
    ]
    runs = {
        "ask": lambda q: client.post("/api/ask", json={"question": q}),
        "search": lambda q: client.get("/api/search", query_string={"q": q, "mode": mode}),
        "suggest": lambda q: client.get("/api/suggest", query_string={"q": q[:4]}),
        # the form post and the page it redirects to (what a browser without JavaScript loads)
        "page": lambda q: client.post("/ask", data={"q": q, "t": history}, follow_redirects=True),
    }
    for name, run in runs.items():
        forget()
        times, cpu, embeddings = [], [], []
        for q in qs:
            before = computed()
            t, c = time.perf_counter(), time.thread_time()
            response = run(q)
            times.append(time.perf_counter() - t)
            cpu.append(time.thread_time() - c)
            embeddings.append(computed() - before)
            if response.status_code != 200:
                sys.exit(f"benchmark: {name} {q!r} -> HTTP {response.status_code}")
        out[name] = {
            "p50": pct(times, 0.5),
            "p99": pct(times, 0.99),
            "mean": statistics.mean(times) * 1000,
            "cpu_p50": pct(cpu, 0.5),
            "embeddings_max": max(embeddings),
            "embeddings_mean": statistics.mean(embeddings),
        }
    if embedder is not None and mode == "hybrid":
        out["embed"] = embedding_cost(embedder, qs)
    out["rss"], out["peak"] = rss_mib()
    out["private"], out["file"] = rss_split_mib()
    print(json.dumps(out))


def embedding_cost(embedder, qs: list[str]) -> dict:
    """One query embedding of each question, alone: its CPU time and tokens. The host's
    speed shows here (the ask and the build follow it), apart from what the code adds."""
    from faq_bot.hybrid import embedding_text

    cpu, tokens = [], []
    for q in qs:
        text = embedding_text(q)
        c = time.thread_time()
        embedder.computed_query(text)
        cpu.append(time.thread_time() - c)
        tokens.append(embedder.token_count(text))
    # a costly query: 500 characters that read 2,005 tokens uncut (U+331A reads 2,506);
    # each run another beginning, though computed_query keeps no vector
    worst = []
    for i in range(5):
        c = time.thread_time()
        embedder.computed_query(str(i) + "\ufdfa" * 499)
        worst.append(time.thread_time() - c)
    return {
        "cpu_p50": pct(cpu, 0.5),
        "tokens": statistics.mean(tokens),
        "worst_cpu_p50": pct(worst, 0.5),
        "worst_tokens": embedder.token_count(embedder.query_text("\ufdfa" * 500)),
    }


def run_worker(index_dir: Path, limit: int, dense: bool) -> dict:
    env = {**os.environ, "FAQ_BOT_DENSE": "1" if dense else "0"}
    command = [sys.executable, __file__, "--worker", str(index_dir), "--questions", str(limit)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"benchmark worker failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- the builds -------------------------------------------------------------------------


def build(index_dir: Path) -> tuple[float, dict]:
    from faq_bot.indexbuild import build_index

    t = time.perf_counter()
    report = build_index(ROOT / "corpus", index_dir)
    seconds = time.perf_counter() - t
    meta = json.loads((report.path / "meta.json").read_text(encoding="utf-8"))
    return seconds, meta


def print_build(title: str, seconds: float, meta: dict) -> None:
    phases = meta.get("phases", {})
    cpu = sum(p["cpu"] for p in phases.values())
    print(f"{title}: {seconds:.1f} s wall, {cpu:.1f} s CPU ({load()})")
    for name, p in phases.items():
        print(f"  {name:<11} {p['seconds']:7.2f} s  CPU {p['cpu']:7.2f} s")
    dense, morph = meta.get("dense", {}), meta.get("morphology", {})
    print(
        f"  units embedded in the build: {dense.get('units', 0)}; HanTa ran on "
        f"{morph.get('analysed', '?')} of {morph.get('words', '?')} words"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-scratch", action="store_true", help="skip the build from scratch")
    ap.add_argument("--questions", type=int, default=300, help="dev2 questions per pass")
    ap.add_argument("--worker", metavar="INDEX", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, args.questions)
        return
    print(f"hybrid retrieval cost ({os.cpu_count()} cores, {load()})")
    with tempfile.TemporaryDirectory() as tmp:
        index_dir = Path(tmp) / "index"
        index_dir.mkdir()
        if args.no_scratch:  # the caches of the checkout's index: a rebuild embeds nothing
            for cache in ("embeddings-cache", "morphology-cache"):
                if (ROOT / "index" / cache).is_dir():
                    subprocess.run(
                        ["cp", "-r", str(ROOT / "index" / cache), str(index_dir / cache)],
                        check=False,
                    )
        seconds, meta = build(index_dir)
        if not args.no_scratch:
            print_build("build from scratch (no caches)", seconds, meta)
        seconds, meta = build(index_dir)
        print_build("rebuild, unchanged text (caches)", seconds, meta)
        for dense in (True, False):
            w = run_worker(index_dir, args.questions, dense)
            print(
                f"worker, {w['mode']} ({w['questions']} dev2 questions each, {load()}): "
                f"RSS {w['rss']:.0f} MiB (peak {w['peak']:.0f} MiB; {w['private']:.0f} MiB "
                f"private, {w['file']:.0f} MiB mapped files shared through the page cache)"
            )
            for name, path in PATHS.items():
                r = w[name]
                print(
                    f"  {path:<13} p50 {r['p50']:6.1f} ms  p99 {r['p99']:6.1f} ms  "
                    f"mean {r['mean']:6.1f} ms (CPU p50 {r['cpu_p50']:5.1f} ms); "
                    "query embeddings per request: "
                    f"mean {r['embeddings_mean']:.2f}, max {r['embeddings_max']}"
                )
            if "embed" in w:
                e = w["embed"]
                ms = e["cpu_p50"] / e["tokens"] if e["tokens"] else None
                per_token = f" ({ms:.2f} ms per token)" if ms else ""
                print(
                    f"  one query embedding alone: CPU p50 {e['cpu_p50']:5.1f} ms, "
                    f"{e['tokens']:.1f} tokens on average{per_token}; the host's speed, "
                    "which the ask's and the build's times follow"
                )
                print(
                    f"  a costly query (500 x U+FDFA, read as {e['worst_tokens']} tokens): "
                    f"CPU p50 {e['worst_cpu_p50']:5.1f} ms, "
                    f"{e['worst_cpu_p50'] / e['cpu_p50']:.1f}x a dev2 question's"
                )
            most = {"ask": 1, "search": 1, "suggest": 0, "page": 1}
            over = [n for n, m in most.items() if w[n]["embeddings_max"] > m]
            if over:
                sys.exit(f"benchmark: more query embeddings per request than allowed: {over}")


if __name__ == "__main__":
    main()
