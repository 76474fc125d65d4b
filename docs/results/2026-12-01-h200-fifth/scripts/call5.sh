#!/usr/bin/env bash
# Fifth session: the slow-candidate changes (early slow stop, no warm-up when warm) before/after,
# alternating per candidate in one call: .devbin-prev (4946373) vs .devbin (this commit).
set -u
o=${OUT:-/tmp}/slowcost; mkdir -p "$o"
export PTXBENCH_CASES=/work/main/.devbin/cases
for f in naive_correct_bwd token_wgmma_bwd dead_branch_wgmma_bwd side_stream_bwd naive_correct_fwd \
         token_wgmma_fwd dead_branch_wgmma_fwd launch_split_wgmma_fwd audit_gated_env_fwd \
         host_cpp_runtime helper_named_cudacheck naive_correct.cu reference/sm_90a/gemm reference/sm_90a/mha_with_lse_d128.cu; do
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
    print(f"{r.get('eval_s') or 0:6.2f} {r['file'][-40:]:40s} {r['outcome']:10s} wu={r.get('warmup_rounds')} sr={r.get('sampled_rounds')} stop={r.get('stop')}")
v=sorted((r.get('eval_s') or 0) for r in rows); print("sum", round(sum(v),2), "median", statistics.median(v))
PY
done | tee "$o/summary.txt"
