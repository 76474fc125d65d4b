#!/usr/bin/env bash
# slurm_job_array.sh PTXBENCH: the README's main job (the embedded scripted agent, here on
# two tasks x 2 samples) through a real Slurm on this machine: a private single-node
# cluster (slurm_lib.sh), `ptxbench slurm submit` of a 2-task job array and its dependent
# merge job, then the merged run's summary must equal an unsharded run's of the same plan.
# No GPU is needed (PTXBENCH_NO_GPU=1: the turns are compiled and statically audited).
# Exit 77 (skipped) only when the daemons cannot start here, saying why.
set -uo pipefail
ptxbench=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/slurm_lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-slurm-XXXXXX")
cleanup() {
  slurm_stop
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

fail() {
  echo "FAIL: $*" >&2
  for f in "$work"/runs/logs/*.out; do [ -e "$f" ] && { echo "--- $f"; cat "$f"; }; done
  slurm_log_tail
  exit 1
}

slurm_start "$work/slurm"
rc=$?
if [ $rc -eq 77 ]; then
  echo "SKIPPED: no Slurm here: $SLURM_SKIP_REASON"
  exit 77
fi
[ $rc -eq 0 ] || fail "slurm_start returned $rc"
echo "slurm: $(sinfo -h -o '%P %a %D %T %N')"

export PTXBENCH_NO_GPU=1 PTXBENCH_CACHE=$work/cache
plan=(--tasks gemm_n7168_k5120,mha_with_lse_d128 --samples 2)

"$ptxbench" run "${plan[@]}" --out "$work/whole.db" --no-progress >"$work/whole.log" 2>&1 ||
  fail "the unsharded run failed"
"$ptxbench" slurm submit --shards 2 --gpus-per-shard 0 --dir "$work/runs" -- "${plan[@]}" ||
  fail "ptxbench slurm submit failed"
slurm_wait_empty 300 || fail "the jobs did not end within 300 s: $(squeue)"
[ -e "$work/runs/merged.db" ] || fail "the merge job wrote no merged.db"
for i in 0 1; do
  grep -q "shard $i/2 (from --shard): 2 of the plan's 4 trajectories" \
    "$work/runs/logs/shard-$i-of-2.out" || fail "array task $i did not run shard $i/2"
done
"$ptxbench" show --json "$work/whole.db" >"$work/whole.json" || fail "show whole.db"
"$ptxbench" show --json "$work/runs/merged.db" >"$work/merged.json" || fail "show merged.db"
python3 "$here/compare_runs.py" "$work/whole.json" "$work/merged.json" ||
  fail "the merged summary differs from the unsharded run's"
python3 - "$work/merged.json" <<'PY' || fail "the merged provenance does not name both shards"
import json, sys
p = json.load(open(sys.argv[1]))["provenance"]
assert [s["shard"] for s in p["merged_from"]] == ["0/2", "1/2"], p["merged_from"]
assert all(s["finished"] for s in p["merged_from"])
PY
echo "ok: a 2-task Slurm job array and its merge job give the unsharded run's summary"
