#!/usr/bin/env bash
# Nsight Compute profiles of reference kernels on their timed workload (GPU machine; called by
# the `profile` phase of scripts/device-run.sh):
#   scripts/device-profile.sh BIN_DIR OUT_DIR [KERNEL.cu:TASK ...]
# Default: the five sm_90a references. For each: `ptxbench compile` (the carried cache), then
# ncu on the audit worker's plain run of the candidate (inputs filled with normal values; the
# worker's fill kernels are skipped), every kernel launch of one call profiled with the
# SpeedOfLight, ComputeWorkloadAnalysis, MemoryWorkloadAnalysis, Occupancy, SchedulerStats and
# WarpStateStats sections (their bodies too where this ncu can print them) plus the per-reason
# warp stall metrics (averaged over every warp, producer warps included), clocks left as found. Writes OUT_DIR/TASK.csv (ncu
# --csv --page details, ncu's own messages removed) and OUT_DIR/TASK.log (those messages).
# bench/ncu_summary.py turns the CSVs into the table of docs/results/attention-reference.md.
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
# Warp stall reasons, as cycles per issued instruction; only those this ncu knows are asked for
# (an unknown metric name would fail the whole profile).
stall_reasons=(barrier branch_resolving dispatch_stall drain imc_miss lg_throttle long_scoreboard
               math_pipe_throttle membar mio_throttle misc no_instruction not_selected selected
               short_scoreboard sleeping tex_throttle wait)
known=$(ncu --query-metrics 2>/dev/null | awk '{print $1}')
metrics=()
for r in "${stall_reasons[@]}"; do
  m=smsp__average_warps_issue_stalled_${r}_per_issue_active
  grep -qx "$m" <<< "$known" && metrics+=("$m.ratio")
done
extra=()
[ ${#metrics[@]} -gt 0 ] && extra+=(--metrics "$(IFS=,; echo "${metrics[*]}")")
ncu --help 2>&1 | grep -q -- '--print-details' && extra+=(--print-details all)
echo "profile: ${#metrics[@]} stall metrics; extra ncu options: ${extra[*]:-none}"
tasks_json=$out/tasks.json  # the task specs, read once
"$bin/ptxbench" tasks --json > "$tasks_json"
status=0
for entry in "${targets[@]}"; do
  src=${entry%%:*}
  task=${entry##*:}
  so=$("$bin/ptxbench" compile "$src" --task "$task" --json | python3 -c 'import json,sys; print(json.load(sys.stdin).get("shared_object") or "")')
  if [ -z "$so" ]; then echo "profile: $task did not compile" | tee -a "$out/$task.log"; status=1; continue; fi
  # The worker's tensors for the timed workload, from the task spec: in/out:dtype:shape.
  mapfile -t tensors < <(python3 -c '
import json, sys
task = [t for t in json.load(open(sys.argv[2])) if t["name"] == sys.argv[1]][0]
axes = [w for w in task["workloads"] if w["role"] == "timed"][0]["axes"]
short = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32"}
for role, key in (("in", "inputs"), ("out", "outputs")):
    for t in task[key]:
        dims = "x".join(str(axes[a]) for a in t["shape"])
        print("--tensor")
        print(role + ":" + short[t["dtype"]] + ":" + dims)
' "$task" "$tasks_json")
  if [ ${#tensors[@]} -lt 4 ]; then echo "profile: no tensors for $task" | tee -a "$out/$task.log"; status=1; continue; fi
  n_inputs=$(printf '%s\n' "${tensors[@]}" | grep -c '^in:')  # one fill launch per input
  mkdir -p "$out/work-$task"
  timeout 300 ncu --clock-control none --launch-skip "$n_inputs" --launch-count 4 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section Occupancy --section SchedulerStats --section WarpStateStats "${extra[@]}" --csv --page details \
    "$bin/ptxbench-audit-worker" --mode run --so "$so" --out "$out/work-$task" "${tensors[@]}" \
    > "$out/$task.raw" 2> "$out/$task.log" || { echo "profile: ncu failed for $task (see $task.log)"; status=1; }
  grep '^==' "$out/$task.raw" >> "$out/$task.log"
  grep -v '^==' "$out/$task.raw" > "$out/$task.csv"
  rm -f "$out/$task.raw"
  echo "profile: $task -> $out/$task.csv ($(grep -c . "$out/$task.csv") lines)"
done
exit $status
