#!/usr/bin/env bash
# Fails when a program under src/ turns JSON into text with Json::dump instead of to_text
# (core/json.h): dump throws on bytes that are not UTF-8, which abort ptxbench. Tests and
# test fixtures may dump what they built themselves.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
hits=$(grep -rnE '\.dump\(' src --include='*.cc' --include='*.h' --include='*.cu' |
       grep -vE '^src/core/json\.h:|_test\.(cc|h):|/testing/|/testdata/' || true)
if [ -n "$hits" ]; then
  echo "$hits"
  echo "use to_text(json[, indent]) from core/json.h instead of Json::dump"
  exit 1
fi
echo "ok: no Json::dump outside core/json.h"
