#!/usr/bin/env bash
# Runs a GPU test, or skips it (exit 77, which ctest reports as skipped) on a machine
# without an NVIDIA GPU, saying so.
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  echo "SKIPPED: no NVIDIA GPU on this machine; this test carries the ctest label 'gpu' and runs on the device machine (see docs/results/README.md)."
  exit 77
fi
exec "$@"
