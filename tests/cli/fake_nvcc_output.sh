#!/usr/bin/env bash
# A stand-in for nvcc that answers --version and fails every compile. As the real nvcc does
# with a relative TMPDIR (it runs in its build folder) or with FAKE_NVCC_UNWRITABLE=1, it says
# it cannot open its output file (the cache's fault); otherwise it reports an error of the
# kernel (a compile_error). For the tests of a relative or unwritable compile cache.
if [ "${1:-}" = "--version" ]; then
  echo "Cuda compilation tools, release 13.0, V13.0.88 (fake, fails)"
  exit 0
fi
case "${TMPDIR:-}" in
  /*) [ "${FAKE_NVCC_UNWRITABLE:-0}" = 1 ] || { echo "kernel.cu(1): error: fake error" >&2; exit 1; } ;;
esac
echo "nvcc fatal   : Could not open output file '${TMPDIR:-}/tmpxft_0000'" >&2
exit 1
