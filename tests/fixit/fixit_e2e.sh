#!/usr/bin/env bash
# fixit_e2e.sh PTXBENCH
# The short Fixit loop on the real model's weights and real exported rows
# (scripts/fixit-e2e.sh --short: 2 tasks, 1 turn, 300 tokens a reply; 3 training steps at 256
# tokens on 2 repair rows of the shipped H200 runs). Asserts that
#   - the loop ran every step (exit 0), and the export read the H200 rows;
#   - the training loss went down (metrics.json: last_loss < first_loss) over 3 steps;
#   - the adapter loaded in the server (GET /lora-adapters listed it at scale 1), and
#     endpoint-start.sh refuses a missing or broken adapter with a clear error;
#   - the second run completed (as many finished trajectories and turns as the first), and
#     the comparison names both runs and has a row per task, with correctness "n/e" or 0
#     where no GPU ran the turns.
# Exit 77 (skipped) where the endpoint or the training stack is not installed, unless $CI is
# set (scripts/test.sh installs both). The output folder is kept when the test fails.
set -u
ptxbench=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
python=${PTXBENCH_TRAINING_PYTHON:-$root/.deps/training-venv/bin/python}
skip() {
  echo "SKIPPED: $1"
  [ -n "${CI:-}" ] && { echo "FAIL: \$CI is set, so it must be installed"; exit 1; }
  exit 77
}
. "$root/scripts/endpoint-env.sh"
[ -x "$llama_server" ] && [ -f "$gemma_gguf" ] ||
  skip "the test endpoint is not installed (scripts/endpoint-install.sh; scripts/test.sh runs it)"
[ -x "$python" ] && "$python" -c 'import torch, transformers, trl, peft, gguf' 2>/dev/null ||
  skip "the training stack is not installed in $python (PTXBENCH_TRAINING_DEPS=1 training/setup.sh; scripts/test.sh runs it)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-fixit-XXXXXX")
out=$tmp/out
fail() {
  echo "FAIL: $*" >&2
  echo "the loop's output is kept in $out" >&2
  exit 1
}
q() { sqlite3 -batch -noheader "$1" "$2"; }
export PTXBENCH_CACHE="$tmp/cache"

# An adapter that is not there, or not a GGUF LoRA, stops endpoint-start.sh with a clear
# error and no server left running.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'not a gguf' >"$tmp/junk.gguf"
for lora in "$tmp/missing.gguf" "$tmp/junk.gguf"; do
  PTXBENCH_ENDPOINT_PORT=$port PTXBENCH_ENDPOINT_LORA=$lora "$root/scripts/endpoint-start.sh" \
    "$tmp/bad-server" >"$tmp/bad.log" 2>&1 && fail "endpoint-start.sh accepted the adapter $lora"
  grep -q "endpoint-start: error:" "$tmp/bad.log" || { cat "$tmp/bad.log"; fail "no clear error for $lora"; }
  curl -s -o /dev/null "http://127.0.0.1:$port/health" && fail "a server still answers after $lora"
done
[ -f "$tmp/bad-server/server.pid" ] && fail "endpoint-start.sh left a pid file"

t0=$(date +%s)
PTXBENCH="$ptxbench" PTXBENCH_TRAINING_PYTHON="$python" PTXBENCH_E2E_TAIL=40 \
  "$root/scripts/fixit-e2e.sh" --short --out "$out"
got=$?
echo "time: the loop: $(($(date +%s) - t0)) s"
[ -f "$out/steps.tsv" ] && cat "$out/steps.tsv"
[ "$got" -eq 0 ] || fail "scripts/fixit-e2e.sh --short: exit $got, expected 0"

# The rows: the shipped H200 runs' repairs (the CPU run has none: nothing is correct here).
[ "$(wc -l <"$out/rows/train.jsonl")" -ge 2 ] || fail "sft fixit exported fewer than 2 rows"
grep -q '"mode": "fixit"' "$out/rows/manifest.json" || fail "rows/manifest.json is not a fixit export's"

# The loss went down, on the rows and steps asked for.
"$python" - "$out/adapter/metrics.json" <<'PY' || fail "metrics.json: the loss did not go down as expected"
import json, math, sys
m = json.load(open(sys.argv[1]))
print(f"metrics: rows {m['rows']}, steps {m['steps']}, losses {m['losses']}")
assert m["rows"]["used"] == 2, "2 rows used"
assert m["steps"] == 3 and len(m["losses"]) == 3, "3 steps logged"
assert all(math.isfinite(x) and x > 0 for x in m["losses"]), "finite losses"
assert m["last_loss"] < m["first_loss"], "last < first"
PY
[ -s "$out/adapter/adapter.gguf" ] || fail "no GGUF adapter"
[ "$(head -c 4 "$out/adapter/adapter.gguf")" = GGUF ] || fail "adapter.gguf is not a GGUF file"

# The server listed the adapter (the loop saved its GET /lora-adapters answer).
"$python" - "$out/server-adapter/lora-adapters.json" "$out/adapter/adapter.gguf" <<'PY' ||
import json, os, sys
listed = json.load(open(sys.argv[1]))
want = os.path.realpath(sys.argv[2])
assert any(os.path.realpath(a["path"]) == want and a["scale"] == 1 for a in listed), listed
PY
  fail "the adapter server did not list $out/adapter/adapter.gguf in GET /lora-adapters"
[ "$(cat "$out/server-base/lora-adapters.json")" = "[]" ] || fail "the base server had an adapter"

# Both runs finished the same plan.
for db in base adapted; do
  [ "$(q "$out/$db.db" "SELECT count(*) FROM trajectories WHERE status = 'done'")" = 2 ] ||
    fail "$db.db: expected 2 finished trajectories"
  [ "$(q "$out/$db.db" "SELECT count(*) FROM messages WHERE role = 'assistant' AND length(content) > 0")" = 2 ] ||
    fail "$db.db: expected 2 stored replies"
done

# The comparison: both runs, a row per task and the total, correctness not claimed.
c=$out/compare.txt
grep -q "^before: $out/base.db" "$c" && grep -q "^after:  $out/adapted.db" "$c" ||
  fail "compare.txt does not name both runs"
for row in "gemm_n7168_k5120 1" "mha_with_lse_d128 1" "all 2"; do
  set -- $row
  grep -qE "^$1 +sm_90a +$2 -> $2 " "$c" || fail "compare.txt has no per-task row for $1"
done
"$python" - "$out/compare.json" <<'PY' || fail "compare.json lacks the per-task shares"
import json, sys
c = json.load(open(sys.argv[1]))
rows = {r["task"]: r for r in c["tasks"]}
assert set(rows) == {"gemm_n7168_k5120", "mha_with_lse_d128", "all"}, rows.keys()
for r in rows.values():
    for side in ("before", "after"):
        s = r[side]
        assert s["turns"] == 1 or r["task"] == "all"
        # Without a GPU no correctness is claimed: unknown (null) where a turn compiled,
        # 0 only where none did.
        if s["gpu_stages"] == "skipped":
            assert s["shares"]["correct"] is None, r
        elif s["gpu_stages"] == "not_reached":
            assert s["shares"]["correct"] == 0, r
PY
grep -q "## Comparison" "$out/summary.md" || fail "no summary.md"
echo "PASS"
rm -rf "$tmp"
