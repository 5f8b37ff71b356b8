"""Check eval/dev4-questions.jsonl and eval/dev4-followups.jsonl (development set 4).

Checks format, ids, kinds, counts and the gold rules against the seed documents, and
compares with every earlier question set, including held-out 6 once it exists in
/work/wt/heldout6. For other sets it prints only ids of this set and counts, never
another set's question or gold passage. A gold passage overlaps another one when both
cover some of the same text of the same seed document.

Usage: python3 eval/dev4/check.py [SEED_DIR]   (default /work/shared/seeds)
Exit status 1 when a format, gold or duplicate rule fails.
"""

import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
EVAL = HERE.parent
SEEDS = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/work/shared/seeds")
SHARED_EVAL = SEEDS.parent / "eval"
HELDOUT6 = Path("/work/wt/heldout6/eval")

KINDS = {
    "paraphrase",
    "colloquial",
    "jargon",
    "keyword",
    "abbreviation",
    "typo",
    "deep_paragraph",
    "unanswerable",
}
N_ANSWERABLE, N_UNANSWERABLE, N_FOLLOWUPS = 120, 40, 24
EXPECTED_DOCS = {"000": 62, "001": 14, "002": 20, "003": 10, "004": 14}
FORBIDDEN = re.compile(r"[\"'„“”‚‘’`´″*#<>]")
EARLIER = [
    EVAL / "heldout-questions.jsonl",
    EVAL / "heldout2-questions.jsonl",
    EVAL / "heldout3-questions.jsonl",
    EVAL / "heldout3-followups.jsonl",
    EVAL / "heldout4-questions.jsonl",
    EVAL / "heldout4-followups.jsonl",
    EVAL / "heldout5-questions.jsonl",
    EVAL / "heldout5-followups.jsonl",
    EVAL / "dev3-followups.jsonl",
    SHARED_EVAL / "dev-questions.jsonl",
    SHARED_EVAL / "dev2-questions.jsonl",
    SHARED_EVAL / "dev2-followups.jsonl",
]
# Held-out 6 is being written in parallel; it is a blind set, so it is only compared.
PARALLEL = [
    HELDOUT6 / "heldout6-questions.jsonl",
    HELDOUT6 / "heldout6-followups.jsonl",
]

errors: list[str] = []


def err(msg: str) -> None:
    errors.append(msg)


def norm(s: str) -> str:
    return re.sub(r"\s+", " ", s.replace("\u00a0", " ")).strip()


def count(hay: str, needle: str) -> int:
    n, start = 0, 0
    while True:
        i = hay.find(needle, start)
        if i < 0:
            return n
        n += 1
        start = i + 1


