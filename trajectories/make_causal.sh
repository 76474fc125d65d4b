#!/usr/bin/env bash
# Derives the causal naive kernels the scripted agent replays from the non-causal
# attention controls (the controls carry a kCausal switch). Run from anywhere.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
for dir in fwd bwd; do
  src=$root/kernels/controls/attention/naive_correct_$dir.cu
  out=$here/kernels/naive_correct_${dir}_causal.cu
  task=$([ "$dir" = fwd ] && echo mha_with_lse_d128_causal || echo mha_bwd_d128_causal)
  grep -q '^constexpr bool kCausal = false;' "$src" || { echo "$src: no kCausal switch" >&2; exit 1; }
  { echo "// Scripted agent kernel ($task, sm_90a): naive_correct_${dir}_causal."
    echo "// kernels/controls/attention/naive_correct_$dir.cu with the causal mask switched on"
    echo "// (kCausal = true; key j is skipped when j > i). Expected: passed; no target instructions."
    echo "// Regenerate with trajectories/make_causal.sh when the control changes."
    sed -e '1,/^$/d' -e 's/^constexpr bool kCausal = false;/constexpr bool kCausal = true;/' "$src"; } > "$out"
done
