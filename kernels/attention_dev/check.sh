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
LOGS=${LOGS:-/tmp/attention_logs}  # per-step logs, packed into $OUT/logs.tgz at the end
mkdir -p "$OUT" "$BUILD" "$LOGS"
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

# Worst error per tensor over the trials of a check.py correct log (one line).
worst() {
  python3 - "$1" <<'PY'
import json, sys
w = {}
for line in open(sys.argv[1]):
    if not line.startswith("{"): continue
    t = json.loads(line)
    for r in t.get("results", []):
        k = r["tensor"]; o = w.setdefault(k, [0.0, 0.0, 0.0, True])
        o[0] = max(o[0], r.get("max_abs", float("nan"))); o[1] = max(o[1], r.get("rel_l2", float("nan")))
        o[2] = max(o[2], r.get("mismatch", 0.0)); o[3] &= r["ok"]
print("   worst: " + "; ".join("%s max_abs=%.3g rel_l2=%.3g mismatch=%.3g ok=%s" % (k, *v) for k, v in w.items()))
PY
}

kinds=()
[ "$ONLY" != bwd ] && kinds+=(fwd)
[ "$ONLY" != fwd ] && kinds+=(bwd)

if want controls; then
  # Each control in its own subprocess with a timeout, all at once (they are small); the hang
  # control holds one SM until its timeout kills the process.
  run_control() {
    local name=$1 kind=fwd
    [[ $name == *_bwd ]] && kind=bwd
    if ! built "ctl_$name"; then echo "control $name: compile_error" >"$LOGS/verdict_$name.txt"; return; fi
    timeout ${CONTROL_TIMEOUT:-40} python3 $HERE/check.py correct --kind $kind --so "$BUILD/ctl_$name.so" \
      --trials 2 --workloads hidden >"$LOGS/control_$name.log" 2>&1
    local rc=$? v
    case $rc in
      0) v=passed ;; 1) v=incorrect ;; 124) v=timeout ;; *) v="runtime_error(rc=$rc)" ;;
    esac
    echo "control $name: $v" >"$LOGS/verdict_$name.txt"
  }
  for f in $CTL/*.cu; do
    name=$(basename "$f" .cu)
    kind=fwd; [[ $name == *_bwd ]] && kind=bwd
    [ -n "$ONLY" ] && [ "$ONLY" != $kind ] && continue
    run_control "$name" &
  done
  wait
  cat "$LOGS"/verdict_*.txt | tee -a "$OUT/summary.txt"
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
        >"$LOGS/correct_$name.log" 2>&1
      echo "correct $name rc=$? $(tail -1 "$LOGS/correct_$name.log")" | tee -a "$OUT/summary.txt"
      worst "$LOGS/correct_$name.log" | tee -a "$OUT/summary.txt"
      if want time; then
        timeout 120 python3 $HERE/check.py time --kind $kind --so "$BUILD/$name.so" $flag \
          >"$LOGS/time_$name.log" 2>&1
        echo "time $name rc=$? $(tail -1 "$LOGS/time_$name.log")" | tee -a "$OUT/summary.txt"
      fi
    done
  done
fi

if want extras; then
  # Library comparison on the same spiky inputs: does cuDNN's backward pass the same rule?
  timeout 60 python3 $HERE/check.py correct --kind bwd --so cudnn --workloads hidden --trials 2 \
    >"$LOGS/correct_cudnn_bwd.log" 2>&1
  echo "correct cudnn_bwd (library, same check) rc=$? $(tail -1 "$LOGS/correct_cudnn_bwd.log")" | tee -a "$OUT/summary.txt"
  worst "$LOGS/correct_cudnn_bwd.log" | tee -a "$OUT/summary.txt"
  # Cost of the fp16 second stage: time the bf16-only build of the backward.
  nvcc ${EXTRA_INC:-} -DPTXB_BWD_F16_STAGE2=0 -std=c++17 -O3 -shared -Xcompiler -fPIC \
    -gencode=arch=compute_90a,code=sm_90a $REF/mha_bwd_d128.cu -o "$BUILD/bwd_bf16.so" &&
    timeout 60 python3 $HERE/check.py time --kind bwd --so "$BUILD/bwd_bf16.so" >"$LOGS/time_bwd_bf16.log" 2>&1
  echo "time mha_bwd_d128 with PTXB_BWD_F16_STAGE2=0: $(tail -1 "$LOGS/time_bwd_bf16.log")" | tee -a "$OUT/summary.txt"
fi

cp "$BUILD"/*.log "$LOGS/" 2>/dev/null
tar -czf "$OUT/logs.tgz" -C "$LOGS" . 2>/dev/null
true
