#!/usr/bin/env bash
# run_pytest.sh PYTHON PYTEST_ARGS...: runs pytest and exits 77 (ctest's SKIP_RETURN_CODE)
# when it passed (or collected nothing: exit 5) only because every test was skipped, so ctest reports "Skipped", with
# pytest's reason, instead of "Passed".
set -u
python=$1
shift
out=$("$python" -m pytest -rs "$@" 2>&1)
rc=$?
echo "$out"
summary=$(tail -n 1 <<<"$out")
if { [ "$rc" -eq 0 ] || [ "$rc" -eq 5 ]; } && grep -q "skipped" <<<"$summary" && ! grep -q "passed" <<<"$summary"; then
  echo "run_pytest.sh: every test was skipped (reasons above): reporting a skip" >&2
  exit 77
fi
exit "$rc"
