#!/usr/bin/env bash
# Call 2 of 2026-12-07 (late): build = branch allbutone c522c22 (old = main 641993e carried).
# serve_load over the whole judging_cost set (every sm_90a control and the handed judge cases,
# each a never-compiled candidate) at 1/s with --agree: throughput, latency, GPU busy, and each
# verdict against its manifest's expect_outcome; then at 0.8/s on 60 of them (latency).
export CALL_END=$(( $(date +%s) + ${CALL_S:-575} ))
B=/work/main/.devbin
W=".devpack/within.sh"
export PACK=1 TAIL=4 PHASE_TIMEOUT=560
exec scripts/device-run.sh info \
  "$W 430 env PTXBENCH_CASES=$B/cases python3 bench/serve_load.py --ptxbench $B/ptxbench --rate 1 --max-seconds 420 --agree --out \$OUT/serveload-all.jsonl" \
  "$W 110 env PTXBENCH_CASES=$B/cases python3 bench/serve_load.py --ptxbench $B/ptxbench --rate 0.8 --count 60 --max-seconds 100 --agree --out \$OUT/serveload-r08.jsonl"
