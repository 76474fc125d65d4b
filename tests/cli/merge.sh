#!/usr/bin/env bash
# merge.sh PTXBENCH: sharded runs of the scripted main job (no GPU: PTXBENCH_NO_GPU=1, the
# turns compiled and statically audited) merged with `ptxbench merge` give what one unsharded
# run of the same plan gives: `show --json` (but for the file, its time and provenance),
# `show --turns` and `sft coverage --json` (the measured cost left out: compare_runs.py).
# Shard 0 is run with --shard 0/2, shard 1 as a Slurm array task would run it
# (SLURM_ARRAY_TASK_ID/COUNT, no --shard). Then shard 0 is killed (SIGKILL, once it has stored a
# turn) and resumed with --resume: the merge of the resumed shard is identical to the merge of
# the one that never died.
set -uo pipefail
ptxbench=$1
here=$(cd "$(dirname "$0")" && pwd)
compare=$here/../slurm/compare_runs.py
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-merge-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export PTXBENCH_NO_GPU=1 PTXBENCH_CACHE=$tmp/cache
plan=(--tasks gemm_n7168_k5120,mha_with_lse_d128 --samples 2 --no-progress)
fail() { echo "FAIL: $*" >&2; exit 1; }

# What a reader sees of a run file, in files named after it.
views() {
  "$ptxbench" show --json "$1.db" >"$1.json" || fail "show --json $1.db"
  # The measured cost (nvcc's CPU-seconds: 0 on a compile-cache hit; clocks) is left out.
  "$ptxbench" show --turns "$1.db" | tail -n +2 | sed -E 's/ tokens [0-9].*$/ (cost)/' >"$1.turns" ||
    fail "show --turns $1.db"
  # The sources' file path, hash, size, time and provenance are the file's own, not results.
  "$ptxbench" sft coverage --json "$1.db" | python3 -c '
import json, sys
j = json.load(sys.stdin)
j["sources"] = [{k: s[k] for k in ("trajectories", "mined_trajectories", "turns")} for s in j["sources"]]
print(json.dumps(j, indent=1, sort_keys=True))' >"$1.coverage" || fail "sft coverage $1.db"
}
same_views() {
  python3 "$compare" "$1.json" "$2.json" || fail "show --json of $1.db and $2.db differ"
  diff "$1.turns" "$2.turns" || fail "show --turns of $1.db and $2.db differ"
  diff "$1.coverage" "$2.coverage" || fail "sft coverage of $1.db and $2.db differ"
}

"$ptxbench" run "${plan[@]}" --out whole.db >/dev/null 2>&1 || fail "the unsharded run failed"
"$ptxbench" run "${plan[@]}" --shard 0/2 --out s0.db >/dev/null 2>s0.err || fail "shard 0/2"
grep -q "shard 0/2 (from --shard): 2 of the plan's 4 trajectories" s0.err || fail "$(cat s0.err)"
SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=2 "$ptxbench" run "${plan[@]}" --gpus 1 \
  --concurrency 2 --out s1.db >/dev/null 2>s1.err || fail "shard 1/2 from the Slurm variables"
grep -q "shard 1/2 (from SLURM_ARRAY_TASK_ID): 2 of the plan's 4" s1.err || fail "$(cat s1.err)"
[ "$(sqlite3 "file:s1.db?mode=ro" "SELECT json_extract(provenance_json, '$.shard.index') || '/' || json_extract(provenance_json, '$.shard.count') FROM runs")" = 1/2 ] ||
  fail "s1.db's provenance does not record shard 1/2"

"$ptxbench" merge s1.db s0.db --out merged.db || fail "merge"
views whole
views merged
same_views whole merged
[ "$(sqlite3 "file:merged.db?mode=ro" "SELECT status FROM runs")" = done ] || fail "merged.db not done"

# Shard 0 killed by SIGKILL once it has stored a turn (a fresh compile cache, so that its
# compiles take seconds), then resumed.
PTXBENCH_CACHE="$tmp/cold" "$ptxbench" run "${plan[@]}" --shard 0/2 --out k0.db >/dev/null \
  2>k0.err &
pid=$!
for _ in $(seq 1200); do
  n=$(sqlite3 "file:k0.db?mode=ro" "SELECT COUNT(*) FROM turns" 2>/dev/null || echo 0)
  [ "${n:-0}" -ge 1 ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
kill -KILL $pid 2>/dev/null
wait $pid
rc=$?
[ $rc -eq 137 ] || fail "the shard was not killed (exit $rc): $(cat k0.err)"
left=$(sqlite3 "file:k0.db?mode=ro" "SELECT status FROM runs")
[ "$left" = running ] || fail "the killed shard's run is '$left'"
turns=$(sqlite3 "file:k0.db?mode=ro" "SELECT COUNT(*) FROM turns")
[ "$turns" -ge 1 ] && [ "$turns" -lt 8 ] || fail "the killed shard stored $turns turns (want 1..7)"
"$ptxbench" merge k0.db s1.db --out refused.db 2>refused.err && fail "merged a killed shard"
grep -q "k0.db (shard 0/2) did not finish" refused.err || fail "$(cat refused.err)"
"$ptxbench" run --resume k0.db --no-progress >/dev/null 2>k0r.err || fail "resume: $(cat k0r.err)"
"$ptxbench" merge k0.db s1.db --out resumed.db || fail "merge of the resumed shard"
views resumed
same_views merged resumed
echo "ok: merged shards equal the unsharded run; a killed and resumed shard merges the same"
