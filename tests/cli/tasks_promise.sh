#!/usr/bin/env bash
# `ptxbench tasks --json` lists each task's promise and its timed workload, never a hidden one
# (issue 34: hidden workloads are drawn per session). Every task: exactly one workload, role
# "timed"; every varying axis a constraint with min, max, multiple_of and the sentence the task's
# description states; no "hidden" anywhere. The table shows the promise column.
set -euo pipefail
ptxbench=${1:?usage: tasks_promise.sh PTXBENCH}
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$ptxbench" tasks --json >"$tmp" || fail "tasks --json exited $?"
python3 - "$tmp" <<'PY' || fail "tasks --json does not list promises alone"
import json, sys
tasks = json.load(open(sys.argv[1]))
assert len(tasks) == 32, len(tasks)
for t in tasks:
    assert [w["role"] for w in t["workloads"]] == ["timed"], (t["name"], t["workloads"])
    assert t["constraints"], t["name"]
    for axis, c in t["constraints"].items():
        assert c["min"] <= c["max"] and c["multiple_of"] >= 1, (t["name"], axis, c)
        assert f'{axis} {c["promise"]}' in t["description"], (t["name"], axis, c["promise"])
    assert "hidden" not in json.dumps(t["workloads"]), t["name"]
print("ok:", len(tasks), "tasks list their promise and their timed workload only")
PY
"$ptxbench" tasks --suite core | grep -q "PROMISE (HIDDEN SIZES DRAWN FROM IT)" || fail "no promise column"
"$ptxbench" tasks --suite core | grep -q "gemm_n7168_k5120 .* M 1..16384" || fail "no GEMM promise"
"$ptxbench" tasks --suite core | grep -q "mha_bwd_d128 .* B 1..8 H 1..64 S 128..8192/128" ||
  fail "no attention promise"
echo "ok: the table shows the promises"
