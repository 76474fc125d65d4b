#!/usr/bin/env bash
# Call 4 of 2026-12-08 (the session's last 170 s): build = branch abo2 78a0375. words, words2, withheld.
B=/work/main/.devbin; export CALL_END=$(( $(date +%s) + 170 )) PACK=1 TAIL=4 PHASE_TIMEOUT=160
exec scripts/device-run.sh ".devpack/within.sh 160 python3 tests/gpu/eval_controls/run.py --ptxbench $B/ptxbench --fast --log \$OUT/c-words-withheld --manifest kernels/controls/words.toml --manifest kernels/controls/words2.toml --manifest kernels/controls/withheld.toml"
