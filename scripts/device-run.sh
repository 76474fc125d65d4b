#!/usr/bin/env bash
# Runs on the GPU machine, in the copy of the repository that the device tool makes,
# with .devbin/ (from scripts/device-prepare.sh) carried along. Logs go to $OUT.
# Phases (any number, in order):
#   info       GPU, driver, clocks, tool versions
#   gpu-tests  every ctest test labelled gpu
#   cpu-tests  the CPU tests too (sanity of the carried binaries there)
#   main       the README's main job: `ptxbench run` (embedded agent, core sm_90a suite)
#   CMD...     anything else is run as a shell command with the environment set up
set -uo pipefail
here=$(pwd)
out=${OUT:-$here/out}
mkdir -p "$out"
# The carried build tree records absolute paths of the machine it was built on.
mkdir -p /work
[ -e /work/main ] || ln -sfn "$here" /work/main
bname=$(cat "$here/.devbin/BUILD_DIR_NAME" 2>/dev/null || echo build-device)
[ -e "$here/$bname" ] || ln -sfn "$here/.devbin" "$here/$bname"
[ -e "$here/build" ] || ln -sfn "$here/.devbin" "$here/build"
bdir=/work/main/$bname
export PTXBENCH_ROOT=/work/main
export PTXBENCH_CACHE=${PTXBENCH_CACHE:-/tmp/ptxbench-cache}
export PATH=/usr/local/cuda/bin:$PATH
status=0
for phase in "$@"; do
  echo "=== $phase ($(date -u +%H:%M:%S))" | tee -a "$out/phases.log"
  case "$phase" in
    info)
      { nvidia-smi; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,clocks_throttle_reasons.active --format=csv; nvcc --version; } 2>&1 | tee "$out/info.log" ;;
    gpu-tests)
      (cd "$bdir" && ctest -L gpu --output-on-failure --timeout 900) 2>&1 | tee "$out/ctest-gpu.log" || status=1 ;;
    cpu-tests)
      (cd "$bdir" && ctest -LE gpu --output-on-failure -j 8) > "$out/ctest-cpu.log" 2>&1 || status=1
      tail -5 "$out/ctest-cpu.log" ;;
    main)
      start=$SECONDS
      "$bdir/ptxbench" run --out "$out/main-run.db" 2>&1 | tee "$out/main-run.log" || status=1
      echo "main job wall time: $((SECONDS - start)) s" | tee -a "$out/main-run.log" ;;
    *)
      bash -c "$phase" 2>&1 | tee -a "$out/commands.log" || status=1 ;;
  esac
done
exit $status
