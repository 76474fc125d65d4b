#!/usr/bin/env bash
# Here (CPU machine): makes build-eval/devbin for bench/device_eval.sh: stripped
# binaries from build-eval, dlpack headers, and a compile cache holding every control
# kernel (compiled with the same flags the device will compute, so it hits there).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
b=$root/build-eval
d=$b/devbin
mkdir -p "$d/include" "$d/cache"
for f in ptxbench ptxbench-worker ptxbench-bench-baselines src/eval/reference_test; do
  if [ "$b/$f" -nt "$d/$(basename "$f")" ]; then
    cp "$b/$f" "$d/$(basename "$f")"
    strip --strip-debug "$d/$(basename "$f")"
  fi
done
cp -r /usr/include/dlpack "$d/include/"
export PTXBENCH_ROOT=$root PTXBENCH_CACHE=$d/cache PTXBENCH_DLPACK_INCLUDE=$d/include
# Arguments: substrings of control file names to compile (default: all).
python3 - "$root" "$@" <<'PY' | while read -r file task arch; do
import glob, os, sys, tomllib
root, only = sys.argv[1], sys.argv[2:]
for m in sorted(glob.glob(os.path.join(root, "kernels/controls/*.toml"))):
    for e in tomllib.load(open(m, "rb")).get("control", []):
        if only and not any(o in e["file"] for o in only):
            continue
        print(os.path.normpath(os.path.join(root, "kernels/controls", e["file"])), e["task"], e.get("arch", "sm_90a"))
PY
  "$d/ptxbench" compile "$file" --task "$task" --arch "$arch" > /dev/null 2>&1 || true
  echo "compiled $(basename "$file") for $task"
done
du -sh "$d"
