#!/usr/bin/env bash
# serve_haproxy.sh PTXBENCH: two `ptxbench serve` instances (n1, n2) on loopback behind a real
# HAProxy configured by `ptxbench serve lb-config` (docs/serve.md, "Several instances"), on a
# CPU machine (compile and static audit only: every verdict not_evaluated). A batch submitted
# through HAProxy reaches both instances (leastconn); every job is polled through HAProxy to its
# end, one by one and in one batch per instance, each answered by the instance its id names;
# a poll of n2's job at n1 is 421 naming n2; the same Idempotency-Key header twice gives the
# same job (HAProxy routes it by the key's hash) and different keys reach both; n2 killed with -9 is marked DOWN by the health
# checks, new submissions still succeed (on n1), and a poll of n2's job says where it belongs.
# Skipped (exit 77) when haproxy is not installed (scripts/setup.sh installs it).
set -u
ptxbench=$1
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v haproxy >/dev/null; then
  echo "SKIPPED: haproxy is not installed (scripts/setup.sh installs it: apt-get install haproxy)"
  exit 77
fi
scratch=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$scratch"' EXIT
export PTXBENCH_CACHE=$scratch/cache PTXBENCH_NO_GPU=1
unset PTXBENCH_SERVE_TOKEN
kernel=$here/../kernels/sm90_plain.cu
fail() {
  echo "FAIL: $*" >&2
  for f in "$scratch"/*.log; do echo "--- $f:" >&2; cat "$f" >&2; done
  exit 1
}
lbc() { python3 "$here/serve_lb_client.py" "$@"; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

start() {  # start NAME: an instance on a free port; sets pid_NAME and port_NAME
  "$ptxbench" serve --port 0 --instance "$1" --store "$scratch/$1.db" --workers 1 --cpu-slots 1 \
    2>"$scratch/$1.log" &
  local pid=$! port=""
  pids+=("$pid")
  for _ in $(seq 100); do
    port=$(sed -nE 's|.*listening on http://127.0.0.1:([0-9]+)/v1 \(instance '"$1"',.*|\1|p' "$scratch/$1.log" 2>/dev/null)
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || fail "instance $1 did not say where it listens (with its instance name)"
  eval "pid_$1=$pid port_$1=$port"
}
status_is() {  # status_is SERVER WANT: waits up to 20 s for HAProxy's status of SERVER
  local got=""
  for _ in $(seq 100); do
    got=$(lbc "http://127.0.0.1:$stats" status "$1")
    [ "${got%% *}" = "$2" ] && return 0
    sleep 0.2
  done
  fail "HAProxy says $1 is \"$got\", not $2"
}

start n1
start n2
lb=$(free_port)
stats=$(free_port)
"$ptxbench" serve lb-config --backend "127.0.0.1:$port_n1:n1" --backend "127.0.0.1:$port_n2:n2" \
  --bind "127.0.0.1:$lb" --stats "127.0.0.1:$stats" --check-interval 300 >"$scratch/haproxy.cfg" ||
  fail "lb-config"
haproxy -c -f "$scratch/haproxy.cfg" >"$scratch/check.log" 2>&1 || fail "haproxy -c refused the configuration"
haproxy -db -f "$scratch/haproxy.cfg" >"$scratch/haproxy.log" 2>&1 &
pids+=($!)
status_is n1 UP
status_is n2 UP
url=http://127.0.0.1:$lb

# Four jobs through HAProxy: leastconn spreads them over both instances.
ids=$(lbc "$url" submit "$kernel" 4 first) || fail "submitting through HAProxy"
echo "$ids" | tr ' ' '\n' | grep -q '^n1\.' || fail "n1 got no job: $ids"
echo "$ids" | tr ' ' '\n' | grep -q '^n2\.' || fail "n2 got no job: $ids"
# shellcheck disable=SC2086
lbc "$url" poll $ids >"$scratch/polled" || fail "polling through HAProxy"
[ "$(grep -c ' done not_evaluated$' "$scratch/polled")" = 4 ] || fail "not every job done: $(cat "$scratch/polled")"
n2_job=$(echo "$ids" | tr ' ' '\n' | grep '^n2\.' | head -1)
n1_job=$(echo "$ids" | tr ' ' '\n' | grep '^n1\.' | head -1)
# Straight to the wrong instance: 421 naming the owner, not "no such job".
lbc "http://127.0.0.1:$port_n1" expect-421 "/v1/jobs/$n2_job" n2 >/dev/null || fail "n1 answered n2's job"
# A batch that mixes instances goes where its first id says, which refuses the other's ids.
lbc "$url" expect-421 "/v1/jobs?ids=$n1_job,$n2_job" n2 >/dev/null || fail "a mixed batch (n1 first)"
lbc "$url" expect-421 "/v1/jobs?ids=$n2_job,$n1_job" n1 >/dev/null || fail "a mixed batch (n2 first)"

# Idempotency keys through HAProxy (the Idempotency-Key header, hashed): the same key twice is
# the same job whichever instance leastconn would have picked; different keys spread over both.
keyed=""
for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
  one=$(lbc "$url" submit-keyed "$kernel" "rollout-$k") || fail "a keyed submission"
  two=$(lbc "$url" submit-keyed "$kernel" "rollout-$k") || fail "a keyed submission, again"
  [ "${one% *}" = "${two% *}" ] || fail "key rollout-$k made two jobs: ${one% *} and ${two% *}"
  [ "${one#* }" = new ] && [ "${two#* }" = duplicate ] || fail "key rollout-$k: $one, then $two"
  keyed="$keyed ${one% *}"
done
echo "$keyed" | tr ' ' '\n' | grep -q '^n1\.' || fail "every key went to n2:$keyed"
echo "$keyed" | tr ' ' '\n' | grep -q '^n2\.' || fail "every key went to n1:$keyed"

# n2 dies: HAProxy marks it DOWN, new jobs go to n1, n2's jobs say where they belong.
kill -9 "$pid_n2"
status_is n2 DOWN
status_is n1 UP
more=$(lbc "$url" submit "$kernel" 2 after) || fail "submitting with n2 down"
for id in $more; do [[ $id == n1.* ]] || fail "job $id went to a dead instance"; done
# shellcheck disable=SC2086
lbc "$url" poll $more >"$scratch/polled2" || fail "polling with n2 down"
[ "$(grep -c ' done not_evaluated$' "$scratch/polled2")" = 2 ] || fail "after the kill: $(cat "$scratch/polled2")"
lbc "$url" expect-421 "/v1/jobs/$n2_job" n2 >"$scratch/421" || fail "a poll of the dead n2's job"
grep -q "job $n2_job is one of instance n2, and this is instance n1" "$scratch/421" || fail "421: $(cat "$scratch/421")"
echo "ok: 4 jobs over n1 and n2 through HAProxy, each polled at its owner; 12 keys each one job, over both; n2 killed: DOWN, 2 more judged on n1, its job's poll 421 naming n2"
