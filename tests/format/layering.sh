#!/usr/bin/env bash
# Fails when a source under src/STAGE includes a header of a later stage: the pipeline's stages
# (src/CMakeLists.txt, PTXBENCH_ALL_STAGES) depend only on the stages before them. Tests included.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
read -r -a stages < <(sed -nE 's/^set\(PTXBENCH_ALL_STAGES (.*)\)$/\1/p' src/CMakeLists.txt)
[ ${#stages[@]} -gt 3 ] || { echo "no PTXBENCH_ALL_STAGES in src/CMakeLists.txt"; exit 1; }
declare -A rank
for i in "${!stages[@]}"; do rank[${stages[$i]}]=$i; done
bad=0
for stage in "${stages[@]}"; do
  [ -d "src/$stage" ] || continue
  while IFS=: read -r file line text; do
    used=$(sed -nE 's/^#include "([a-z_]+)\/.*/\1/p' <<<"$text")
    [ -n "$used" ] && [ -n "${rank[$used]+x}" ] || continue
    if [ "${rank[$used]}" -gt "${rank[$stage]}" ]; then
      echo "$file:$line: stage '$stage' includes '$used', a later stage: $text"
      bad=1
    fi
  done < <(grep -rnE '^#include "[a-z_]+/' "src/$stage" --include='*.cc' --include='*.h' --include='*.cu' || true)
done
[ $bad -eq 0 ] && echo "ok: every stage includes only the stages before it (${stages[*]})"
exit $bad
