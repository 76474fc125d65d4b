#!/usr/bin/env bash
# run.sh BUILD_DIR TARGET CORPUS...: one fuzz target (built by build.sh into BUILD_DIR), first
# over every seed file of the CORPUS folders as it is (the crash inputs of issue 38 among them,
# up to 1 MiB), then fuzzing for PTXBENCH_FUZZ_SECONDS (20) on inputs of up to 8 KiB, starting
# from the seeds. The committed seeds are never changed: new inputs go to a scratch folder.
# A crash, a leak, undefined behaviour or an input slower than 20 s fails the test; the input
# is kept in BUILD_DIR/artifacts/ and its path printed.
set -uo pipefail
dir=$1 target=$2
shift 2
bin=$dir/$target
[ -x "$bin" ] || { echo "fuzz: $bin is not built (tests/fuzz/build.sh)" >&2; exit 1; }
mkdir -p "$dir/artifacts"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-fuzz-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
common=(-timeout=20 -rss_limit_mb=4096 -artifact_prefix="$dir/artifacts/$target-")
seeds=()
for c in "$@"; do for f in "$c"/*; do [ -f "$f" ] && seeds+=("$f"); done; done
echo "fuzz $target: ${#seeds[@]} seeds as they are"
"$bin" "${common[@]}" "${seeds[@]}" >"$scratch/seeds.log" 2>&1 ||
  { tail -n 40 "$scratch/seeds.log"; echo "FAIL: $target on a seed" >&2; exit 1; }
secs=${PTXBENCH_FUZZ_SECONDS:-20}
echo "fuzz $target: ${secs} s"
"$bin" "${common[@]}" -max_total_time="$secs" -max_len=8192 -print_final_stats=1 \
  "$scratch" "$@" >"$scratch/fuzz.log" 2>&1 ||
  { tail -n 60 "$scratch/fuzz.log"; echo "FAIL: $target (the input is under $dir/artifacts/)" >&2; exit 1; }
grep -E '^stat::number_of_executed_units|^Done' "$scratch/fuzz.log" | tail -n 2
echo "ok: $target"
