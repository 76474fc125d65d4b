#!/usr/bin/env bash
# The one script that tests and measures on the GPU machine. It runs in the copy of the
# repository that the device tool makes, with .devpack/ (scripts/device-prepare.sh)
# carried. Phases, in the order given; logs and results under $OUT:
#   info        GPU, driver, clocks, tool versions
#   cache       compile every control, reference and case into the compile cache here (16 cores)
#   reference   the eval worker's reference kernels against a CPU double computation
#   baselines   cuBLASLt / cuDNN SDPA TFLOP/s on the core suite, each checked
#   library     the library meets every task's rule: every workload of every task, checked
#               (tests/gpu/library_rule; SHARDS=N parallel processes, default 8; LIBRARY_ARGS:
#               more library_rule options, e.g. "--family attention_bwd")
#   controls    `ptxbench eval` on every kernels/controls entry: outcome and flags (ONLY=substr;
#               CONTROLS="gemm judge" runs only those manifests of kernels/controls/; SKIP=a.cu,b.cu
#               leaves out those base names; NO_MEMCHECK=1 the entries judged with --memcheck;
#               EVAL_ARGS="--count-timed-calls" adds options to every eval)
#   cases       the same on the hostile cases handed to the project (.devbin/cases/{judge,compat,oracle})
#   isolation   the same on the handed isolation cases (.devbin/cases/isolation; copies judged
#               together where the manifest says so; our own isolation controls are in controls)
#   public      the public Hopper kernels (scripts/public-kernels.sh, .public/ carried) judged by
#               this build and by the previous release (.devbin-old), one `eval --json` each
#   interop     FlashInfer-Trace round trip (scripts/device-interop.sh): the GEMM and forward
#               attention references judged, exported with export-fib, imported back and judged
#               again with the same seed: "same verdict" or "DIFFERENT" per kernel
#   costold     cost (one eval per candidate) through the previous release, right before cost
#   costoldbatch  costbatch through the previous release (before/after in one call)
#   COST_MANIFESTS (env): the manifests the cost phases judge (default: all of kernels/controls)
#   batch       the controls and the handed judge cases judged a task at a time through
#               `ptxbench gate --json` (one warm verifier process per GPU for all of a task's
#               candidates, src/eval/verifier_host.h): outcome and flags, as controls checks them
#   batchshared the same with gate --shared-inputs, and each gate's check that its kernels
#               shared their base input sets
#   compare     the five sm_90a references through the previous release's binaries (.devbin-old,
#               when carried) and this one, interleaved: speedup and judging wall time
#   audit       audit_acceptance on kernels/controls/{gemm,attention,judge}.toml, the audit-only
#               kernels and the handed judge cases (both routes)
#   sweep       forward-attention knob variants (kernels/attention_dev/sweep.sh; .devbin/sweep)
#   profile     Nsight Compute sections of the sm_90a references (scripts/device-profile.sh)
#   repeat      the reference GEMM's speedup over 5 separate `ptxbench eval` runs
#   cost        what judging one candidate costs: bench/judging_cost.py over the references,
#               every control and the handed cases (wall time and phases, median and p90)
#   costbatch   the same set judged a task at a time through `ptxbench gate` (--batch: warm
#               verifier), per candidate the gap between gate's JSON lines
#   costshared  costbatch with gate --shared-inputs (base sets and references kept for the run)
#   main        the README's main job: `ptxbench run` (embedded agent, core sm_90a suite)
#   mainmemcheck  the same with --memcheck (each memcheck session starts a verifier of its own
#               and leaves the warm one: eval.verifier_session counts up across the run)
#   torchcheck  the library baseline against the same library through PyTorch, one process
#               (tests/gpu/library_vs_torch/run.py; PyTorch's own cuDNN, so LD_LIBRARY_PATH unset)
#   serveload   `ptxbench serve` under a stream of never-compiled candidates (bench/serve_load.py:
#               RATE per second, default 1; COUNT candidates, default the whole judging_cost
#               set): throughput, latency, GPU busy
#   CMD         anything else is run as a shell command with the environment set up
# PHASE_TIMEOUT (seconds, default 300) caps each phase. PACK=1 packs everything under
# $OUT into $OUT/results.tgz at the end (the device tool returns at most 8 files).
set -uo pipefail
here=$(pwd)
out=${OUT:-$here/out}
mkdir -p "$out"
# The compile cache and paths were made under /work/main on the CPU machine.
mkdir -p /work
[ -e /work/main ] || ln -sfn "$here" /work/main
bin=/work/main/.devbin
# scripts/device-prepare.sh packs the programs (.devpack/devbin.txz, and devbin-old.txz for the
# previous release) and the compile cache (cache.txz); they are unpacked here. The compile
# caches live outside the repository copy, so that a warm machine keeps what it compiled
# between calls; the previous release's starts empty.
untar() { python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$1" "$2"; }
for pack in devbin devbin-old; do
  [ -f ".devpack/$pack.txz" ] && rm -rf "/work/main/.$pack" && untar ".devpack/$pack.txz" "$here"
done
cachedir=/tmp/ptxbench-device-cache
if [ ! -d "$cachedir/.devcache" ]; then
  mkdir -p "$cachedir"
  [ -f .devpack/cache.txz ] && untar .devpack/cache.txz "$cachedir"
  mkdir -p "$cachedir/.devcache"
fi
[ -e "$bin/cache" ] || ln -sfn "$cachedir/.devcache" "$bin/cache"
if [ -d /work/main/.devbin-old ] && [ ! -e /work/main/.devbin-old/cache ]; then
  mkdir -p /tmp/ptxbench-device-cache-old && ln -sfn /tmp/ptxbench-device-cache-old /work/main/.devbin-old/cache
fi
export PTXBENCH_ROOT=/work/main PTXBENCH_CACHE=$cachedir/.devcache PTXBENCH_DLPACK_INCLUDE=$bin/include
export PTXBENCH_TVM_FFI_ROOT=$bin/tvm_ffi  # scripts/device-prepare.sh carries it
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}:$bin/lib
cap=${PHASE_TIMEOUT:-300}
status=0
pack() {
  [ "${PACK:-0}" = 1 ] || return 0
  (cd "$out" && tar czf /tmp/results.tgz --exclude=results.tgz . && find . -mindepth 1 -delete && mv /tmp/results.tgz .)
}
trap pack EXIT
run() { local name=$1; shift; timeout "$cap" "$@" > "$out/$name.log" 2>&1; local rc=$?
        echo "--- $name: exit $rc"; tail -n "${TAIL:-15}" "$out/$name.log"; [ $rc -eq 0 ] || status=1; }
