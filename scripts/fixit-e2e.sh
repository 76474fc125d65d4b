#!/usr/bin/env bash
# The Fixit adaptation loop end to end on the local model (issue 20, docs/sft.md "The loop
# end to end"): judge a model, export repair rows, LoRA fine-tune it, serve the adapter,
# judge it again with the same settings, and compare the two runs task by task.
#
#   1 serve-base     scripts/endpoint-start.sh: llama-server + Gemma 3 270M (one slot, a fixed
#                    --seed: the same prompt gets the same reply in both runs)
#   2 run-base       ptxbench run on the selected tasks -> OUT/base.db
#   3 export         ptxbench sft coverage + sft fixit on base.db and the shipped H200 run
#                    files -> OUT/rows/ (train.jsonl, manifest.json, coverage.txt)
#   4 check-template training/check_template.py: the trainer's chat template renders the rows
#                    byte for byte as the server does (POST /apply-template), and its
#                    tokenizer gives the server's token ids (POST /tokenize)
#   5 stop-base
#   6 train          training/train_lora.py (TRL SFTTrainer + peft LoRA) on the rows ->
#                    OUT/adapter/ (peft adapter, metrics.json, adapter.gguf for llama.cpp)
#   7 serve-adapter  the same server with --lora OUT/adapter/adapter.gguf, checked in
#                    GET /lora-adapters
#   8 run-adapter    ptxbench run again, the same tasks, seed and settings -> OUT/adapted.db
#   9 stop-adapter
#  10 compare        ptxbench show adapted.db --compare base.db (per task: share of replies
#                    with a code block, compile errors, correct, correct with the target
#                    instructions; per task and category) -> OUT/compare.txt, compare.json
#  11 summary        OUT/summary.md: settings, loss curve, both runs side by side, step times
#
# Everything goes to OUT: both run files, the rows, the adapter, metrics.json, the servers'
# logs (OUT/server-*/server.log), each step's log (OUT/logs/NN-STEP.log) and time
# (OUT/steps.tsv). A failing step stops the loop with its name and log; what the earlier
# steps wrote stays. A server the script started is stopped however it ends.
#
# Sizes. The full loop (default) runs the core tasks, 2 turns, 400 tokens a reply, and
# trains 10 steps at 512 tokens a row; --short (the ctest `fixit_e2e`) runs 2 tasks, 1 turn,
# 300 tokens, and trains 3 steps at 256 tokens on the first 2 rows (one batch, seen at
# every step, so a falling loss shows the adapter learning). A CPU step of Gemma 3 270M at
# 512 tokens and batch 2 takes about a minute on 2 cores (most of it the 262k-word output
# layer), and a repair row is 20-25k tokens with a 5-10k-token repair: no CPU length holds
# one, so train_lora.py --cut-completions keeps the end of the prompt (the feedback) and
# the start of the repair, and the loss falls on that start. The paper's scale (whole
# rows, a 27B model, GPUs): docs/sft.md.
#
# Context `none` by default: the endpoint test's measurement (tests/endpoint/real_model.sh)
# is 616 s for 8 turns with the full context (~9.5k prompt tokens a request, mostly prefill
# on 2 cores) against ~106 s without; the comparison needs both runs on the same context.
#
# Usage: scripts/fixit-e2e.sh --out DIR [options]   (--help lists them)
# Environment: PTXBENCH (the ptxbench binary; default build/ptxbench), PTXBENCH_TRAINING_PYTHON
# (default .deps/training-venv/bin/python), PTXBENCH_ENDPOINT_MODEL, PTXBENCH_CACHE.
# Exit: 0 the loop ran and compared; 1 a step failed (named on stderr); 2 bad options or
# something missing (the endpoint or the training stack not installed).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

