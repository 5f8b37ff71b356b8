# Lists seed sentences (our seeds only) with no 30-char window shared with any existing gold passage.
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
doc = sys.argv[1]; lo=int(sys.argv[2]); hi=int(sys.argv[3])
for i, line in enumerate(open('/work/shared/seeds/' + doc).read().split('\n')):
    if not (lo <= i <= hi) or not line.strip(): continue
    for s in re.split(r'(?<=[.!?])\s+', line.strip()):
        n = norm(s)
        if len(n) < 25: continue
        hit = any(n[j:j+30] in e for e in ex.get(doc, []) for j in range(0, max(1, len(n)-29), 5))
        if not hit: print(i, '|', s[:200])
