#!/usr/bin/env bash
# Stops the test endpoint that scripts/endpoint-start.sh started with the same STATE_DIR:
# SIGTERM, then SIGKILL after 10 s. Nothing running is not an error.
# Usage: scripts/endpoint-stop.sh [STATE_DIR]
set -euo pipefail
source "$(dirname "$0")/endpoint-env.sh"
state=${1:-$endpoint_deps/run-$ENDPOINT_PORT}
pidfile="$state/server.pid"
[ -f "$pidfile" ] || exit 0
pid=$(cat "$pidfile")
# Only the server this state dir started: the pid must still be llama-server.
if [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = llama-server ]; then
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
fi
rm -f "$pidfile"
echo "endpoint-stop: stopped (pid $pid)"
