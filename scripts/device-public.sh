#!/usr/bin/env bash
# The public Hopper kernels (kernels/public/README.md) judged on the GPU machine by this build and
# by the previous release, with the same glue: one `ptxbench eval --json` each, interleaved per
# kernel so both see the same clocks. Needs .public/candidates carried (scripts/device-prepare.sh
# assembles them with scripts/public-kernels.sh; their list is .public/candidates/list.txt).
#   scripts/device-public.sh OUT_DIR NEW_BIN [OLD_BIN]
set -uo pipefail
out=$1 new=$2 old=${3:-}
mkdir -p "$out"
ls .public/candidates/*.cu > /dev/null || { echo "no .public/candidates: carry them"; exit 1; }
cp .public/candidates/list.txt "$out/list.txt"
summary() {  # outcome, speedup, families executed
  python3 - "$1" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except Exception as e:
    print("no JSON:", e); sys.exit()
ev = j.get("eval") or {}
tm = ev.get("timing") or {}
au = (j.get("audit") or {}).get("families") or []  # [{name, verdict, ...}]
fam = ",".join(f"{f.get('name')}={f.get('verdict')}" for f in au if isinstance(f, dict))
print(ev.get("outcome"), "speedup", tm.get("speedup"), fam, "|", (ev.get("message") or "")[:160])
PY
}
status=0
while read -r line; do
  name=${line%%:*}
  task=${line##* }
  for which in new old; do
    bin=$new; [ "$which" = old ] && bin=$old
    [ -n "$bin" ] && [ -x "$bin/ptxbench" ] || continue
    log=$out/$which-$name.json
    PTXBENCH_CACHE=$bin/cache "$bin/ptxbench" eval ".public/candidates/$name.cu" --task "$task" \
      --json > "$log" 2> "$log.err"
    echo "$which $name ($task): $(summary "$log")"
  done
done < "$out/list.txt"
exit $status
