"""Research: the chat scoped to one document (branch scope) against unscoped, on seen held-out sets."""
import json, sys
from faq_bot.index import open_index
from faq_bot.chat import answer, QuestionError
from faq_bot.evaluate import answerable, is_hit, load_questions

ix = open_index("index")
docs = {ix.document(d)["file"]: d for d in [d if isinstance(d, str) else d["id"] for d in ix.documents]}
ids = list(docs.values())
tot = {k: [0, 0, 0] for k in ("ans_unscoped", "ans_scoped")}  # right(confident), confident wrong, n
un = {"unscoped": [0, 0], **{d: [0, 0] for d in ids}}  # confident, n
for f in sys.argv[1:]:
    for q in load_questions(f):
        if q.get("history"):
            continue
        if answerable(q):
            for key, d in (("ans_unscoped", None), ("ans_scoped", docs[q["doc"]])):
                r = answer(ix, q["q"], doc=d)
                ok = bool(r.passage) and is_hit(r.passage.text, q["gold"])
                t = tot[key]; t[2] += 1
                if r.confident:
                    t[0 if ok else 1] += 1
        else:
            for d in (None, *ids):
                r = answer(ix, q["q"], doc=d)
                u = un["unscoped" if d is None else d]; u[1] += 1; u[0] += bool(r.confident)
for k, (right, cw, n) in tot.items():
    print(f"{k}: n {n} Passage@1 {right/n:.3f} ({right}) confident-wrong {cw/n:.3f} ({cw})")
for k, (c, n) in un.items():
    print(f"unanswerable {k}: answered with confidence {c} of {n} (declined {1-c/n:.3f})")

# an answerable question scoped to a document that does not hold its answer: every
# confident answer there is wrong for the asker (the danger of a scope set wrongly)
wrong = [0, 0]
for f in sys.argv[1:]:
    for q in load_questions(f):
        if q.get("history") or not answerable(q):
            continue
        for d in ids:
            if d == docs[q["doc"]]:
                continue
            r = answer(ix, q["q"], doc=d)
            wrong[1] += 1
            wrong[0] += bool(r.confident) and not (r.passage and is_hit(r.passage.text, q["gold"]))
print(f"answerable, scoped to another document: confidently wrong {wrong[0]} of {wrong[1]} ({wrong[0]/wrong[1]:.3f})")
