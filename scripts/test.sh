#!/usr/bin/env bash
# The test command of the README quick start and of CI: installs what is missing,
# builds, and runs every test under ctest. Tests labelled `gpu` skip, and say so,
# on a machine without a GPU.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# Slurm and munge too (the `slurm` tests start a private single-node Slurm, tests/slurm) and
# headless Chromium (the HTML report is rendered in it, tests/report) and the local model
# endpoint (llama-server with Gemma 3 270M: the `endpoint` test, tests/endpoint), and the
# training stack (torch, transformers, TRL, peft, gguf into .deps/training-venv: the Fixit loop's
# test `fixit_e2e`, tests/fixit, and the recipe's `training_pytest_recipe`), and verifiers for
# the serve client's adapter test (python_client_verifiers).
PTXBENCH_WITH_ADAPTERS=1 PTXBENCH_WITH_TEST_TOOLS=1 PTXBENCH_WITH_SLURM=1 PTXBENCH_WITH_CHROMIUM=1 PTXBENCH_WITH_ENDPOINT=1 PTXBENCH_TRAINING_DEPS=1 \
  "$root/scripts/setup.sh"
cd "${PTXBENCH_BUILD_DIR:-$root/build}"
# setup.sh built the programs; the tests are built here.
echo "test: building the tests"
cmake --build . -j "${PTXBENCH_JOBS:-$(nproc)}"
ctest --output-on-failure -j "${PTXBENCH_JOBS:-$(nproc)}" "$@"
if ! "$root/tests/gpu_guard.sh" true >/dev/null; then
  echo "note: the tests labelled 'gpu' were skipped: no NVIDIA GPU on this machine."
  echo "      Run them on a GPU machine: scripts/device-prepare.sh, then scripts/device-run.sh (docs/results/README.md)."
fi