usage() {
  sed -n '2,/^set -uo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  cat <<'EOF'
Options (full loop / --short):
  --out DIR            output folder (required; created; must be empty or absent)
  --short              the CI sizes below instead of the full loop's
  --tasks LIST         ptxbench run --tasks (core / gemm_n7168_k5120,mha_with_lse_d128)
  --turns N            turns per trajectory (2 / 1)
  --samples N          trajectories per task (1 / 1)
  --max-tokens N       completion tokens a reply (400 / 300)
  --context LEVEL      prompt context level (none / none)
  --temperature T      sampling temperature (0.7)
  --seed N             the server's sampling seed and the trainer's seed (1234)
  --steps N            training steps (10 / 3)
  --max-length N       tokens a training row (512 / 256)
  --rows N             train on the first N exported rows, 0: all (0 / 2)
  --batch-size N       rows a step (2)
  --threads N          CPU threads for the server and the trainer (nproc)
  --port N             the server's port (default: a free one)
  --runs "FILES"       the H200 run files exported with base.db (default: ../shared/runs/
                       2026-11-30-h200-main.db when present beside the checkout,
                       docs/results/2026-11-29-h200-run3/call4/main-run.db,
                       tests/sft/recorded/*.db)
  -h, --help           this text
EOF
}

die() { echo "fixit-e2e: error: $*" >&2; exit 2; }

out="" short=0 tasks="" turns="" samples=1 max_tokens="" context=none temperature=0.7 seed=1234
steps="" max_length="" rows="" batch=2 threads=$(nproc) port="" runs=""
while (($#)); do
  case $1 in
    --out) out=${2:?}; shift ;;
    --short) short=1 ;;
    --tasks) tasks=${2:?}; shift ;;
    --turns) turns=${2:?}; shift ;;
    --samples) samples=${2:?}; shift ;;
    --max-tokens) max_tokens=${2:?}; shift ;;
    --context) context=${2:?}; shift ;;
    --temperature) temperature=${2:?}; shift ;;
    --seed) seed=${2:?}; shift ;;
    --steps) steps=${2:?}; shift ;;
    --max-length) max_length=${2:?}; shift ;;
    --rows) rows=${2:?}; shift ;;
    --batch-size) batch=${2:?}; shift ;;
    --threads) threads=${2:?}; shift ;;
    --port) port=${2:?}; shift ;;
    --runs) runs=${2:?}; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option $1 (--help lists them)" ;;
  esac
  shift
done
if ((short)); then
  : "${tasks:=gemm_n7168_k5120,mha_with_lse_d128}" "${turns:=1}" "${max_tokens:=300}"
  : "${steps:=3}" "${max_length:=256}" "${rows:=2}"
else
  : "${tasks:=core}" "${turns:=2}" "${max_tokens:=400}" "${steps:=10}" "${max_length:=512}"
  : "${rows:=0}"
fi
for v in turns samples max_tokens steps max_length rows batch threads seed; do
  [[ ${!v} =~ ^[0-9]+$ ]] || die "--${v//_/-} ${!v}: not a whole number"
done
[ -n "$out" ] || die "--out DIR is required (--help)"
[ ! -e "$out" ] || [ -z "$(ls -A "$out")" ] || die "--out $out is not empty: give a new folder"

. "$root/scripts/endpoint-env.sh"
ptxbench=${PTXBENCH:-$root/build/ptxbench}
python=${PTXBENCH_TRAINING_PYTHON:-$root/.deps/training-venv/bin/python}
[ -x "$ptxbench" ] || die "no ptxbench at $ptxbench: build it (scripts/setup.sh) or set PTXBENCH"
[ -x "$llama_server" ] && [ -f "$gemma_gguf" ] ||
  die "the local endpoint is not installed: scripts/endpoint-install.sh"
[ -x "$python" ] && "$python" -c 'import torch, transformers, trl, peft, gguf' 2>/dev/null ||
  die "the training stack is not installed in $python: PTXBENCH_TRAINING_DEPS=1 training/setup.sh"
if [ -z "$runs" ]; then
  for f in "$root/../shared/runs/2026-11-30-h200-main.db" \
    "$root/docs/results/2026-11-29-h200-run3/call4/main-run.db" "$root"/tests/sft/recorded/*.db; do
    [ -f "$f" ] && runs+="${runs:+ }$f"
  done
fi
for f in $runs; do [ -f "$f" ] || die "--runs: $f: no such file"; done
if [ -z "$port" ]; then
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
fi

mkdir -p "$out/logs" || die "cannot create $out"
out=$(cd "$out" && pwd)
model=$ENDPOINT_MODEL_ID
base="http://127.0.0.1:$port"
started=()  # state dirs of the servers this script started
stop_servers() {
  for s in ${started[@]+"${started[@]}"}; do "$root/scripts/endpoint-stop.sh" "$s" >/dev/null 2>&1; done
  started=()
}
trap stop_servers EXIT
trap 'echo "fixit-e2e: interrupted; what the steps wrote is in $out" >&2; exit 130' INT TERM

printf 'step\tname\tseconds\texit\n' >"$out/steps.tsv"
n=0 t_all=$(date +%s)
# step NAME COMMAND...: runs it with its output in OUT/logs/NN-NAME.log (and on the console),
# records its time; a failure ends the loop naming the step.
step() {
  local name=$1 log t0 rc
  shift
  n=$((n + 1))
  log=$(printf '%s/logs/%02d-%s.log' "$out" "$n" "$name")
  echo "== fixit-e2e: step $n: $name (log: $log)"
  t0=$(date +%s)
  "$@" >"$log" 2>&1
  rc=$?
  sed 's/^/   /' "$log" | tail -n "${PTXBENCH_E2E_TAIL:-25}"
  printf '%d\t%s\t%d\t%d\n' "$n" "$name" $(($(date +%s) - t0)) "$rc" >>"$out/steps.tsv"
  echo "   ($name: $(($(date +%s) - t0)) s, exit $rc)"
  if [ "$rc" -ne 0 ]; then
    echo "fixit-e2e: error: step $n ($name) failed with exit $rc; its log: $log;" \
      "what the loop wrote so far is in $out" >&2
    exit 1
  fi
}

# serve STATE_DIR [ADAPTER]: the server's log in STATE_DIR, and its GET /lora-adapters
# answer (endpoint-start.sh checked that it lists ADAPTER) in STATE_DIR/lora-adapters.json.
serve() {
  PTXBENCH_ENDPOINT_PORT=$port PTXBENCH_ENDPOINT_SLOTS=1 PTXBENCH_ENDPOINT_SEED=$seed \
    PTXBENCH_ENDPOINT_THREADS=$threads PTXBENCH_ENDPOINT_LORA=${2:-} \
    "$root/scripts/endpoint-start.sh" "$1" &&
    curl -s "$base/lora-adapters" | tee "$1/lora-adapters.json" && echo
}
stop() { # STATE_DIR
  "$root/scripts/endpoint-stop.sh" "$1"
  local kept=()
  for s in ${started[@]+"${started[@]}"}; do [ "$s" = "$1" ] || kept+=("$s"); done
  started=(${kept[@]+"${kept[@]}"})
}
judge() { # RUN_FILE
  "$ptxbench" run --model "$model" --base-url "$base/v1" --tasks "$tasks" --turns "$turns" \
    --samples "$samples" --max-tokens "$max_tokens" --context "$context" \
    --temperature "$temperature" --concurrency 1 --request-timeout 1500 --no-progress --out "$1"
}
export_rows() {
  mkdir -p "$out/rows"
  # fixit first: its --out must be a new or empty folder; the coverage table goes beside the rows
  # shellcheck disable=SC2086 # $runs: a list of files
  "$ptxbench" sft fixit "$out/base.db" $runs --out "$out/rows" &&
    "$ptxbench" sft coverage "$out/base.db" $runs --out "$out/rows/coverage.txt" &&
    cat "$out/rows/coverage.txt" || return
  local got; got=$(wc -l <"$out/rows/train.jsonl")
  [ "$got" -gt 0 ] || { echo "sft fixit wrote no train rows"; return 1; }
  if [ "$rows" -gt 0 ]; then
    head -n "$rows" "$out/rows/train.jsonl" >"$out/rows/train-used.jsonl"
  else
    cp "$out/rows/train.jsonl" "$out/rows/train-used.jsonl"
  fi
  echo "training on $(wc -l <"$out/rows/train-used.jsonl") of $got rows (rows/train-used.jsonl)"
}
train() {
  "$python" "$root/training/train_lora.py" --data "$out/rows/train-used.jsonl" --gguf "$gemma_gguf" \
    --out "$out/adapter" --max-length "$max_length" --max-steps "$steps" --batch-size "$batch" \
    --threads "$threads" --seed "$seed" --cut-completions --export-gguf "$out/adapter/adapter.gguf" &&
    "$python" - "$out/adapter/metrics.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
print(f"loss {m['first_loss']:.4f} -> {m['last_loss']:.4f} in {m['steps']} steps "
      f"({m['rows']['used']} rows used of {m['rows']['read']})")
EOF
}
compare() {
  "$ptxbench" show "$out/adapted.db" --compare "$out/base.db" | tee "$out/compare.txt" &&
    "$ptxbench" show "$out/adapted.db" --compare "$out/base.db" --json >"$out/compare.json"
}

# OUT/summary.md: the settings, the step times, the loss curve, each run's summary, the
# comparison (written from the files above; nothing is measured here).
summarize() {
  {
    echo "# Fixit loop: $(date -u +%Y-%m-%d)"
    printf '\n```\n'
    cat "$out/settings.txt"
    printf '```\n\n## Steps (wall seconds)\n\n| step | name | seconds | exit |\n| --- | --- | --- | --- |\n'
    tail -n +2 "$out/steps.tsv" | sed 's/\t/ | /g; s/^/| /; s/$/ |/'
    printf '\n## Training (adapter/metrics.json)\n\n'
    "$python" - "$out/adapter/metrics.json" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
r = m["rows"]
print(f"rows read {r['read']}, used {r['used']} ({r.get('cut', 0)} of them cut to the length), "
      f"dropped {r['dropped']} {r.get('drop_reasons') or ''}; max length {m.get('max_length')}; "
      f"loss {m['first_loss']:.4f} -> {m['last_loss']:.4f}\n")
print("| step | loss | seconds since the training started |")
print("| --- | --- | --- |")
for s in m.get("step_log") or [{"step": i + 1, "loss": l} for i, l in enumerate(m["losses"])]:
    print(f"| {s['step']} | {s['loss']:.4f} | {s.get('seconds', '')} |")
EOF
    for run in base adapted; do
      printf '\n## Run %s (%s.db)\n\n```\n' "$run" "$run"
      "$ptxbench" show "$out/$run.db"
      printf '```\n'
    done
    printf '\n## Comparison (`ptxbench show adapted.db --compare base.db`)\n\n'
    if grep -q "GPU none)" "$out/compare.txt"; then
      printf 'No GPU judged these runs: a reply that compiled is not_evaluated, so the correct and\n'
      printf 'correct+arch shares are "n/e" (not evaluated), and 0%% only where no reply compiled.\n'
      printf 'What changed is measured by the code-block and compile-error shares.\n'
    fi
    printf '\n```\n'
    cat "$out/compare.txt"
    printf '```\n'
  } >"$out/summary.md"
  echo "wrote $out/summary.md"
}

cat >"$out/settings.txt" <<EOF
date: $(date -u +%Y-%m-%dT%H:%M:%SZ)
host: $(hostname) ($(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'))
commit: $(git -C "$root" rev-parse HEAD 2>/dev/null)$(git -C "$root" diff --quiet HEAD 2>/dev/null || echo ' (dirty)')
command: $0 --out $out $( ((short)) && echo --short) --tasks $tasks --turns $turns --samples $samples --max-tokens $max_tokens --context $context --temperature $temperature --seed $seed --steps $steps --max-length $max_length --rows $rows --batch-size $batch --threads $threads
model: $model ($gemma_gguf)
exported run files: $out/base.db $runs
EOF
cat "$out/settings.txt"

started+=("$out/server-base")
step serve-base serve "$out/server-base"
step run-base judge "$out/base.db"
step export export_rows
step check-template "$python" "$root/training/check_template.py" --base-url "$base" \
  --data "$out/rows/train-used.jsonl" --gguf "$gemma_gguf"
step stop-base stop "$out/server-base"
step train train
started+=("$out/server-adapter")
step serve-adapter serve "$out/server-adapter" "$out/adapter/adapter.gguf"
step run-adapter judge "$out/adapted.db"
step stop-adapter stop "$out/server-adapter"
step compare compare
step summary summarize
echo "fixit-e2e: done in $(($(date +%s) - t_all)) s; everything is in $out (summary.md)"
