# Reports, for each of OUR golds, how often it occurs in its seed and whether it overlaps
# any existing gold passage (other sets). Prints only our ids/gold text, never other sets' questions.
import json, re, glob, sys
def norm(s): return re.sub(r'\s+', ' ', s.replace('\xa0', ' ')).strip().lower()
files = glob.glob('/work/shared/eval/*.jsonl') + glob.glob('/work/main/eval/*questions*.jsonl') + glob.glob('/work/main/eval/*followups*.jsonl')
ex = {}
for f in files:
    for l in open(f):
        if l.strip():
            o = json.loads(l)
            if o.get('doc'):
                for g in o['gold']: ex.setdefault(o['doc'], []).append(norm(g))
def lcs_len(a, b, k=30):
    # does a share any k-char window with b?
    return any(a[i:i+k] in b for i in range(0, max(1, len(a)-k+1), 5))
for fn in sys.argv[1:]:
    for l in open(fn):
        o = json.loads(l)
        if not o['doc']: continue
        seed = norm(open('/work/shared/seeds/' + o['doc']).read())
        for g in o['gold']:
            n = norm(g); c = seed.count(n)
            ov = sum(1 for e in ex.get(o['doc'], []) if n in e or e in n or lcs_len(n, e))
            flag = ('' if c == 1 else f' COUNT={c}') + (f' OVERLAP={ov}' if ov else '')
            if flag: print(o['id'], flag, '|', g[:70])
