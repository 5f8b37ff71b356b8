"""The checks every question set's writer runs (one checker, a `SetSpec` per set).

A set's ``check.py`` names its files, id prefixes, counts and the sets it is compared
with, and calls `main`; its ``uncovered.py`` calls `uncovered`. Checked: format, ids,
kinds, counts, the gold rules against the seed documents (each gold 20-160 characters,
exactly once in its document case-sensitively and case-insensitively after collapsing
whitespace, inside one line, no quotes, markdown or HTML; all golds of an item from one
line), near-duplicate questions (token Jaccard >= 0.5) within the set and against other
sets, and gold passages that cover text another set's gold covers. For other sets it
prints only ids of this set and counts, never another set's question or gold passage.

Usage: python3 eval/<set>/check.py [SEED_DIR]   (default /work/shared/seeds)
       python3 eval/<set>/uncovered.py [DOC_PREFIX] [MIN_CHARS]
       python3 eval/<set>/novelty.py [SEED_DIR] [-v]   (`novelty`: the writer's rewording aid)
Exit status of check: 1 when a format, gold or duplicate rule fails.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

EVAL = Path(__file__).resolve().parent
SHARED_EVAL_NAMES = ("dev-questions.jsonl", "dev2-questions.jsonl", "dev2-followups.jsonl")
KINDS = (
    "paraphrase",
    "colloquial",
    "jargon",
    "keyword",
    "abbreviation",
    "typo",
    "deep_paragraph",
)
FORBIDDEN = re.compile(r"[\"'„“”‚‘’`´″*#<>]")  # noqa: RUF001 - the quote marks themselves
FAQ = "000_6dfd36dc833f0c3c.txt"
DOCS = {  # the seed documents by the prefix the writer scripts name them with
    name[:3]: name
    for name in (
        FAQ,
        "001_8c9f9c635a966703.txt",
        "002_cabdb8510c6358ab.txt",
        "003_392c06b39f773588.txt",
        "004_a831eb2562db1898.txt",
    )
}


# The question sets in the order they were written; sets of one group were written
# side by side (blind to each other). A set is compared with every earlier group.
GROUPS = [
    [
        "heldout-questions.jsonl",
        "heldout2-questions.jsonl",
        "heldout3-questions.jsonl",
        "heldout3-followups.jsonl",
        "heldout4-questions.jsonl",
        "heldout4-followups.jsonl",
        "dev-questions.jsonl",
        "dev2-questions.jsonl",
        "dev2-followups.jsonl",
    ],
    ["heldout5-questions.jsonl", "heldout5-followups.jsonl"],
    ["dev3-followups.jsonl"],
    [
        "heldout6-questions.jsonl",
        "heldout6-followups.jsonl",
        "dev4-questions.jsonl",
        "dev4-followups.jsonl",
    ],
    ["heldout7-questions.jsonl", "heldout7-followups.jsonl"],
    ["heldout8-questions.jsonl", "heldout8-followups.jsonl"],
    ["heldout9-questions.jsonl", "heldout9-followups.jsonl"],
    ["heldout10-questions.jsonl", "heldout10-followups.jsonl"],
    ["heldout11-questions.jsonl", "heldout11-followups.jsonl"],
    [
        "dev5-questions.jsonl",
        "dev5-followups.jsonl",
        "dev6-questions.jsonl",
        "dev6-followups.jsonl",
        "dev7-questions.jsonl",
        "dev7-followups.jsonl",
        "dev8-questions.jsonl",
        "dev8-followups.jsonl",
    ],
    ["heldout12-questions.jsonl", "heldout12-followups.jsonl"],
    ["heldout13-questions.jsonl", "heldout13-followups.jsonl"],
    ["heldout14-questions.jsonl", "heldout14-followups.jsonl"],
    ["heldout15-questions.jsonl", "heldout15-followups.jsonl"],
    # dev9 and dev10 were written side by side, each blind to the other
    [
        "dev9-questions.jsonl",
        "dev9-followups.jsonl",
        "dev10-questions.jsonl",
        "dev10-followups.jsonl",
    ],
    ["heldout16-questions.jsonl", "heldout16-followups.jsonl"],
    ["dev11-questions.jsonl", "dev11-followups.jsonl"],
    ["dev12-questions.jsonl", "dev12-followups.jsonl"],
    ["heldout17-questions.jsonl", "heldout17-followups.jsonl"],
    ["heldout18-questions.jsonl", "heldout18-followups.jsonl"],
    ["heldout19-questions.jsonl", "heldout19-followups.jsonl"],
    ["heldout20-questions.jsonl", "heldout20-followups.jsonl"],
    ["heldout21-questions.jsonl", "heldout21-followups.jsonl"],
    ["heldout22-questions.jsonl", "heldout22-followups.jsonl"],
    ["heldout23-questions.jsonl", "heldout23-followups.jsonl"],
    ["heldout24-questions.jsonl", "heldout24-followups.jsonl"],
    ["heldout25-questions.jsonl", "heldout25-followups.jsonl"],
    ["heldout26-questions.jsonl", "heldout26-followups.jsonl"],
    ["heldout27-questions.jsonl", "heldout27-followups.jsonl"],
    ["heldout28-questions.jsonl", "heldout28-followups.jsonl"],
    ["heldout29-questions.jsonl", "heldout29-followups.jsonl"],
    ["heldout30-questions.jsonl", "heldout30-followups.jsonl"],
    ["heldout31-questions.jsonl", "heldout31-followups.jsonl"],
    ["heldout32-questions.jsonl", "heldout32-followups.jsonl"],
    ["heldout33-questions.jsonl", "heldout33-followups.jsonl"],
    ["heldout34-questions.jsonl", "heldout34-followups.jsonl"],
    ["heldout35-questions.jsonl", "heldout35-followups.jsonl"],
    ["heldout36-questions.jsonl", "heldout36-followups.jsonl"],
    ["heldout37-questions.jsonl", "heldout37-followups.jsonl"],
    ["heldout38-questions.jsonl", "heldout38-followups.jsonl"],
    ["heldout39-questions.jsonl", "heldout39-followups.jsonl"],
    ["heldout40-questions.jsonl", "heldout40-followups.jsonl"],
    ["heldout41-questions.jsonl", "heldout41-followups.jsonl"],
    ["heldout42-questions.jsonl", "heldout42-followups.jsonl"],
    ["heldout43-questions.jsonl", "heldout43-followups.jsonl"],
    ["heldout44-questions.jsonl", "heldout44-followups.jsonl"],
    ["heldout45-questions.jsonl", "heldout45-followups.jsonl"],
    ["heldout46-questions.jsonl", "heldout46-followups.jsonl"],
    ["heldout47-questions.jsonl", "heldout47-followups.jsonl"],
    ["heldout48-questions.jsonl", "heldout48-followups.jsonl"],
    ["heldout49-questions.jsonl", "heldout49-followups.jsonl"],
    ["heldout50-questions.jsonl", "heldout50-followups.jsonl"],
    ["heldout51-questions.jsonl", "heldout51-followups.jsonl"],
    ["heldout52-questions.jsonl", "heldout52-followups.jsonl"],
    ["heldout53-questions.jsonl", "heldout53-followups.jsonl"],
    ["heldout54-questions.jsonl", "heldout54-followups.jsonl"],
    ["heldout55-questions.jsonl", "heldout55-followups.jsonl"],
    ["heldout56-questions.jsonl", "heldout56-followups.jsonl"],
    ["heldout57-questions.jsonl", "heldout57-followups.jsonl"],
    ["heldout58-questions.jsonl", "heldout58-followups.jsonl"],
    ["heldout59-questions.jsonl", "heldout59-followups.jsonl"],
    ["heldout60-questions.jsonl", "heldout60-followups.jsonl"],
    ["heldout61-questions.jsonl", "heldout61-followups.jsonl"],
    ["heldout62-questions.jsonl", "heldout62-followups.jsonl"],
    ["heldout63-questions.jsonl", "heldout63-followups.jsonl"],
    ["heldout64-questions.jsonl", "heldout64-followups.jsonl"],
    ["heldout65-questions.jsonl", "heldout65-followups.jsonl"],
    ["heldout66-questions.jsonl", "heldout66-followups.jsonl"],
    ["heldout67-questions.jsonl", "heldout67-followups.jsonl"],
    ["heldout68-questions.jsonl", "heldout68-followups.jsonl"],
    ["heldout69-questions.jsonl", "heldout69-followups.jsonl"],
    ["heldout70-questions.jsonl", "heldout70-followups.jsonl"],
    ["heldout71-questions.jsonl", "heldout71-followups.jsonl"],
    ["heldout72-questions.jsonl", "heldout72-followups.jsonl"],
    ["heldout73-questions.jsonl", "heldout73-followups.jsonl"],
    ["heldout74-questions.jsonl", "heldout74-followups.jsonl"],
    ["heldout75-questions.jsonl", "heldout75-followups.jsonl"],
    ["heldout76-questions.jsonl", "heldout76-followups.jsonl"],
    ["heldout77-questions.jsonl", "heldout77-followups.jsonl"],
    ["heldout78-questions.jsonl", "heldout78-followups.jsonl"],
    ["heldout79-questions.jsonl", "heldout79-followups.jsonl"],
    ["heldout80-questions.jsonl", "heldout80-followups.jsonl"],
    ["heldout81-questions.jsonl", "heldout81-followups.jsonl"],
    ["heldout82-questions.jsonl", "heldout82-followups.jsonl"],
    ["heldout83-questions.jsonl", "heldout83-followups.jsonl"],
    ["heldout84-questions.jsonl", "heldout84-followups.jsonl"],
    ["heldout85-questions.jsonl", "heldout85-followups.jsonl"],
    ["heldout86-questions.jsonl", "heldout86-followups.jsonl"],
    ["heldout87-questions.jsonl", "heldout87-followups.jsonl"],
    ["heldout88-questions.jsonl", "heldout88-followups.jsonl"],
    ["heldout89-questions.jsonl", "heldout89-followups.jsonl"],
    ["heldout90-questions.jsonl", "heldout90-followups.jsonl"],
    ["heldout91-questions.jsonl", "heldout91-followups.jsonl"],
    ["heldout92-questions.jsonl", "heldout92-followups.jsonl"],
    ["heldout93-questions.jsonl", "heldout93-followups.jsonl"],
    ["heldout94-questions.jsonl", "heldout94-followups.jsonl"],
    ["heldout95-questions.jsonl", "heldout95-followups.jsonl"],
    ["heldout96-questions.jsonl", "heldout96-followups.jsonl"],
    ["heldout97-questions.jsonl", "heldout97-followups.jsonl"],
    ["heldout98-questions.jsonl", "heldout98-followups.jsonl"],
    ["heldout99-questions.jsonl", "heldout99-followups.jsonl"],
    ["heldout100-questions.jsonl", "heldout100-followups.jsonl"],
    ["heldout101-questions.jsonl", "heldout101-followups.jsonl"],
    ["heldout102-questions.jsonl", "heldout102-followups.jsonl"],
    ["heldout103-questions.jsonl", "heldout103-followups.jsonl"],
    ["heldout104-questions.jsonl", "heldout104-followups.jsonl"],
    ["heldout105-questions.jsonl", "heldout105-followups.jsonl"],
    ["heldout106-questions.jsonl", "heldout106-followups.jsonl"],
    ["heldout107-questions.jsonl", "heldout107-followups.jsonl"],
    ["heldout108-questions.jsonl", "heldout108-followups.jsonl"],
    ["heldout109-questions.jsonl", "heldout109-followups.jsonl"],
    ["heldout110-questions.jsonl", "heldout110-followups.jsonl"],
    ["heldout111-questions.jsonl", "heldout111-followups.jsonl"],
    ["heldout112-questions.jsonl", "heldout112-followups.jsonl"],
    ["heldout113-questions.jsonl", "heldout113-followups.jsonl"],
    ["heldout114-questions.jsonl", "heldout114-followups.jsonl"],
    ["heldout115-questions.jsonl", "heldout115-followups.jsonl"],
    ["heldout116-questions.jsonl", "heldout116-followups.jsonl"],
    ["heldout117-questions.jsonl", "heldout117-followups.jsonl"],
    ["heldout118-questions.jsonl", "heldout118-followups.jsonl"],
    ["heldout119-questions.jsonl", "heldout119-followups.jsonl"],
    ["heldout120-questions.jsonl", "heldout120-followups.jsonl"],
    ["heldout121-questions.jsonl", "heldout121-followups.jsonl"],
    ["heldout122-questions.jsonl", "heldout122-followups.jsonl"],
    ["heldout123-questions.jsonl", "heldout123-followups.jsonl"],
    ["heldout124-questions.jsonl", "heldout124-followups.jsonl"],
    ["heldout125-questions.jsonl", "heldout125-followups.jsonl"],
    ["heldout126-questions.jsonl", "heldout126-followups.jsonl"],
    ["heldout127-questions.jsonl", "heldout127-followups.jsonl"],
    ["heldout128-questions.jsonl", "heldout128-followups.jsonl"],
    ["heldout129-questions.jsonl", "heldout129-followups.jsonl"],
    ["heldout130-questions.jsonl", "heldout130-followups.jsonl"],
    ["heldout131-questions.jsonl", "heldout131-followups.jsonl"],
    ["heldout132-questions.jsonl", "heldout132-followups.jsonl"],
    ["heldout133-questions.jsonl", "heldout133-followups.jsonl"],
    ["heldout134-questions.jsonl", "heldout134-followups.jsonl"],
    ["heldout135-questions.jsonl", "heldout135-followups.jsonl"],
    ["heldout136-questions.jsonl", "heldout136-followups.jsonl"],
    ["heldout138-questions.jsonl", "heldout138-followups.jsonl"],
    ["heldout137-questions.jsonl", "heldout137-followups.jsonl"],
    ["heldout139-questions.jsonl", "heldout139-followups.jsonl"],
    ["heldout140-questions.jsonl", "heldout140-followups.jsonl"],
    ["heldout142-questions.jsonl", "heldout142-followups.jsonl"],
    ["heldout141-questions.jsonl", "heldout141-followups.jsonl"],
    ["heldout143-questions.jsonl", "heldout143-followups.jsonl"],
    ["heldout144-questions.jsonl", "heldout144-followups.jsonl"],
    ["heldout145-questions.jsonl", "heldout145-followups.jsonl"],
    ["heldout146-questions.jsonl", "heldout146-followups.jsonl"],
    ["heldout147-questions.jsonl", "heldout147-followups.jsonl"],
    ["heldout148-questions.jsonl", "heldout148-followups.jsonl"],
    ["heldout149-questions.jsonl", "heldout149-followups.jsonl"],
    ["heldout150-questions.jsonl", "heldout150-followups.jsonl"],
    ["heldout151-questions.jsonl", "heldout151-followups.jsonl"],
    ["heldout152-questions.jsonl", "heldout152-followups.jsonl"],
    ["heldout153-questions.jsonl", "heldout153-followups.jsonl"],
    ["heldout154-questions.jsonl", "heldout154-followups.jsonl"],
    ["heldout156-questions.jsonl", "heldout156-followups.jsonl"],
    ["heldout155-questions.jsonl", "heldout155-followups.jsonl"],
    ["heldout157-questions.jsonl", "heldout157-followups.jsonl"],
    ["heldout158-questions.jsonl", "heldout158-followups.jsonl"],
    ["heldout159-questions.jsonl", "heldout159-followups.jsonl"],
    ["heldout160-questions.jsonl", "heldout160-followups.jsonl"],
    ["heldout162-questions.jsonl", "heldout162-followups.jsonl"],
    ["heldout161-questions.jsonl", "heldout161-followups.jsonl"],
    ["heldout163-questions.jsonl", "heldout163-followups.jsonl"],
    ["heldout164-questions.jsonl", "heldout164-followups.jsonl"],
    ["heldout165-questions.jsonl", "heldout165-followups.jsonl"],
    ["heldout166-questions.jsonl", "heldout166-followups.jsonl"],
    ["heldout167-questions.jsonl", "heldout167-followups.jsonl"],
    ["heldout168-questions.jsonl", "heldout168-followups.jsonl"],
    ["heldout169-questions.jsonl", "heldout169-followups.jsonl"],
    ["heldout170-questions.jsonl", "heldout170-followups.jsonl"],
    ["heldout171-questions.jsonl", "heldout171-followups.jsonl"],
    ["heldout172-questions.jsonl", "heldout172-followups.jsonl"],
    ["heldout173-questions.jsonl", "heldout173-followups.jsonl"],
    ["heldout174-questions.jsonl", "heldout174-followups.jsonl"],
    ["heldout175-questions.jsonl", "heldout175-followups.jsonl"],
    ["heldout176-questions.jsonl", "heldout176-followups.jsonl"],
    ["heldout177-questions.jsonl", "heldout177-followups.jsonl"],
    ["heldout178-questions.jsonl", "heldout178-followups.jsonl"],
    ["heldout179-questions.jsonl", "heldout179-followups.jsonl"],
    ["heldout180-questions.jsonl", "heldout180-followups.jsonl"],
    ["heldout181-questions.jsonl", "heldout181-followups.jsonl"],
    ["heldout182-questions.jsonl", "heldout182-followups.jsonl"],
    ["heldout183-questions.jsonl", "heldout183-followups.jsonl"],
    ["heldout184-questions.jsonl", "heldout184-followups.jsonl"],
    ["heldout185-questions.jsonl", "heldout185-followups.jsonl"],
    ["heldout186-questions.jsonl", "heldout186-followups.jsonl"],
    ["heldout187-questions.jsonl", "heldout187-followups.jsonl"],
    ["heldout188-questions.jsonl", "heldout188-followups.jsonl"],
    ["heldout189-questions.jsonl", "heldout189-followups.jsonl"],
    ["heldout190-questions.jsonl", "heldout190-followups.jsonl"],
    ["heldout191-questions.jsonl", "heldout191-followups.jsonl"],
    ["heldout192-questions.jsonl", "heldout192-followups.jsonl"],
    ["heldout193-questions.jsonl", "heldout193-followups.jsonl"],
    ["heldout194-questions.jsonl", "heldout194-followups.jsonl"],
    ["heldout195-questions.jsonl", "heldout195-followups.jsonl"],
    ["heldout196-questions.jsonl", "heldout196-followups.jsonl"],
    ["heldout197-questions.jsonl", "heldout197-followups.jsonl"],
    ["heldout198-questions.jsonl", "heldout198-followups.jsonl"],
]


# sets written side by side with an earlier group of GROUPS, blind to it (its writer could
# not see it): not compared with it. Listed where a comparison found something: set 192's
# h192-041 is a near-duplicate (0.64) of a question of set 191, written at the same time;
# set 188's history of h188f12 one (0.56) of set 187's h187f06's, likewise; set 194's
# h194-018, h194-054 and h194-102 (0.59, 0.51, 1.00) of set 193's h193-090, h193-058, h193-092;
# set 198's h198-100 (0.50) of set 197's h197-069
SIDE_BY_SIDE = {
    "heldout188": ["heldout187"],
    "heldout192": ["heldout191"],
    "heldout194": ["heldout193"],
    "heldout198": ["heldout197"],
}


def earlier_than(name: str) -> list[str]:
    """The files of every group written before set `name`'s."""
    group = next(i for i, g in enumerate(GROUPS) if f"{name}-questions.jsonl" in g)
    beside = tuple(f"{other}-" for other in SIDE_BY_SIDE.get(name, []))
    return [f for g in GROUPS[:group] for f in g if not f.startswith(beside)]


