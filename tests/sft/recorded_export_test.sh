#!/usr/bin/env bash
# The SFT export on the embedded agent's real runs on the H200 (2026-11-29, see
# docs/results/2026-11-29-h200-run1.md): every completed trajectory's repair appears
# exactly once (turn 3, correct without wgmma/TMA -> turn 4, the reference kernel), and
# the interrupted mha_bwd_d128 trajectory (killed before its turn 4) yields none.
set -euo pipefail
ptxbench=$1
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$ptxbench" sft fixit "$here/recorded/h200-2026-11-29-run1.db" "$here/recorded/h200-2026-11-29-run2.db" \
  --out "$out" > "$out/log" 2>&1 || { cat "$out/log"; exit 1; }
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
meta = [json.loads(l) for l in open(f"{out}/train_meta.jsonl")]
rows = [json.loads(l) for l in open(f"{out}/train.jsonl")]
tasks = sorted(m["task"] for m in meta)
want = ["gemm_n7168_k5120", "mha_bwd_d128_causal", "mha_with_lse_d128", "mha_with_lse_d128_causal"]
assert tasks == want, f"tasks {tasks} != {want}"
for m, r in zip(meta, rows):
    assert m["category"] == "passed_missing_instructions" and m["failing_turn"] == 3 and m["repair_turn"] == 4, m
    roles = [x["role"] for x in r["messages"]]
    assert roles == ["system", "user", "assistant", "user", "assistant"], roles
    assert [x.get("weight") for x in r["messages"] if x["role"] == "assistant"] == [0, 1]
    assert "CORRECT, but the target instructions did not execute" in r["messages"][3]["content"]
    assert "wgmma" in r["messages"][4]["content"]
manifest = json.load(open(f"{out}/manifest.json"))
assert len(manifest["sources"]) == 2, manifest["sources"]
print(f"ok: {len(rows)} repair rows, one per completed trajectory")
PY
