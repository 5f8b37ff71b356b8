"""dump_signals.py --per-fold with candidate binding features of the chosen passage recorded
(research for a new confidence signal; run from the repository root; see README.md)."""

import json
import sys

sys.path.insert(0, "research/model_capacity")
import dump_signals as D  # noqa: E402

from faq_bot.chat import fit  # noqa: E402
from faq_bot.chat.terms import entry_terms  # noqa: E402

RECORD = {}
_orig_make = fit.make_passage
_orig_choice = fit._choice


def _missing_found(question, chosen, elsewhere):
    """Highest IDF of a question word absent from `chosen` sets but present in `elsewhere`."""
    best = 0.0
    for word in question.words:
        if any(t in f for t in word for f in chosen):
            continue
        if any(t in e for t in word for e in elsewhere):
            best = max(best, max(question.idf[t] for t in word))
    return best


def features(index, case, cand, row, question):
    et = entry_terms(index, cand.record)
    chosen = (et.paragraphs[row.paragraph], cand.heading)
    own = question(*chosen)
    sents = et.sentences[row.paragraph]
    f_sent = max((question(t, cand.heading) for _s, _e, t in sents), default=0.0)
    f_sent_self = max((question(t) for _s, _e, t in sents), default=0.0)
    sibs = [p for k, p in enumerate(et.paragraphs) if k != row.paragraph]
    f_sib_cov = max((question(p, cand.heading) for p in sibs), default=own) - own
    f_sib_missing = _missing_found(question, chosen, sibs)
    others = {}
    for c in case.reading.ranking.candidates[:5]:
        if c.record.id != cand.record.id and c.record.id not in others:
            ot = entry_terms(index, c.record)
            others[c.record.id] = (ot, c.heading)
    other_sets = [p | h for ot, h in others.values() for p in ot.paragraphs]
    rival = [question(p, h) for ot, h in others.values() for p in ot.paragraphs]
    f_other_cov = max(rival, default=own) - own
    f_other_missing = _missing_found(question, chosen, other_sets)
    return {
        "own": own,
        "sent": f_sent,
        "sent_self": f_sent_self,
        "sib_cov": f_sib_cov,
        "sib_missing": f_sib_missing,
        "other_cov": f_other_cov,
        "other_missing": f_other_missing,
        "n_par": len(et.paragraphs),
    }


def _choice(index, case, weights, known):
    got = {}

    def mk(*a, **k):
        p = _orig_make(*a, **k)
        got["a"] = a
        got["p"] = p
        return p

    fit.make_passage = mk
    try:
        out = _orig_choice(index, case, weights, known)
    finally:
        fit.make_passage = _orig_make
    if out is not None:
        _i, cand, row, _score, _share, question, _support = got["a"]
        RECORD[case.id] = {
            "q": case.reading.text,
            "p": got["p"].text,
            "entry": cand.record.id,
            "title": cand.record.title,
            "paragraph": row.paragraph,
            "right": bool(case.right[out[0]]),
            "f": features(index, case, cand, row, question),
        }
    return out


fit._choice = _choice
_save = D.np.savez


def savez(path, **kw):
    _save(path, **kw)
    with open(str(path) + ".choices.json", "w") as f:
        json.dump(RECORD, f, ensure_ascii=False)


D.np.savez = savez
D.main()
