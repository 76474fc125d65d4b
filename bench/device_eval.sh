#!/usr/bin/env bash
# Runs on the GPU machine (device tool) with build-eval/devbin carried (made by
# bench/prepare_devbin.sh here: stripped binaries, dlpack headers, a compile cache with
# every control kernel prebuilt). Phases, in order, logs under $OUT:
#   reference   the reference kernels vs CPU double (reference_test)
#   baselines   bench/baselines for the core suite
#   controls    tests/gpu/eval_controls/run.py --fast [ONLY=substring]
#   repeat      bench/repeatability.sh on REPEAT_KERNEL / REPEAT_TASK, 5 runs
#   eval:FILE:TASK[:ARGS]  one `ptxbench eval --json` (ARGS comma-separated)
set -uo pipefail
here=$(pwd)
out=${OUT:-$here/out}
mkdir -p "$out"
mkdir -p /work
[ -e /work/main ] || ln -sfn "$here" /work/main
bin=/work/main/build-eval/devbin
export PTXBENCH_ROOT=/work/main
export PTXBENCH_CACHE=$bin/cache
export PTXBENCH_DLPACK_INCLUDE=$bin/include
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
status=0
for phase in "$@"; do
  echo "=== $phase ($(date -u +%H:%M:%S))" | tee -a "$out/phases.log"
  case "$phase" in
    reference) timeout 120 "$bin/reference_test" 2>&1 | tee "$out/reference_test.log" || status=1 ;;
    baselines) timeout 200 "$bin/ptxbench-bench-baselines" --suite core --budget "${BUDGET:-1}" 2>&1 | tee "$out/baselines.log" || status=1 ;;
    controls) timeout 400 python3 tests/gpu/eval_controls/run.py --ptxbench "$bin/ptxbench" --fast --log "$out/controls" --only "${ONLY:-}" 2>&1 | tee "$out/controls.log" || status=1 ;;
    repeat) timeout 300 bench/repeatability.sh "$REPEAT_KERNEL" "$REPEAT_TASK" 5 "$bin/ptxbench" 2>&1 | tee "$out/repeat.log" || status=1 ;;
    eval:*)
      IFS=: read -r _ file task args <<<"$phase"
      name=$(basename "$file" .cu)
      timeout 300 "$bin/ptxbench" eval "$file" --task "$task" --json ${args//,/ } > "$out/eval-$name.json" 2> "$out/eval-$name.err"
      echo "exit $?"; python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); e=d["eval"] or {}; print(d["compile"]["outcome"], e.get("outcome"), e.get("flags"), (e.get("message") or "")[:300]); t=e.get("timing") or {}; print({k:t.get(k) for k in ("speedup","tflops","baseline_tflops","percent_of_peak")})' "$out/eval-$name.json" || tail -5 "$out/eval-$name.err" ;;
    *) bash -c "$phase" 2>&1 | tee -a "$out/commands.log" || status=1 ;;
  esac
done
exit $status
