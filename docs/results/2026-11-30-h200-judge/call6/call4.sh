#!/usr/bin/env bash
# Final acceptance run 2: before/after on the five references (old = 865a08d binaries), then the
# README's main job with the new judge.
set -u
export OUT=${OUT:-/tmp/out}; mkdir -p $OUT
mkdir -p /work; [ -e /work/main ] || ln -sfn "$(pwd)" /work/main
cd /work/main
export TAIL=14
OLD_ROOT=/work/main/.probe/oldroot PHASE_TIMEOUT=200 scripts/device-run.sh compare
true
cd $OUT && tar czf logs.tgz compare main-run.db 2>/dev/null
