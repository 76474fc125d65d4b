#!/usr/bin/env bash
# Repeatability: `ptxbench eval` on the same kernel N times (separate processes, fresh
# seeds), then the median and spread of the speedup over the baseline.
#   bench/repeatability.sh KERNEL.cu TASK [N=5] [PTXBENCH=build/ptxbench]
set -euo pipefail
kernel=$1 task=$2 n=${3:-5} ptxbench=${4:-build/ptxbench}
speedups=()
for i in $(seq 1 "$n"); do
  json=$("$ptxbench" eval "$kernel" --task "$task" --json --no-audit 2>/dev/null || "$ptxbench" eval "$kernel" --task "$task" --json || true)
  s=$(python3 -c 'import json,sys; d=json.load(sys.stdin)["eval"]; t=d["timing"]; print(t["speedup"], t["candidate"]["median_ms"], t["baseline"]["median_ms"], d["outcome"])' <<<"$json")
  echo "run $i: speedup cand_ms base_ms outcome = $s"
  speedups+=("$(cut -d' ' -f1 <<<"$s")")
done
python3 - "${speedups[@]}" <<'PY'
import statistics, sys
v = sorted(float(x) for x in sys.argv[1:])
med = statistics.median(v)
print(f"speedup over {len(v)} runs: median {med:.4f}, min {v[0]:.4f}, max {v[-1]:.4f}, "
      f"spread (max-min)/median {100*(v[-1]-v[0])/med:.2f}%, stdev/mean {100*statistics.pstdev(v)/statistics.mean(v):.2f}%")
PY
