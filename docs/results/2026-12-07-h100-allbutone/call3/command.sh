#!/usr/bin/env bash
# Call 3 of 2026-12-07 (late): build = branch allbutone c522c22. leak13 (a fresh red team of
# all but one SM, helper, 37f1c1d), compat + the handed compat cases, judge.toml.
export CALL_END=$(( $(date +%s) + ${CALL_S:-400} ))
B=/work/main/.devbin
W=".devpack/within.sh"
R="python3 tests/gpu/eval_controls/run.py --ptxbench $B/ptxbench --fast"
export PACK=1 TAIL=4 PHASE_TIMEOUT=240
exec scripts/device-run.sh \
  "$W 110 $R --log \$OUT/c-leak13 --manifest kernels/controls/leak13.toml" \
  "$W 90 $R --log \$OUT/c-compat --manifest kernels/controls/compat.toml --manifest $B/cases/compat/manifest.toml" \
  "$W 200 $R --log \$OUT/c-judge --manifest kernels/controls/judge.toml --manifest $B/cases/judge/manifest.toml"
