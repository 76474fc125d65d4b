#!/usr/bin/env bash
# chromium.sh PTXBENCH: the HTML report of the recorded H200 runs (the main job of 2026-11-30,
# tests/report/recorded/, and of 2026-11-29, tests/sft/recorded/) rendered in headless
# Chromium (Debian's package, scripts/setup-chromium.sh):
#   - its JUnit and CSV read back (10 testcases; 40 rows of as many fields as the header);
#   - the file names no URL and has no script, link, image or import (grep);
#   - the page makes no network request: Chromium's net log lists none from the page (and a
#     page that does fetch something is caught by the same check, so it can fail);
#   - the rendered DOM holds the leaderboard and every plot (<svg> elements with their axes);
#   - the screenshot is not blank: enough ink, and more than a handful of colors.
# The screenshot is kept as $PTXBENCH_REPORT_SHOT when that is set (to look at it).
# Exit 77 (skipped) without Chromium, unless $CI is set: CI installs it, so there it fails.
set -euo pipefail
ptxbench=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
chromium=${PTXBENCH_CHROMIUM:-$(command -v chromium || true)}
if [ -z "$chromium" ]; then
  echo "SKIPPED: chromium is not installed (scripts/setup-chromium.sh installs it)"
  [ -n "${CI:-}" ] && { echo "FAIL: \$CI is set, so Chromium must be there"; exit 1; }
  exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-report-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$ptxbench" report "$here/recorded/h200-2026-11-30-main.db" \
  "$root/tests/sft/recorded/h200-2026-11-29-main-run.db" \
  --html "$tmp/r.html" --junit "$tmp/r.xml" --csv "$tmp/r.csv"

# 0. The JUnit is well-formed XML with a testcase per trajectory; the CSV reads back with a
#    field per column in every row (Python's csv module reads it as pandas does).
python3 - "$tmp/r.xml" "$tmp/r.csv" <<'PY' || fail "the JUnit or the CSV does not read back"
import csv, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall("./testsuite/testcase")
assert len(cases) == 10 and root.get("tests") == "10", (len(cases), root.get("tests"))
rows = list(csv.reader(open(sys.argv[2], newline="")))
assert len(rows) == 1 + 40 and all(len(r) == len(rows[0]) for r in rows), len(rows)
assert {r[rows[0].index("category")] for r in rows[1:]} >= {"passed", "compile_error"}
PY

# 1. Nothing in the file could fetch anything.
if grep -Eion 'https?:|ftp:|<script|<link|<img|<iframe|@import|url\(|src=|href=' "$tmp/r.html"; then
  fail "the report names something to fetch"
fi
grep -q "http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'" "$tmp/r.html" ||
  fail "the report lacks its Content-Security-Policy"

run_chromium() {  # run_chromium PROFILE NETLOG ARGS... (a fresh profile each time)
  local profile=$1 netlog=$2
  shift 2
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$profile" \
    --log-net-log="$netlog" "$@" 2>"$profile.stderr"
}

# 2. No request from the page; the check itself catches a page that makes one.
printf '<!DOCTYPE html><html><body><img src="http://ptxbench.invalid/x.png"></body></html>' \
  >"$tmp/leaky.html"
run_chromium "$tmp/p0" "$tmp/leaky.json" --dump-dom "file://$tmp/leaky.html" >/dev/null
python3 "$here/page_requests.py" "$tmp/leaky.json" | grep -q "ptxbench.invalid" ||
  fail "the net-log check did not see a page's request (the check is broken)"
run_chromium "$tmp/p1" "$tmp/net.json" --window-size=1280,3000 \
  --screenshot="$tmp/shot.png" "file://$tmp/r.html" >/dev/null
requests=$(python3 "$here/page_requests.py" "$tmp/net.json")
[ -z "$requests" ] || fail "the page made network requests: $requests"

# 3. The DOM as rendered: the leaderboard and every plot, with labelled axes.
run_chromium "$tmp/p2" "$tmp/net2.json" --dump-dom "file://$tmp/r.html" >"$tmp/dom.html"
svgs=$(grep -o '<svg class="plot"' "$tmp/dom.html" | wc -l)
[ "$svgs" -eq 5 ] || fail "expected 5 plots (curves, speedup, a verdict chart per run, coverage), got $svgs"
for text in 'id="leaderboard"' 'turn budget T (turns)' 'speedup (library time / kernel time' \
            'library = 1' 'target tensor FLOPs' '<polyline' 'GPU NVIDIA H200'; do
  grep -qF "$text" "$tmp/dom.html" || fail "the rendered page lacks '$text'"
done

# 4. The screenshot is not blank.
read -r width height ink colors < <(python3 "$here/png_stats.py" "$tmp/shot.png")
echo "screenshot ${width}x${height}: ink $ink, $colors colors"
python3 -c "import sys; sys.exit(0 if float('$ink') > 0.03 and $colors > 12 else 1)" ||
  fail "the screenshot looks blank (ink $ink, $colors colors)"
[ -n "${PTXBENCH_REPORT_SHOT:-}" ] && cp "$tmp/shot.png" "$PTXBENCH_REPORT_SHOT"
echo "PASS: report rendered, $svgs plots, no network request"