for phase in "$@"; do
  echo "=== $phase ($(date -u +%H:%M:%S))"
  case "$phase" in
    info) { nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv; nvcc --version | tail -1; } 2>&1 | tee "$out/info.log" ;;
    cache) run cache bash -c "python3 tests/controls/static_check.py --ptxbench $bin/ptxbench --jobs 16;
             python3 tests/controls/static_check.py --ptxbench $bin/ptxbench --jobs 16 --runtime-may-refuse --manifest $bin/cases/judge/manifest.toml --manifest $bin/cases/compat/manifest.toml --manifest $bin/cases/oracle/manifest.toml" ;;
    reference) run reference "$bin/reference_test" ;;
    baselines) run baselines "$bin/ptxbench-bench-baselines" --suite core --budget "${BUDGET:-1}" ;;
    library) run library tests/gpu/library_rule/run_shards.sh "$bin/library_rule" "$out/library" "${SHARDS:-8}" ${LIBRARY_ARGS:-} ;;
    controls) run "controls${CONTROLS:+-${CONTROLS// /-}}" python3 tests/gpu/eval_controls/run.py --ptxbench "$bin/ptxbench" --fast \
             --log "$out/controls${CONTROLS:+-${CONTROLS// /-}}" $(for c in ${CONTROLS:-}; do echo --manifest "kernels/controls/$c.toml"; done) --only "${ONLY:-}" \
             --skip "${SKIP:-}" ${NO_MEMCHECK:+--no-memcheck} $(for x in ${EVAL_ARGS:-}; do echo "--eval-arg=$x"; done) ;;
    cases) run cases python3 tests/gpu/eval_controls/run.py --ptxbench "$bin/ptxbench" --fast --log "$out/cases" \
             --manifest "$bin/cases/judge/manifest.toml" --manifest "$bin/cases/compat/manifest.toml" \
             --manifest "$bin/cases/oracle/manifest.toml" --only "${ONLY:-}" --skip "${SKIP:-}" ;;
    isolation) run isolation python3 tests/gpu/eval_controls/run.py --ptxbench "$bin/ptxbench" --fast --log "$out/isolation" \
             --manifest "$bin/cases/isolation/manifest.toml" --only "${ONLY:-}" ;;
    serveload) run serveload python3 bench/serve_load.py --ptxbench "$bin/ptxbench" --rate "${RATE:-1}" \
             ${COUNT:+--count "$COUNT"} --agree --out "$out/serveload.jsonl" ;;
    public) run public scripts/device-public.sh "$out/public" "$bin" /work/main/.devbin-old ;;
    interop) run interop scripts/device-interop.sh "$out/interop" "$bin" ;;
    costoldbatch) run costoldbatch env PTXBENCH_CASES="$bin/cases" PTXBENCH_CACHE=/work/main/.devbin-old/cache python3 bench/judging_cost.py --batch \
             --ptxbench /work/main/.devbin-old/ptxbench $(for m in ${COST_MANIFESTS:-}; do echo --manifest "$m"; done) --out "$out/costoldbatch.jsonl" ;;
    costold) run costold env PTXBENCH_CASES="$bin/cases" PTXBENCH_CACHE=/work/main/.devbin-old/cache python3 bench/judging_cost.py --ptxbench /work/main/.devbin-old/ptxbench --out "$out/costold.jsonl" ;;
    batch) run batch python3 tests/gpu/eval_controls/run.py --ptxbench "$bin/ptxbench" --batch --log "$out/batch" \
             $(for m in kernels/controls/*.toml; do echo --manifest "$m"; done) \
             --manifest "$bin/cases/judge/manifest.toml" --only "${ONLY:-}" ;;
    batchshared) run batchshared python3 tests/gpu/eval_controls/run.py --ptxbench "$bin/ptxbench" --batch \
             --shared-inputs --log "$out/batchshared" $(for m in kernels/controls/*.toml; do echo --manifest "$m"; done) \
             --manifest "$bin/cases/judge/manifest.toml" --only "${ONLY:-}" ;;
    compare) run compare bench/compare_judges.sh /work/main/.devbin-old "$bin" "$out/compare" "${ROUNDS:-1}" ;;
    audit) run audit "$bin/audit_acceptance" --report "$out/audit.md" --json "$out/audit.jsonl" \
             kernels/controls/gemm.toml kernels/controls/attention.toml kernels/controls/judge.toml kernels/controls/oracle.toml \
             tests/kernels/audit/audit.toml $([ -f "$bin/cases/judge/manifest.toml" ] && echo "$bin/cases/judge/manifest.toml") ;;
    sweep) run sweep kernels/attention_dev/sweep.sh run "$bin/sweep" ;;
    profile) run profile scripts/device-profile.sh "$bin" "$out/profile" ;;
    cost) run cost env PTXBENCH_CASES="$bin/cases" python3 bench/judging_cost.py --ptxbench "$bin/ptxbench" --out "$out/cost.jsonl" ;;
    costbatch) run costbatch env PTXBENCH_CASES="$bin/cases" python3 bench/judging_cost.py --batch --ptxbench "$bin/ptxbench" \
             $(for m in ${COST_MANIFESTS:-}; do echo --manifest "$m"; done) --out "$out/costbatch.jsonl" ;;
    costshared) run costshared env PTXBENCH_CASES="$bin/cases" python3 bench/judging_cost.py --batch --shared-inputs --ptxbench "$bin/ptxbench" --out "$out/costshared.jsonl" ;;
    repeat) run repeat bench/repeatability.sh kernels/reference/sm_90a/gemm_n7168_k5120.cu gemm_n7168_k5120 5 "$bin/ptxbench" ;;
    torchcheck) run torchcheck env -u LD_LIBRARY_PATH python3 tests/gpu/library_vs_torch/run.py \
                  --lib "$bin/libptxbench_library_capi.so" --out "$out/library_vs_torch.json" ;;
    mainmemcheck) run mainmemcheck "$bin/ptxbench" run --memcheck --out "$out/main-memcheck.db" ;;
    main) start=$SECONDS
          run main "$bin/ptxbench" run --out "$out/main-run.db"
          echo "main job wall time: $((SECONDS - start)) s" | tee -a "$out/main.log" ;;
    *) run "cmd-$(date -u +%H%M%S%N)" bash -c "$phase" ;;
  esac
done
exit $status
