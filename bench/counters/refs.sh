#!/usr/bin/env bash
# The sm_90a references judged once each with `ptxbench eval --json` (on the GPU machine, inside
# scripts/device-run.sh's environment): disposition, exit code, and the timed calls' counters
# (audit.timed_counts) beside the audit's own coverage. Usage: bench/counters/refs.sh PTXBENCH OUTDIR
# REFS="task ..." judges only those; EVAL_ARGS="..." are added to every eval (e.g. --count-timed-calls).
set -uo pipefail
bin=$1
out=$2
mkdir -p "$out"
for t in ${REFS:-gemm_n7168_k5120 mha_with_lse_d128 mha_with_lse_d128_causal mha_bwd_d128 mha_bwd_d128_causal}; do
  "$bin" eval "kernels/reference/sm_90a/$t.cu" --task "$t" ${EVAL_ARGS:-} --json >"$out/$t.json" 2>"$out/$t.err"
  echo "$t exit $?"
  python3 - "$out/$t.json" <<'PY'
import json, sys
d, _ = json.JSONDecoder().raw_decode(open(sys.argv[1]).read())
a = d.get("audit") or {}
t = a.get("timed_counts")
cov = (a.get("coverage") or {}).get("ratio")
fam = {f["name"]: f["verdict"] for f in a.get("families", []) if f.get("target")}
print("  disposition", d.get("disposition"), "families", fam, "coverage", cov)
print("  timed_counts", json.dumps(t))
print("  speedup", ((d.get("eval") or {}).get("timing") or {}).get("speedup"))
PY
done
