#!/usr/bin/env bash
# Call 1 of 2026-12-07 (late): old = main 641993e (the last landing), new = branch allbutone
# c522c22 (all but one SM busy, given by the calls' speed). Then serve_load (issue 35),
# FlashInfer-Trace round trip, public kernels through the new build.
export CALL_END=$(( $(date +%s) + ${CALL_S:-575} ))
B=/work/main/.devbin
W=".devpack/within.sh"
R="python3 tests/gpu/eval_controls/run.py --ptxbench $B/ptxbench --fast"
export PACK=1 TAIL=4 PHASE_TIMEOUT=240 NEW_RUNS=fastest
exec scripts/device-run.sh info \
  "$W 75 bench/compare_judges.sh /work/main/.devbin-old $B \$OUT/compare 1" \
  "$W 80 $R --log \$OUT/c-leak11 --manifest kernels/controls/leak11.toml" \
  "$W 60 $R --log \$OUT/c-coresident-leak8 --manifest kernels/controls/coresident.toml --manifest kernels/controls/leak8.toml" \
  "$W 150 env PTXBENCH_CASES=$B/cases python3 bench/serve_load.py --ptxbench $B/ptxbench --rate 1 --count 100 --max-seconds 135 --agree --out \$OUT/serveload-r1.jsonl" \
  "$W 70 scripts/device-interop.sh \$OUT/interop $B" \
  "$W 120 scripts/device-public.sh \$OUT/public $B /work/main/.devbin-old"
