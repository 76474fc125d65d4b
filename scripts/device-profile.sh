#!/usr/bin/env bash
# Nsight Compute profiles of reference kernels on their timed workload (GPU machine; called by
# the `profile` phase of scripts/device-run.sh):
#   scripts/device-profile.sh BIN_DIR OUT_DIR [KERNEL.cu:TASK ...]
# Default: the five sm_90a references. For each: `ptxbench audit --route ncu` on the timed
# workload (the carried compile cache; one judging session, no timing), with a stand-in for ncu
# that profiles every kernel launch of the audited call (the audit's NVTX range) with the
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
ncu_bin=$(command -v ncu)
status=0
for entry in "${targets[@]}"; do
  src=${entry%%:*}
  task=${entry##*:}
  timed=$("$bin/ptxbench" tasks --json | python3 -c '
import json, sys
t = [t for t in json.load(sys.stdin) if t["name"] == sys.argv[1]][0]
print([w for w in t["workloads"] if w["role"] == "timed"][0]["name"])' "$task")
  # ptxbench runs the judging session's runner under "ncu"; this stand-in keeps the runner's
  # command line (its last two words) and the audit's NVTX range (the audited call on the timed
  # workload) and asks for the profile's sections instead. The runner runs unprivileged: the log
  # goes to a folder it may write.
  work=$(mktemp -d) && chmod 0777 "$work"
  cat > "$work/ncu" <<SH
#!/usr/bin/env bash
n=\$#
exec "$ncu_bin" --clock-control none --nvtx --nvtx-include ptxbench_audit/ \
  --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
  --section Occupancy --section SchedulerStats --section WarpStateStats ${extra[*]} \
  --csv --page details --log-file "$work/ncu.csv" "\${@:n-1:1}" "\${@:n:1}"
SH
  chmod 0755 "$work/ncu"
  PTXBENCH_NCU="$work/ncu" timeout 600 "$bin/ptxbench" audit "$src" --task "$task" --route ncu \
    --workload "$timed" > "$out/$task.log" 2>&1
  if [ ! -s "$work/ncu.csv" ]; then
    echo "profile: ncu wrote nothing for $task (see $task.log)"; status=1; rm -rf "$work"; continue
  fi
  grep '^==' "$work/ncu.csv" >> "$out/$task.log"
  grep -v '^==' "$work/ncu.csv" > "$out/$task.csv"
  rm -rf "$work"
  echo "profile: $task -> $out/$task.csv ($(grep -c . "$out/$task.csv") lines)"
done
exit $status