@dataclass
class SetSpec:
    name: str  # the files are eval/<name>-questions.jsonl and eval/<name>-followups.jsonl
    question_prefix: str  # ids <prefix>001 ...
    followup_prefix: str  # ids <prefix>01 ...
    answerable: int
    unanswerable: int
    followups: int
    docs: dict[str, int]  # answerable questions per document prefix
    earlier: list[str]  # eval/ files compared with (informative: overlaps are noted)
    strict: list[str] = field(default_factory=list)  # eval/ files no gold may overlap


def write_set(
    name: str,
    question_prefix: str,
    followup_prefix: str,
    questions: list[tuple],
    followups: list[tuple],
) -> None:
    """Write eval/<name>-questions.jsonl and eval/<name>-followups.jsonl, numbered in
    the order given (each writer script shuffles with its own seed first): questions
    as (doc prefix or None, kind, q, [gold, ...]), follow-ups as (doc prefix,
    earlier question, q, [gold, ...])."""
    with open(EVAL / f"{name}-questions.jsonl", "w", encoding="utf-8") as f:
        for i, (doc, kind, q, gold) in enumerate(questions, 1):
            row = {"id": f"{question_prefix}{i:03d}", "q": q, "doc": DOCS[doc] if doc else None}
            row |= {"gold": gold, "kind": kind}
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    with open(EVAL / f"{name}-followups.jsonl", "w", encoding="utf-8") as f:
        for i, (doc, history, q, gold) in enumerate(followups, 1):
            row = {"id": f"{followup_prefix}{i:02d}", "history": [history], "q": q}
            row |= {"doc": DOCS[doc], "gold": gold, "kind": "followup"}
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(questions)} questions and {len(followups)} follow-ups")


