#!/usr/bin/env bash
# scripts/device-profile.sh without a GPU: stand-ins for ncu, `ptxbench compile` and the audit
# worker record how they were called. Checks: the worker gets the task's timed tensors (inputs,
# then outputs), an --out folder that exists, ncu skips exactly the worker's fill launches (one
# per input), asks only for the stall metrics this ncu lists, and the CSV keeps ncu's own
# "==" lines out (they go to the log).
set -euo pipefail
ptxbench=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/bin tools=$work/tools out=$work/out
mkdir -p "$bin" "$tools"
cat > "$bin/ptxbench" <<SH
#!/usr/bin/env bash
if [ "\$1" = compile ]; then echo '{"shared_object": "$work/cand.so"}'; exit 0; fi
exec "$ptxbench" "\$@"
SH
cat > "$bin/ptxbench-audit-worker" <<'SH'
#!/usr/bin/env bash
prev=
for a in "$@"; do
  if [ "$prev" = --out ]; then [ -d "$a" ] || { echo "worker: --out $a does not exist" >&2; exit 3; }; fi
  prev=$a
done
echo "$*" > "$WORKER_ARGS"
SH
cat > "$tools/ncu" <<'SH'
#!/usr/bin/env bash
case "$1" in
  --query-metrics) printf 'Metric Name  Description\nsmsp__average_warps_issue_stalled_barrier_per_issue_active  x\nsmsp__average_warps_issue_stalled_wait_per_issue_active  y\n'; exit 0 ;;
  --help) echo "usage: ncu [options]"; exit 0 ;;
esac
echo "$*" >> "$NCU_ARGS"
while [ $# -gt 0 ] && [ "$1" != "${1#-}" ]; do
  case "$1" in --csv) shift ;; *) shift 2 ;; esac
done
"$@" || exit $?
echo '==PROF== Connected to process 1'
echo '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"'
echo '"0","k()","Duration","ns","1,000"'
SH
chmod +x "$bin"/* "$tools/ncu"
export NCU_ARGS=$work/ncu.args WORKER_ARGS=$work/worker.args
fail() { echo "profile script: $*" >&2; exit 1; }
PATH=$tools:$PATH "$root/scripts/device-profile.sh" "$bin" "$out" "$root/kernels/reference/sm_90a/mha_bwd_d128.cu:mha_bwd_d128" ||
  fail "exited $? ($(cat "$out"/*.log 2>/dev/null))"
grep -q -- "--launch-skip 6 --launch-count 4" "$NCU_ARGS" || fail "want --launch-skip 6 (Q K V O dO LSE): $(cat "$NCU_ARGS")"
grep -q -- "--metrics smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio " "$NCU_ARGS" ||
  fail "want exactly the two listed stall metrics: $(cat "$NCU_ARGS")"
grep -q -- "--print-details" "$NCU_ARGS" && fail "--print-details passed to an ncu that does not list it"
want="--mode run --so $work/cand.so --out $out/work-mha_bwd_d128"
want+=" --tensor in:bf16:4x48x4096x128 --tensor in:bf16:4x48x4096x128 --tensor in:bf16:4x48x4096x128"
want+=" --tensor in:bf16:4x48x4096x128 --tensor in:bf16:4x48x4096x128 --tensor in:fp32:4x48x4096"
want+=" --tensor out:bf16:4x48x4096x128 --tensor out:bf16:4x48x4096x128 --tensor out:bf16:4x48x4096x128"
[ "$(cat "$WORKER_ARGS")" = "$want" ] || fail "worker args: $(cat "$WORKER_ARGS") != $want"
grep -q '^==' "$out/mha_bwd_d128.csv" && fail "ncu's own lines left in the CSV"
grep -q '"Duration"' "$out/mha_bwd_d128.csv" || fail "CSV rows lost"
grep -q '^==PROF==' "$out/mha_bwd_d128.log" || fail "ncu's lines not in the log"
echo "device-profile.sh: ok"
