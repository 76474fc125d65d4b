#!/usr/bin/env bash
# run_inputs.sh PTXBENCH: where a run's candidates get their inputs is recorded in the run file
# (provenance.pipeline.inputs): every candidate its own by default ("per_candidate"), one secret
# input seed for the run with --shared-inputs ("per_run", the base input sets shared,
# src/eval/plan.h); the same for `rejudge`. A resumed run keeps its stored policy (and refuses
# --shared-inputs, as it refuses every option that would change a stored setting).
# No GPU needed: PTXBENCH_NO_GPU=1, one scripted turn of the GEMM task.
set -uo pipefail
ptxbench=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-inputs-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export PTXBENCH_NO_GPU=1 PTXBENCH_CACHE=$tmp/cache
plan=(--tasks gemm_n7168_k5120 --turns 1 --no-progress)
fail() { echo "FAIL: $*" >&2; exit 1; }
inputs_of() {
  sqlite3 "file:$1?mode=ro" "SELECT json_extract(provenance_json, '$.pipeline.inputs') FROM runs"
}

"$ptxbench" run "${plan[@]}" --out own.db 2>own.err >/dev/null || fail "run --out own.db: $(cat own.err)"
[ "$(inputs_of own.db)" = per_candidate ] || fail "by default each candidate has its own inputs: got '$(inputs_of own.db)'"
grep -q "^inputs: each candidate its own" own.err || fail "run does not say where its inputs come from: $(cat own.err)"
"$ptxbench" run "${plan[@]}" --shared-inputs --out shared.db 2>shared.err >/dev/null || fail "run --shared-inputs: $(cat shared.err)"
[ "$(inputs_of shared.db)" = per_run ] || fail "--shared-inputs: got '$(inputs_of shared.db)'"
grep -q "^inputs: shared by this run's candidates" shared.err || fail "run --shared-inputs does not say so: $(cat shared.err)"
"$ptxbench" rejudge own.db --out again.db >/dev/null 2>&1 || fail "rejudge"
[ "$(inputs_of again.db)" = per_candidate ] || fail "rejudge: got '$(inputs_of again.db)'"
"$ptxbench" rejudge own.db --shared-inputs --out again_shared.db >/dev/null 2>&1 || fail "rejudge --shared-inputs"
[ "$(inputs_of again_shared.db)" = per_run ] || fail "rejudge --shared-inputs: got '$(inputs_of again_shared.db)'"
# A resumed run keeps its stored policy, and refuses to be told another. (A finished run has
# nothing to resume: each is resumed as a run whose trajectory failed.)
for f in shared.db own.db; do sqlite3 "$f" "UPDATE trajectories SET status = 'failed'" || fail "sqlite3 $f"; done
"$ptxbench" run --resume shared.db --no-progress 2>resumed.err >/dev/null || fail "run --resume shared.db: $(cat resumed.err)"
grep -q "^inputs: shared by this run's candidates" resumed.err || fail "a resumed --shared-inputs run lost its policy: $(cat resumed.err)"
"$ptxbench" run --resume own.db --no-progress 2>resumed.err >/dev/null || fail "run --resume own.db: $(cat resumed.err)"
grep -q "^inputs: each candidate its own" resumed.err || fail "a resumed run took another policy: $(cat resumed.err)"
out=$("$ptxbench" run --resume own.db --shared-inputs --no-progress 2>&1)
[ $? -eq 2 ] && grep -q -- "--shared-inputs would be ignored" <<<"$out" || fail "run --resume --shared-inputs was not refused: $out"
echo "ok: per_candidate by default, per_run with --shared-inputs (run, rejudge); --resume keeps it"
