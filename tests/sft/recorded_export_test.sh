#!/usr/bin/env bash
# The SFT export on the embedded agent's real runs on the H200 (2026-11-29):
#  1. the complete run of the README's main job over the core sm_90a suite
#     (docs/results/2026-11-29-h200-run2.md, device call 8): all five trajectories ->
#     exactly five repairs, one per trajectory;
#  2. the first two partial runs (docs/results/2026-11-29-h200-run1.md): every completed
#     trajectory's repair appears exactly once and the interrupted mha_bwd_d128 trajectory
#     (killed before its turn 4) yields none.
# Each repair is turn 3 (correct without wgmma/TMA) -> turn 4 (the reference kernel).
set -euo pipefail
ptxbench=$1
here=$(cd "$(dirname "$0")" && pwd)
rec=$here/recorded
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

check() {  # check OUT_DIR "task,task,..." N_SOURCES
  python3 - "$@" <<'PY'
import json, sys
out, want, n_sources = sys.argv[1], sorted(sys.argv[2].split(",")), int(sys.argv[3])
meta = [json.loads(l) for l in open(f"{out}/train_meta.jsonl")]
rows = [json.loads(l) for l in open(f"{out}/train.jsonl")]
tasks = sorted(m["task"] for m in meta)
assert tasks == want, f"tasks {tasks} != {want}"
for m, r in zip(meta, rows):
    assert m["category"] == "passed_missing_instructions" and m["failing_turn"] == 3 and m["repair_turn"] == 4, m
    roles = [x["role"] for x in r["messages"]]
    assert roles == ["system", "user", "assistant", "user", "assistant"], roles
    assert [x.get("weight") for x in r["messages"] if x["role"] == "assistant"] == [0, 1]
    assert "CORRECT, but the target instructions did not execute" in r["messages"][3]["content"]
    assert "wgmma" in r["messages"][4]["content"]
manifest = json.load(open(f"{out}/manifest.json"))
assert len(manifest["sources"]) == n_sources, manifest["sources"]
print(f"ok: {len(rows)} repair rows, one per completed trajectory ({out})")
PY
}

"$ptxbench" sft fixit "$rec/h200-2026-11-29-main-run.db" --out "$out/full" > "$out/full.log" 2>&1 ||
  { cat "$out/full.log"; exit 1; }
check "$out/full" gemm_n7168_k5120,mha_bwd_d128,mha_bwd_d128_causal,mha_with_lse_d128,mha_with_lse_d128_causal 1

"$ptxbench" sft fixit "$rec/h200-2026-11-29-run1.db" "$rec/h200-2026-11-29-run2.db" --out "$out/partial" \
  > "$out/partial.log" 2>&1 || { cat "$out/partial.log"; exit 1; }
check "$out/partial" gemm_n7168_k5120,mha_bwd_d128_causal,mha_with_lse_d128,mha_with_lse_d128_causal 2
