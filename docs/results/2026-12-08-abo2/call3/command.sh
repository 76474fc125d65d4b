#!/usr/bin/env bash
# Call 3 of 2026-12-08: build = branch abo2 78a0375. The isolation controls and the handed
# isolation cases, blame, tvm_ffi, sandbox, leak12.
export CALL_END=$(( $(date +%s) + ${CALL_S:-560} ))
B=/work/main/.devbin
W=".devpack/within.sh"
R="python3 tests/gpu/eval_controls/run.py --ptxbench $B/ptxbench --fast"
export PACK=1 TAIL=4 PHASE_TIMEOUT=240
exec scripts/device-run.sh \
  "$W 200 $R --log \$OUT/c-isolation --manifest kernels/controls/isolation.toml --manifest $B/cases/isolation/manifest.toml" \
  "$W 110 $R --log \$OUT/c-blame-tvm --manifest kernels/controls/blame.toml --manifest kernels/controls/tvm_ffi.toml" \
  "$W 100 $R --log \$OUT/c-sandbox --manifest kernels/controls/sandbox.toml" \
  "$W 120 $R --log \$OUT/c-leak12 --manifest kernels/controls/leak12.toml"
