"""Writer's aid: run novelty and show this set's own texts for the flagged ids."""
import json, subprocess, sys
from pathlib import Path
ev = Path(__file__).resolve().parent.parent
mine = {}
for r in map(json.loads, open(ev / "dev11-questions.jsonl")):
    mine[r["id"]] = r["q"]
for r in map(json.loads, open(ev / "dev11-followups.jsonl")):
    mine[r["id"]] = r["q"]; mine[r["id"] + "(history)"] = r["history"][0]
out = subprocess.run([sys.executable, str(ev / "dev11/novelty.py")], capture_output=True, text=True).stdout
for line in out.splitlines():
    k = line.split(":")[0]
    print(line, "|", mine.get(k, ""))
