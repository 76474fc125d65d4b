#!/usr/bin/env bash
# fib_loader.sh PTXBENCH ROOT: the FlashInfer-Trace data ptxbench writes, checked by the
# flashinfer-bench package's own loader (fib_validate.py): the recorded H200 run exported with
# `export-fib` loads as a TraceSet, the eval.v1 goldens' traces and the reference definitions
# validate, and a definition `export-fib` wrote imports again with `import-fib`. Skipped (77)
# when the package is not in ROOT/.deps/wheels (scripts/setup.sh puts it there).
set -u
ptxbench=$1 root=$2
w=${PTXBENCH_DEPS_DIR:-$root/.deps}/wheels
export PYTHONPATH="$w/flashinfer-bench:$w/pydantic:$w/pydantic-core:$w/typing-extensions:$w/annotated-types:$w/typing-inspection"
validate() { python3 "$root/tests/interop/fib_validate.py" "$@"; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
validate definition "$root"/src/interop/testdata/reference_{gemm,mha}_*.json
rc=$?
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || exit 1
"$ptxbench" export-fib "$root/tests/report/recorded/h200-2026-11-30-main.db" --out "$tmp/dataset" ||
  { echo "FAIL: export-fib failed" >&2; exit 1; }
X
validate dataset "$tmp/dataset" --definitions 5 --solutions 25 --traces 35 || exit 1
validate envelope "$root"/src/interop/testdata/eval_v1_*.json || exit 1
def=$(find "$tmp/dataset/definitions" -name mha_bwd_d128_causal.json)
"$ptxbench" import-fib "$def" "$tmp/dataset/workloads/attention/mha_bwd_d128_causal.jsonl" \
  --out "$tmp/tasks" >/dev/null || { echo "FAIL: import-fib of an exported definition" >&2; exit 1; }
cmp <(grep -v '^#' "$tmp/tasks/attention_bwd/mha_bwd_d128_causal.toml" | grep -E '^(family|causal|flops|baseline) =') \
    <(grep -E '^(family|causal|flops|baseline) =' "$root/tasks/attention_bwd/mha_bwd_d128_causal.toml") ||
  { echo "FAIL: the re-imported task differs from the shipped one" >&2; exit 1; }
echo "ok: ptxbench's FlashInfer-Trace output loads with flashinfer-bench"
