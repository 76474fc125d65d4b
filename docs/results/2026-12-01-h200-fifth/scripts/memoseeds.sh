#!/usr/bin/env bash
# The timing-only memo controls at seeds other than the controls' 1234: before (.devbin-prev,
# repeats drawn 1 in 4 with no minimum) and after (.devbin: at least 3 repeats forced).
set -u
o=${OUT:-/tmp}/memoseeds; mkdir -p "$o"
for s in 1 2 3 4; do
  for f in gemm/memo_rows_copy.cu:gemm_n7168_k5120 attention/memo_rows_copy_fwd.cu:mha_with_lse_d128; do
    for b in prev new; do
      bin=/work/main/.devbin; [ $b = prev ] && bin=/work/main/.devbin-prev
      [ $b = prev ] && [ "${f%%:*}" != gemm/memo_rows_copy.cu ] && continue
      $bin/ptxbench eval kernels/controls/${f%%:*} --task ${f##*:} --arch sm_90a --json --seed $s \
        --sample-budget 2 --call-timeout 5 > "$o/$b-$s-$(basename ${f%%:*}).json" 2>/dev/null
      python3 - "$o/$b-$s-$(basename ${f%%:*}).json" $b $s <<'PY'
import json,sys
j=json.load(open(sys.argv[1])); e=j.get("eval") or {}; t=e.get("timing") or {}
print(f"{sys.argv[2]:4s} seed {sys.argv[3]} {sys.argv[1].split('-',2)[-1][:-5]:24s} {e.get('outcome')} flags={e.get('flags')} stop={t.get('stop_reason')}")
PY
    done
  done
done | tee "$o/summary.txt"
