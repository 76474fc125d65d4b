#!/usr/bin/env bash
# file_length.sh [MAX]: fails when a program file under src/ (*.cc, *.h, *.cu; tests, fakes and
# test data aside) is longer than MAX lines (default 450: a file read in one sitting, issue 37);
# lists the files over it, longest first.
set -euo pipefail
max=${1:-450}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
long=$(find src -type f \( -name '*.cc' -o -name '*.h' -o -name '*.cu' \) \
         ! -name '*_test.cc' ! -name '*_fixture.*' ! -path '*/testing/*' ! -path '*/testdata/*' \
         -exec wc -l {} + | grep -v ' total$' | awk -v max="$max" '$1 > max' | sort -rn || true)
if [ -n "$long" ]; then
  echo "$long"
  echo "these files are longer than $max lines: split them by concept (DEVELOPERS.md)"
  exit 1
fi
echo "every program file under src/ has at most $max lines"
