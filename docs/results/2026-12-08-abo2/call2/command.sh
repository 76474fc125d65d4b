#!/usr/bin/env bash
# Call 2 of 2026-12-08: build = branch abo2 78a0375. serve_load over the whole judging_cost set in
# a drawn order (--shuffle 1), then gemm + oracle + the handed oracle cases.
export CALL_END=$(( $(date +%s) + ${CALL_S:-575} ))
B=/work/main/.devbin
W=".devpack/within.sh"
R="python3 tests/gpu/eval_controls/run.py --ptxbench $B/ptxbench --fast"
export PACK=1 TAIL=4 PHASE_TIMEOUT=330
exec scripts/device-run.sh \
  "$W 320 env PTXBENCH_CASES=$B/cases python3 bench/serve_load.py --ptxbench $B/ptxbench --rate 1 --shuffle 1 --max-seconds 300 --agree --out \$OUT/serveload-shuf.jsonl" \
  "$W 220 $R --log \$OUT/c-gemm-oracle --manifest kernels/controls/gemm.toml --manifest kernels/controls/oracle.toml --manifest $B/cases/oracle/manifest.toml"