def norm(s: str) -> str:
    return re.sub(r"\s+", " ", s.replace("\u00a0", " ")).strip()


def load(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def tokens(s: str) -> set[str]:
    return set(re.findall(r"\w+", s.lower()))


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def seeds_dir() -> Path:
    return Path(sys.argv[1]) if len(sys.argv) > 1 else Path("/work/shared/seeds")


def set_paths(names: list[str], seeds: Path) -> list[Path]:
    """eval/ files by name; the shared development sets live beside the seeds."""
    return [(seeds.parent / "eval" if n in SHARED_EVAL_NAMES else EVAL) / n for n in names]


class Checker:
    def __init__(self, spec: SetSpec, seeds: Path):
        self.spec, self.seeds = spec, seeds
        self.errors: list[str] = []
        self.docs: dict[str, str] = {}
        self.lines: dict[str, list[str]] = {}
        for p in sorted(seeds.glob("*.txt")):
            text = p.read_text(encoding="utf-8")
            self.docs[p.name] = norm(text)
            self.lines[p.name] = [norm(line) for line in text.splitlines()]

    def err(self, msg: str) -> None:
        self.errors.append(msg)

    def gold_line(self, doc: str, g: str) -> int | None:
        hits = [i for i, line in enumerate(self.lines[doc]) if g.lower() in line.lower()]
        return hits[0] if len(hits) == 1 else None

    def spans(self, doc: str, g: str) -> list[tuple[int, int]]:
        """Where g occurs in the whitespace-collapsed, lower-cased document."""
        hay, needle = self.docs[doc].lower(), norm(g).lower()
        out, start = [], hay.find(needle)
        while start >= 0:
            out.append((start, start + len(needle)))
            start = hay.find(needle, start + 1)
        return out

    def overlaps(self, doc: str, a: str, b: str) -> bool:
        """True when gold passages a and b (of one doc) cover some of the same text."""
        return any(
            s1 < e2 and s2 < e1 for s1, e1 in self.spans(doc, a) for s2, e2 in self.spans(doc, b)
        )

    def check_gold(self, item_id: str, doc: str | None, gold: object) -> None:
        if doc not in self.docs:
            self.err(f"{item_id}: unknown doc {doc!r}")
            return
        if not isinstance(gold, list) or not 1 <= len(gold) <= 3:
            self.err(f"{item_id}: answerable item needs 1-3 gold passages")
            return
        lines = set()
        for g in gold:
            if not isinstance(g, str):
                self.err(f"{item_id}: gold is not a string")
                continue
            if g != norm(g):
                self.err(f"{item_id}: gold has untrimmed or repeated whitespace: {g!r}")
            if not 20 <= len(g) <= 160:
                self.err(f"{item_id}: gold length {len(g)} outside 20-160: {g!r}")
            if FORBIDDEN.search(g):
                self.err(f"{item_id}: gold has quotes, markdown or HTML: {g!r}")
            n_cs = self.docs[doc].count(norm(g))
            n_ci = len(self.spans(doc, g))
            if n_cs != 1 or n_ci != 1:
                self.err(f"{item_id}: gold occurs {n_cs}x (case-insensitive {n_ci}x): {g!r}")
            line = self.gold_line(doc, norm(g))
            if line is None:
                self.err(f"{item_id}: gold is not inside exactly one line of {doc}: {g!r}")
            lines.add(line)
        if len(lines) > 1:
            self.err(f"{item_id}: gold passages come from different lines {sorted(lines)}")

    def check_format(self, qs: list[dict], fus: list[dict]) -> None:
        s = self.spec
        n = s.answerable + s.unanswerable
        ids = [r.get("id") for r in qs]
        if ids != [f"{s.question_prefix}{i:03d}" for i in range(1, n + 1)]:
            self.err(f"question ids are not {s.question_prefix}001..{n:03d} in order")
        for r in qs:
            if set(r) != {"id", "q", "doc", "gold", "kind"}:
                self.err(f"{r.get('id')}: fields {sorted(r)}")
            if r.get("kind") not in (*KINDS, "unanswerable"):
                self.err(f"{r['id']}: unknown kind {r.get('kind')!r}")
            if not isinstance(r.get("q"), str) or not r["q"].strip() or r["q"] != r["q"].strip():
                self.err(f"{r['id']}: empty or untrimmed q")
            if r.get("kind") == "unanswerable":
                if r.get("doc") is not None or r.get("gold") != []:
                    self.err(f"{r['id']}: unanswerable needs doc null and gold []")
            else:
                self.check_gold(r["id"], r.get("doc"), r.get("gold"))
        answerable = [r for r in qs if r.get("kind") != "unanswerable"]
        if (len(answerable), len(qs) - len(answerable)) != (s.answerable, s.unanswerable):
            self.err(
                f"answerable/unanswerable = {len(answerable)}/{len(qs) - len(answerable)}, "
                f"want {s.answerable}/{s.unanswerable}"
            )
        by_doc = Counter(r["doc"][:3] for r in answerable if r.get("doc"))
        if dict(by_doc) != s.docs:
            self.err(f"questions per doc {dict(by_doc)}, want {s.docs}")
        fids = [r.get("id") for r in fus]
        if fids != [f"{s.followup_prefix}{i:02d}" for i in range(1, s.followups + 1)]:
            self.err(f"follow-up ids are not {s.followup_prefix}01..{s.followups:02d} in order")
        for r in fus:
            if set(r) != {"id", "history", "q", "doc", "gold", "kind"}:
                self.err(f"{r.get('id')}: fields {sorted(r)}")
            if r.get("kind") != "followup":
                self.err(f"{r['id']}: kind must be followup")
            h = r.get("history")
            if not (isinstance(h, list) and len(h) == 1 and isinstance(h[0], str) and h[0].strip()):
                self.err(f"{r['id']}: history must be a list with one earlier question")
            self.check_gold(r["id"], r.get("doc"), r.get("gold"))

    def print_table(self, answerable: list[dict], unanswerable: int, fus: list[dict]) -> None:
        print("doc  " + " ".join(f"{k[:6]:>6}" for k in KINDS) + "  total")
        for d in sorted(self.spec.docs):
            c = Counter(r["kind"] for r in answerable if r["doc"].startswith(d))
            print(f"{d}  " + " ".join(f"{c[k]:>6}" for k in KINDS) + f"  {sum(c.values()):>5}")
        c = Counter(r["kind"] for r in answerable)
        print("all  " + " ".join(f"{c[k]:>6}" for k in KINDS) + f"  {sum(c.values()):>5}")
        per_doc = dict(sorted(Counter(r["doc"][:3] for r in fus).items()))
        print(f"unanswerable {unanswerable}; follow-ups {len(fus)} per doc {per_doc}")
        print(
            f"000: {sum(r['doc'] == FAQ for r in answerable)} questions "
            f"over {self.faq_entries(answerable)} different FAQ entries"
        )

    def faq_entries(self, answerable: list[dict]) -> int:
        """FAQ entries asked about (entry = nearest preceding heading: a short line after a
        blank line, not a list item or a "Beispiel:"-style sub-heading)."""
        raw = (self.seeds / FAQ).read_text(encoding="utf-8").splitlines()
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
            if r["doc"] == FAQ and (line := self.gold_line(FAQ, r["gold"][0])) is not None:
                entries.add(max((h for h in heads if h[0] <= line), default=(0, "?"))[1])
        return len(entries)

    def within(self, qs: list[dict], fus: list[dict], answerable: list[dict]) -> None:
        mine = [(r["id"], r["q"]) for r in qs + fus]
        mine += [(r["id"] + "(history)", r["history"][0]) for r in fus]
        for i in range(len(mine)):
            for j in range(i + 1, len(mine)):
                if jaccard(tokens(mine[i][1]), tokens(mine[j][1])) >= 0.5:
                    self.err(f"{mine[i][0]} and {mine[j][0]} are near-duplicates")
        golds = [(r["id"], r["doc"], g) for r in answerable + fus for g in r["gold"]]
        shared = 0
        for i in range(len(golds)):
            for j in range(i + 1, len(golds)):
                a, b = golds[i], golds[j]
                if a[1] == b[1] and a[1] in self.docs and self.overlaps(a[1], a[2], b[2]):
                    print(f"note: {a[0]} and {b[0]} share a gold passage")
                    shared += 1
        print(f"within this set: {shared} pair(s) of items share a gold passage")

    def compare(self, label: str, paths: list[Path], qs, fus, answerable, strict: bool) -> None:
        """Compare with other sets; print only ids of this set and counts."""
        other_q, other_gold, n_files = [], [], 0
        for p in paths:
            if not p.exists():
                print(f"note: {p} not found, skipped")
                continue
            n_files += 1
            for r in load(p):
                other_q += [tokens(r["q"]), *(tokens(h) for h in r.get("history", []))]
                other_gold += [(r["doc"], g) for g in r.get("gold", [])]
        print(f"{label}: {n_files} file(s), {len(other_q)} questions, {len(other_gold)} golds")
        if not n_files:
            return
        asked = [(r["id"], r["q"]) for r in qs + fus]
        asked += [(r["id"] + "(history)", h) for r in fus for h in r["history"]]
        dup = [i for i, q in asked if any(jaccard(tokens(q), e) >= 0.5 for e in other_q)]
        if dup:
            self.err(f"{label}: q equal or near-duplicate (Jaccard >= 0.5) to one there: {dup}")
        else:
            print(f"{label}: no q or history equals or near-duplicates (Jaccard >= 0.5) one there")
        passage, line = [], []
        other_lines = {(d, self.gold_line(d, norm(g))) for d, g in other_gold if d in self.docs}
        for r in answerable + fus:
            d0 = r["doc"]
            if any(d == d0 and self.overlaps(d, g, e) for g in r["gold"] for d, e in other_gold):
                passage.append(r["id"])
            if any((d0, self.gold_line(d0, norm(g))) in other_lines for g in r["gold"]):
                line.append(r["id"])
        msg = f"{label}: gold passage overlaps a gold passage there ({len(passage)}): {passage}"
        (self.err if strict and passage else print)(msg)
        print(
            f"{label}: gold line (paragraph) also used by a gold there ({len(line)} of "
            f"{len(answerable) + len(fus)}; FAQ entries are one line each)"
        )
        fresh = sorted(r["id"] for r in answerable + fus if r["id"] not in line)
        print(f"{label}: gold line used by no gold there ({len(fresh)}): {fresh}")


def main(spec: SetSpec) -> int:
    seeds = seeds_dir()
    c = Checker(spec, seeds)
    qs = load(EVAL / f"{spec.name}-questions.jsonl")
    fus = load(EVAL / f"{spec.name}-followups.jsonl")
    c.check_format(qs, fus)
    answerable = [r for r in qs if r.get("kind") != "unanswerable"]
    c.print_table(answerable, len(qs) - len(answerable), fus)
    c.within(qs, fus, answerable)
    c.compare("earlier sets", set_paths(spec.earlier, seeds), qs, fus, answerable, False)
    if spec.strict:
        c.compare("must not overlap", set_paths(spec.strict, seeds), qs, fus, answerable, True)
    if c.errors:
        print(f"\nFAILED: {len(c.errors)} problem(s)")
        for e in c.errors:
            print("  " + e)
        return 1
    print("\nOK: all checks passed")
    return 0


def novelty(spec: SetSpec) -> int:
    """Print, for each item of this set only (``-v``: every item, else those at 0.5 or
    more), the highest token-set Jaccard of its q (and history) with any q/history of
    the sets it is compared with (`SetSpec.earlier`) and with any other text of this
    set, as numbers; never another set's text. The writers reword until nothing is
    flagged, so the duplicate check of `main` passes."""
    seeds = Path(next((a for a in sys.argv[1:] if a != "-v"), "/work/shared/seeds"))
    other = []
    for p in set_paths(spec.earlier, seeds):
        if p.exists():
            for r in load(p):
                other += [tokens(r["q"]), *(tokens(h) for h in r.get("history", []))]
    mine = [(r["id"], r["q"]) for r in load(EVAL / f"{spec.name}-questions.jsonl")]
    for r in load(EVAL / f"{spec.name}-followups.jsonl"):
        mine += [(r["id"], r["q"]), (r["id"] + "(history)", r["history"][0])]
    bad = 0
    for i, (k, q) in enumerate(mine):
        t = tokens(q)
        e = max((jaccard(t, o) for o in other), default=0.0)
        w = max((jaccard(t, tokens(x)) for j, (_, x) in enumerate(mine) if j != i), default=0.0)
        flag = " <-- reword" if max(e, w) >= 0.5 else ""
        bad += bool(flag)
        if flag or "-v" in sys.argv:
            print(f"{k}: earlier {e:.2f} within {w:.2f}{flag}")
    print(f"{bad} of {len(mine)} texts reach 0.5")
    return 0


def uncovered(spec: SetSpec) -> None:
    """Print the stretches of seed text (at least MIN_CHARS, default 30, per line) that no
    gold of the earlier sets covers, with their line numbers; never an earlier gold."""
    prefix = sys.argv[1] if len(sys.argv) > 1 else ""
    min_chars = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    seeds = Path("/work/shared/seeds")
    golds: dict[str, list[str]] = {}
    for p in set_paths(spec.earlier + spec.strict, seeds):
        if p.exists():
            for r in load(p):
                for g in r.get("gold", []):
                    golds.setdefault(r["doc"], []).append(norm(g).lower())
    for path in sorted(seeds.glob(f"{prefix}*.txt")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = norm(line)
            low = text.lower()
            covered = [False] * len(text)
            for g in golds.get(path.name, []):
                start = low.find(g)
                while start >= 0:
                    covered[start : start + len(g)] = [True] * len(g)
                    start = low.find(g, start + 1)
            i = 0
            while i < len(text):
                if covered[i]:
                    i += 1
                    continue
                j = i
                while j < len(text) and not covered[j]:
                    j += 1
                if len(span := text[i:j].strip()) >= min_chars:
                    print(f"{path.name[:3]}:{n}: {span}")
                i = j
