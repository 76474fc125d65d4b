#!/usr/bin/env bash
# Prepares a run on the GPU machine, which has no package registry and none of the -dev
# packages. Here: build (or reuse) a build tree, then make .devbin/ (carryable, < 64 MiB):
#   the stripped programs (ptxbench, both workers, GPU test and benchmark programs, the library's
#   C ABI libptxbench_library_capi.so),
#   the DLPack headers, apache-tvm-ffi's headers and libtvm_ffi.so (tvm_ffi/: the tvm-ffi kernel
#   contract builds against them and the runner loads the library), the forward-attention sweep
#   builds, and a compile cache holding every
#   control and reference kernel, compiled with the very flags the device computes (same paths
#   through /work/main, same nvcc 13.0). Its keys also hold the host compiler's version, and the
#   GPU machine's differs from this one's (seen 2026-12-06: 1 hit in 53), so there the cache
#   serves as this machine's static check only: NO_CACHE=1 skips it, and the device-run.sh phase
#   `cache` compiles everything on the GPU machine's 16 cores (about 50 s for 200 entries).
# Then call the device tool with carry [".devpack"] (and ".public" when made) and
#   scripts/device-run.sh PHASE...      (see docs/results/README.md)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ "$root" = /work/main ] || echo "device-prepare: warning: the cache keys assume the checkout is /work/main" >&2
scripts/setup.sh --no-build
build=${PTXBENCH_DEVICE_BUILD:-build}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
# PROGRAMS="a b" builds and carries only those (a quick smoke run).
read -r -a programs <<< "${PROGRAMS:-ptxbench ptxbench-worker ptxbench-host ptxbench-bench-baselines reference_test sample_check_test audit_acceptance library_rule ptxbench_library_capi}"
cmake --build "$build" -j "${PTXBENCH_JOBS:-$(nproc)}" --target "${programs[@]}" ptxbench_cudart_shim ptxbench_cuda_shim
d=$root/.devbin
# The compile cache stays here in .devcache/ and travels packed (below).
cache=$root/.devcache
mkdir -p "$d/include" "$cache"
rm -rf "$d/cache"
for p in "${programs[@]}"; do
  # A program, or a shared library target (lib<target>.so).
  src=$(find "$build" -maxdepth 4 -type f \( -name "$p" -o -name "lib$p.so" \) -perm -u+x | head -1)
  [ -n "$src" ] || { echo "device-prepare: $p was not built" >&2; exit 1; }
  cp "$src" "$d/$(basename "$src")" && strip --strip-debug "$d/$(basename "$src")"
done
cp -r /usr/include/dlpack "$d/include/"
# Shared libraries ptxbench links that the GPU machine lacks (cpp-httplib for `serve`, and the
# brotli it was built with): into .devbin/lib, which device-run.sh puts on LD_LIBRARY_PATH.
mkdir -p "$d/lib"
ldd "$d/ptxbench" | awk '/libcpp-httplib|libbrotli/ { print $3 }' | xargs -r cp -L -t "$d/lib"
# The candidate's host process loads these CUDA shims by full path (beside ptxbench).
rm -rf "$d/host_shims" && cp -r "$build/host_shims" "$d/host_shims"
strip --strip-debug "$d/host_shims"/*
# The previous release, for before/after in the same device call (bench/compare_judges.sh,
# device-run.sh phases compare and costold): OLD_BUILD, a build tree of it (its ptxbench and
# ptxbench-worker), copied to .devbin-old/ with its own compile cache folder.
if [ -n "${OLD_BUILD:-}" ]; then
  o=$root/.devbin-old
  rm -rf "$o" && mkdir -p "$o"
  for p in ptxbench ptxbench-worker; do cp "$OLD_BUILD/$p" "$o/$p" && strip "$o/$p"; done
  # Releases with the broker (06ba8d1 on) run the candidate's host code in ptxbench-host, with
  # the CUDA shims it loads from host_shims/ beside ptxbench.
  if [ -f "$OLD_BUILD/ptxbench-host" ]; then
    cp "$OLD_BUILD/ptxbench-host" "$o/" && strip "$o/ptxbench-host"
    cp -r "$OLD_BUILD/host_shims" "$o/host_shims" && strip --strip-debug "$o/host_shims"/*
  fi
fi
# apache-tvm-ffi as scripts/setup.sh unpacked it: the headers and the library only.
tvm_src=$root/.deps/wheels/apache-tvm-ffi/tvm_ffi
[ -f "$tvm_src/lib/libtvm_ffi.so" ] || { echo "device-prepare: $tvm_src has no lib/libtvm_ffi.so (scripts/setup.sh installs it)" >&2; exit 1; }
rm -rf "$d/tvm_ffi"; mkdir -p "$d/tvm_ffi/lib"
cp -r "$tvm_src/include" "$d/tvm_ffi/include"
cp "$tvm_src/lib/libtvm_ffi.so" "$d/tvm_ffi/lib/"
# The hostile cases handed to the project (../shared does not travel to the GPU machine).
if [ -d "$root/../shared/cases" ]; then rm -rf "$d/cases"; cp -r "$root/../shared/cases" "$d/cases"; fi
export PTXBENCH_ROOT=$root PTXBENCH_CACHE=$cache PTXBENCH_DLPACK_INCLUDE=$d/include
export PTXBENCH_TVM_FFI_ROOT=$d/tvm_ffi
# Every manifest entry (controls and sm_90a references) and the sm_100a references, compiled
# into the cache by the same check CI runs (its verdicts are printed, not enforced here).
# NO_CACHE=1 leaves that to the GPU machine (scripts/device-run.sh cache), which has the cores.
if [ "${NO_CACHE:-0}" != 1 ]; then
  python3 tests/controls/static_check.py --ptxbench "$d/ptxbench" --jobs "${PTXBENCH_JOBS:-$(nproc)}" | tail -n 1 || true
  [ -d "$d/cases" ] && python3 tests/controls/static_check.py --ptxbench "$d/ptxbench" --runtime-may-refuse --manifest "$d/cases/judge/manifest.toml" --manifest "$d/cases/compat/manifest.toml" --manifest "$d/cases/oracle/manifest.toml" | tail -n 1 || true
fi
# The public Hopper kernels' candidates (scripts/public-kernels.sh; device-run.sh phase public),
# when their sources are here: only the assembled candidates travel (.public/candidates).
if [ -d "$root/.public" ]; then scripts/public-kernels.sh > "$root/.public/list.txt" && mv "$root/.public/list.txt" "$root/.public/candidates/list.txt" || echo "device-prepare: public-kernels.sh failed" >&2; fi
# The forward-attention knob variants for the `sweep` phase of scripts/device-run.sh.
[ "${NO_CACHE:-0}" = 1 ] || kernels/attention_dev/sweep.sh build "$d/sweep"
# What travels: .devpack/ (carry [".devpack"]), xz-packed, since the tracked files already take
# most of the device tool's 64 MiB: devbin.txz, cache.txz and, with OLD_BUILD, devbin-old.txz.
# scripts/device-run.sh unpacks them.
p=$root/.devpack
rm -rf "$p" && mkdir -p "$p"
tar cf - -C "$root" .devbin | xz -T0 -6 > "$p/devbin.txz"
tar cf - -C "$root" .devcache | xz -T0 -6 > "$p/cache.txz"
[ -d "$root/.devbin-old" ] && [ -n "${OLD_BUILD:-}" ] && tar cf - -C "$root" .devbin-old | xz -T0 -6 > "$p/devbin-old.txz"
du -sh "$d" "$p"/*
