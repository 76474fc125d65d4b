#!/usr/bin/env bash
# Before/after in one device call: the five sm_90a references judged by two ptxbench builds
# (OLD_BIN and NEW_BIN folders, each with ptxbench and its workers), interleaved old/new per
# reference and round, so both see the same clocks. Prints one line per run and a table:
# speedup vs the library and the wall time of `ptxbench eval --no-audit` (judging only; the
# compile cache is warm).
#   bench/compare_judges.sh OLD_BIN NEW_BIN OUT_DIR [ROUNDS]
# OLD_ROOT (env): the old build's own task folder (PTXBENCH_ROOT) when the spec format changed.
# MID_BIN (env): a third build, run between the two with this checkout's tasks (say, the commit
# before a change, when OLD_BIN is the last release).
# REFS (env): the references to judge (default: all five).
# NEW_RUNS (env, default "heuristic fastest"): the new build runs once per entry PLAN[:MS]:
# `--library-plan PLAN` ("heuristic" is the plan the old judges timed against, so their ratios
# compare with it; "fastest" the default since 2026-12-01) and `--sustained-load-ms MS` when
# given (rows "new-PLAN" or "new-PLAN:MS").
set -u
old=$1 new=$2 out=$3 rounds=${4:-2}
mkdir -p "$out"
refs=${REFS:-"gemm_n7168_k5120 mha_with_lse_d128 mha_with_lse_d128_causal mha_bwd_d128 mha_bwd_d128_causal"}
# Fill both compile caches first (in parallel), so the wall times below are judging only.
for t in $refs; do
  for bin in "$old" ${MID_BIN:-} "$new"; do
    root=$PTXBENCH_ROOT; [ "$bin" = "$old" ] && root=${OLD_ROOT:-$PTXBENCH_ROOT}
    [ -x "$bin/ptxbench" ] && PTXBENCH_ROOT="$root" PTXBENCH_CACHE="$bin/cache" "$bin/ptxbench" compile \
      "kernels/reference/sm_90a/$t.cu" --task "$t" > /dev/null 2>&1 &
  done
done
wait
printf "%-26s %-13s %5s %9s %8s %s\n" reference run round speedup wall_s outcome | tee "$out/table.txt"
for r in $(seq 1 "$rounds"); do
  for t in $refs; do
    runs="old ${MID_BIN:+mid}"
    for v in ${NEW_RUNS:-heuristic fastest}; do runs="$runs new-$v"; done
    for which in $runs; do
      bin=$old extra="" root=${OLD_ROOT:-$PTXBENCH_ROOT}
      case $which in
        new-*) v=${which#new-} plan=${v%%:*} ms=0; [ "$v" != "$plan" ] && ms=${v#*:}
               bin=$new extra="--allow-weaker-sandbox --library-plan $plan --sustained-load-ms $ms"
               root=$PTXBENCH_ROOT ;;
        mid) bin=$MID_BIN extra="--allow-weaker-sandbox" root=$PTXBENCH_ROOT ;;
      esac
      [ -x "$bin/ptxbench" ] || continue
      log="$out/$which-$t-$r.json"
      start=$(date +%s%N)
      PTXBENCH_ROOT="$root" PTXBENCH_CACHE="$bin/cache" "$bin/ptxbench" eval \
        "kernels/reference/sm_90a/$t.cu" --task "$t" --json --no-audit --seed $((1000 + r)) $extra \
        > "$log" 2> "$log.err"
      wall=$(( ($(date +%s%N) - start) / 1000000 ))e-3
      python3 - "$log" "$t" "$which" "$r" "$wall" <<'PY' | tee -a "$out/table.txt"
import json, sys
log, t, which, r, wall = sys.argv[1:]
try:
    j = json.load(open(log))
    ev = j.get("eval") or {}
    tm = ev.get("timing") or {}
    sp = tm.get("speedup")
    clk = (tm.get("clocks_after") or {}).get("sm_clock_mhz")
    med = lambda k: (tm.get(k) or {}).get("median_ms")
    print(f"{t:<26} {which:<13} {r:>5} {sp if sp is None else round(sp, 4)!s:>9} {float(wall):8.1f} {ev.get('outcome')}"
          f"  cand {med('candidate')} ms, lib {med('baseline')} ms, SM {clk} MHz after"
          f", n {(tm.get('candidate') or {}).get('n')}, ci95 {tm.get('speedup_rel_ci95')}")
except Exception as e:
    print(f"{t:<26} {which:<13} {r:>5} {'-':>9} {float(wall):8.1f} no JSON ({e})")
PY
    done
  done
done
