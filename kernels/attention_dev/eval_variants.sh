#!/bin/bash
# Backward-kernel variants through `ptxbench eval` on the GPU machine, in interleaved rounds so
# that clock drift under the power cap touches every variant alike:
#   kernels/attention_dev/eval_variants.sh PTXBENCH ROUNDS FILE.cu ...
# A file whose name contains "causal" is evaluated as mha_bwd_d128_causal, else mha_bwd_d128.
# One line per evaluation: round, file, outcome, speedup vs cuDNN (same process), TFLOP/s (kernel,
# cuDNN), the kernel's median time and relative IQR, flags.
set -u
ptxbench=${1:?ptxbench}
rounds=${2:?rounds}
shift 2
for r in $(seq 1 "$rounds"); do
  for f in "$@"; do
    task=mha_bwd_d128; case $f in *causal*) task=mha_bwd_d128_causal ;; esac
    "$ptxbench" eval "$f" --task "$task" --json --no-audit --sample-budget 2 2>/dev/null | python3 -c '
import json, sys
r, f = sys.argv[1], sys.argv[2]
try:
    d = json.loads(sys.stdin.read())
except ValueError:
    print(r, f, "no JSON"); sys.exit()
e = d.get("eval") or {}
t = e.get("timing") or {}
c = t.get("candidate") or {}
print(r, f.split("/")[-1], e.get("outcome"), "speedup", t.get("speedup"), "tflops", t.get("tflops"), "cudnn",
      t.get("baseline_tflops"), "median_ms", c.get("median_ms"), "rel_iqr", c.get("rel_iqr"), e.get("flags"), flush=True)
' "$r" "$f"
  done
done
