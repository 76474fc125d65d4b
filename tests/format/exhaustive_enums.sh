#!/usr/bin/env bash
# exhaustive_enums.sh BUILD_DIR: the enums that cross module boundaries are handled by switches
# without a default, so that an enumerator added without its name, its row or its decision is a
# compile error (-Wswitch under -Werror). For each enum, this adds an enumerator after the last
# one in a copy of its header, compiles the sources that must then fail (their commands from
# BUILD_DIR/compile_commands.json, a unity batch's for a file compiled in one; the copy first on
# the include path) and fails when one of them still compiles or fails for another reason.
set -euo pipefail
build=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
db="$build/compile_commands.json"
[ -f "$db" ] || { echo "no $db: configure the build first"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# enum header | its last enumerator's line (grep -E) | sources whose switch must catch it
cases=(
  "src/eval/flags.h|^  workspace_kept, |src/eval/flags.cc"
  "src/judge/disposition.h|^  task_suite_error,|src/judge/disposition.cc src/report/html.cc src/interop/fib_trace.cc src/serve/job.cc"
  "src/core/outcome.h|^  task_suite_error,  // the candidate failed|src/core/outcome.cc"
  "src/eval/session_protocol.h|^  audit_error,|src/eval/session_reply.cc src/eval/judge_session_peers.cc"
  "src/eval/session_protocol.h|^  harness_error,   // the verifier|src/eval/session_reply.cc"
  "src/store/status.h|^  done,     // every trajectory ended|src/store/status.cc"
  "src/store/status.h|^  failed,   // ended by an error|src/store/status.cc"
  "src/core/contract.h|^enum class Contract \\{ native, tvm_ffi|src/core/contract.cc"
  "src/eval/gpu/library_plan.h|^enum class LibraryPlan \\{|src/cli/judging_options.cc"
  "src/audit/auditor.h|^enum class RouteChoice \\{|src/audit/auditor.cc"
  "src/eval/gpu/rng.h|^  near_cancel = 4,|src/eval/session_protocol.cc"
  "src/task/spec.h|^enum class WorkloadRole \\{|src/task/spec.cc"
  "src/interop/fib_trace.h|^enum class FibStatus \\{ passed|src/interop/fib_trace.cc"
  "src/task/arch.h|^  sm_100a,  // Blackwell|src/task/arch.cc"
  "src/eval/tool_session.h|^  no_verdict,|src/eval/tool_session.cc src/judge/judge.cc"
  "src/eval/speedup_basis.h|^  wall_clock,|src/eval/speedup_basis.cc"
  "src/audit/audit_result.h|^  present_not_audited,|src/audit/audit_result.cc src/run/feedback.cc"
)

compile_command() {  # the build's command for $1, writing nothing, with $2 first on the path
  python3 - "$db" "$root/$1" "$2" <<'PY'
import json, shlex, sys
db, src, first = sys.argv[1:]
def holds(e):  # e compiles src: itself, or a unity batch that includes it (its target's flags)
    if e["file"] == src: return True
    if "/Unity/unity_" not in e["file"]: return False
    with open(e["file"]) as f: return f'#include "{src}"' in f.read().splitlines()
for e in json.load(open(db)):
    if holds(e):
        args = shlex.split(e["command"]) if "command" in e else e["arguments"]
        args = [src if a == e["file"] else a for a in args]
        out, skip = [], False
        for a in args:
            if skip: skip = False; continue
            if a == "-o": skip = True; continue
            out.append(a)
        print(e["directory"]); print(shlex.join([out[0], "-I" + first, "-fsyntax-only"] + out[1:]))
        break
PY
}

failures=0
for c in "${cases[@]}"; do
  IFS='|' read -r header anchor sources <<<"$c"
  grep -qE -- "$anchor" "$root/$header" || { echo "FAIL: $header has no line matching '$anchor'"; failures=$((failures+1)); continue; }
  rm -rf "$tmp/inc"; mkdir -p "$tmp/inc/$(dirname "${header#src/}")"
  # after the anchor line, or inside it for an enum written on one line ("enum class E { a, b };")
  awk -v a="$anchor" '
    $0 ~ a && !done && /};/ { sub(/ };/, ", probe_unhandled_enumerator };"); print; done=1; next }
    { print }
    $0 ~ a && !done { print "  probe_unhandled_enumerator,"; done=1 }' \
    "$root/$header" >"$tmp/inc/${header#src/}"
  for s in $sources; do
    mapfile -t cmd < <(compile_command "$s" "$tmp/inc")
    [ ${#cmd[@]} -eq 2 ] || { echo "FAIL: $s is not in $db"; failures=$((failures+1)); continue; }
    if (cd "${cmd[0]}" && eval "${cmd[1]}") >"$tmp/log" 2>&1; then
      echo "FAIL: $s compiles with an enumerator added to $header that no switch handles"
      failures=$((failures+1))
    elif grep -q "probe_unhandled_enumerator.* not handled in switch" "$tmp/log"; then
      echo "ok: $s refuses an unhandled enumerator of $header"
    else
      echo "FAIL: $s failed for another reason:"; head -5 "$tmp/log"; failures=$((failures+1))
    fi
  done
done
exit $((failures > 0))
