#!/usr/bin/env bash
# A stand-in for nvcc that answers --version and fails every compile. As the real nvcc does
# with a relative TMPDIR (it runs in its build folder), or with FAKE_NVCC_UNWRITABLE=1, it says
# it cannot open its output file; otherwise it reports an error of the kernel (a compile_error).
# Its words decide nothing: ptxbench blames the machine only when its own trial write under the
# compile cache fails (core/room.h), so the tests run it under `ulimit -f` for that.
if [ "${1:-}" = "--version" ]; then
  echo "Cuda compilation tools, release 13.0, V13.0.88 (fake, fails)"
  exit 0
fi
# FAKE_NVCC_FULL=1: it says it ran out of room for its files (a file-size limit, a full disk);
# FAKE_NVCC_XFSZ=1: it dies of SIGXFSZ (a tool that restored the signal's default).
[ "${FAKE_NVCC_FULL:-0}" = 1 ] && { echo "<built-in>: fatal error: when writing output to keep/kernel.cpp4.ii: File too large" >&2; exit 1; }
[ "${FAKE_NVCC_XFSZ:-0}" = 1 ] && exec env --default-signal=XFSZ /bin/kill -s XFSZ $$
case "${TMPDIR:-}" in
  /*) [ "${FAKE_NVCC_UNWRITABLE:-0}" = 1 ] || { echo "kernel.cu(1): error: fake error" >&2; exit 1; } ;;
esac
echo "nvcc fatal   : Could not open output file '${TMPDIR:-}/tmpxft_0000'" >&2
exit 1
