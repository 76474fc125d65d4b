#!/usr/bin/env bash
# Old run files read and report identically (issue 37): what `show`, `report` and `sft` make of
# the run files shipped in the repository (the H200 runs of 2026-11-29/30, a CPU run with the GPU
# stages skipped) is compared byte for byte with goldens recorded by the binary before the
# stored-turn types were unified (every output's SHA-256 in tests/golden/stored_runs.sha256, the
# text of the small ones in tests/golden/stored_runs/). A change that alters what a stored run
# reads as fails here, naming the output; if the change is meant, record again:
#   tests/golden/stored_runs.sh build/ptxbench --record   (and say why in the commit)
set -euo pipefail
ptxbench=$(realpath "$1")
mode=${2:-check}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
golden=$here/stored_runs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The run files, copied under short names so every output names them the same way.
mkdir -p "$work/runs" "$work/out"
cp "$repo/tests/report/recorded/h200-2026-11-30-main.db" "$work/runs/h200_main.db"
cp "$repo/tests/sft/recorded/h200-2026-11-29-run1.db" "$work/runs/h200_run1.db"
cp "$repo/tests/sft/recorded/h200-2026-11-29-run2.db" "$work/runs/h200_run2.db"
cp "$repo/tests/sft/recorded/h200-2026-11-29-main-run.db" "$work/runs/h200_run3.db"
cp "$repo/docs/results/2026-12-01-cpu-fixit-e2e/base.db" "$work/runs/cpu_base.db"
cp "$repo/docs/results/2026-12-01-cpu-fixit-e2e/adapted.db" "$work/runs/cpu_adapted.db"
cd "$work"
runs=(h200_main h200_run1 h200_run2 h200_run3 cpu_base cpu_adapted)

step() {  # step NAME COMMAND...: its stdout in out/NAME, its exit code checked
  local name=$1
  shift
  if ! "$@" > "out/$name" 2> "out/$name.err"; then
    echo "FAIL: $* exited non-zero:" >&2
    cat "out/$name.err" >&2
    exit 1
  fi
  rm -f "out/$name.err"
}

for r in "${runs[@]}"; do
  step "show_$r.txt" "$ptxbench" show "runs/$r.db"
  step "show_$r.json" "$ptxbench" show "runs/$r.db" --json --price-in 1.5 --price-out 6
  step "report_$r.log" "$ptxbench" report "runs/$r.db" --html "out/report_$r.html" \
    --csv "out/report_$r.csv" --junit "out/report_$r.xml"
done
step show_compare.txt "$ptxbench" show runs/h200_run1.db runs/h200_run2.db
step show_compare_cpu.txt "$ptxbench" show runs/cpu_base.db runs/cpu_adapted.db
step report_all.log "$ptxbench" report runs/h200_main.db runs/h200_run3.db runs/cpu_base.db \
  runs/cpu_adapted.db --html out/report_all.html --csv out/report_all.csv
all=(runs/h200_main.db runs/h200_run1.db runs/h200_run2.db runs/h200_run3.db runs/cpu_base.db
  runs/cpu_adapted.db)
step sft_coverage.txt "$ptxbench" sft coverage "${all[@]}"
step sft_coverage.json "$ptxbench" sft coverage "${all[@]}" --json
step sft_fixit.log "$ptxbench" sft fixit "${all[@]}" --out out/sft_fixit
step sft_fixit_loose.log "$ptxbench" sft fixit "${all[@]}" --allow-missing-instructions \
  --allow-flag side_stream --out out/sft_fixit_loose
step sft_kernelgen.log "$ptxbench" sft kernelgen "${all[@]}" --out out/sft_kernelgen
step sft_kernelgen_arch.log "$ptxbench" sft kernelgen "${all[@]}" --min-speedup 0.5 \
  --out out/sft_kernelgen_arch
step sft_mine.txt "$ptxbench" sft mine "${all[@]}" --dry-run
step sft_mine.jsonl "$ptxbench" sft mine "${all[@]}" --dry-run --json

# What is not read from a run file: the exports' manifests name the ptxbench version.
sed -i -E 's/^(  "ptxbench_version": )".*",$/\1"(version)",/' out/sft_*/manifest.json

# The goldens: every output's SHA-256 (stored_runs.sha256), and the text of each output under
# 20 KiB (the summaries, CSVs, JUnit, logs, the manifests), to show what changed.
(cd out && find . -type f | LC_ALL=C sort | xargs sha256sum) > "$work/sha256"
if [[ $mode == --record ]]; then
  rm -rf "$golden" && mkdir -p "$golden"
  cp "$work/sha256" "$golden.sha256"
  (cd out && find . -type f -size -20k | while read -r f; do
    mkdir -p "$golden/$(dirname "$f")" && cp "$f" "$golden/$f"
  done)
  echo "recorded $(wc -l < "$golden.sha256") outputs' SHA-256 in $golden.sha256, the small ones in $golden"
  exit 0
fi
status=0
while read -r f; do
  if ! diff -u "$golden/$f" "out/$f" > "$work/one.diff"; then
    head -c 4000 "$work/one.diff" >&2
    status=1
  fi
done < <(cd "$golden" && find . -type f)
diff "$golden.sha256" "$work/sha256" >&2 || status=1
if [[ $status != 0 ]]; then
  echo "FAIL: the outputs above (< recorded, > now) differ from tests/golden/stored_runs*," \
    "recorded before the change" >&2
  exit 1
fi
echo "ok: $(wc -l < "$work/sha256") outputs identical to their goldens"
