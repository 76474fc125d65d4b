#!/usr/bin/env bash
# Call 2 of 2026-12-07 (evening): old = b264bf5 (last landing), new = branch `most`.
B=/work/main/.devbin
C="--manifest $B/cases/judge/manifest.toml --manifest $B/cases/compat/manifest.toml --manifest $B/cases/oracle/manifest.toml"
K="--manifest kernels/controls/coresident.toml --manifest kernels/controls/leak8.toml --manifest kernels/controls/leak10.toml --manifest kernels/controls/leak11.toml"
R="python3 tests/gpu/eval_controls/run.py --ptxbench $B/ptxbench --fast"
export PACK=1 TAIL=4 PHASE_TIMEOUT=130 NEW_RUNS=fastest
exec scripts/device-run.sh info \
  "timeout 60 python3 tests/controls/static_check.py --ptxbench $B/ptxbench --jobs 16 --runtime-may-refuse $K $C --manifest $B/cases/isolation/manifest.toml" \
  "timeout 80 bench/compare_judges.sh /work/main/.devbin-old $B \$OUT/compare 1" \
  "timeout 70 $R --log \$OUT/c-coresident-leak8 --manifest kernels/controls/coresident.toml --manifest kernels/controls/leak8.toml" \
  "timeout 80 $R --log \$OUT/c-leak11 --manifest kernels/controls/leak11.toml" \
  "timeout 100 $R --log \$OUT/c-cases $C" \
  "timeout 45 $R --log \$OUT/c-isolation --manifest $B/cases/isolation/manifest.toml" \
  "timeout 50 scripts/device-public.sh \$OUT/public $B /work/main/.devbin-old" \
  "timeout 40 $R --log \$OUT/c-leak10 --manifest kernels/controls/leak10.toml"
