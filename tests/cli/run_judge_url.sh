#!/usr/bin/env bash
# run_judge_url.sh PTXBENCH: `ptxbench run --judge-url` on a CPU machine (docs/serve.md, "A run
# with a remote judge"). The embedded scripted agent's trajectories (2 samples of 4 turns of the
# GEMM task, judged 2 at a time) are run twice: judged in this process, and judged by a real
# `ptxbench serve` on loopback (no GPU there either: both skip the GPU stages with the same
# reason); the stored turns are the same
# (category, feedback, correctness, flags, source, stage results but their timings). Then the
# service is killed with -9 in the middle of a run: the run fails its trajectory, saying so and
# how to resume, keeps its finished turns, and `run --resume --judge-url` at a restarted service
# finishes it with the same turns again. Refused: a dead URL, https, a wrong or missing token,
# the --judge-* options without --judge-url, --memcheck with it.
set -uo pipefail
ptxbench=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-judge-url-XXXXXX")
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$scratch"' EXIT
cd "$scratch" || exit 1
export PTXBENCH_NO_GPU=1 PTXBENCH_CACHE=$scratch/cache
unset PTXBENCH_SERVE_TOKEN
plan=(--tasks gemm_n7168_k5120 --turns 4 --samples 2 --concurrency 2 --no-progress)
fail() {
  echo "FAIL: $*" >&2
  for f in "$scratch"/*.log; do echo "--- $f:" >&2; cat "$f" >&2; done
  exit 1
}
start() {  # start NAME [serve options]: a service on a free port; sets pid and url
  local name=$1
  shift
  "$ptxbench" serve --port 0 --store "$scratch/$name.db" --workers 2 --cpu-slots 2 "$@" \
    2>"$scratch/$name.log" &
  pid=$!
  pids+=("$pid")
  local port=""
  for _ in $(seq 150); do
    port=$(sed -nE 's|.*listening on http://127.0.0.1:([0-9]+)/v1.*|\1|p' "$scratch/$name.log")
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || fail "serve $name did not say where it listens"
  url=http://127.0.0.1:$port/v1
}
# The stored turns, without what differs between two judgings of one candidate (timings).
turns() {  # turns FILE [outcomes]
  python3 - "$@" <<'PY'
import json, re, sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
# timings, and whether the compile cache had the candidate already (the first run compiled it)
volatile = re.compile(r"(seconds|_s|_ms|time|elapsed|duration|wall|cpu|cache_hit)$")
def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in sorted(v.items()) if not volatile.search(k)}
    if isinstance(v, list):
        return [clean(x) for x in v]
    return v
rows = db.execute("SELECT turn, source, source_hash, category, feedback, correct, arch_executed, "
                  "speedup, target_reached, gpu_stages, flags_json, compile_json, eval_json, "
                  "audit_json FROM turns ORDER BY trajectory_id, turn").fetchall()
for r in rows:
    stages = [clean(json.loads(x)) if x else None for x in r[11:]]
    if len(sys.argv) > 2:  # another compile cache: nvcc's artefacts differ; their outcomes only
        stages = [s.get("outcome") if isinstance(s, dict) else s for s in stages]
    print(json.dumps(list(r[:11]) + stages, sort_keys=True))
PY
}

start judge
"$ptxbench" run "${plan[@]}" --out local.db 2>"$scratch/local.log" >/dev/null || fail "the in-process run"
"$ptxbench" run "${plan[@]}" --judge-url "$url" --out remote.db 2>"$scratch/remote.log" >/dev/null ||
  fail "run --judge-url"
grep -q "judge $url, no GPU: compile + static SASS census only" "$scratch/remote.log" ||
  fail "run --judge-url did not say where it judges"
turns local.db >local.turns
turns remote.db >remote.turns
[ "$(wc -l <local.turns)" -ge 3 ] || fail "the scripted trajectory stored $(wc -l <local.turns) turns"
same() {  # same A B: the two files of turns are equal, else the paths that differ
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = ([json.loads(l) for l in open(f)] for f in sys.argv[1:3])
def walk(x, y, path):
    if type(x) != type(y) or (not isinstance(x, (dict, list)) and x != y):
        print(path, repr(x)[:120], "|", repr(y)[:120])
    elif isinstance(x, dict):
        for k in sorted(set(x) | set(y)):
            walk(x.get(k), y.get(k), f"{path}.{k}")
    elif isinstance(x, list):
        if len(x) != len(y):
            print(path, "lengths", len(x), len(y))
        for i, (p, q) in enumerate(zip(x, y)):
            walk(p, q, f"{path}[{i}]")
walk(a, b, "turns")
sys.exit(1 if a != b else 0)
PY
}
same local.turns remote.turns >turns.diff || fail "the turns differ: $(cat turns.diff)"
grep -q '"skipped"' local.turns || fail "no GPU stage was skipped on a CPU machine"
[ "$(sqlite3 "file:$scratch/judge.db?mode=ro" "SELECT count(*) FROM serve_jobs")" -ge 3 ] ||
  fail "the service judged no job"

# Killed in the middle of a run (a store and a compile cache of their own, so judging is slow
# enough to be caught): the trajectory fails unrecorded from that turn on; resumed, it ends
# with the same turns.
PTXBENCH_CACHE=$scratch/cache2 start judge2
PTXBENCH_CACHE=$scratch/cache2 "$ptxbench" run "${plan[@]}" --judge-url "$url" --judge-retry-s 2 \
  --out killed.db 2>"$scratch/killed.log" >/dev/null &
run_pid=$!
for _ in $(seq 600); do
  n=$(sqlite3 "file:$scratch/judge2.db?mode=ro" "SELECT count(*) FROM serve_jobs WHERE state = 'done'" 2>/dev/null)
  [ "${n:-0}" -ge 1 ] && break
  sleep 0.1
done
kill -9 "$pid"
wait "$run_pid"
rc=$?
[ "$rc" = 1 ] || fail "a run whose judge died exited $rc, not 1"
grep -q "error: judge: the judge at http://127.0.0.1:[0-9]* gave no answer" "$scratch/killed.log" ||
  fail "the run did not say its judge died: $(cat "$scratch/killed.log")"
grep -q "resume with: ptxbench run --resume" "$scratch/killed.log" || fail "no resume line"
before=$(sqlite3 "file:$scratch/killed.db?mode=ro" "SELECT count(*) FROM turns")
[ "$before" -lt "$(wc -l <local.turns)" ] || fail "every turn was stored before the kill"
PTXBENCH_CACHE=$scratch/cache2 start judge2
PTXBENCH_CACHE=$scratch/cache2 "$ptxbench" run --resume killed.db --judge-url "$url" --no-progress \
  2>"$scratch/resumed.log" >/dev/null || fail "run --resume --judge-url"
# (compiled again in the other cache, nvcc's artefacts differ: anonymous namespaces' names, the
# objects' hashes; the stages' outcomes, the feedback and the rest are compared)
turns local.db outcomes >local_outcomes.turns
turns killed.db outcomes >killed.turns
same local_outcomes.turns killed.turns >killed.diff || fail "the resumed run's turns differ: $(cat killed.diff)"

# Refusals, each saying what to do.
expect() {  # expect CODE TEXT ARGS...: run exits CODE and says TEXT
  local code=$1 text=$2
  shift 2
  out=$("$ptxbench" run "${plan[@]}" --out "$scratch/refused.db" "$@" 2>&1)
  local got=$?
  [ "$got" = "$code" ] || fail "run $*: exit $got, not $code: $out"
  grep -qF -- "$text" <<<"$out" || fail "run $*: no \"$text\" in: $out"
  [ ! -e "$scratch/refused.db" ] || fail "run $* made a run file"
}
dead=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
expect 2 "cannot reach the judge at http://127.0.0.1:$dead" --judge-url "http://127.0.0.1:$dead/v1"
expect 2 "is not http://HOST:PORT" --judge-url "https://127.0.0.1:$dead/v1"
expect 2 "--judge-token-env needs --judge-url" --judge-token-env MY_TOKEN
expect 2 "--memcheck is this process's judging" --judge-url "$url" --memcheck
echo "0123456789abcdef-token" >"$scratch/token"
start guarded --token-file "$scratch/token"
expect 2 "did not accept the token (none was given)" --judge-url "$url"
MY_TOKEN=wrong-token-0123456789 expect 2 "did not accept the token" --judge-url "$url" --judge-token-env MY_TOKEN
expect 2 "--judge-token-env MY_TOKEN but that variable is empty or unset" --judge-url "$url" --judge-token-env MY_TOKEN
PTXBENCH_SERVE_TOKEN=0123456789abcdef-token "$ptxbench" run --tasks gemm_n7168_k5120 --turns 1 --no-progress --judge-url "$url" \
  --out guarded_run.db 2>"$scratch/guarded_run.log" >/dev/null || fail "run with the token in PTXBENCH_SERVE_TOKEN: $(cat "$scratch/guarded_run.log")"
echo "ok: run --judge-url stores the turns an in-process run stores; killed judge: failed, resumed to the same turns; refusals"
