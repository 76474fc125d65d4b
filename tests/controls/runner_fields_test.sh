#!/usr/bin/env bash
# tests/gpu/eval_controls/run.py: an entry's model_must_not_see_flags fails it when one of those
# flags is among the verdict's flags (the feedback prints every one), and its
# candidate_output_must_contain fails it when the --candidate-output file lacks a line
# (kernels/controls/leak4.toml), and an entry's args are passed to its `ptxbench eval`
# (kernels/controls/leak5.toml: --count-timed-calls). A fake ptxbench stands in for the GPU: it
# answers $FLAGS as the verdict's flags, writes $PRINTED into the file --candidate-output names
# and each eval's arguments, one a line, into $ARGV_FILE.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/ptxbench" <<'FAKE'
#!/usr/bin/env bash
if [ "$1" = compile ]; then echo '{"compile":{"outcome":"passed"}}'; exit 0; fi
printf '%s\n' "$@" >"$ARGV_FILE"
while [ $# -gt 0 ]; do
  if [ "$1" = --candidate-output ]; then printf '%s\n' "$PRINTED" >"$2"; fi
  shift
done
printf '{"eval":{"outcome":"passed","flags":%s,"message":"","worker_stderr_tail":"","worker_stdout_tail":""}}\n' "$FLAGS"
FAKE
chmod +x "$tmp/ptxbench"
cat >"$tmp/m.toml" <<'TOML'
[[control]]
file = "flags.cu"
task = "gemm_n7168_k5120"
expect_outcome = "passed"
expect_flags = []
model_must_not_see_flags = ["workspace_kept", "stale_buffers"]

[[control]]
file = "canary.cu"
task = "gemm_n7168_k5120"
expect_outcome = "passed"
expect_flags = []
candidate_output_must_contain = ["PTXBENCH-CANARY c: first host"]

[[control]]
file = "counted.cu"
task = "gemm_n7168_k5120"
expect_outcome = "passed"
expect_flags = []
args = ["--count-timed-calls"]
TOML
fail() { echo "FAIL: $1"; echo "$out"; exit 1; }
run() {  # run ONLY FLAGS PRINTED [RUN.PY OPTIONS...]
  FLAGS=$2 PRINTED=$3 ARGV_FILE="$tmp/argv" python3 "$root/tests/gpu/eval_controls/run.py" \
    --ptxbench "$tmp/ptxbench" --manifest "$tmp/m.toml" --only "$1" --log "$tmp/log" "${@:4}"
}
out=$(run flags.cu '["side_stream"]' ""); rc=$?
[ "$rc" -eq 0 ] || fail "a flag outside model_must_not_see_flags failed the entry: exit $rc"
out=$(run flags.cu '["side_stream","stale_buffers"]' ""); rc=$?
[ "$rc" -eq 1 ] && grep -q "flags the model sees \['stale_buffers'\]" <<<"$out" ||
  fail "stale_buffers among the flags must fail the entry: exit $rc"
out=$(run canary.cu '[]' "== session 1 ==
PTXBENCH-CANARY c: first host, stdout"); rc=$?
[ "$rc" -eq 0 ] || fail "the canary was in the candidate output: exit $rc"
out=$(run canary.cu '[]' "== session 1 == (the last host only)"); rc=$?
[ "$rc" -eq 1 ] && grep -q "candidate output lacks" <<<"$out" ||
  fail "a missing canary must fail the entry: exit $rc"
out=$(run counted.cu '[]' ""); rc=$?
[ "$rc" -eq 0 ] && grep -qx -- "--count-timed-calls" "$tmp/argv" ||
  fail "an entry's args must reach its eval: exit $rc, argv $(tr '\n' ' ' <"$tmp/argv")"
out=$(run flags.cu '[]' ""); rc=$?
! grep -qx -- "--count-timed-calls" "$tmp/argv" ||
  fail "an entry without args must not get another entry's args"
out=$(FLAGS='[]' PRINTED="" ARGV_FILE="$tmp/argv" python3 "$root/tests/gpu/eval_controls/run.py" \
  --ptxbench "$tmp/ptxbench" --manifest "$tmp/m.toml" --only counted.cu --batch --log "$tmp/log")
grep -q "skip counted.cu: its args" <<<"$out" || fail "--batch must skip an entry with args"
out=$(run flags.cu '[]' "head
[... 300000 bytes cut by ptxbench ...]
tail"); rc=$?
[ "$rc" -eq 1 ] && grep -q "cut in the middle" <<<"$out" ||
  fail "a candidate output cut in the middle must leave the entry inconclusive: exit $rc"
out=$(run flags.cu '[]' "" --eval-arg=--count-timed-calls); rc=$?
grep -qx -- "--count-timed-calls" "$tmp/argv" || fail "--eval-arg must reach every eval"
echo "ok: model_must_not_see_flags, candidate_output_must_contain, args and --eval-arg work"
