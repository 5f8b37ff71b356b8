"""Fit the chatbot's first-question confidence on the calibration sets and calibrate its bar.

    .venv/bin/python scripts/calibrate_threshold.py [--index DIR] [--jobs N] [--write]
        [--dump FILE] [--from-dump FILE]

Reads the first questions of the calibration sets (the retired held-out sets
`faq_bot.chat.calibrate.CALIBRATION_SETS`, which the ranker, the passage model and the
embedder's tuning never saw) exactly as the bot reads a new question, with the shipped
ranker, passage model and known questions, and fits the hybrid confidence model of
questions read without an earlier one on their signals (`faq_bot.chat.fit.fit_served`: a
logistic model; each question also scored by a model fitted without its set). On those
out-of-fold probabilities it chooses the bar: the lowest at which the one-sided 90 %
Wilson bounds of confident-wrong and of the declined share meet issue 9's targets and at
which at least 90 % of all pairs of calibration sets, each pooled, meet each target
(`faq_bot.chat.calibrate`; the table's ``pairs_cw`` and ``pairs_decl``: the shares of
pairs that do). With ``--write`` the follow-ups of the same sets that are read with their
earlier question get a model of their own, fitted and calibrated the same way on them
(nothing to decline), read again with each fit in effect until the same follow-ups are read
with context (`fit_followups`, at most `MAX_ROUNDS`). Until the thirty-second round one model,
fitted on the training questions (``scripts/train_chat.py``), scored both and only the first
bar came from here; fitted on 25 times the questions, read as served, the same model form
answers about one point more of them right at the same confident-wrong, and the follow-ups' 39
more of 1,260 (docs/quality-journal.md, "thirty-second round"; one model for both was worse on
the follow-ups).

With ``--write``: the weights (``first``, ``followup``), the bars, the figures under
``calibration`` and the share right by probability under ``reliability`` (the chat's caution,
`faq_bot.chat.calibrate.reliability_steps`) go into the hybrid model of
``faq_bot/data/confidence.json``; the out-of-fold outcomes go into
``faq_bot/data/calibration.json`` so that the tests can derive the bar and the steps
again. ``--dump`` saves the signals read (a .npz), ``--from-dump`` fits on saved ones
(refused when other models, known questions, embedder or sets read them). ``make
train`` runs it after ``scripts/train_chat.py``. Needs a built index with dense vectors.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import zipfile
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from faq_bot.chat import confidence as conf
from faq_bot.chat.calibrate import (
    CALIBRATION_SETS,
    MAX_CONFIDENT_WRONG,
    MIN_DECLINED,
    RULE,
    Z_ONE_SIDED_90,
    Calibration,
    Outcome,
    calibrated_threshold,
    figures_at,
    models_digest,
    pair_shares,
    reliability_steps,
)
from faq_bot.chat.fit import SERVED_FOLDS, fit_served, served_signals
from faq_bot.crossfit import embedder_id
from faq_bot.dense import dense_for
from faq_bot.evaluate import load_questions, question_set
from faq_bot.fitted import reload as reload_models
from faq_bot.index import open_index
from faq_bot.known import known_questions

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "faq_bot" / "data"
CONFIDENCE = "confidence.json"  # in DATA: the models and bars written
EVIDENCE = "calibration.json"  # in DATA: the out-of-fold outcomes they were chosen on
# what the signals are read with: a dump from other readers is refused
READERS = ("ranker.json", "passage.json")
MAX_ROUNDS = 4  # readings of the follow-ups until they repeat


class Table(NamedTuple):
    """The signals read from the calibration questions, a row each."""

    ids: list[str]
    x: np.ndarray  # signals, NaN where an optional one is missing
    y: np.ndarray  # the chosen passage is right
    answerable: np.ndarray
    context: np.ndarray  # read with an earlier question

    @property
    def groups(self) -> np.ndarray:
        return np.array([question_set(i) for i in self.ids])


def files_of(sets: tuple[int, ...], kind: str = "questions") -> list[Path]:
    return [ROOT / "eval" / f"heldout{n}-{kind}.jsonl" for n in sets]


_index: Any = None


def _open(index_dir: str) -> None:
    global _index
    _index = open_index(index_dir)


def first_questions(files: list[Path]) -> None:
    """Refuse a file with a follow-up before anything is read (in the workers a refusal
    would wait for every file already handed out)."""
    for path in files:
        if any(q.get("history") for q in load_questions(path)):
            raise SystemExit(
                f"{path.name}: nur erste Fragen (ohne Verlauf) kalibrieren die Schwelle"
            )


def _read(path: Path) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    questions = load_questions(path)
    return (
        [str(q["id"]) for q in questions],
        *served_signals(_index, questions, known_questions()),
    )


def read_table(index_dir: str, files: list[Path], jobs: int) -> Table:
    """Every file read by `jobs` processes (each opens the index once), in file order."""
    parts = []
    context = get_context("spawn")  # a fresh interpreter: no embedder threads forked
    with ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_open, initargs=(index_dir,)
    ) as pool:
        for i, part in enumerate(pool.map(_read, files), 1):
            parts.append(part)
            print(f"  {i}/{len(files)} Dateien gelesen ({files[i - 1].name})", file=sys.stderr)
    return Table(
        [qid for p in parts for qid in p[0]],
        *(np.concatenate([p[k] for p in parts]) for k in range(1, 5)),
    )


def subset(table: Table, keep: np.ndarray) -> Table:
    return Table(
        [qid for qid, k in zip(table.ids, keep, strict=True) if k],
        *(a[keep] for a in table[1:]),
    )


def digest(files: list[Path], embedder: str | None) -> dict[str, Any]:
    """What the signals are read with and from: the models and known questions, the
    embedder, the question files (their bytes: a changed gold is another file)."""
    questions = hashlib.sha256()
    for path in files:
        questions.update(hashlib.sha256(path.read_bytes()).digest())
    return {
        "readers": models_digest(DATA, READERS),
        "embedder": embedder,
        "sets": [f.name for f in files],
        "questions": questions.hexdigest()[:16],
        "signals": list(conf.SIGNALS),
    }


def save_table(path: Path, table: Table, made: dict[str, Any]) -> None:
    with path.open("wb") as f:
        np.savez_compressed(
            f,
            made=json.dumps(made),
            ids=np.array(table.ids),
            x=table.x,
            y=table.y,
            answerable=table.answerable,
            context=table.context,
        )


def load_table(path: Path, made: dict[str, Any]) -> Table:
    try:
        with np.load(path) as data:
            found = json.loads(str(data["made"]))
            table = Table(
                [str(i) for i in data["ids"]],
                data["x"],
                data["y"],
                data["answerable"],
                data["context"],
            )
    except (OSError, ValueError, KeyError, zipfile.BadZipFile):
        raise SystemExit(
            f"{path}: keine gespeicherten Signale dieser Version (--dump); "
            "ohne --from-dump neu lesen."
        ) from None
    if found != made:
        raise SystemExit(
            f"{path}: mit anderen Modellen, bekannten Fragen, einem anderen Embedder oder "
            "anderen Fragen gelesen; ohne --from-dump neu lesen."
        )
    return table


def outcomes(table: Table, p: np.ndarray) -> list[tuple[str, Outcome]]:
    return [
        (
            qid,
            Outcome(
                float(p[i]),
                bool(table.y[i] > 0 and table.answerable[i]),
                bool(table.answerable[i]),
                question_set(qid),
            ),
        )
        for i, qid in enumerate(table.ids)
    ]


def table_text(outcomes: list[Outcome], thresholds: list[float]) -> str:
    lines = ["threshold  P@1    CW     CW_up  pairs_cw  declined  decl_low  pairs_decl"]
    pairs = pair_shares(outcomes, thresholds)
    for i, t in enumerate(thresholds):
        f = figures_at(outcomes, t)
        cw_met, dec_met = (pairs[0][i], pairs[1][i]) if pairs else (float("nan"),) * 2
        lines.append(
            f"{t:9.2f}  {f.passage_at_1:.3f}  {f.confident_wrong:.3f}  "
            f"{f.confident_wrong_upper:.3f}  {cw_met:8.2f}  {f.declined:8.3f}  "
            f"{f.declined_lower:8.3f}  {dec_met:10.2f}"
        )
    return "\n".join(lines)


def write(
    model: dict[str, Any],
    rows: list[tuple[str, Outcome]],
    chosen: Calibration,
    names: list[str],
    embedder: str | None,
) -> None:
    data, mode = _confidence()
    # the bars the training questions' fit chose (scripts/train_chat.py)
    fitted = mode.get("calibration", {}).get("fitted") or {
        "threshold": mode["threshold"],
        "threshold_followup": mode["threshold_followup"],
    }
    followups = mode.get("calibration", {}).get("followups")  # the follow-ups' model's
    mode["first"] = model
    mode["threshold"] = chosen.threshold
    if "followup" not in mode:  # until `fit_followups` writes theirs: the training model's bar
        mode["threshold_followup"] = fitted["threshold_followup"]
    mode["calibration"] = {
        "sets": names,
        "rule": RULE,
        "folds": SERVED_FOLDS,
        "fitted": fitted,
        "answerable": chosen.answerable,
        "unanswerable": chosen.unanswerable,
        "passage@1": round(chosen.passage_at_1, 4),
        "confident_wrong": round(chosen.confident_wrong, 4),
        "declined": round(chosen.declined, 4),
        "pairs_confident_wrong_met": _rounded(chosen.pairs_confident_wrong_met),
        "pairs_declined_met": _rounded(chosen.pairs_declined_met),
        **({"followups": followups} if followups and "followup" in mode else {}),
    }
    # what an answer of each probability was worth on these questions (the chat's caution)
    mode["reliability"] = [
        [round(p, 4), round(share, 4)] for p, share in reliability_steps([o for _, o in rows])
    ]
    path = _save(CONFIDENCE, data)
    evidence = {
        "embedder": embedder,
        "models": models_digest(DATA),
        "sets": names,
        "max_confident_wrong": MAX_CONFIDENT_WRONG,
        "min_declined": MIN_DECLINED,
        "z": Z_ONE_SIDED_90,
        "outcomes": [[qid, o.probability, o.right, o.answerable] for qid, o in rows],
    }
    if "followup" in mode and (DATA / EVIDENCE).exists():
        # the follow-ups' model in force keeps its outcomes until `fit_followups` replaces
        # both: a follow-up step that stops leaves the file as consistent as it found it
        kept = _data_file(EVIDENCE).get("followup_outcomes")
        if kept is not None:
            evidence["followup_outcomes"] = kept
    out = _save(EVIDENCE, evidence, compact=True)
    reload_models()
    print(f"geschrieben: {path} (Schwelle {chosen.threshold:.2f}), {out}")


def fit_followups(index_dir: str, jobs: int) -> None:
    """The follow-ups' model: fitted on the follow-ups of the calibration sets that are read
    with their earlier question (the others are scored as first questions), as the bot
    reads them with the models written in effect; which reading a follow-up gets depends on
    the models (the reading with context answers when it clears its bar by more than the
    lone one clears its own), so it is read again with each fit in effect until the same
    follow-ups are read with context (at most `MAX_ROUNDS`). Its bar: the calibration rule
    on its out-of-fold scores (nothing to decline: they are all answerable)."""
    files = files_of(CALIBRATION_SETS, "followups")
    seen: tuple[str, ...] | None = None
    for round_ in range(1, MAX_ROUNDS + 1):
        print(f"Anschlussfragen, Runde {round_}: {len(files)} Dateien lesen …", file=sys.stderr)
        table = read_table(index_dir, files, jobs)
        later = subset(table, table.context)
        if tuple(later.ids) == seen:
            print(f"Anschlussfragen: Runde {round_} liest sie wie die vorige; fertig.")
            return
        model, p = fit_served(later.x, later.y, later.answerable, later.groups)
        rows = outcomes(later, p)
        chosen = calibrated_threshold([o for _, o in rows], min_declined=0.0)
        print(f"Anschlussfragen mit Kontext: {len(rows)} von {len(table.ids)}")
        print(table_text([o for _, o in rows], [round(0.05 * i, 2) for i in range(2, 15)]))
        if chosen is None:
            raise SystemExit("Keine Schwelle der Anschlussfragen erfüllt die Schranke.")
        write_followup(model, rows, chosen)
        seen = tuple(later.ids)
    print(
        f"Anschlussfragen: nach {MAX_ROUNDS} Runden kein fester Punkt; die letzte Anpassung gilt."
    )


def write_followup(
    model: dict[str, Any], rows: list[tuple[str, Outcome]], chosen: Calibration
) -> None:
    data, mode = _confidence()
    mode["followup"] = model
    mode["threshold_followup"] = chosen.threshold
    mode["calibration"]["followups"] = {
        "read_with_context": chosen.answerable,
        "passage@1": round(chosen.passage_at_1, 4),
        "confident_wrong": round(chosen.confident_wrong, 4),
        "pairs_confident_wrong_met": _rounded(chosen.pairs_confident_wrong_met),
    }
    path = _save(CONFIDENCE, data)
    evidence = _data_file(EVIDENCE)
    evidence["models"] = models_digest(DATA)  # the first questions' outcomes do not change
    evidence["followup_outcomes"] = [[q, o.probability, o.right, o.answerable] for q, o in rows]
    out = _save(EVIDENCE, evidence, compact=True)
    reload_models()
    print(f"geschrieben: {path} (Schwelle der Anschlussfragen {chosen.threshold:.2f}), {out}")


def _confidence() -> tuple[dict[str, Any], dict[str, Any]]:
    """confidence.json as read, and its hybrid mode (changed in place by the callers)."""
    data = _data_file(CONFIDENCE)
    return data, data["modes"]["hybrid"]


def _data_file(name: str) -> dict[str, Any]:
    return json.loads((DATA / name).read_text("utf-8"))


def _save(name: str, data: dict[str, Any], compact: bool = False) -> Path:
    """Write data file `name` as the data files are kept: the models indented, the outcomes
    compact (into `DATA` as it is when writing)."""
    path = DATA / name
    text = json.dumps(data, separators=(",", ":")) if compact else json.dumps(data, indent=2)
    path.write_text(text + "\n", encoding="utf-8")
    return path


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"„{text}“ ist keine ganze Zahl ab 1")
    return n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--index", default="index")
    ap.add_argument("--jobs", type=jobs, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--dump", type=Path, help="die gelesenen Signale speichern (.npz)")
    ap.add_argument("--from-dump", type=Path, help="gespeicherte Signale statt neu zu lesen")
    args = ap.parse_args()
    files = files_of(CALIBRATION_SETS)
    names = [f.name for f in files]
    index = open_index(args.index)
    if dense_for(index) is None:
        raise SystemExit(
            "Die Schwelle gilt dem hybriden Modus: der Index braucht Vektoren und den "
            "Embedder (make index, ohne FAQ_BOT_DENSE=0)."
        )
    if conf.model("hybrid") is None:
        raise SystemExit("Kein angepasstes hybrides Modell in Kraft: erst make train.")
    made = digest(files, embedder_id(index))
    if args.from_dump:
        table = load_table(args.from_dump, made)
    else:
        first_questions(files)
        print(f"{len(files)} Dateien mit {args.jobs} Prozessen lesen …", file=sys.stderr)
        table = read_table(args.index, files, args.jobs)
    if args.dump:
        save_table(args.dump, table, made)
    model, p = fit_served(table.x, table.y, table.answerable, table.groups)
    rows = outcomes(table, p)
    chosen = calibrated_threshold([o for _, o in rows])
    shipped = conf.threshold("hybrid")
    grid = sorted({round(0.05 * i, 2) for i in range(2, 13)} | {round(shipped, 2)})
    print("außerhalb ihrer Falte bewertet:")
    print(table_text([o for _, o in rows], grid))
    print(f"in Kraft: {shipped:.2f}")
    print(f"kalibriert: {chosen.threshold:.2f}" if chosen else "kalibriert: keine Schwelle")
    if args.write:
        if chosen is None:
            raise SystemExit("Keine Schwelle erfüllt beide Schranken: nichts geschrieben.")
        write(model, rows, chosen, names, made["embedder"])
        fit_followups(args.index, args.jobs)


if __name__ == "__main__":
    main()
