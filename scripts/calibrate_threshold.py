"""Calibrate the chatbot's first-question threshold on held-out questions.

    .venv/bin/python scripts/calibrate_threshold.py [--index DIR] [--write] [--dump FILE]
        [--from-dump FILE] [QUESTIONS.jsonl...]

Answers the first questions of the calibration sets (default: the retired held-out
sets `faq_bot.chat.calibrate.CALIBRATION_SETS`, which no model was fitted on) with the
shipped models, and prints what each threshold does there. The calibrated threshold
is the lowest at which the one-sided 90 % Wilson bounds of confident-wrong and of the
declined share meet issue 9's targets, and at which at least 90 % of all pairs of
calibration sets, each pooled, meet each target (`faq_bot.chat.calibrate`; the table's
``pairs_cw`` and ``pairs_decl``: the shares of pairs that do). With ``--write`` it
becomes the hybrid model's ``threshold`` in ``faq_bot/data/confidence.json`` (the
follow-up bar is the fitted one, never below it), the fitted bars are kept beside it
under ``calibration``, the share right by probability under ``reliability`` (the chat's
caution, `faq_bot.chat.calibrate.reliability_steps`), and the outcomes are written to
``faq_bot/data/calibration.json`` so that the tests can derive both again. ``make train``
runs it after ``scripts/train_chat.py``. Needs a built index with dense vectors.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

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
from faq_bot.crossfit import embedder_id
from faq_bot.dense import dense_for
from faq_bot.evaluate import answerable, judged, load_questions, question_set
from faq_bot.fitted import reload as reload_models
from faq_bot.index import open_index

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "faq_bot" / "data"


def default_files() -> list[Path]:
    return [ROOT / "eval" / f"heldout{n}-questions.jsonl" for n in CALIBRATION_SETS]


def outcomes_of(index, files: list[Path]) -> list[tuple[str, Outcome]]:
    rows = []
    questions = [q for f in files for q in load_questions(f)]
    for i, q in enumerate(questions, 1):
        if q.get("history"):
            raise SystemExit(f"{q['id']}: nur erste Fragen (ohne Verlauf) kalibrieren die Schwelle")
        result, right = judged(index, q)
        p = result.confidence if result is not None and result.passage else 0.0
        qid = str(q["id"])
        rows.append((qid, Outcome(float(p), right, answerable(q), question_set(qid))))
        if i % 100 == 0:
            print(f"  {i}/{len(questions)} Fragen beantwortet", file=sys.stderr)
    return rows


def table(outcomes: list[Outcome], thresholds: list[float]) -> str:
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


def evidence(rows: list[tuple[str, Outcome]], names: list[str], embedder: str | None) -> dict:
    """The outcomes with what they come from: the embedder, a digest of the fitted models
    and the question files."""
    return {
        "embedder": embedder,
        "models": models_digest(DATA),
        "sets": names,
        "max_confident_wrong": MAX_CONFIDENT_WRONG,
        "min_declined": MIN_DECLINED,
        "z": Z_ONE_SIDED_90,
        "outcomes": [[qid, o.probability, o.right, o.answerable] for qid, o in rows],
    }


def write_evidence(
    path: Path, rows: list[tuple[str, Outcome]], names: list[str], embedder: str | None
) -> None:
    data = evidence(rows, names, embedder)
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


def read_dump(path: Path, names: list[str], embedder: str | None) -> list[tuple[str, Outcome]]:
    """Outcomes saved by ``--dump``, refused when other models, another embedder or
    other question files made them (their threshold would not be these models')."""
    data = json.loads(path.read_text("utf-8"))
    made = (data.get("models"), data.get("embedder"), data.get("sets"))
    if made != (models_digest(DATA), embedder, names):
        raise SystemExit(
            f"{path}: mit anderen Modellen, einem anderen Embedder oder anderen Fragen "
            "beantwortet; ohne --from-dump neu beantworten."
        )
    return [(qid, Outcome(p, r, a, question_set(qid))) for qid, p, r, a in data["outcomes"]]


def write(
    rows: list[tuple[str, Outcome]],
    chosen: Calibration | None,
    names: list[str],
    embedder: str | None,
) -> None:
    if chosen is None:
        raise SystemExit("Keine Schwelle erfüllt beide Schranken: nichts geschrieben.")
    path = DATA / "confidence.json"
    data = json.loads(path.read_text("utf-8"))
    mode: dict[str, Any] = data["modes"]["hybrid"]
    fitted = mode.get("calibration", {}).get("fitted") or {
        "threshold": mode["threshold"],
        "threshold_followup": mode["threshold_followup"],
    }
    mode["threshold"] = chosen.threshold
    mode["threshold_followup"] = max(chosen.threshold, fitted["threshold_followup"])
    mode["calibration"] = {
        "sets": names,
        "rule": RULE,
        "fitted": fitted,
        "answerable": chosen.answerable,
        "unanswerable": chosen.unanswerable,
        "passage@1": round(chosen.passage_at_1, 4),
        "confident_wrong": round(chosen.confident_wrong, 4),
        "declined": round(chosen.declined, 4),
        "pairs_confident_wrong_met": _rounded(chosen.pairs_confident_wrong_met),
        "pairs_declined_met": _rounded(chosen.pairs_declined_met),
    }
    # what an answer of each probability was worth on these questions (the chat's caution)
    outcomes = [o for _, o in rows]
    mode["reliability"] = [
        [round(p, 4), round(share, 4)] for p, share in reliability_steps(outcomes)
    ]
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    out = DATA / "calibration.json"
    write_evidence(out, rows, names, embedder)
    reload_models()
    print(f"geschrieben: {path} (Schwelle {chosen.threshold:.2f}), {out}")


def _rounded(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--index", default="index")
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--dump", type=Path, help="die Ergebnisse je Frage als JSON speichern")
    ap.add_argument("--from-dump", type=Path, help="gespeicherte Ergebnisse statt zu antworten")
    args = ap.parse_args()
    files = args.files or default_files()
    names = [f.name for f in files]
    index = open_index(args.index)
    if dense_for(index) is None:
        raise SystemExit(
            "Die Schwelle gilt dem hybriden Modus: der Index braucht Vektoren und den "
            "Embedder (make index, ohne FAQ_BOT_DENSE=0)."
        )
    if conf.model("hybrid") is None:
        raise SystemExit("Kein angepasstes hybrides Konfidenzmodell in Kraft: erst make train.")
    embedder = embedder_id(index)
    if args.from_dump:
        rows = read_dump(args.from_dump, names, embedder)
    else:
        rows = outcomes_of(index, files)
    if args.dump:
        write_evidence(args.dump, rows, names, embedder)
    outcomes = [o for _, o in rows]
    shipped = conf.threshold("hybrid")
    chosen = calibrated_threshold(outcomes)
    grid = sorted({round(shipped, 2), *(round(0.05 * i, 2) for i in range(2, 13))})
    print(table(outcomes, grid))
    print(f"in Kraft: {shipped:.2f}")
    print(f"kalibriert: {chosen.threshold:.2f}" if chosen else "kalibriert: keine Schwelle")
    if args.write:
        write(rows, chosen, names, embedder)


if __name__ == "__main__":
    main()
