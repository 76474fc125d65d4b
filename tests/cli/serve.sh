#!/usr/bin/env bash
# serve.sh PTXBENCH: `ptxbench serve` end to end on a CPU machine (compile and static audit
# only: every verdict not_evaluated, and said so): a job submitted over HTTP is judged and
# long-polled; the same source again is served from the store (cached); jobs accepted before a
# kill -9 are all judged after a restart, each exactly once; SIGTERM ends it with exit 0.
set -u
ptxbench=$1
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'kill -9 $pid 2>/dev/null; rm -rf "$scratch"' EXIT
export PTXBENCH_CACHE=$scratch/cache PTXBENCH_NO_GPU=1
unset PTXBENCH_SERVE_TOKEN
store=$scratch/jobs.db
fail() { echo "FAIL: $*" >&2; echo "--- serve's stderr:" >&2; cat "$scratch"/err* >&2; exit 1; }

start() {  # start LOG: the service on a free port; sets pid and port
  "$ptxbench" serve --port 0 --store "$store" --workers 1 --cpu-slots 1 2>"$scratch/$1" &
  pid=$!
  for _ in $(seq 100); do
    port=$(sed -nE 's|.*listening on http://127.0.0.1:([0-9]+)/v1.*|\1|p' "$scratch/$1")
    [ -n "$port" ] && return 0
    sleep 0.1
  done
  fail "serve did not say where it listens"
}
api() { python3 "$here/serve_client.py" "$port" "$@"; }

start err1
# One service per store, and per port: a second one is refused (exit 1), saying why.
"$ptxbench" serve --port 0 --store "$store" 2>"$scratch/second" && fail "a second service on the store started"
grep -q "jobs.db" "$scratch/second" || fail "the second service did not name the store: $(cat "$scratch/second")"
"$ptxbench" serve --port "$port" --store "$scratch/other.db" 2>"$scratch/third" && fail "a second service on the port started"
grep -q "cannot listen on 127.0.0.1:$port" "$scratch/third" || fail "no port message: $(cat "$scratch/third")"
api submit-and-wait "$here/../kernels/sm90_plain.cu" > "$scratch/one.json" || fail "the first job"
grep -q '"disposition": "not_evaluated"' "$scratch/one.json" || fail "no verdict: $(cat "$scratch/one.json")"
api submit-and-wait "$here/../kernels/sm90_plain.cu" > "$scratch/two.json" || fail "the same job again"
grep -q '"cached": true' "$scratch/two.json" || fail "the same candidate again was not cached"

# Four new candidates (a comment differs, so each compiles), then kill -9 at once.
ids=$(api submit-variants "$here/../kernels/sm90_plain.cu" 4) || fail "submitting four"
kill -9 $pid; wait $pid 2>/dev/null
left=$(sqlite3 "$store" "SELECT count(*) FROM serve_jobs WHERE state IN ('queued','running')")
[ "$left" -ge 1 ] || fail "every job ended before the kill (the test proves nothing)"
start err2
grep -q "job(s) an earlier process left unfinished are queued again" "$scratch/err2" || fail "the restart did not say what it queued again"
for id in $ids; do
  api wait "$id" > "$scratch/w.json" || fail "job $id after the restart"
  grep -q '"state": "done"' "$scratch/w.json" || fail "job $id not done: $(cat "$scratch/w.json")"
done
judged=$(api metrics | awk '/^ptxbench_jobs_judged_total\{/ { n += $2 } END { print n + 0 }')
[ "$judged" = "$left" ] || fail "the restart judged $judged jobs; $left were left unfinished"
done_rows=$(sqlite3 "$store" "SELECT count(*) FROM serve_jobs WHERE state = 'done' AND result IS NOT NULL")
[ "$done_rows" = 6 ] || fail "$done_rows of 6 jobs are done with a result"

kill -TERM $pid; wait $pid; rc=$?
[ "$rc" = 0 ] || fail "SIGTERM: exit $rc, not 0"
grep -q "SIGTERM: stopping" "$scratch/err2" || fail "SIGTERM was not said"
# The store keeps the instance name its ids carry: another --instance on it is refused (exit 2).
instance=$(sed -nE 's|.*listening on http://[^ ]+ \(instance ([^,]+),.*|\1|p' "$scratch/err2")
for id in $ids; do [[ $id == "$instance".* ]] || fail "job id $id does not carry the instance $instance"; done
"$ptxbench" serve --port 0 --store "$store" --instance not-"$instance" 2>"$scratch/renamed"; rc=$?
[ "$rc" = 2 ] || fail "a start under another instance name: exit $rc, not 2"
grep -q "holds the jobs of instance \"$instance\"" "$scratch/renamed" || fail "no instance message: $(cat "$scratch/renamed")"
echo "ok: judged, cached, $left unfinished jobs judged once after kill -9, SIGTERM exit 0, instance $instance kept"
