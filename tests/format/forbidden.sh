#!/usr/bin/env bash
# forbidden.sh PATTERN EXCLUDE ADVICE OK: fails when a line of a program under src/ (*.cc, *.h,
# *.cu) matches PATTERN (grep -E), leaving out paths that match EXCLUDE (grep -E on "path:line:");
# prints the lines and ADVICE, or OK. The checks of json_text.sh and no_backtracking.sh.
set -euo pipefail
pattern=$1 exclude=$2 advice=$3 ok=$4
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
hits=$(grep -rnE --include='*.cc' --include='*.h' --include='*.cu' -e "$pattern" src |
       grep -vE -- "$exclude" || true)
if [ -n "$hits" ]; then
  echo "$hits"
  echo "$advice"
  exit 1
fi
echo "$ok"