def load(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


docs: dict[str, str] = {}
doc_lines: dict[str, list[str]] = {}
for p in sorted(SEEDS.glob("*.txt")):
    text = p.read_text(encoding="utf-8")
    docs[p.name] = norm(text)
    doc_lines[p.name] = [norm(line) for line in text.splitlines()]


def gold_line(doc: str, g: str) -> int | None:
    hits = [i for i, line in enumerate(doc_lines[doc]) if g.lower() in line.lower()]
    return hits[0] if len(hits) == 1 else None


def check_gold(item_id: str, doc: str | None, gold: list) -> None:
    if doc not in docs:
        err(f"{item_id}: unknown doc {doc!r}")
        return
    if not isinstance(gold, list) or not 1 <= len(gold) <= 3:
        err(f"{item_id}: answerable item needs 1-3 gold passages")
        return
    lines = set()
    for g in gold:
        if not isinstance(g, str):
            err(f"{item_id}: gold is not a string")
            continue
        if g != norm(g):
            err(f"{item_id}: gold has untrimmed or repeated whitespace: {g!r}")
        if not 20 <= len(g) <= 160:
            err(f"{item_id}: gold length {len(g)} outside 20-160: {g!r}")
        if FORBIDDEN.search(g):
            err(f"{item_id}: gold has quotes, markdown or HTML: {g!r}")
        n_cs = count(docs[doc], norm(g))
        n_ci = count(docs[doc].lower(), norm(g).lower())
        if n_cs != 1 or n_ci != 1:
            err(f"{item_id}: gold occurs {n_cs}x (case-insensitive {n_ci}x), not once: {g!r}")
        line = gold_line(doc, norm(g))
        if line is None:
            err(f"{item_id}: gold is not inside exactly one line of {doc}: {g!r}")
        lines.add(line)
    if len(lines) > 1:
        err(f"{item_id}: gold passages come from different lines {sorted(lines)}")


def tokens(s: str) -> set[str]:
    return set(re.findall(r"\w+", s.lower()))


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def spans(doc: str, g: str) -> list[tuple[int, int]]:
    """Where g occurs in the whitespace-collapsed, lower-cased document."""
    hay, needle = docs[doc].lower(), norm(g).lower()
    out, start = [], hay.find(needle)
    while start >= 0:
        out.append((start, start + len(needle)))
        start = hay.find(needle, start + 1)
    return out


def overlaps(doc: str, a: str, b: str) -> bool:
    """True when gold passages a and b (of the same doc) cover some of the same text."""
    return any(s1 < e2 and s2 < e1 for s1, e1 in spans(doc, a) for s2, e2 in spans(doc, b))


def load_other(paths: list[Path]) -> tuple[list[set[str]], list[tuple[str, str]], int]:
    """Token sets of the questions and histories, and the gold passages, of other sets."""
    qs, golds, n_files = [], [], 0
    for p in paths:
        if not p.exists():
            print(f"note: {p} not found, skipped")
            continue
        n_files += 1
        for r in load(p):
            qs.append(tokens(r["q"]))
            for h in r.get("history", []):
                qs.append(tokens(h))
            for g in r.get("gold", []):
                golds.append((r["doc"], g))
    return qs, golds, n_files


def compare(label: str, paths: list[Path], mine, answerable, fus, strict_passage: bool) -> None:
    """Compare this set with other sets; print only ids of this set and counts."""
    other_q, other_gold, n_files = load_other(paths)
    print(
        f"{label}: {n_files} file(s), {len(other_q)} questions, "
        f"{len(other_gold)} gold passages loaded"
    )
    if not n_files:
        return
    dup = [iid for iid, q in mine if any(jaccard(tokens(q), e) >= 0.5 for e in other_q)]
    dup += [
        r["id"] + "(history)"
        for r in fus
        if any(jaccard(tokens(h), e) >= 0.5 for h in r["history"] for e in other_q)
    ]
    if dup:
        err(f"{label}: q equal or near-duplicate (Jaccard >= 0.5) to one there: {dup}")
    else:
        print(f"{label}: no q or history equals or near-duplicates (Jaccard >= 0.5) one there")
    passage_overlap, line_overlap = [], []
    other_lines = {(d, gold_line(d, norm(g))) for d, g in other_gold if d in docs}
    for r in answerable + fus:
        if any(d == r["doc"] and overlaps(d, g, e) for g in r["gold"] for d, e in other_gold):
            passage_overlap.append(r["id"])
        if any((r["doc"], gold_line(r["doc"], norm(g))) in other_lines for g in r["gold"]):
            line_overlap.append(r["id"])
    msg = (
        f"{label}: gold passage overlaps a gold passage there "
        f"({len(passage_overlap)}): {passage_overlap}"
    )
    if strict_passage and passage_overlap:
        err(msg)
    else:
        print(msg)
    print(
        f"{label}: gold line (paragraph) also used by a gold there ({len(line_overlap)} of "
        f"{len(answerable) + len(fus)}; FAQ entries are one line each)"
    )


def main() -> int:
    qs = load(EVAL / "dev4-questions.jsonl")
    fus = load(EVAL / "dev4-followups.jsonl")

    # ---- questions: format ----
    ids = [r.get("id") for r in qs]
    n_total = N_ANSWERABLE + N_UNANSWERABLE
    if ids != [f"d4-{i:03d}" for i in range(1, n_total + 1)]:
        err(f"question ids are not d4-001..d4-{n_total:03d} in order")
    if len(set(ids)) != len(ids):
        err("duplicate question ids")
    for r in qs:
        if set(r) != {"id", "q", "doc", "gold", "kind"}:
            err(f"{r.get('id')}: fields {sorted(r)}")
        if r.get("kind") not in KINDS:
            err(f"{r['id']}: unknown kind {r.get('kind')!r}")
        if not isinstance(r.get("q"), str) or not r["q"].strip() or r["q"] != r["q"].strip():
            err(f"{r['id']}: empty or untrimmed q")
        if r.get("kind") == "unanswerable":
            if r.get("doc") is not None or r.get("gold") != []:
                err(f"{r['id']}: unanswerable needs doc null and gold []")
        else:
            check_gold(r["id"], r.get("doc"), r.get("gold"))
    answerable = [r for r in qs if r["kind"] != "unanswerable"]
    unanswerable = [r for r in qs if r["kind"] == "unanswerable"]
    if len(answerable) != N_ANSWERABLE or len(unanswerable) != N_UNANSWERABLE:
        err(
            f"answerable/unanswerable = {len(answerable)}/{len(unanswerable)}, "
            f"want {N_ANSWERABLE}/{N_UNANSWERABLE}"
        )
    by_doc = Counter(r["doc"][:3] for r in answerable if r.get("doc"))
    if dict(by_doc) != EXPECTED_DOCS:
        err(f"questions per doc {dict(by_doc)}, want {EXPECTED_DOCS}")

    # ---- follow-ups: format ----
    fids = [r.get("id") for r in fus]
    if fids != [f"d4f{i:02d}" for i in range(1, N_FOLLOWUPS + 1)]:
        err(f"follow-up ids are not d4f01..d4f{N_FOLLOWUPS:02d} in order")
    for r in fus:
        if set(r) != {"id", "history", "q", "doc", "gold", "kind"}:
            err(f"{r.get('id')}: fields {sorted(r)}")
        if r.get("kind") != "followup":
            err(f"{r['id']}: kind must be followup")
        h = r.get("history")
        if not (isinstance(h, list) and len(h) == 1 and isinstance(h[0], str) and h[0].strip()):
            err(f"{r['id']}: history must be a list with one earlier question")
        check_gold(r["id"], r.get("doc"), r.get("gold"))

    # ---- table doc x kind ----
    kinds = [
        "paraphrase",
        "colloquial",
        "jargon",
        "keyword",
        "abbreviation",
        "typo",
        "deep_paragraph",
    ]
    print("doc  " + " ".join(f"{k[:6]:>6}" for k in kinds) + "  total")
    for d in sorted(EXPECTED_DOCS):
        c = Counter(r["kind"] for r in answerable if r["doc"].startswith(d))
        print(f"{d}  " + " ".join(f"{c[k]:>6}" for k in kinds) + f"  {sum(c.values()):>5}")
    c = Counter(r["kind"] for r in answerable)
    print("all  " + " ".join(f"{c[k]:>6}" for k in kinds) + f"  {sum(c.values()):>5}")
    print(
        f"unanswerable {len(unanswerable)}; follow-ups {len(fus)} "
        f"per doc {dict(sorted(Counter(r['doc'][:3] for r in fus).items()))}"
    )

    # FAQ entries covered (entry = nearest preceding heading: a short line after a blank
    # line, not a list item or a "Beispiel:"-style sub-heading)
    faq = "000_6dfd36dc833f0c3c.txt"
    raw = (SEEDS / faq).read_text(encoding="utf-8").splitlines()
    heads = []
    for i, line in enumerate(raw):
        s = line.strip()
        nxt = raw[i + 1].strip() if i + 1 < len(raw) else ""
        prev = raw[i - 1].strip() if i > 0 else ""
        nxt2 = raw[i + 2].strip() if i + 2 < len(raw) else ""
        if (
            s
            and len(s) < 60
            and not prev
            and not s.startswith("-")
            and not s.endswith(":")
            and (nxt or nxt2.startswith("-"))
        ):
            heads.append((i, s))
    entries = set()
    for r in answerable:
        if r["doc"] == faq:
            line = gold_line(faq, r["gold"][0])
            if line is not None:
                entries.add(max((h for h in heads if h[0] <= line), default=(0, "?"))[1])
    print(
        f"000: {sum(r['doc'] == faq for r in answerable)} questions "
        f"over {len(entries)} different FAQ entries"
    )

    # ---- within this set: near-duplicate questions ----
    mine = [(r["id"], r["q"]) for r in qs] + [(r["id"], r["q"]) for r in fus]
    mine_h = mine + [(r["id"] + "(history)", r["history"][0]) for r in fus]
    for i in range(len(mine_h)):
        for j in range(i + 1, len(mine_h)):
            if jaccard(tokens(mine_h[i][1]), tokens(mine_h[j][1])) >= 0.5:
                err(f"{mine_h[i][0]} and {mine_h[j][0]} are near-duplicates")
    golds_mine = [(r["id"], r["doc"], g) for r in answerable + fus for g in r["gold"]]
    shared = 0
    for i in range(len(golds_mine)):
        for j in range(i + 1, len(golds_mine)):
            a, b = golds_mine[i], golds_mine[j]
            if a[1] == b[1] and a[1] in docs and overlaps(a[1], a[2], b[2]):
                shared += 1
                print(f"note: {a[0]} and {b[0]} share a gold passage")
    print(f"within this set: {shared} pair(s) of items share a gold passage")

    # ---- against earlier sets and the parallel held-out 6 (ids of this set only) ----
    compare("earlier sets", EARLIER, mine, answerable, fus, strict_passage=False)
    compare("held-out 6", PARALLEL, mine, answerable, fus, strict_passage=True)

    if errors:
        print(f"\nFAILED: {len(errors)} problem(s)")
        for e in errors:
            print("  " + e)
        return 1
    print("\nOK: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
