#!/usr/bin/env bash
# real_model.sh PTXBENCH
# End to end with a real model on the CPU: starts the project's test endpoint
# (scripts/endpoint-start.sh: llama-server + Gemma 3 270M) on a free port, then
#   1. `ptxbench run` (two tasks, two turns, two samples; no GPU: candidates are compiled and
#      statically audited only) and checks the run file: every turn has the model's stored
#      reply, a category a real reply can get without a GPU (no_code, or judged by the
#      compiler), feedback sent back as the next user message, and the server's usage
#      tokens and latency;
#   2. `ptxbench show` and `ptxbench sft fixit` on that run file;
#   3. `ptxbench sft mine` with the same server as the teacher, streamed (--stream).
# The server is stopped however the script ends. Prints the time of each step.
set -u
ptxbench=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
# Exit 77 (skipped) where the endpoint is not installed, unless $CI is set (scripts/test.sh,
# and so CI, installs it).
. "$root/scripts/endpoint-env.sh"
if [ ! -x "$llama_server" ] || [ ! -f "$gemma_gguf" ]; then
  echo "SKIPPED: the test endpoint is not installed (scripts/endpoint-install.sh installs it; scripts/test.sh runs it)"
  [ -n "${CI:-}" ] && { echo "FAIL: \$CI is set, so the endpoint must be there"; exit 1; }
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-endpoint-XXXXXX")
trap '"$root/scripts/endpoint-stop.sh" "$tmp/server" >/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
q() { sqlite3 -batch -noheader "$1" "$2"; }
clock() { echo "time: $1: $(($(date +%s) - $2)) s"; }
export PTXBENCH_CACHE="$tmp/cache"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
t0=$(date +%s)
PTXBENCH_ENDPOINT_PORT=$port "$root/scripts/endpoint-start.sh" "$tmp/server" ||
  fail "the test endpoint did not start (scripts/setup.sh installs it)"
clock "server ready" "$t0"
model=${PTXBENCH_ENDPOINT_MODEL:-gemma-3-270m}
url="http://127.0.0.1:$port/v1"
[ "$(curl -s "$url/models" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["id"])')" = "$model" ] ||
  fail "the server does not list the model id $model"

# 1. The run. On 2 shared cores the full context (~9.5k prompt tokens a request) took 616 s
# for this step alone, most of it prefill (requests waited up to 590 s for their reply), so
# the context level is `none` unless PTXBENCH_ENDPOINT_CONTEXT says otherwise; 800 tokens a
# reply.
context=${PTXBENCH_ENDPOINT_CONTEXT:-none}
t1=$(date +%s)
"$ptxbench" run --model "$model" --base-url "$url" --tasks gemm_n7168_k5120,mha_with_lse_d128 \
  --turns 2 --samples 2 --max-tokens 800 --context "$context" --request-timeout 1500 \
  --out run.db --no-progress >run.txt 2>&1
got=$?
cat run.txt
clock "ptxbench run" "$t1"
[ "$got" -eq 0 ] || fail "ptxbench run: exit $got, expected 0 (no endpoint failure, no GPU)"
[ "$(q run.db "SELECT count(*) FROM trajectories WHERE status = 'done'")" = 4 ] ||
  fail "expected 4 finished trajectories"
[ "$(q run.db "SELECT count(*) FROM turns")" = 8 ] ||
  fail "expected 8 turns (no turn can reach the target without a GPU)"
# The model's own replies, stored as the assistant messages of their turns.
[ "$(q run.db "SELECT count(*) FROM messages WHERE role = 'assistant' AND length(content) > 0")" = 8 ] ||
  fail "every turn must store the model's (non-empty) reply"
[ "$(q run.db "SELECT count(DISTINCT content) FROM messages WHERE role = 'assistant'")" -ge 2 ] ||
  fail "the replies are all the same text"
# Each turn 1 is answered with its feedback (a user message of turn 1), which the reply of
# turn 2 follows.
[ "$(q run.db "SELECT count(*) FROM turns t JOIN messages m ON m.trajectory_id = t.trajectory_id
     AND m.role = 'user' AND m.turn = 1 AND m.content = t.feedback JOIN messages a
     ON a.trajectory_id = m.trajectory_id AND a.seq = m.seq + 1 AND a.role = 'assistant'
     AND a.turn = 2 WHERE t.turn = 1")" = 4 ] ||
  fail "turn 1's feedback is not followed by the reply of turn 2"
