#!/usr/bin/env bash
# tests/gpu/eval_controls/run.py: concurrent_copies judges N evals of one file at the same time,
# sequential_copies one after the other, also_acceptable widens the verdict, and a
# "PTXBENCH-ESCAPE" line in the worker's output fails an entry whatever its verdict
# (kernels/controls/isolation.toml). A fake ptxbench stands in for the GPU: each eval notes when
# it started and ended, sleeps, and answers $VERDICT with $TAIL as the worker's stderr.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/ptxbench" <<'FAKE'
#!/usr/bin/env bash
if [ "$1" = compile ]; then echo '{"compile":{"outcome":"passed"}}'; exit 0; fi
id=$$
echo "start $(date +%s.%N)" >"$STAMPS/$id"
sleep 1
echo "end $(date +%s.%N)" >>"$STAMPS/$id"
printf '{"eval":{"outcome":"%s","flags":[],"message":"","worker_stderr_tail":"%s","worker_stdout_tail":""}}\n' \
  "$VERDICT" "$TAIL"
FAKE
chmod +x "$tmp/ptxbench"
cat >"$tmp/m.toml" <<'TOML'
[[control]]
file = "together.cu"
task = "gemm_n7168_k5120"
expect_outcome = "passed"
also_acceptable = ["runtime_error"]
expect_flags = []
concurrent_copies = 2

[[control]]
file = "in_turn.cu"
task = "gemm_n7168_k5120"
expect_outcome = "passed"
expect_flags = []
sequential_copies = 3
TOML
fail() { echo "FAIL: $1"; echo "$out"; exit 1; }
run() {  # run ONLY VERDICT TAIL
  rm -rf "$tmp/stamps"; mkdir -p "$tmp/stamps"
  STAMPS=$tmp/stamps VERDICT=$2 TAIL=$3 python3 "$root/tests/gpu/eval_controls/run.py" \
    --ptxbench "$tmp/ptxbench" --manifest "$tmp/m.toml" --only "$1" --log "$tmp/log"
}
# Two copies at once: both started before either ended.
out=$(run together.cu passed "PTXBENCH-PROBE x: nothing heard"); rc=$?
[ "$rc" -eq 0 ] && grep -q "^2/2 controls as expected" <<<"$out" || fail "two concurrent copies, both passed: exit $rc"
grep -q "^ok   together.cu (copy 2/2, concurrent)" <<<"$out" || fail "no line per copy"
starts=$(cat "$tmp"/stamps/* | awk '/start/{print $2}' | sort -n | tail -1)
ends=$(cat "$tmp"/stamps/* | awk '/end/{print $2}' | sort -n | head -1)
awk -v s="$starts" -v e="$ends" 'BEGIN{exit !(s < e)}' || fail "the copies did not run at the same time"
[ -f "$tmp/log/together.cu.copy2.json" ] || fail "no log per copy"
# also_acceptable: runtime_error is fine for this entry.
out=$(run together.cu runtime_error ""); rc=$?
[ "$rc" -eq 0 ] || fail "also_acceptable verdict refused: exit $rc"
# An ESCAPE line fails every copy whatever the verdict.
out=$(run together.cu passed "PTXBENCH-ESCAPE x: heard the peer"); rc=$?
[ "$rc" -eq 1 ] && grep -q "^0/2 controls as expected" <<<"$out" && grep -q "ESCAPE line in the worker" <<<"$out" ||
  fail "an ESCAPE line must fail the entry: exit $rc"
# A verdict outside expect_outcome + also_acceptable fails.
out=$(run together.cu incorrect ""); rc=$?
[ "$rc" -eq 1 ] || fail "incorrect must fail: exit $rc"
# Three copies in turn: each started after the previous one ended.
out=$(run in_turn.cu passed ""); rc=$?
[ "$rc" -eq 0 ] && grep -q "^3/3 controls as expected" <<<"$out" || fail "three sequential copies: exit $rc"
prev=0
for f in $(ls -tr "$tmp"/stamps/*); do
  s=$(awk '/start/{print $2}' "$f"); e=$(awk '/end/{print $2}' "$f")
  awk -v s="$s" -v p="$prev" 'BEGIN{exit !(s >= p)}' || fail "a sequential copy started before the previous ended"
  prev=$e
done
echo "ok: concurrent and sequential copies, also_acceptable, ESCAPE lines fail an entry"
