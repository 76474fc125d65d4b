#!/usr/bin/env bash
# bench/ncu_summary.py on Nsight Compute CSVs recorded on the H200 (2026-11-29, run 3, call 2:
# `scripts/device-run.sh profile`): the table must match the golden file, and a few values
# read off the raw CSVs by hand must be in the right rows.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rec=$here/recorded
got=$(python3 "$here/../../bench/ncu_summary.py" "$rec/gemm_n7168_k5120.csv" "$rec/mha_bwd_d128.csv")
diff <(echo "$got") "$rec/summary.md" || { echo "summary differs from $rec/summary.md" >&2; exit 1; }
row() { grep "| $1 |" <<< "$got"; }
# Duration 6,998,816 ns -> 6998.8 us; Compute (SM) Throughput 48.2%; long_scoreboard first.
row dkdv_kernel | grep -q "| 6998.8 | 1.81 | 48.2 | Shared 48% |" || { echo "dkdv row wrong" >&2; exit 1; }
row dkdv_kernel | grep -q "| long_scoreboard 3.5, wait 1.4, barrier 0.5 |" || { echo "dkdv stalls wrong" >&2; exit 1; }
row delta_kernel | grep -q "| 84.1 | 84.1 | 6.5 |" || { echo "delta memory columns wrong" >&2; exit 1; }
[ "$(grep -c '^| gemm_n7168_k5120 |' <<< "$got")" = 1 ] || { echo "GEMM: want one kernel row" >&2; exit 1; }
[ "$(grep -c '^| mha_bwd_d128 |' <<< "$got")" = 3 ] || { echo "backward: want three kernel rows" >&2; exit 1; }
# A CSV with no kernel is reported, not skipped.
empty=$(mktemp); trap 'rm -f "$empty"' EXIT
printf '==PROF== nothing profiled\n' > "$empty"
python3 "$here/../../bench/ncu_summary.py" "$empty" | grep -q "(no kernel in the CSV)" || { echo "empty CSV not reported" >&2; exit 1; }
echo "ncu summary: ok"
