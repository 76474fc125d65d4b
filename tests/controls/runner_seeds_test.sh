#!/usr/bin/env bash
# tests/gpu/eval_controls/run.py judges an entry at each of its `seeds` (kernels/controls/judge.toml:
# the timing-only memo controls) and fails when any one seed gets a wrong verdict. A fake
# ptxbench stands in for the GPU: it catches the memo kernel except at the seed named in $MISS.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/ptxbench" <<'FAKE'
#!/usr/bin/env bash
seed=""; while [ $# -gt 0 ]; do [ "$1" = --seed ] && seed=$2; shift; done
if [ "$seed" = "${MISS:-}" ]; then echo '{"eval":{"outcome":"passed","flags":[]}}'
else echo '{"eval":{"outcome":"incorrect","flags":["cached_result"]}}'; fi
FAKE
chmod +x "$tmp/ptxbench"
run() { PTXBENCH_ROOT=$root MISS=$1 python3 "$root/tests/gpu/eval_controls/run.py" --ptxbench "$tmp/ptxbench" \
  --only gemm/memo_rows_copy.cu --log "$tmp/log"; }
out=$(run none); rc=$?
[ "$rc" -eq 0 ] && grep -q "^5/5 controls as expected" <<<"$out" || { echo "FAIL: all seeds caught: exit $rc"; echo "$out"; exit 1; }
for s in 1 2 3 4; do
  grep -q "^ok   memo_rows_copy.cu (seed $s)" <<<"$out" || { echo "FAIL: seed $s not judged"; echo "$out"; exit 1; }
done
[ -f "$tmp/log/memo_rows_copy.cu.seed3.json" ] || { echo "FAIL: no log per seed"; exit 1; }
out=$(run 3); rc=$?
[ "$rc" -eq 1 ] && grep -q "^FAIL memo_rows_copy.cu (seed 3)" <<<"$out" && grep -q "^4/5" <<<"$out" ||
  { echo "FAIL: a miss at seed 3 must fail the run: exit $rc"; echo "$out"; exit 1; }
echo "ok: every seed judged, a miss at one seed fails the run"
