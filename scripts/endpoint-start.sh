#!/usr/bin/env bash
# Starts the local test endpoint: llama-server (installed by scripts/endpoint-install.sh)
# serving Gemma 3 270M on 127.0.0.1 with the OpenAI-compatible API under /v1, waits until
# it answers GET /health, and prints the base URL and model id to pass to ptxbench.
# The GGUF carries no chat template, so the server is told to format prompts as Gemma does:
# llama.cpp's built-in "gemma" template (--chat-template gemma, which names a built-in only
# with --no-jinja; under jinja, on by default, the word would be the template itself).
# Without it llama-server falls back to ChatML and the model only repeats the prompt.
# Usage: scripts/endpoint-start.sh [STATE_DIR]
#   STATE_DIR (default .deps/endpoint/run-PORT) receives server.pid and server.log.
#   Environment: PTXBENCH_ENDPOINT_PORT (8089), PTXBENCH_ENDPOINT_MODEL (gemma-3-270m),
#   PTXBENCH_ENDPOINT_SLOTS (requests served at once, 4), PTXBENCH_ENDPOINT_THREADS (nproc),
#   PTXBENCH_ENDPOINT_READY_S (how long to wait for readiness, 180),
#   PTXBENCH_ENDPOINT_LORA (a llama.cpp GGUF LoRA adapter to apply to every request,
#   `--lora FILE`; after start, GET /lora-adapters must list it at scale 1),
#   PTXBENCH_ENDPOINT_SEED (the server's default sampling seed, `--seed N`: a request
#   without its own seed samples from N, so the same prompt gets the same reply; default
#   random).
# Exit: 0 ready; 1 not installed, already running, an adapter file missing or not loaded,
#   or not ready in time (the log's end shown).
set -euo pipefail
source "$(dirname "$0")/endpoint-env.sh"
state=${1:-$endpoint_deps/run-$ENDPOINT_PORT}
slots=${PTXBENCH_ENDPOINT_SLOTS:-4}
ready_s=${PTXBENCH_ENDPOINT_READY_S:-180}
[ -x "$llama_server" ] && [ -f "$gemma_gguf" ] || {
  echo "endpoint-start: error: not installed; run scripts/endpoint-install.sh (scripts/setup.sh does)" >&2
  exit 1; }
lora=${PTXBENCH_ENDPOINT_LORA:-}
if [ -n "$lora" ]; then
  [ -f "$lora" ] || { echo "endpoint-start: error: PTXBENCH_ENDPOINT_LORA=$lora: no such file" >&2; exit 1; }
  lora=$(cd "$(dirname "$lora")" && pwd)/$(basename "$lora")
fi
extra=()
[ -n "$lora" ] && extra+=(--lora "$lora")
[ -n "${PTXBENCH_ENDPOINT_SEED:-}" ] && extra+=(--seed "$PTXBENCH_ENDPOINT_SEED")
mkdir -p "$state"
if [ -f "$state/server.pid" ] && kill -0 "$(cat "$state/server.pid")" 2>/dev/null; then
  echo "endpoint-start: error: already running (pid $(cat "$state/server.pid")); scripts/endpoint-stop.sh $state" >&2
  exit 1
fi
base="http://127.0.0.1:$ENDPOINT_PORT"
if curl -s -o /dev/null "$base/health"; then
  echo "endpoint-start: error: something already listens on 127.0.0.1:$ENDPOINT_PORT; set PTXBENCH_ENDPOINT_PORT" >&2
  exit 1
fi

# Context: 16k tokens per slot (a full-context prompt is ~9k, a second turn ~12k).
setsid "$llama_server" --model "$gemma_gguf" --alias "$ENDPOINT_MODEL_ID" \
  --host 127.0.0.1 --port "$ENDPOINT_PORT" --no-jinja --chat-template gemma \
  --ctx-size $((16384 * slots)) --parallel "$slots" \
  --threads "${PTXBENCH_ENDPOINT_THREADS:-$(nproc)}" --no-webui ${extra[@]+"${extra[@]}"} \
  >"$state/server.log" 2>&1 </dev/null &
echo $! >"$state/server.pid"

# lora_listed BASE FILE: GET BASE/lora-adapters lists FILE (llama-server answers
# [{"id": 0, "path": ..., "scale": 1.0}, ...]) applied at scale 1.
lora_listed() {
  curl -s "$1/lora-adapters" | python3 -c '
import json, os, sys
want = os.path.realpath(sys.argv[1])
try:
    listed = json.load(sys.stdin)
except ValueError:
    sys.exit(1)
sys.exit(0 if any(os.path.realpath(a.get("path", "")) == want and a.get("scale") == 1
                  for a in listed if isinstance(a, dict)) else 1)' "$2"
}

for ((i = 0; i < ready_s * 2; i++)); do
  if ! kill -0 "$(cat "$state/server.pid")" 2>/dev/null; then
    echo "endpoint-start: error: llama-server exited; the end of $state/server.log:" >&2
    tail -n 20 "$state/server.log" >&2; rm -f "$state/server.pid"; exit 1
  fi
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/health")" = 200 ]; then
    if [ -n "$lora" ] && ! lora_listed "$base" "$lora"; then
      echo "endpoint-start: error: the server does not list the adapter $lora at scale 1" \
        "(GET $base/lora-adapters: $(curl -s "$base/lora-adapters")); the end of $state/server.log:" >&2
      tail -n 20 "$state/server.log" >&2
      "$(dirname "$0")/endpoint-stop.sh" "$state" >/dev/null || true
      exit 1
    fi
    echo "endpoint-start: ready after $((i / 2)) s: --model $ENDPOINT_MODEL_ID --base-url $base/v1 (pid $(cat "$state/server.pid"), log $state/server.log)${lora:+, adapter $lora}"
    exit 0
  fi
  sleep 0.5
done
echo "endpoint-start: error: not ready after $ready_s s; the end of $state/server.log:" >&2
tail -n 20 "$state/server.log" >&2
"$(dirname "$0")/endpoint-stop.sh" "$state" || true
exit 1
