#!/usr/bin/env bash
# bad_input.sh CODE FIRST_LINE [--has REGEX] [--lacks REGEX] [--json] -- COMMAND...
# One row of a bad-input table: runs COMMAND in an empty scratch folder with a fresh
# PTXBENCH_CACHE and passes when
#   - it exits with CODE,
#   - the first non-empty line of its output (stderr and stdout) matches FIRST_LINE (grep -E),
#   - the output matches every --has REGEX and no --lacks REGEX,
#   - with --json, stdout is one valid JSON document,
#   - nothing is left half-made: no build folder (.build-*) or temporary file (*.tmp.*) in the
#     compile cache, and nothing in the scratch folder.
set -u
want=$1 first=$2
shift 2
has=() lacks=() json=0
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    --has) has+=("$2"); shift 2 ;;
    --lacks) lacks+=("$2"); shift 2 ;;
    --json) json=1; shift ;;
    *) echo "bad_input.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
shift
root=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-bad-input-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/cache" "$tmp/scratch"
cd "$tmp/scratch"
PTXBENCH_ROOT=${PTXBENCH_ROOT:-$root} PTXBENCH_CACHE="$tmp/cache" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
got=$?
cat "$tmp/stderr" "$tmp/stdout"
out=$(cat "$tmp/stderr" "$tmp/stdout")
[ "$got" -eq "$want" ] || { echo "FAIL: exit code $got, expected $want" >&2; exit 1; }
line=$(grep -m1 -v '^[[:space:]]*$' <<<"$out")
grep -Eq -- "$first" <<<"$line" || { echo "FAIL: first line '$line' does not match /$first/" >&2; exit 1; }
for re in "${has[@]}"; do
  grep -Eq -- "$re" <<<"$out" || { echo "FAIL: output does not match /$re/" >&2; exit 1; }
done
for re in "${lacks[@]}"; do
  if grep -Eq -- "$re" <<<"$out"; then echo "FAIL: output matches /$re/" >&2; exit 1; fi
done
if [ "$json" -eq 1 ]; then
  python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$tmp/stdout" ||
    { echo "FAIL: stdout is not valid UTF-8 JSON" >&2; exit 1; }
fi
half=$(find "$tmp/cache" \( -name '.build-*' -o -name '*.tmp.*' \) -print)
[ -z "$half" ] || { echo "FAIL: half-made files left: $half" >&2; exit 1; }
[ -z "$(ls -A "$tmp/scratch")" ] || { echo "FAIL: files left in the working folder: $(ls -A "$tmp/scratch")" >&2; exit 1; }
echo "ok: exit $got, first line: $line"
