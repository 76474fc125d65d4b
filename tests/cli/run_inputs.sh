#!/usr/bin/env bash
# run_inputs.sh PTXBENCH: how a run's candidates get their inputs is recorded in the run file
# (provenance.pipeline.inputs): one input seed for the run by default ("per_run", the base input
# sets shared, src/eval/plan.h), every candidate its own with --fresh-inputs ("per_candidate"),
# and the same for `rejudge`. --fresh-inputs goes with --resume (it changes no stored setting).
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

"$ptxbench" run "${plan[@]}" --out shared.db >/dev/null 2>&1 || fail "run --out shared.db"
[ "$(inputs_of shared.db)" = per_run ] || fail "a run shares its inputs by default: got '$(inputs_of shared.db)'"
"$ptxbench" run "${plan[@]}" --fresh-inputs --out fresh.db >/dev/null 2>&1 || fail "run --fresh-inputs"
[ "$(inputs_of fresh.db)" = per_candidate ] || fail "--fresh-inputs: got '$(inputs_of fresh.db)'"
"$ptxbench" rejudge shared.db --out again.db >/dev/null 2>&1 || fail "rejudge"
[ "$(inputs_of again.db)" = per_run ] || fail "rejudge shares its inputs by default: got '$(inputs_of again.db)'"
"$ptxbench" rejudge shared.db --fresh-inputs --out again_fresh.db >/dev/null 2>&1 || fail "rejudge --fresh-inputs"
[ "$(inputs_of again_fresh.db)" = per_candidate ] || fail "rejudge --fresh-inputs: got '$(inputs_of again_fresh.db)'"
# --resume takes --fresh-inputs (a finished run: nothing left to do, exit 0).
out=$("$ptxbench" run --resume shared.db --fresh-inputs --no-progress 2>&1) ||
  fail "run --resume --fresh-inputs was refused: $out"
echo "ok: per_run by default, per_candidate with --fresh-inputs (run, rejudge); --resume takes it"
