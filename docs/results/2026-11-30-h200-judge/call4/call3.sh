#!/usr/bin/env bash
# Final acceptance run 1: compile cache on the GPU machine, the hostile cases, every control.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
mkdir -p /work; [ -e /work/main ] || ln -sfn "$(pwd)" /work/main
cd /work/main
export TAIL=4
PHASE_TIMEOUT=110 scripts/device-run.sh info cache
PHASE_TIMEOUT=90 scripts/device-run.sh cases
PHASE_TIMEOUT=330 scripts/device-run.sh controls
cd $OUT && tar czf logs.tgz controls cases 2>/dev/null; rm -rf controls cases
grep -h "^ok\|^FAIL\|as expected" $OUT/cases.log $OUT/controls.log | cut -c1-230
