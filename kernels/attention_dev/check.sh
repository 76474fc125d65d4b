#!/bin/bash
# Dev check of the attention reference kernels and controls on the GPU machine.
#   kernels/attention_dev/check.sh [refs] [time] [controls] [fwd-only|bwd-only]
# Builds every kernel with the ptxbench nvcc command, runs check.py (correctness on all workloads
# vs an fp32 torch reference; timing vs cuDNN SDPA), and runs each control in its own subprocess
# with a timeout (hang/oob controls cannot take the others down). Logs go to $OUT (or /tmp).
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/attention_dev}
BUILD=${BUILD:-/tmp/attention_build}
# The GPU machine lacks <dlpack/dlpack.h>: carry build-attn/include (a copy of /usr/include/dlpack).
[ -f build-attn/include/dlpack/dlpack.h ] && EXTRA_INC="-I build-attn/include"
mkdir -p "$OUT" "$BUILD"
HERE=kernels/attention_dev
REF=kernels/reference/sm_90a
CTL=kernels/controls/attention
want() { [[ " $* " == *" all "* ]] || [[ " $ARGS " == *" $1 "* ]]; }
ARGS=" $* "
ONLY=""
[[ "$ARGS" == *" fwd-only "* ]] && ONLY=fwd
[[ "$ARGS" == *" bwd-only "* ]] && ONLY=bwd

# The causal and non-causal references must stay the same file but for the kCausal line.
for p in mha_with_lse_d128 mha_bwd_d128; do
  if [ -f $REF/$p.cu ] && [ -f ${REF}/${p}_causal.cu ]; then
    n=$(diff $REF/$p.cu ${REF}/${p}_causal.cu | grep -c '^[<>]')
    echo "sync $p: $n differing lines (expect 4: title + kCausal)" | tee -a "$OUT/summary.txt"
  fi
done

build() {  # build SRC NAME -> $BUILD/NAME.so, ptxas log in $BUILD/NAME.log
  local t0=$(date +%s)
  nvcc ${EXTRA_INC:-} -std=c++17 -O3 -shared -Xcompiler -fPIC -lineinfo -Xptxas -v -gencode=arch=compute_90a,code=sm_90a \
    "$1" -o "$BUILD/$2.so" >"$BUILD/$2.log" 2>&1
  local rc=$?
  echo "build $2 rc=$rc ($(( $(date +%s) - t0 ))s)" | tee -a "$OUT/summary.txt"
  return $rc
}

# Build everything in parallel first (the GPU machine has 16 cores).
declare -A SRC
for f in $REF/mha_*.cu; do SRC[$(basename "$f" .cu)]=$f; done
for f in $CTL/*.cu; do SRC[ctl_$(basename "$f" .cu)]=$f; done
for n in "${!SRC[@]}"; do build "${SRC[$n]}" "$n" & done
wait
built() { [ -f "$BUILD/$1.so" ] && [ "$BUILD/$1.so" -nt "${SRC[$1]}" ]; }

kinds=()
[ "$ONLY" != bwd ] && kinds+=(fwd)
[ "$ONLY" != fwd ] && kinds+=(bwd)

if want controls; then
  # Each control in its own subprocess with a timeout, all at once (they are small); the hang
  # control holds one SM until its timeout kills the process.
  run_control() {
    local name=$1 kind=fwd
    [[ $name == *_bwd ]] && kind=bwd
    if ! built "ctl_$name"; then echo "control $name: compile_error" >"$OUT/verdict_$name.txt"; return; fi
    timeout ${CONTROL_TIMEOUT:-45} python3 $HERE/check.py correct --kind $kind --so "$BUILD/ctl_$name.so" \
      --trials 2 --workloads hidden >"$OUT/control_$name.log" 2>&1
    local rc=$? v
    case $rc in
      0) v=passed ;; 1) v=incorrect ;; 124) v=timeout ;; *) v="runtime_error(rc=$rc)" ;;
    esac
    echo "control $name: $v" >"$OUT/verdict_$name.txt"
  }
  for f in $CTL/*.cu; do
    name=$(basename "$f" .cu)
    kind=fwd; [[ $name == *_bwd ]] && kind=bwd
    [ -n "$ONLY" ] && [ "$ONLY" != $kind ] && continue
    run_control "$name" &
  done
  wait
  cat "$OUT"/verdict_*.txt | tee -a "$OUT/summary.txt"
  # The GPU must still work after the hang / oob controls.
  python3 -c "import torch; x=torch.ones(1024,device='cuda'); print('gpu ok after controls', float(x.sum()))" \
    2>&1 | tee -a "$OUT/summary.txt"
fi

if want refs; then
  for kind in "${kinds[@]}"; do
    for causal in "" _causal; do
      if [ $kind = fwd ]; then name=mha_with_lse_d128$causal; else name=mha_bwd_d128$causal; fi
      [ -f $REF/$name.cu ] || continue
      built $name || continue
      flag=""; [ -n "$causal" ] && flag=--causal
      timeout 240 python3 $HERE/check.py correct --kind $kind --so "$BUILD/$name.so" $flag \
        >"$OUT/correct_$name.log" 2>&1
      echo "correct $name rc=$? $(tail -1 "$OUT/correct_$name.log")" | tee -a "$OUT/summary.txt"
      if want time; then
        timeout 120 python3 $HERE/check.py time --kind $kind --so "$BUILD/$name.so" $flag \
          >"$OUT/time_$name.log" 2>&1
        echo "time $name rc=$? $(tail -1 "$OUT/time_$name.log")" | tee -a "$OUT/summary.txt"
      fi
    done
  done
fi

cp "$BUILD"/*.log "$OUT/" 2>/dev/null
true
