#!/usr/bin/env bash
# A kernel exported to FlashInfer-Trace and imported back gets the same verdict (issue 36):
#
#   scripts/device-interop.sh OUT_DIR BIN [KERNEL.cu:TASK ...]
#
# BIN: a ptxbench binary, or the folder holding one (device-run.sh passes .devbin). For each
# kernel (default: the sm_90a references of gemm_n7168_k5120 and mha_with_lse_d128):
#   1. before: `ptxbench eval KERNEL --task TASK --seed SEED --json`;
#   2. export: a one-turn run of the scripted agent submitting the kernel (a scratch
#      PTXBENCH_ROOT whose trajectories/interop/ holds that one turn; static only,
#      PTXBENCH_NO_GPU=1: the verdicts compared are the two evals'), then
#      `ptxbench export-fib RUN.db --out OUT_DIR/NAME/dataset`;
#   3. import: the dataset's solution source written back to OUT_DIR/NAME/imported.cu, its
#      definition imported with `ptxbench import-fib` (the task file is kept for the record);
#   4. after: `ptxbench eval imported.cu --task-config DEFINITION.json --workloads W.jsonl --seed
#      SEED --json` (the reference's invocation, importing the definition on the fly);
# and prints one line: before and after (disposition, outcome, speedup, audit families),
# then "same verdict" (same source, disposition, outcome and family verdicts) or "DIFFERENT".
# Environment: SEED (default 36), ARCH (sm_90a), EVAL_ARGS (more eval options, both sides),
# DRY=1: no GPU (PTXBENCH_NO_GPU=1: compile and static audit only, both verdicts
# not_evaluated), which exercises the whole round trip on a CPU machine.
# Exit status: 0 when every kernel got the same verdict, 1 otherwise or on a failed step.
set -uo pipefail
[ $# -ge 2 ] || { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2; }
out=$1 bin=$2
shift 2
[ -d "$bin" ] && bin=$bin/ptxbench
[ -x "$bin" ] || { echo "device-interop: $bin is not a ptxbench binary" >&2; exit 2; }
root=${PTXBENCH_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
seed=${SEED:-36} arch=${ARCH:-sm_90a}
[ "${DRY:-0}" = 1 ] && export PTXBENCH_NO_GPU=1
read -r -a eval_args <<< "${EVAL_ARGS:-}"
[ $# -gt 0 ] || set -- kernels/reference/sm_90a/gemm_n7168_k5120.cu:gemm_n7168_k5120 \
  kernels/reference/sm_90a/mha_with_lse_d128.cu:mha_with_lse_d128
mkdir -p "$out"
out=$(cd "$out" && pwd)

# One line from an eval --json report: disposition outcome speedup families eval.v1-status.
verdict() {
  python3 - "$1" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except Exception as e:
    print("no-JSON", "-", "-", "-"); sys.exit()
ev = j.get("eval") or {}
sp = (ev.get("timing") or {}).get("speedup")
fams = (j.get("audit") or {}).get("families") or []
fam = ",".join(f"{f.get('name')}={f.get('verdict')}" for f in fams if isinstance(f, dict))
if not fam:  # no GPU: the static census of the SASS
    cen = (j.get("audit") or {}).get("census") or (j.get("compile") or {}).get("census") or {}
    fam = "static:" + ",".join(cen.get("targets_present") or ["none"])
print(j.get("disposition") or "-", ev.get("outcome") or "-",
      "-" if sp is None else f"{sp:.3f}", fam, j.get("status") or "-")
PY
}

# The scratch root of the export run: the real root's folders, the kernel, a one-turn trajectory.
scratch_root() {  # dir kernel task
  local d=$1 f
  mkdir -p "$d/trajectories/interop" "$d/candidates"
  for f in tasks context kernels .deps; do [ -e "$root/$f" ] && ln -s "$root/$f" "$d/$f"; done
  cp "$2" "$d/candidates/kernel.cu"
  printf '%s\n' 'version = "interop"' "task = \"$3\"" "arch = \"$arch\"" '' '[[turn]]' \
    'text = "The kernel under test (scripts/device-interop.sh)."' \
    'kernel = "candidates/kernel.cu"' > "$d/trajectories/interop/$3.$arch.toml"
}

status=0
fail() { echo "$name ($task): FAILED at $1 (logs in $o)"; status=1; }
for spec in "$@"; do
  kernel=${spec%%:*} task=${spec##*:}
  [ -f "$kernel" ] || kernel=$root/$kernel
  name=$(basename "$kernel" .cu)
  o=$out/$name
  rm -rf "$o" && mkdir -p "$o"
  "$bin" eval "$kernel" --task "$task" --arch "$arch" --seed "$seed" "${eval_args[@]}" --json \
    > "$o/before.json" 2> "$o/before.err"
  scratch_root "$o/root" "$kernel" "$task"
  if ! PTXBENCH_ROOT=$o/root PTXBENCH_NO_GPU=1 "$bin" run --tasks "$task" --arch "$arch" --turns 1 \
      --scripted-version interop --out "$o/run.db" --no-progress > "$o/run.log" 2>&1; then
    fail "run (export's run file)"; continue
  fi
  if ! PTXBENCH_ROOT=$o/root "$bin" export-fib "$o/run.db" --out "$o/dataset" > "$o/export.log" 2>&1; then
    fail export-fib; continue
  fi
  def=$(find "$o/dataset/definitions" -name "$task.json" | head -1)
  wl=$(find "$o/dataset/workloads" -name "$task.jsonl" | head -1)
  sol=$(find "$o/dataset/solutions" -path "*/$task/*.json" | head -1)
  if [ -z "$def" ] || [ -z "$wl" ] || [ -z "$sol" ]; then fail "the dataset (no definition, workloads or solution)"; continue; fi
  if ! python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
src = [x["content"] for x in s["sources"] if x["path"] == s["spec"]["entry_point"].split("::")[0]]
open(sys.argv[2], "w").write(src[0])' "$sol" "$o/imported.cu"; then
    fail "reading the solution's source"; continue
  fi
  if ! "$bin" import-fib "$def" "$wl" --out "$o/tasks" > "$o/import.log" 2>&1; then
    fail import-fib; continue
  fi
  "$bin" eval "$o/imported.cu" --task-config "$def" --workloads "$wl" --arch "$arch" --seed "$seed" \
    "${eval_args[@]}" --json > "$o/after.json" 2> "$o/after.err"
  read -r bd bo bs bf _ <<< "$(verdict "$o/before.json")"
  read -r ad ao as af av <<< "$(verdict "$o/after.json")"
  same="same verdict"
  cmp -s "$kernel" "$o/imported.cu" || same="DIFFERENT (the imported source differs)"
  if [ "$bd" = no-JSON ] || [ "$ad" = no-JSON ]; then
    same="DIFFERENT (no report)"
  elif [ "$bd $bo $bf" != "$ad $ao $af" ]; then
    same="DIFFERENT"
  fi
  [ "$same" = "same verdict" ] || status=1
  echo "$name ($task): before $bd/$bo speedup $bs $bf | after $ad/$ao speedup $as $af (eval.v1 $av) | $same"
done
exit $status
