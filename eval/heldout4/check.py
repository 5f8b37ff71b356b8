#!/usr/bin/env python3
"""Checks heldout4-questions.jsonl and heldout4-followups.jsonl (no project code).

Verifies JSON validity, field order, ids, kinds, doc/gold consistency, gold rules
(length, whitespace, forbidden characters, unique occurrence in the seed both
case-sensitively and -insensitively, all golds of one item from the same seed line),
exact-duplicate questions against the shared sets and /work/main/eval/*.jsonl, and
reports token-overlap >= 0.5 near-duplicates by id only (never prints other sets' texts).
"""
import glob, json, os, re, sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = '/work/shared/seeds'
EVAL = os.path.dirname(HERE)  # eval/ of the repository
QFILE = os.path.join(EVAL, 'heldout4-questions.jsonl')
FFILE = os.path.join(EVAL, 'heldout4-followups.jsonl')
OTHER = sorted(
    p
    for p in set(glob.glob(os.path.join(EVAL, '..', '..', 'shared', 'eval', '*.jsonl')) + glob.glob(os.path.join(EVAL, '*.jsonl')))
    if 'heldout4' not in os.path.basename(p)
)
KINDS = {'paraphrase', 'colloquial', 'jargon', 'keyword', 'abbreviation', 'typo', 'deep_paragraph', 'unanswerable'}
QFIELDS = ['id', 'q', 'doc', 'gold', 'kind']
FFIELDS = ['id', 'history', 'q', 'doc', 'gold', 'kind']
FORBIDDEN = set('"\'`*<>„“”‚‘’«»‹›″′´')
DOCS = sorted(os.listdir(SEEDS))

errors = []
def err(msg): errors.append(msg)

def ws(s):  # collapse whitespace incl. no-break spaces
    return re.sub(r'\s+', ' ', s.replace('\xa0', ' ').replace('\u202f', ' ')).strip()

def qnorm(s):  # normalisation for duplicate-question comparison
    s = ws(s).lower()
    return re.sub(r'[\s?!.,;:]+$', '', s)

def tokens(s):
    return set(re.findall(r'\w+', s.lower()))

seed_text = {d: ws(open(os.path.join(SEEDS, d), encoding='utf-8').read()) for d in DOCS}
seed_lines = {d: [ws(l) for l in open(os.path.join(SEEDS, d), encoding='utf-8').read().split('\n')] for d in DOCS}

def count_occ(hay, needle):
    n, i = 0, hay.find(needle)
    while i != -1:
        n += 1; i = hay.find(needle, i + 1)
    return n

def load(path, fields, idfmt, n_expected):
    items = []
    with open(path, encoding='utf-8') as f:
        for ln, line in enumerate(f, 1):
            if not line.strip():
                err(f'{os.path.basename(path)}:{ln}: empty line'); continue
            try:
                o = json.loads(line)
            except Exception as e:
                err(f'{os.path.basename(path)}:{ln}: invalid JSON ({e})'); continue
            if list(o.keys()) != fields:
                err(f'{os.path.basename(path)}:{ln}: field order {list(o.keys())} != {fields}')
            items.append(o)
    ids = [o.get('id') for o in items]
    want = [idfmt(i) for i in range(1, len(items) + 1)]
    if ids != want: err(f'{os.path.basename(path)}: ids not unique/consecutive')
    if len(set(ids)) != len(ids): err(f'{os.path.basename(path)}: duplicate ids')
    if len(items) != n_expected: err(f'{os.path.basename(path)}: {len(items)} items, expected {n_expected}')
    return items