# Without a GPU a reply is no_code (no code block), or judged by the compiler (compile
# error, policy) or compiled and left not evaluated; the GPU stages are skipped.
bad=$(q run.db "SELECT category FROM turns WHERE category NOT IN
     ('no_code', 'compile_error', 'policy', 'timeout', 'not_evaluated')")
[ -z "$bad" ] || fail "unexpected categories without a GPU: $bad"
[ "$(q run.db "SELECT count(*) FROM turns WHERE category = 'no_code' AND source IS NOT NULL")" = 0 ] ||
  fail "a no_code turn has a source"
[ "$(q run.db "SELECT count(*) FROM turns WHERE category <> 'no_code' AND (source IS NULL
     OR compile_json IS NULL)")" = 0 ] || fail "a turn with code lacks its source or compile report"
# The server's usage and the request's latency, per turn.
[ "$(q run.db "SELECT count(*) FROM turns WHERE json_extract(llm_json, '$.prompt_tokens') > 100
     AND json_extract(llm_json, '$.completion_tokens') > 0
     AND json_extract(llm_json, '$.completion_tokens') <= 800
     AND json_extract(llm_json, '$.latency_s') > 0")" = 8 ] ||
  fail "every turn needs the server's usage tokens and a latency"
echo "categories: $(q run.db "SELECT group_concat(category, ' ') FROM turns")"
echo "tokens: $(q run.db "SELECT sum(json_extract(llm_json, '$.prompt_tokens')) || ' prompt, ' ||
     sum(json_extract(llm_json, '$.completion_tokens')) || ' completion, ' ||
     round(sum(json_extract(llm_json, '$.latency_s')), 1) || ' s of requests' FROM turns")"

# 2. show and sft fixit read it.
"$ptxbench" show run.db >show.txt 2>&1 || { cat show.txt; fail "ptxbench show failed"; }
grep -q "gemm_n7168_k5120" show.txt && grep -q "mha_with_lse_d128" show.txt ||
  { cat show.txt; fail "show does not list both tasks"; }
"$ptxbench" show run.db --json >show.json 2>&1 || fail "ptxbench show --json failed"
python3 -c 'import json,sys; json.load(open("show.json"))' || fail "show --json is not JSON"
"$ptxbench" sft fixit run.db --out fixit >fixit.txt 2>&1 || { cat fixit.txt; fail "sft fixit failed"; }
[ -f fixit/manifest.json ] || fail "sft fixit wrote no manifest"

# 3. sft mine: the same server as the teacher, streamed. no_code is a seed category too so
# that there are seeds whatever the model wrote (a turn that compiled is not a failure);
# at most two seeds, one turn each.
t3=$(date +%s)
"$ptxbench" sft mine run.db --model "$model" --base-url "$url" --stream --max-tokens 800 \
  --request-timeout 1500 \
  --categories compile_error,policy,timeout,no_code --limit 2 --out mine.db >mine.txt 2>&1
got=$?
cat mine.txt
clock "ptxbench sft mine" "$t3"
[ "$got" -eq 0 ] || fail "sft mine: exit $got, expected 0"
seeds=$(sed -nE 's/^([12]) seed\(s\): \1 run now, 0 failed.*/\1/p' mine.txt)
[ -n "$seeds" ] || fail "sft mine did not run one or two seeds without failure"
[ "$(q mine.db "SELECT count(*) FROM turns WHERE json_extract(llm_json, '$.prompt_tokens') > 0
     AND json_extract(llm_json, '$.completion_tokens') > 0")" = "$seeds" ] ||
  fail "the streamed teacher turns lack the server's usage"
[ "$(q mine.db "SELECT count(*) FROM messages WHERE role = 'assistant' AND length(content) > 0")" = "$seeds" ] ||
  fail "the teacher's streamed replies were not stored"
clock "all" "$t0"
echo "PASS"
