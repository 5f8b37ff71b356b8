"""Scoring search (and later the chatbot) on a question file.

The file format and the scoring rules are those of ``../shared/eval/README.md``:
one JSON object per line with ``id``, ``q``, ``doc``, ``gold`` (verbatim
passages) and ``kind``. A result is a *hit* when its plain text contains one
of the gold passages, compared case-insensitively after collapsing every run
of whitespace (no-break spaces and newlines included) to one space.

Structure, so more figures can be added without touching the others:

- `load_questions(path)` reads and validates the file (`EvalFileError`);
  `training_questions(paths)` does it for fitting and refuses the held-out sets,
- `rank_of_first_hit(texts, gold)` is the hit rule,
- `search_runs(index, questions)` runs search and records the rank per question,
- `recall_at(runs, k)`, `mrr(runs, k)` are the figures, `breakdown(runs, key)`
  groups any figure by a question field,
- `evaluate(index, path)` assembles the report dict (sections ``"search"``
  and ``"answer"`` (the chatbot: Passage@1, confident share, declined
  unanswerable questions, see `answer_section`) plus ``"questions"`` counts);
  another stage adds its section with
  `REPORT_SECTIONS` (a list of ``(name, function(index, questions, tick) -> dict)``;
  `tick()` once per question, for a progress bar),
- `format_report(report)` renders it for the terminal (German labels).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from faq_bot import strictjson
from faq_bot.errors import InputError, os_reason
from faq_bot.index import Index
from faq_bot.query import QueryError
from faq_bot.question import QuestionError, check_question
from faq_bot.search import search
from faq_bot.text import squash

__all__ = [
    "REPORT_SECTIONS",
    "EvalFileError",
    "SearchRun",
    "breakdown",
    "evaluate",
    "format_report",
    "is_hit",
    "load_questions",
    "mrr",
    "normalize",
    "question_set",
    "rank_of_first_hit",
    "recall_at",
    "search_runs",
    "training_questions",
    "where_lost",
]

TOP = 10


class EvalFileError(InputError):
    """The question file cannot be read; the message (German) names the line."""


def normalize(text: str) -> str:
    return squash(text).casefold()


_SET = re.compile(r"([a-z]+\d*?)(?:-|f)?\d+")
# sets whose ids do not say their writer: dev2's follow-ups (f01, ...) go with dev2 (t001, ...)
_SAME_WRITER = {"f": "t"}


def question_set(qid: str) -> str:
    """The question set (one writer's) an id belongs to: ``t001`` and dev2's follow-up
    ``f01`` -> ``t``, ``d4-001`` and the follow-up ``d4f01`` -> ``d4``, ``h12-003`` ->
    ``h12``; an id of another shape is a set of its own."""
    m = _SET.fullmatch(qid)
    found = m.group(1) if m else qid
    return _SAME_WRITER.get(found, found)


def is_hit(text: str, gold: Iterable[str]) -> bool:
    return holds(normalize(text), [normalize(g) for g in gold if g.strip()])


def holds(plain: str, golds: Iterable[str]) -> bool:
    """Whether the `normalize`d text `plain` holds one of the `normalize`d, non-empty
    gold passages `golds` (the rule of `is_hit`)."""
    return any(g in plain for g in golds)


def rank_of_first_hit(texts: Iterable[str], gold: list[str]) -> int | None:
    """1-based rank of the first text containing a gold passage, or None."""
    for rank, text in enumerate(texts, 1):
        if is_hit(text, gold):
            return rank
    return None


# a question file's size limit: the largest holds 42 KB; `faq-bot eval /dev/zero` read
# until the memory ran out
MAX_QUESTION_FILE = 16_000_000


def load_questions(path: Path | str) -> list[dict[str, Any]]:
    path = Path(path)
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_QUESTION_FILE + 1)
    except FileNotFoundError:
        raise EvalFileError(f"Die Fragendatei {path} gibt es nicht.") from None
    except OSError as exc:  # a folder, a symlink loop, a name too long, no permission
        raise EvalFileError(
            f"Die Fragendatei {path} kann nicht gelesen werden ({os_reason(exc)})."
        ) from None
    if len(raw) > MAX_QUESTION_FILE:
        raise EvalFileError(f"Die Fragendatei {path} ist größer als {MAX_QUESTION_FILE} Bytes.")
    try:
        # a byte order mark (a Windows editor's) is read as `check` and `--batch` read it
        lines = raw.decode("utf-8-sig").splitlines()
    except UnicodeDecodeError:
        raise EvalFileError(f"Die Fragendatei {path} ist kein UTF-8.") from None
    questions = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EvalFileError(
                f"{path}, Zeile {number}: kein gültiges JSON "
                f"({strictjson.where_german(exc, line=False)})."
            ) from None
        except RecursionError:
            raise EvalFileError(
                f"{path}, Zeile {number}: das JSON ist zu tief verschachtelt."
            ) from None
        except ValueError:  # an integer of more digits than Python converts
            raise EvalFileError(f"{path}, Zeile {number}: eine Zahl ist zu lang.") from None
        if not isinstance(item, dict) or not isinstance(item.get("q"), str):
            raise EvalFileError(f"{path}, Zeile {number}: ein Objekt mit Feld „q“ erwartet.")
        gold = item.get("gold") or []
        if not isinstance(gold, list) or not all(isinstance(g, str) for g in gold):
            raise EvalFileError(f"{path}, Zeile {number}: „gold“ muss eine Liste von Texten sein.")
        history = item.get("history")  # null: none
        if history is not None and not (
            isinstance(history, list) and all(isinstance(h, str) for h in history)
        ):
            raise EvalFileError(
                f"{path}, Zeile {number}: „history“ muss eine Liste von Texten sein "
                "(die früheren Fragen)."
            )
        problem = _line_problem(item, gold)
        if problem:
            raise EvalFileError(f"{path}, Zeile {number}: {problem}")
        item.setdefault("id", f"#{number}")
        item.setdefault("kind", "unbekannt")
        item.setdefault("doc", None)
        item["gold"] = gold
        questions.append(item)
    if not questions:
        raise EvalFileError(f"Die Fragendatei {path} enthält keine Fragen.")
    return questions


def _line_problem(item: dict[str, Any], gold: list[str]) -> str | None:
    """What in a question line the measurement would misread, in German, or None: a
    question the bot refuses (empty, too long, no word) would count as declined, a gold
    without its document as unanswerable, a number as `kind` as a breakdown of its own."""
    try:
        check_question(item["q"])
        for turn in item.get("history") or ():
            check_question(turn)
    except QuestionError as exc:
        return str(exc)
    for field in ("id", "kind"):  # absent: given one; null would be a breakdown row "None"
        if field in item and not isinstance(item[field], str):
            return f"„{field}“ muss Text sein."
    if item.get("doc") is not None and not isinstance(item["doc"], str):
        return "„doc“ muss Text sein (oder null für eine unbeantwortbare Frage)."
    if gold and not item.get("doc"):
        return "„gold“ ohne „doc“: eine beantwortbare Frage nennt ihre Quelldatei."
    if item.get("doc") and not gold:
        return "„doc“ ohne „gold“: eine beantwortbare Frage nennt die Stelle, die antwortet."
    return None


# Question files only reported on, never trained on (eval/README.md): the fitting
# scripts refuse them by name, by question id and by wording (`training_questions`).
# Sets 1-28 are retired into training (their figures were read over several rounds);
# sets 29-40 into the known questions alone (scripts/extend_known.py: KNOWN_ONLY).
# Adding a set is this one line (the file prefixes and ids follow from it); retiring one
# into the known questions also moves it into KNOWN_ONLY and out of CALIBRATION_SETS (a test
# in tests/test_training_questions.py pins these lists and the Makefile's together).
HELD_OUT_SETS = tuple(range(41, 199))  # 197 and 198 written blind in the sixty-ninth round
HELD_OUT = tuple(f"heldout{n}-" for n in HELD_OUT_SETS)
# their ids: h25-001, h25f01, ... (h<set>-<number>, h<set>f<number>)
HELD_OUT_IDS = re.compile(rf"h({'|'.join(map(str, HELD_OUT_SETS))})(-|f)\d")
HELD_OUT_DIR = Path(__file__).resolve().parent.parent / "eval"


def _wording(question: dict[str, Any]) -> tuple[str, ...]:
    """A question as asked (its earlier questions, then itself; case and spacing
    folded): the same wording under another id is the same question."""
    history = question.get("history") or []
    return tuple(normalize(str(t)) for t in [*history, question.get("q", "")])


def training_questions(
    paths: Iterable[Path | str],
    held_out_dir: Path = HELD_OUT_DIR,
) -> list[dict[str, Any]]:
    """The questions of `paths` for fitting a model: a held-out file, a question of one
    (by id) or the same question under another id (by wording, against the held-out
    files in `held_out_dir`) is an error, in German."""
    paths = list(paths)
    for path in paths:
        if Path(path).name.startswith(HELD_OUT):
            raise EvalFileError(
                f"{Path(path).name} ist ein zurückgehaltener Fragensatz: nur zum Messen, "
                "nie zum Trainieren (eval/README.md)."
            )
    held = [
        load_questions(p)
        for p in sorted(held_out_dir.glob("*.jsonl"))
        if p.name.startswith(HELD_OUT)
    ]
    if not held:
        raise EvalFileError(
            f"Keine zurückgehaltenen Fragensätze in {held_out_dir}: ohne sie lässt sich "
            "nicht prüfen, dass kein Training ihre Fragen sieht."
        )
    # every held-out set, by wording: a copy under new ids is refused too
    asked = {_wording(q): str(q["id"]) for qs in held for q in qs}
    kept: list[dict[str, Any]] = []
    for q in (q for path in paths for q in load_questions(path)):
        if HELD_OUT_IDS.match(str(q["id"])):
            raise EvalFileError(
                f"Frage {q['id']} stammt aus einem zurückgehaltenen Fragensatz: "
                "nur zum Messen, nie zum Trainieren (eval/README.md)."
            )
        if _wording(q) in asked:
            raise EvalFileError(
                f"Frage {q['id']} ist Frage {asked[_wording(q)]} eines zurückgehaltenen "
                "Fragensatzes: nur zum Messen, nie zum Trainieren (eval/README.md)."
            )
        kept.append(q)
    return kept


def answerable(question: dict[str, Any]) -> bool:
    return bool(question.get("doc")) and bool(question.get("gold"))


@dataclass(frozen=True)
class SearchRun:
    question: dict[str, Any]
    rank: int | None  # rank of the first hit in the top 10
    top_ids: tuple[str, ...]


# called once per question a section has read (a progress bar's step)
Tick = Callable[[], None]


def _silent() -> None:
    pass


def search_runs(
    index: Index, questions: list[dict[str, Any]], n: int = TOP, tick: Tick = _silent
) -> list[SearchRun]:
    """Search every answerable question and record where the first hit lands."""
    runs = []
    for q in questions:
        tick()
        if not answerable(q):
            continue
        try:
            hits = search(index, q["q"], n=n, mode=None).hits  # the best mode the build offers
        except QueryError:
            hits = []
        runs.append(
            SearchRun(
                q, rank_of_first_hit((h.text for h in hits), q["gold"]), tuple(h.id for h in hits)
            )
        )
    return runs


def recall_at(runs: list[SearchRun], k: int) -> float:
    if not runs:
        return 0.0
    return sum(1 for r in runs if r.rank is not None and r.rank <= k) / len(runs)


def mrr(runs: list[SearchRun], k: int = TOP) -> float:
    if not runs:
        return 0.0
    return sum(1 / r.rank for r in runs if r.rank is not None and r.rank <= k) / len(runs)


def figures(runs: list[SearchRun]) -> dict[str, float | int]:
    return {
        "n": len(runs),
        "recall@1": recall_at(runs, 1),
        "recall@3": recall_at(runs, 3),
        "mrr@10": mrr(runs, TOP),
    }


def breakdown(
    runs: list[SearchRun],
    key: str,
    figure: Callable[[list[SearchRun]], dict[str, float | int]] = figures,
) -> dict[str, dict[str, float | int]]:
    groups: dict[str, list[SearchRun]] = {}
    for run in runs:
        groups.setdefault(str(run.question.get(key)), []).append(run)
    return {name: figure(group) for name, group in sorted(groups.items())}


def search_section(
    index: Index, questions: list[dict[str, Any]], tick: Tick = _silent
) -> dict[str, Any]:
    runs = search_runs(index, questions, tick=tick)
    return {
        **figures(runs),
        "by_kind": breakdown(runs, "kind"),
        "by_doc": breakdown(runs, "doc"),
        "misses": [
            {
                "id": r.question["id"],
                "q": r.question["q"],
                "rank": r.rank,
                "top": list(r.top_ids[:3]),
            }
            for r in runs
            if r.rank != 1
        ],
    }


def judged(index: Index, question: dict[str, Any]) -> tuple[Any, bool]:
    """The bot's answer to `question` (None for a question it refuses as none) and
    whether its passage holds a gold passage, confident or not. A follow-up is answered
    after its earlier questions, as the page does (`faq_bot.chat.answer.replay`)."""
    from faq_bot.chat import QuestionError, answer
    from faq_bot.chat.answer import replay

    try:
        result = answer(index, question["q"], replay(index, question.get("history") or []))
    except QuestionError:
        return None, False
    text = judged_text(index, result.passage)
    return result, answerable(question) and bool(text) and is_hit(text, question["gold"])


def judged_text(index: Index, passage: Any) -> str:
    """The text an answer's passage is judged by: the form the models read
    (`faq_bot.chat.passage.read_text`), not a whole list shown around an item (else
    showing more would count as answering); "" without a passage."""
    from faq_bot.chat.passage import read_text

    record = index.entry(passage.entry) if passage is not None else None
    if record is None or passage.paragraph >= len(record.plain_paragraphs):
        return passage.text if passage is not None else ""
    return read_text(record, passage)


def gold_spans(text: str, golds: Iterable[str]) -> list[tuple[int, int]]:
    """Where the gold passages stand in `text`, those found as written (offsets)."""
    found = ((text.find(g), g) for g in golds if g)
    return [(start, start + len(g)) for start, g in found if start >= 0]


def key_on_gold(text: str, highlight: tuple[int, int], golds: Iterable[str]) -> bool | None:
    """Whether the highlighted key sentence of an answer passage `text` overlaps a gold
    passage; None when no gold stands in `text` as written (nothing to say)."""
    spans = gold_spans(text, golds)
    if not spans:
        return None
    start, end = highlight
    return any(s < end and start < e for s, e in spans)


def answer_section(
    index: Index, questions: list[dict[str, Any]], tick: Tick = _silent
) -> dict[str, Any]:
    """The chatbot's figures (`faq_bot.chat`).

    ``passage@1``: answerable questions whose answer passage contains a gold
    passage (the hit rule above) while the bot is confident; ``confident``:
    answerable questions answered confidently; ``precision``: the share of
    confident answers whose passage is right (what a judge can rely on);
    ``passage_found``: answerable questions whose best passage is right, confident
    or not (the ranking and passage choice without the decision to answer);
    ``declined``: unanswerable questions the bot declines (not confident);
    ``answered_unanswerable``: the others, with the passage presented for them
    (what to read when declines fall short); ``key_sentence``: of the right confident
    answers whose gold stands in the passage as written (``key_sentence_n``), the share
    whose highlighted key sentence overlaps it (what a judge reads first); ``losses``:
    where each answerable question's best passage stands (`where_lost`: each in exactly
    one of `LOSS_KINDS`), confident and declined apart.
    """
    answered, passage_hits, declined, unanswerable, confident_wrong = 0, 0, 0, 0, 0
    losses = {kind: {"confident": 0, "declined": 0} for kind in LOSS_KINDS}
    found = 0  # the best passage holds the gold, confident or not
    keys = [0, 0]  # right confident answers: key sentence on the gold, gold found as written
    wrong: list[dict[str, Any]] = []
    answered_unanswerable: list[dict[str, Any]] = []
    for q in questions:
        tick()
        result, right = judged(index, q)
        confident = result is not None and result.confident
        if not answerable(q):
            unanswerable += 1
            declined += not confident
            if confident:
                answered_unanswerable.append(_miss(q, result, confident))
            continue
        answered += confident
        found += right
        hit = confident and right
        passage_hits += hit
        if hit and result.passage is not None:
            on = key_on_gold(result.passage.text, result.passage.highlight, q["gold"])
            if on is not None:
                keys[0] += on
                keys[1] += 1
        confident_wrong += confident and not hit
        lost = where_lost(index, q, result, right)
        losses[lost]["confident" if confident else "declined"] += 1
        if not hit:
            wrong.append({**_miss(q, result, confident), "lost": lost})
    n = sum(1 for q in questions if answerable(q))
    return {
        "n": n,
        "passage@1": passage_hits / n if n else 0.0,
        "confident": answered / n if n else 0.0,
        "precision": passage_hits / answered if answered else 0.0,
        "passage_found": found / n if n else 0.0,
        "wrongly_declined": n - answered,
        "confident_wrong": confident_wrong / n if n else 0.0,
        "unanswerable": unanswerable,
        "declined": declined,
        "declined_share": declined / unanswerable if unanswerable else 0.0,
        "key_sentence": keys[0] / keys[1] if keys[1] else 0.0,
        "key_sentence_n": keys[1],
        "losses": losses,
        "misses": wrong,
        "answered_unanswerable": answered_unanswerable,
    }


# where an answerable question's best passage stands (`where_lost`)
LOSS_KINDS = ("right", "paragraph", "entry", "document", "none")
LOSS_LABELS = {
    "right": "richtiger Absatz",
    "paragraph": "richtiger Eintrag, anderer Absatz",
    "entry": "falscher Eintrag im Dokument",
    "document": "Eintrag eines anderen Dokuments",
    "none": "kein Absatz gefunden",
}


def where_lost(index: Index, question: dict[str, Any], result: Any, right: bool) -> str:
    """Where the best passage for an answerable `question` stands (one of `LOSS_KINDS`):
    ``"right"`` (it holds a gold passage), ``"paragraph"`` (another paragraph of its entry
    holds one: the passage choice missed), ``"entry"`` (its entry holds none: the ranking
    missed, within the document the question names), ``"document"`` (likewise, in another
    document), or ``"none"`` (no passage at all)."""
    if right:
        return "right"
    passage = result.passage if result is not None else None
    record = index.entry(passage.entry) if passage is not None else None
    if record is None:
        return "none"
    if any(is_hit(p, question["gold"]) for p in record.plain_paragraphs):
        return "paragraph"
    doc = index.document(record.doc)
    return "document" if doc is not None and doc.get("file") != question.get("doc") else "entry"


def _miss(question: dict[str, Any], result: Any, confident: bool) -> dict[str, Any]:
    """A question the bot got wrong: the passage it chose and how sure it was."""
    where = result.passage if result is not None else None
    return {
        "id": question["id"],
        "q": question["q"],
        "confident": confident,
        "confidence": round(result.confidence, 3) if result is not None else None,
        "passage": f"{where.entry}#p{where.paragraph}" if where else None,
    }


# Further sections append here.
REPORT_SECTIONS: list[tuple[str, Callable[[Index, list[dict[str, Any]], Tick], dict[str, Any]]]] = [
    ("search", search_section),
    ("answer", answer_section),
]


def evaluate(
    index: Index,
    path: Path | str,
    questions: list[dict[str, Any]] | None = None,
    progress: Callable[[str, int], Tick] | None = None,
) -> dict[str, Any]:
    """The report on the question file `path`; `questions`: its questions, already read
    (a pipe or FIFO can be read once only); `progress(section, total)`: the tick of a
    section's progress (the CLI's bar)."""
    questions = load_questions(path) if questions is None else questions
    report: dict[str, Any] = {
        "file": str(path),
        "index": index.version,
        "questions": {
            "total": len(questions),
            "answerable": sum(1 for q in questions if answerable(q)),
            "unanswerable": sum(1 for q in questions if not answerable(q)),
        },
    }
    for name, section in REPORT_SECTIONS:
        tick = progress(name, len(questions)) if progress is not None else _silent
        report[name] = section(index, questions, tick)
    return report


def _figure_line(label: str, f: dict[str, Any]) -> str:
    return (
        f"  {label:<34} n={f['n']:<3} R@1={f['recall@1']:.3f}  "
        f"R@3={f['recall@3']:.3f}  MRR@10={f['mrr@10']:.3f}"
    )


def format_report(report: dict[str, Any], *, misses: bool = False) -> str:
    q = report["questions"]
    lines = [
        f"Fragen: {q['total']} ({q['answerable']} beantwortbar, "
        f"{q['unanswerable']} unbeantwortbar)",
        f"Index: {report['index']}",
    ]
    s = report.get("search")
    if s:
        lines += ["", "Suche (beantwortbare Fragen):", _figure_line("gesamt", s), "", "nach Art:"]
        lines += [_figure_line(k, v) for k, v in s["by_kind"].items()]
        lines += ["", "nach Dokument:"]
        lines += [_figure_line(k, v) for k, v in s["by_doc"].items()]
        if misses and s["misses"]:
            lines += ["", "nicht auf Platz 1:"]
            lines += [
                f"  {m['id']} Rang {m['rank'] or '-'}: {m['q']}  [{', '.join(m['top'])}]"
                for m in s["misses"]
            ]
    a = report.get("answer")
    if a:
        lines += [
            "",
            "Chatbot:",
            f"  Passage@1 (Gold-Absatz, sicher beantwortet)  {a['passage@1']:.3f}  (n={a['n']})",
            f"  sicher beantwortet (beantwortbare Fragen)   {a['confident']:.3f}  "
            f"({a['wrongly_declined']} fälschlich abgelehnt)",
            f"  sicher, aber falscher Absatz (beantwortbare) {a['confident_wrong']:.3f}",
            f"  richtig, wenn sicher (Präzision)            {a['precision']:.3f}",
            f"  bester Absatz richtig, ob sicher oder nicht  {a['passage_found']:.3f}",
            f"  Kernsatz trifft das Gold (richtige Antworten) {a['key_sentence']:.3f}  "
            f"(n={a['key_sentence_n']})",
            f"  abgelehnt (unbeantwortbare Fragen)          "
            f"{a['declined']} von {a['unanswerable']}",
        ]
        lines += ["", "Wo der beste Absatz steht (beantwortbare Fragen: sicher / abgelehnt):"]
        for kind in LOSS_KINDS:
            f = a["losses"][kind]
            lines.append(f"  {LOSS_LABELS[kind]:<34} {f['confident']:>4} / {f['declined']}")
        if misses and a["misses"]:
            lines += ["", "Chatbot ohne sichere richtige Antwort:"]
            lines += [
                f"  {m['id']} {'sicher' if m['confident'] else 'abgelehnt'} "
                f"{m['passage'] or '-'} ({LOSS_LABELS[m['lost']]}): {m['q']}"
                for m in a["misses"]
            ]
        if misses and a.get("answered_unanswerable"):
            lines += ["", "Unbeantwortbar, aber sicher beantwortet:"]
            lines += [
                f"  {m['id']} {m['confidence']} {m['passage'] or '-'}: {m['q']}"
                for m in a["answered_unanswerable"]
            ]
    for name, _fn in REPORT_SECTIONS:
        if name == "answer":
            continue
        if name != "search" and name in report and isinstance(report[name], dict):
            lines += ["", f"{name}:"]
            lines += [
                f"  {k}: {v}" for k, v in report[name].items() if not isinstance(v, dict | list)
            ]
    return "\n".join(lines)
