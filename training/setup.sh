#!/usr/bin/env bash
# Installs the Python side of the Fixit SFT recipe into a virtual environment at
# .deps/training-venv (ctest's training_pytest test runs with it).
#   default:                    requirements-data.txt (pytest, jinja2): the data and template tests
#   PTXBENCH_TRAINING_DEPS=1:   requirements.txt (torch, transformers, peft, trl, gguf, ...): the recipe
#                               and its training and GGUF export tests
# Idempotent: a requirements file already installed (same content) is skipped.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
venv="$root/.deps/training-venv"
python=${PYTHON:-python3}

if [ ! -x "$venv/bin/python" ]; then
  echo "training/setup: creating $venv"
  mkdir -p "$root/.deps"
  "$python" -m venv "$venv" || {
    echo "training/setup: error: '$python -m venv' failed; install python3-venv (Debian) and re-run" >&2
    exit 1; }
fi

install() { # requirements file
  local req=$1 stamp="$venv/.$(basename "$1").sha256"
  local sum; sum=$(sha256sum "$req" | cut -d' ' -f1)
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ] && return 0
  echo "training/setup: installing $(basename "$req") from PyPI"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
  echo "$sum" > "$stamp"
}
install "$here/requirements-data.txt"
if [ "${PTXBENCH_TRAINING_DEPS:-0}" = "1" ]; then
  install "$here/requirements.txt"
fi
