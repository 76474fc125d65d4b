#!/usr/bin/env bash
# A stand-in for nvcc that answers --version and then hangs on any compile, for the
# "compiler hangs" exit-code test (ptxbench must stop it at --timeout) and the interrupt test
# (which finds the hanging process by $FAKE_NVCC_TAG, its name while it hangs).
if [ "${1:-}" = "--version" ]; then
  echo "Cuda compilation tools, release 13.0, V13.0.88 (fake, hangs)"
  exit 0
fi
exec -a "${FAKE_NVCC_TAG:-fake-nvcc}" sleep 120
