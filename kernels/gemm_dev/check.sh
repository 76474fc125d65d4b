#!/usr/bin/env bash
# Developer check of the GEMM reference kernel and the GEMM controls, on the GPU machine.
# Run from the repository root:  bash kernels/gemm_dev/check.sh [STEPS]
# STEPS (default "build faults correct time audit memcheck") selects what runs. Logs go to
# $OUT (the run tool's output folder) or /tmp/gemm_check. Needs nvcc, python3 with torch, and
# <dlpack/dlpack.h>: from /usr/include or from build-gemm/include (copied there on the CPU
# machine from the Debian libdlpack-dev package and carried along).
# hang.cu and oob_write.cu are only ever run in their own python process, under a timeout.
set -u
STEPS=${1:-"build faults correct time audit profile memcheck"}
ROOT=$(pwd)
OUT=${OUT:-/tmp/gemm_check}
B=/tmp/gemm_check_build  # not under $OUT: the .so files need not come back
mkdir -p "$B" "$OUT"
PY="python3 $ROOT/kernels/gemm_dev/check.py"
NVCC="nvcc -std=c++17 -O3 -shared -Xcompiler -fPIC -lineinfo -Xptxas -v -gencode=arch=compute_90a,code=sm_90a -I$ROOT/build-gemm/include -I/usr/local/cuda/include"
REF=kernels/reference/sm_90a/gemm_n7168_k5120.cu
# reference variants timed side by side: name and extra nvcc flags
VARIANTS=("ref_c2:-DGEMM_CLUSTER=2" "ref_stg:-DGEMM_TMA_STORE=0" "ref_g8:-DGEMM_GROUP_M=8" "ref_g32:-DGEMM_GROUP_M=32")
has() { [[ " $STEPS " == *" $1 "* ]]; }
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/check.log"; }

if has build; then
  log "build"
  {
    echo "gemm_n7168_k5120 $REF"
    for v in "${VARIANTS[@]}"; do echo "${v%%:*} $REF ${v#*:}"; done
    for f in kernels/controls/gemm/*.cu; do echo "$(basename "$f" .cu) $f"; done
  } > "$B/list.txt"
  rm -f "$B/rc.txt"
  while read -r name src flags; do
    extra="$flags"
    [[ $name == banned_cublas ]] && extra="$extra -lcublas -Xlinker -rpath=/usr/local/cuda/lib64"  # only to show its math is right
    ( $NVCC $extra "$src" -o "$B/$name.so" > "$B/$name.log" 2>&1; echo "$name rc=$?" >> "$B/rc.txt" ) &
  done < "$B/list.txt"
  wait
  sort "$B/rc.txt" | tee -a "$OUT/check.log"
  grep -h -E "registers|spill|warning" "$B/gemm_n7168_k5120.log" | tee -a "$OUT/check.log"
  grep -h "error" "$B/compile_error.log" | tee -a "$OUT/check.log"
fi

if has faults; then
  log "hang (own process, killed after 20 s)"
  timeout -s KILL 20 $PY one "$B" hang 1000 > "$OUT/hang.log" 2>&1
  log "hang rc=$? (137 = killed by timeout)"
  log "oob_write (own process)"
  timeout -s KILL 60 $PY one "$B" oob_write 1000 > "$OUT/oob_write.log" 2>&1
  log "oob_write rc=$? last lines: $(tail -n 2 "$OUT/oob_write.log" | tr '\n' ' ')"
  timeout -s KILL 60 $PY one "$B" naive_correct 1000 > "$OUT/after_faults.log" 2>&1
  log "naive_correct after the faults rc=$? : $(tail -n 1 "$OUT/after_faults.log")"
fi

if has correct; then
  log "correctness"
  names="naive_correct off_by_one half_output zeros cached side_stream banned_cublas"
  names="$names dead_branch_wgmma predicated_off_stmatrix token_wgmma_ffma gemm_n7168_k5120"
  for v in "${VARIANTS[@]}"; do names="$names ${v%%:*}"; done
  timeout -s KILL 240 $PY correct "$B" "$OUT" $names 2>&1 | tee -a "$OUT/check.log"
fi

if has time; then
  log "timing M=8192"
  names="gemm_n7168_k5120"
  for v in "${VARIANTS[@]}"; do names="$names ${v%%:*}"; done
  for rep in 1 2 3; do  # separate processes: repeatability across runs
    log "timing run $rep"
    timeout -s KILL 120 $PY time "$B" "$OUT" $names 2>&1 | tee -a "$OUT/check.log"
    mv "$OUT/timing.json" "$OUT/timing_$rep.json"
  done
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
    --format=csv >> "$OUT/check.log" 2>&1
fi

if has audit; then
  log "ncu per-opcode audit at M=1000"
  timeout -s KILL 150 ncu --clock-control none --kernel-name "regex:gemm_tma|gemm_with|naive_gemm" \
    --metrics sass__thread_inst_executed_true_per_opcode_with_modifier_all,sass__inst_executed_per_opcode_with_modifier_all,sm__inst_executed_pipe_tensor_op_gmma.sum \
    --print-metric-instances details --csv --page raw \
    $PY audit "$B" gemm_n7168_k5120 dead_branch_wgmma predicated_off_stmatrix token_wgmma_ffma naive_correct \
    > "$OUT/ncu_audit.csv" 2> "$OUT/ncu_audit.err"
  log "ncu rc=$? ($(wc -l < "$OUT/ncu_audit.csv") csv lines)"
fi

if has profile; then
  log "ncu SpeedOfLight/memory: reference and torch.matmul at M=8192"
  timeout -s KILL 120 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
    --section LaunchStats --section Occupancy --kernel-name "regex:gemm_tma|nvjet|sm90|gemm" \
    $PY profile "$B" gemm_n7168_k5120 > "$OUT/ncu_profile.txt" 2>&1
  log "ncu profile rc=$?"
fi

if has memcheck; then
  for k in gemm_n7168_k5120 ${MEMCHECK_EXTRA:-}; do
    log "compute-sanitizer memcheck, $k at M=1000"
    timeout -s KILL 90 compute-sanitizer --tool memcheck $PY one "$B" $k 1000 > "$OUT/memcheck_$k.log" 2>&1
    log "memcheck $k rc=$? : $(tail -n 2 "$OUT/memcheck_$k.log" | tr '\n' ' ')"
  done
fi
log "done"
