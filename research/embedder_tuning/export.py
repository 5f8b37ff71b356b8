"""Write the data cv.py needs (run with the project's venv, on a built index):

    .venv/bin/python research/embedder_tuning/export.py --index index OUT.json FILES...

(`make tune-embedder` runs it with the Makefile's ``TRAIN_QUESTIONS``, the one list of
training files.)

The embedded units of the index (each paragraph, and each sentence of a longer one, with
its entry's heading, as `faq_bot.dense` embeds them) and the answerable training questions
without history (as the embedder is given them, with their gold paragraphs and entries).
`training_questions` refuses the held-out sets."""

import argparse
import json

from faq_bot.dense import units_of
from faq_bot.errors import FaqBotError
from faq_bot.evaluate import EvalFileError, answerable, is_hit, training_questions
from faq_bot.hybrid import embedding_text
from faq_bot.index import open_index
from faq_bot.learn import crossfit_fold

parser = argparse.ArgumentParser()
parser.add_argument("--index", default="index")
parser.add_argument("out")
parser.add_argument(
    "files", nargs="+", help="training question files (the Makefile's TRAIN_QUESTIONS)"
)
args = parser.parse_args()
try:
    index = open_index(args.index)
except FaqBotError as exc:  # no index yet: the message says what to run
    raise SystemExit(str(exc)) from None
records = list(index.iter_entries())
units = units_of(records)
try:
    training = training_questions(args.files)
except EvalFileError as exc:
    raise SystemExit(str(exc)) from None
questions = []
for q in training:
    if q.get("history") or not answerable(q):
        continue
    positives = [i for i, u in enumerate(units) if u[2] < 0 and is_hit(u[4], q["gold"])]
    entries = [r.id for r in records if is_hit(r.text, q["gold"])]
    text = embedding_text(q["q"])
    questions.append(
        {
            "id": q["id"],
            "fold": crossfit_fold(q["id"]),
            "raw": q["q"],
            "q": text,
            "pos": positives,
            "ents": entries,
        }
    )
with open(args.out, "w", encoding="utf-8") as fh:
    json.dump({"units": [list(u) for u in units], "questions": questions}, fh)
print(f"{len(units)} units, {len(questions)} questions")
