#!/bin/bash
# Forward-attention knob sweep (PTXB_FWD_STAGES / _SPLIT_EMPTY / _PERSISTENT / _PINGPONG).
#   kernels/attention_dev/sweep.sh build DIR   # here (CPU machine): one .so per variant into DIR
#   kernels/attention_dev/sweep.sh run DIR     # GPU machine: correctness (all workloads, 1 trial)
#                                              # and timing vs cuDNN, all variants in one process each
# The variant list is the table below: name, causal (0/1), -D flags ("default" = the file as is).
# History (H200, 2026-11-29; docs/results/attention-reference.md): sweep 1 (11 variants, one round)
# and sweep 2 (interleaved rounds; its "default" was then 3 stages + early K release) chose the
# current defaults: 3 stages, no early K release, ping-pong on, one CTA per query tile. This list
# compares the current file with the alternatives.
set -u
cd "$(dirname "$0")/../.."
mode=${1:?build|run}
dir=${2:?output directory}
REF=kernels/reference/sm_90a
variants() {
  cat <<'T'
default     0
s2          0 -DPTXB_FWD_STAGES=2
split       0 -DPTXB_FWD_SPLIT_EMPTY=1
pers        0 -DPTXB_FWD_PERSISTENT=1
nopingpong  0 -DPTXB_FWD_PINGPONG=0
c_default   1
c_s2        1 -DPTXB_FWD_STAGES=2
c_pers      1 -DPTXB_FWD_PERSISTENT=1
T
}
mkdir -p "$dir"
case "$mode" in
  build)
    inc=""; [ -d "$dir/../include" ] && inc="-I $dir/../include"
    while read -r name causal flags; do
      src=$REF/mha_with_lse_d128.cu; [ "$causal" = 1 ] && src=$REF/mha_with_lse_d128_causal.cu
      # shellcheck disable=SC2086
      nvcc $inc -std=c++17 -O3 -shared -Xcompiler -fPIC -lineinfo -Xptxas -v \
        -gencode=arch=compute_90a,code=sm_90a $flags "$src" -o "$dir/$name.so" > "$dir/$name.log" 2>&1 &&
        echo "built $name ($(grep -o 'Used [0-9]* registers' "$dir/$name.log" | head -1))" ||
        echo "FAILED $name (see $dir/$name.log)"
    done < <(variants)
    ;;
  run)
    for causal in 0 1; do
      sos=$(variants | awk -v c="$causal" -v d="$dir" '$2 == c { printf "%s%s/%s.so", sep, d, $1; sep = "," }')
      flag=""; [ "$causal" = 1 ] && flag=--causal
      # shellcheck disable=SC2086
      timeout 120 python3 kernels/attention_dev/check.py correct --kind fwd $flag --so "$sos" --workloads all --trials 1 |
        grep -E '^(VERDICT|SO)'
      # shellcheck disable=SC2086
      timeout 120 python3 kernels/attention_dev/check.py time --kind fwd $flag --so "$sos" --iters 20 --rounds 3
    done
    ;;
  *) echo "sweep.sh: unknown mode $mode (build | run)" >&2; exit 2 ;;
esac
