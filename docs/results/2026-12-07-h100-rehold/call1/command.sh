#!/usr/bin/env bash
# Call 1 of 2026-12-07 (night): old = e9004f1 (last landing), new = branch `rehold` (rebased on it)
# + 508e93f (the fault re-run with writable inputs) + f9d377f (the no-reply test broker's
# descriptors) + leak12's controls. CALL_S: this call's seconds (phases stop 20 s before it,
# so the results are packed).
export CALL_END=$(( $(date +%s) + ${CALL_S:-560} ))
B=/work/main/.devbin
W=".devpack/within.sh"
R="python3 tests/gpu/eval_controls/run.py --ptxbench $B/ptxbench --fast"
export PACK=1 TAIL=4 PHASE_TIMEOUT=130 NEW_RUNS=fastest
exec scripts/device-run.sh info \
  "$W 80 bench/compare_judges.sh /work/main/.devbin-old $B \$OUT/compare 1" \
  "$W 50 $R --log \$OUT/c-writes --manifest kernels/controls/readonly.toml --manifest kernels/controls/judge.toml --manifest kernels/controls/leak10.toml --manifest $B/cases/judge/manifest.toml --only readonly/,inputs_scaled,inputs_lse,host_,input_zeroing" \
  "$W 80 $R --log \$OUT/c-leak11 --manifest kernels/controls/leak11.toml" \
  "$W 70 $R --log \$OUT/c-leak12 --manifest kernels/controls/leak12.toml" \
  "$W 80 $R --log \$OUT/c-compat --manifest kernels/controls/compat.toml --manifest $B/cases/compat/manifest.toml" \
  "$W 70 $R --log \$OUT/c-coresident-leak8 --manifest kernels/controls/coresident.toml --manifest kernels/controls/leak8.toml" \
  "$W 100 $R --log \$OUT/c-attention --manifest kernels/controls/attention.toml" \
  "$W 40 env REFS=mha_with_lse_d128 bench/compare_judges.sh /work/main/.devbin-old $B \$OUT/fwdrep 3"
