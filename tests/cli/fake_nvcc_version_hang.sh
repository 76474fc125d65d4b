#!/usr/bin/env bash
# A stand-in for nvcc whose `--version` never answers: compile --timeout must cover that probe
# too, and blame the tool (exit 1), not the kernel (issue 38).
exec sleep 120