def check_item(o, followup=False):
    i = o.get('id')
    kind, doc, gold = o.get('kind'), o.get('doc'), o.get('gold')
    if not isinstance(o.get('q'), str) or not o['q'].strip(): err(f'{i}: empty q')
    if followup:
        h = o.get('history')
        if not (isinstance(h, list) and len(h) == 1 and isinstance(h[0], str) and h[0].strip()):
            err(f'{i}: history must be a list with one non-empty question')
        if kind != 'followup': err(f'{i}: kind must be followup')
    elif kind not in KINDS:
        err(f'{i}: invalid kind {kind!r}')
    if not isinstance(gold, list): err(f'{i}: gold not a list'); return
    unans = (kind == 'unanswerable')
    if unans != (doc is None): err(f'{i}: doc must be null iff kind is unanswerable')
    if doc is None:
        if gold: err(f'{i}: unanswerable must have gold []')
        return
    if doc not in DOCS: err(f'{i}: unknown doc {doc!r}'); return
    if not 1 <= len(gold) <= 3: err(f'{i}: {len(gold)} golds (need 1-3)')
    lines_of = []
    for g in gold:
        if not isinstance(g, str): err(f'{i}: non-string gold'); continue
        if g != ws(g): err(f'{i}: gold not whitespace-normalised: {g[:40]!r}')
        if not 20 <= len(g) <= 160: err(f'{i}: gold length {len(g)}: {g[:40]!r}')
        bad = sorted(set(g) & FORBIDDEN)
        if bad: err(f'{i}: forbidden chars {bad} in gold {g[:40]!r}')
        n = ws(g)
        cs = count_occ(seed_text[doc], n)
        ci = count_occ(seed_text[doc].lower(), n.lower())
        if cs != 1: err(f'{i}: gold occurs {cs}x case-sensitively: {g[:50]!r}')
        if ci != 1: err(f'{i}: gold occurs {ci}x case-insensitively: {g[:50]!r}')
        ls = [k for k, l in enumerate(seed_lines[doc]) if n in l]
        if len(ls) != 1: err(f'{i}: gold not within exactly one seed line ({len(ls)}): {g[:40]!r}')
        lines_of.append(tuple(ls))
    if len(set(lines_of)) > 1: err(f'{i}: golds come from different seed lines {lines_of}')

qs = load(QFILE, QFIELDS, lambda k: f'h4-{k:03d}', 100)
fs = load(FFILE, FFIELDS, lambda k: f'h4f{k:02d}', 12)
for o in qs: check_item(o)
for o in fs: check_item(o, followup=True)

# --- duplicates against other sets (texts are never printed)
other = []  # (id, text) for every q and history entry of other sets
for p in OTHER:
    for line in open(p, encoding='utf-8'):
        if not line.strip(): continue
        try: o = json.loads(line)
        except Exception: continue
        tag = f'{os.path.basename(p)}:{o.get("id")}'
        if isinstance(o.get('q'), str): other.append((tag, o['q']))
        for h in o.get('history') or []:
            if isinstance(h, str): other.append((tag + '/history', h))
other_norm = {}
for tag, t in other: other_norm.setdefault(qnorm(t), []).append(tag)
other_tok = [(tag, tokens(t)) for tag, t in other]

ours = []
for o in qs: ours.append((o['id'], o['q']))
for o in fs:
    ours.append((o['id'], o['q']))
    for h in o.get('history') or []: ours.append((o['id'] + '/history', h))
seen = {}
for tag, t in ours:
    n = qnorm(t)
    if n in other_norm: err(f'{tag}: exact duplicate of {other_norm[n][0]}')
    if n in seen: err(f'{tag}: exact duplicate of own {seen[n]}')
    seen.setdefault(n, tag)

near = []
def jacc(a, b): return len(a & b) / len(a | b) if a | b else 0.0
for tag, t in ours:
    ta = tokens(t)
    for otag, tb in other_tok:
        j = jacc(ta, tb)
        if j >= 0.5: near.append((tag, otag, j))
for x in range(len(ours)):
    for y in range(x + 1, len(ours)):
        if ours[x][0].split('/')[0] == ours[y][0].split('/')[0]: continue
        j = jacc(tokens(ours[x][1]), tokens(ours[y][1]))
        if j >= 0.5: near.append((ours[x][0], 'own:' + ours[y][0], j))

# --- report
print(f'questions: {len(qs)}  followups: {len(fs)}  other sets compared: {len(OTHER)} files, {len(other)} texts')
short = {d: d[:3] for d in DOCS}
kinds = ['paraphrase', 'colloquial', 'jargon', 'keyword', 'abbreviation', 'typo', 'deep_paragraph', 'unanswerable']
c = Counter((short.get(o['doc'], 'none'), o['kind']) for o in qs)
print('doc   ' + ' '.join(f'{k[:6]:>6}' for k in kinds) + '  total')
for d in [short[d] for d in DOCS] + ['none']:
    row = [c[(d, k)] for k in kinds]
    print(f'{d:5} ' + ' '.join(f'{v:6d}' for v in row) + f'  {sum(row):5d}')
print('followups per doc:', dict(Counter(short.get(o['doc'], 'none') for o in fs)))
print(f'near-duplicates (token Jaccard >= 0.5): {len(near)}')
for a, b, j in near: print(f'  {a} ~ {b} ({j:.2f})')
if errors:
    print(f'ERRORS: {len(errors)}')
    for e in errors: print('  ' + e)
    sys.exit(1)
print('OK: all checks passed')
