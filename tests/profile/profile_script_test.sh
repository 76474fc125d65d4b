#!/usr/bin/env bash
# scripts/device-profile.sh without a GPU: stand-ins for `ptxbench audit` (which runs "ncu" from
# PTXBENCH_NCU around the judging session's runner, as the real one does) and for ncu record how
# they were called. Checks: the audit is asked for the ncu route on the task's timed workload;
# the real ncu gets the runner's command line (the stand-in's last two words), the audit's NVTX
# range, only the stall metrics this ncu lists and a log file; the CSV keeps ncu's own "==" lines
# out (they go to the log).
set -euo pipefail
ptxbench=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin=$work/bin tools=$work/tools out=$work/out
mkdir -p "$bin" "$tools"
cat > "$bin/ptxbench" <<SH
#!/usr/bin/env bash
if [ "\$1" = audit ]; then
  echo "\$*" > "$work/audit.args"
  exec "\$PTXBENCH_NCU" --clock-control none --csv --page raw /opt/ptxbench-worker /tmp/r/request.json
fi
exec "$ptxbench" "\$@"
SH
cat > "$tools/ncu" <<'SH'
#!/usr/bin/env bash
case "$1" in
  --query-metrics) printf 'Metric Name  Description\nsmsp__average_warps_issue_stalled_barrier_per_issue_active  x\nsmsp__average_warps_issue_stalled_wait_per_issue_active  y\n'; exit 0 ;;
  --help) echo "usage: ncu [options]"; exit 0 ;;
esac
echo "$*" >> "$NCU_ARGS"
log=
while [ $# -gt 0 ]; do [ "$1" = --log-file ] && log=$2; shift; done
{ echo '==PROF== Connected to process 1'
  echo '"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"'
  echo '"0","k()","Duration","ns","1,000"'; } > "$log"
SH
chmod +x "$bin"/* "$tools/ncu"
export NCU_ARGS=$work/ncu.args
fail() { echo "profile script: $*" >&2; exit 1; }
PATH=$tools:$PATH "$root/scripts/device-profile.sh" "$bin" "$out" "$root/kernels/reference/sm_90a/mha_bwd_d128.cu:mha_bwd_d128" ||
  fail "exited $? ($(cat "$out"/*.log 2>/dev/null))"
grep -q -- "--route ncu --workload timed" "$work/audit.args" || fail "audit args: $(cat "$work/audit.args")"
grep -q -- "--nvtx --nvtx-include ptxbench_audit/" "$NCU_ARGS" || fail "no NVTX filter: $(cat "$NCU_ARGS")"
grep -q -- "--metrics smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio " "$NCU_ARGS" ||
  fail "want exactly the two listed stall metrics: $(cat "$NCU_ARGS")"
grep -q -- "--print-details" "$NCU_ARGS" && fail "--print-details passed to an ncu that does not list it"
grep -q -- " /opt/ptxbench-worker /tmp/r/request.json$" "$NCU_ARGS" || fail "runner command line lost: $(cat "$NCU_ARGS")"
grep -q '^==' "$out/mha_bwd_d128.csv" && fail "ncu's own lines left in the CSV"
grep -q '"Duration"' "$out/mha_bwd_d128.csv" || fail "CSV rows lost"
grep -q '^==PROF==' "$out/mha_bwd_d128.log" || fail "ncu's lines not in the log"
echo "device-profile.sh: ok"
