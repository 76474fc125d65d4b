#!/usr/bin/env bash
# Runs library_rule as N processes sharing the GPU (its checks are not timings), then prints
# the merged table. Exit 0 when every shard passed.
#   run_shards.sh LIBRARY_RULE_BINARY OUT_DIR [N=4] [library_rule options...]
set -u
bin=$1 out=$2 n=${3:-4}
shift $(( $# >= 3 ? 3 : $# ))
mkdir -p "$out"
pids=()
for i in $(seq 0 $((n - 1))); do
  "$bin" --shard "$i/$n" --report "$out/library_rule.$i.md" "$@" > "$out/library_rule.$i.log" 2>&1 &
  pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
head -n 2 "$out/library_rule.0.md"
for i in $(seq 0 $((n - 1))); do sed -n '3,$p' "$out/library_rule.$i.md" | grep '^|'; done
grep -h ' checks, ' "$out"/library_rule.*.md
exit $status
