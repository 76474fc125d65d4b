#!/usr/bin/env python3
"""merge.py RAW.tsv JUDGMENTS.tsv > cases.tsv
raw.tsv: id, command, exit, crash, data, message, auto, note (campaign.sh)
judgments.tsv: id, judgment (ok|unclear|data|crash), crash (y/n or ''), data (y/n or ''), reason
A case without a hand judgment must have auto=ok: it is ok (documented exit code, a message, no crash text, no data check failed)."""
import csv, sys
raw = [l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8", errors="replace") if l.strip()]
jud = {}
for l in open(sys.argv[2], encoding="utf-8"):
    if not l.strip() or l.startswith("#"): continue
    p = l.rstrip("\n").split("\t")
    jud[p[0]] = p
out = csv.writer(sys.stdout, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
out.writerow(["id", "command", "exit", "crash", "data", "message", "judgment", "reason"])
missing = []
for r in raw:
    r += [""] * (8 - len(r))
    cid, cmd, rc, crash, data, msg, auto, note = r[:8]
    if cid in jud:
        j = jud[cid]; judgment = j[1]; crash = j[2] or crash; data = j[3] or data; reason = j[4]
    elif auto == "ok":
        judgment, reason = "ok", "documented exit code and a message naming the cause; no crash, nothing changed"
    else:
        judgment, reason = "UNJUDGED", note; missing.append(cid)
    out.writerow([cid, cmd, rc, "yes" if crash == "y" else "no", "yes" if data == "y" else "no", msg, judgment, reason])
if missing: print("unjudged:", " ".join(missing), file=sys.stderr)
