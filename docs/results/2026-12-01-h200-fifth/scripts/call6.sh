#!/usr/bin/env bash
# Fifth session: before/after per candidate in one call, alternating: .devbin-prev vs .devbin.
# LIST: judging_cost.py --only substrings; NAME: the output folder.
set -u
o=${OUT:-/tmp}/${NAME:-slowcost}; mkdir -p "$o"
export PTXBENCH_CASES=/work/main/.devbin/cases
for f in ${LIST:?}; do
  for b in prev new; do
    bin=/work/main/.devbin; [ $b = prev ] && bin=/work/main/.devbin-prev
    python3 bench/judging_cost.py --ptxbench $bin/ptxbench --only "$f" --out "$o/$b.part" >> "$o/$b.log" 2>&1
    cat "$o/$b.part" >> "$o/$b.jsonl"
  done
done
for b in prev new; do echo "== $b"; python3 - "$o/$b.jsonl" <<'PY'
import json,sys,statistics
rows=[json.loads(l) for l in open(sys.argv[1])]
for r in rows:
    print(f"{r.get('eval_s') or 0:6.2f} {r['file'][-40:]:40s} {r['outcome']:10s} wu={r.get('warmup_rounds')} sr={r.get('sampled_rounds')} lib={r.get('library_setup',0):.2f} ver={r.get('verifier',0):.2f} setup_ms={ {k:round(v) for k,v in (r.get('setup_ms') or {}).items()} } stop={r.get('stop')}")
v=sorted((r.get('eval_s') or 0) for r in rows); print("sum", round(sum(v),2), "median", statistics.median(v))
PY
done | tee "$o/summary.txt"
