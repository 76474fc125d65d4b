#!/usr/bin/env bash
# Prepares a run on the GPU machine (which has no package registry and none of the
# -dev packages): builds ptxbench here in Release mode into build-device/ and makes
# .devbin/, a copy of that build tree without object files, small enough to carry.
# Then call the device tool with carry [".devbin", ".deps/bin"] and the command
#   scripts/device-run.sh PHASE...
# (see docs/results/README.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
scripts/setup.sh --no-build
build=${PTXBENCH_DEVICE_BUILD:-build-device}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPTXBENCH_WERROR=ON
fi
cmake --build "$build" -j "${PTXBENCH_JOBS:-$(nproc)}"
rm -rf .devbin
mkdir -p .devbin
echo "$build" > .devbin/BUILD_DIR_NAME
# Everything but objects, static libraries and CMake's scratch files.
(cd "$build" && find . -type f ! -name '*.o' ! -name '*.a' ! -name '*.ninja' \
   ! -path './CMakeFiles/*' ! -path '*/CMakeFiles/*' -print0 | cpio -0 -pdm --quiet ../.devbin)
find .devbin -type f -perm -u+x -exec strip --strip-debug {} + 2>/dev/null || true
du -sh .devbin
