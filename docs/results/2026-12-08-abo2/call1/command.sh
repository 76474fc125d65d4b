#!/usr/bin/env bash
# Call 1 of 2026-12-08: old = main a97f42b (the last landing, its code 56469f6), new = branch
# abo2 78a0375 (the timing phase's shares by the timing samples' median, all-but-one rounds in the
# timing phase, the hidden all-but-one check at its end). The references against each other, then
# the controls abo2 was built for (leak13, leak11, coresident + leak8) and the attention set.
export CALL_END=$(( $(date +%s) + ${CALL_S:-575} ))
B=/work/main/.devbin
W=".devpack/within.sh"
R="python3 tests/gpu/eval_controls/run.py --ptxbench $B/ptxbench --fast"
export PACK=1 TAIL=4 PHASE_TIMEOUT=240 NEW_RUNS=fastest
exec scripts/device-run.sh info \
  "$W 75 bench/compare_judges.sh /work/main/.devbin-old $B \$OUT/compare 1" \
  "$W 110 $R --log \$OUT/c-leak13 --manifest kernels/controls/leak13.toml" \
  "$W 80 $R --log \$OUT/c-leak11 --manifest kernels/controls/leak11.toml" \
  "$W 60 $R --log \$OUT/c-coresident-leak8 --manifest kernels/controls/coresident.toml --manifest kernels/controls/leak8.toml" \
  "$W 200 $R --log \$OUT/c-attention --manifest kernels/controls/attention.toml"
