#!/usr/bin/env bash
# help_readme.sh PTXBENCH README: `ptxbench --help` and the README list the same environment
# variables and the same exit codes (issue 38).
set -u
ptxbench=$1 readme=$2
help=$("$ptxbench" --help) || { echo "FAIL: ptxbench --help failed" >&2; exit 1; }
names() { grep -oE '\b[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b|\bTMPDIR\b' | sort -u; }
from_help=$(sed -n '/^Environment:/,$p' <<<"$help" | names)
from_readme=$(awk '/^Environment \(/{on=1} on&&/^$/{exit} on' "$readme" | names)
[ -n "$from_readme" ] || { echo "FAIL: no Environment paragraph in $readme" >&2; exit 1; }
if [ "$from_help" != "$from_readme" ]; then
  echo "FAIL: the environment variables differ (< --help, > README):" >&2
  diff <(echo "$from_help") <(echo "$from_readme") >&2
  exit 1
fi
exits_help=$(sed -n '/^Exit codes/,/^Environment:/p' <<<"$help")
exits_readme=$(awk '/^Exit codes, the same for every command/{on=1} on&&/^$/{exit} on' "$readme")
for c in 0 1 2 10 11 12 13 14 15 16 17 129 130 143; do
  grep -qw "$c" <<<"$exits_help" || { echo "FAIL: exit code $c is not in --help" >&2; exit 1; }
  grep -qw "$c" <<<"$exits_readme" || { echo "FAIL: exit code $c is not in the README" >&2; exit 1; }
done
echo "ok: $(wc -l <<<"$from_help") variables and the exit codes agree"
