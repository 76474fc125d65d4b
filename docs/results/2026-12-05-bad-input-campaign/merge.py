#!/usr/bin/env python3
"""Join raw.tsv (campaign.sh) with judgments.tsv (hand review) into cases.tsv + totals.
judgments.tsv: id <TAB> unclear(y/n/-) <TAB> data(y/n/-) <TAB> crash(y/n/-) <TAB> note
('-' keeps the automatic value: unclear = exit not in the expected set)."""
import csv, sys, os
here = os.path.dirname(os.path.abspath(__file__))
raw = {}
order = []
for line in open(os.path.join(here, "raw.tsv"), encoding="utf-8", errors="replace"):
    f = line.rstrip("\n").split("\t")
    if len(f) < 11:
        continue
    if f[0] not in raw:
        order.append(f[0])
    raw[f[0]] = f
judg = {}
jp = os.path.join(here, "judgments.tsv")
if os.path.exists(jp):
    for line in open(jp, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        f = line.rstrip("\n").split("\t")
        f += [""] * (5 - len(f))
        judg[f[0]] = f
out = open(os.path.join(here, "cases.tsv"), "w", encoding="utf-8")
out.write("id\tcommand\texit\tcrashed\tdata_changed\tunclear\tmessage\tnote\n")
tot = dict(n=0, crash=0, data=0, unclear=0)
for i in order:
    f = raw[i]
    cid, cmd, rc, exp, expok, crash, data, dnote, newf, msg, dt = f[:11]
    unclear = "n" if expok == "y" else "y"
    note = f"expected exit {exp}; {dt}"
    if dnote.strip():
        note += f"; auto-data: {dnote.strip()}"
    if newf.strip():
        note += f"; new files: {newf.strip()}"
    j = judg.get(cid)
    if j:
        if j[1] in ("y", "n"): unclear = j[1]
        if j[2] in ("y", "n"): data = j[2]
        if j[3] in ("y", "n"): crash = j[3]
        if j[4]: note = j[4] + " | " + note
    tot["n"] += 1
    tot["crash"] += crash == "y"
    tot["data"] += data == "y"
    tot["unclear"] += unclear == "y"
    out.write("\t".join([cid, cmd, rc, crash, data, unclear, msg[:200], note]) + "\n")
out.close()
print(f"cases {tot['n']}  crashes {tot['crash']}  data {tot['data']}  unclear {tot['unclear']} ({100.0*tot['unclear']/max(1,tot['n']):.1f}%)")
