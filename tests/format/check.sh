#!/usr/bin/env bash
# Fails when a C++/CUDA source under src/, tests/ or bench/ is not formatted as .clang-format says.
# (Kernels under kernels/ and trajectories/ are candidate files and keep their authors' layout.)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
command -v clang-format >/dev/null || { echo "clang-format is missing: run scripts/setup.sh"; exit 1; }
mapfile -t files < <(find src tests bench -type f \( -name '*.cc' -o -name '*.h' -o -name '*.cu' \) \
                       ! -path 'tests/kernels/*' ! -path 'tests/cli/*' ! -path '*/testdata/*' \
                       ! -path 'tests/fuzz/corpus/*' | sort)
if ! clang-format --dry-run --Werror "${files[@]}" 2>/tmp/ptxbench-format.$$; then
  { grep -E ': (warning|error):' /tmp/ptxbench-format.$$ || true; } | cut -d: -f1 | sort -u |
    sed 's/^/not formatted: /'
  echo "fix with: clang-format -i <files>"
  rm -f /tmp/ptxbench-format.$$
  exit 1
fi
rm -f /tmp/ptxbench-format.$$
echo "ok: ${#files[@]} files formatted"
