#!/usr/bin/env bash
# Configures and builds the fuzz targets (tests/fuzz/targets) with clang into DIR (default
# build/fuzz). Incremental: a second call rebuilds what changed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-$here/../../build/fuzz}
command -v clang++ >/dev/null || { echo "fuzz: clang++ is missing (scripts/setup.sh installs it)" >&2; exit 1; }
if [ ! -f "$dir/build.ninja" ]; then
  CXX=clang++ cmake -S "$here/targets" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$dir" -j "${PTXBENCH_JOBS:-$(nproc)}"
