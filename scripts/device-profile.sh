#!/usr/bin/env bash
# Nsight Compute profiles of reference kernels on their timed workload (GPU machine; called by
# the `profile` phase of scripts/device-run.sh):
#   scripts/device-profile.sh BIN_DIR OUT_DIR [KERNEL.cu:TASK ...]
# Default: the five sm_90a references. For each: `ptxbench compile` (the carried cache), then
# ncu on the audit worker's plain run of the candidate (inputs filled with normal values; the
# worker's fill kernels are skipped), every kernel launch of one call profiled with the
# SpeedOfLight, ComputeWorkloadAnalysis, MemoryWorkloadAnalysis, Occupancy, SchedulerStats and
# WarpStateStats sections, clocks left as found. Writes OUT_DIR/TASK.csv (ncu --csv --page
# details) and OUT_DIR/TASK.log.
set -uo pipefail
bin=${1:?bin dir}
out=${2:?out dir}
shift 2
mkdir -p "$out"
root=$(cd "$(dirname "$0")/.." && pwd)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for t in gemm_n7168_k5120 mha_with_lse_d128 mha_with_lse_d128_causal mha_bwd_d128 mha_bwd_d128_causal; do
    targets+=("$root/kernels/reference/sm_90a/$t.cu:$t")
  done
fi
status=0
for entry in "${targets[@]}"; do
  src=${entry%%:*}
  task=${entry##*:}
  so=$("$bin/ptxbench" compile "$src" --task "$task" --json | python3 -c 'import json,sys; print(json.load(sys.stdin).get("shared_object") or "")')
  if [ -z "$so" ]; then echo "profile: $task did not compile" | tee -a "$out/$task.log"; status=1; continue; fi
  # The worker's tensors for the timed workload, from the task spec: in/out:dtype:shape.
  mapfile -t tensors < <("$bin/ptxbench" tasks --json | python3 -c '
import json, sys
task = [t for t in json.load(sys.stdin) if t["name"] == sys.argv[1]][0]
axes = [w for w in task["workloads"] if w["role"] == "timed"][0]["axes"]
short = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32"}
for role, key in (("in", "inputs"), ("out", "outputs")):
    for t in task[key]:
        dims = "x".join(str(axes[a]) for a in t["shape"])
        print("--tensor")
        print(role + ":" + short[t["dtype"]] + ":" + dims)
print("--inputs-count"); print(len(task["inputs"]))
' "$task")
  if [ ${#tensors[@]} -lt 4 ]; then echo "profile: no tensors for $task" | tee -a "$out/$task.log"; status=1; continue; fi
  n=${#tensors[@]}
  n_inputs=${tensors[n - 1]}
  tensors=("${tensors[@]:0:n-2}")  # drop "--inputs-count N"
  timeout 300 ncu --clock-control none --launch-skip "$n_inputs" --launch-count 4 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section Occupancy --section SchedulerStats --section WarpStateStats --csv --page details \
    "$bin/ptxbench-audit-worker" --mode run --so "$so" --out "$out/work-$task" "${tensors[@]}" \
    > "$out/$task.csv" 2> "$out/$task.log" || { echo "profile: ncu failed for $task (see $task.log)"; status=1; }
  echo "profile: $task -> $out/$task.csv ($(grep -c . "$out/$task.csv") lines)"
done
exit $status
