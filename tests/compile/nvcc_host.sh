#!/bin/sh
# nvcc with a chosen host compiler, for the test that every host compiler gives the same
# verdicts (host_compilers.sh). Its own name says which: nvcc_host.sh -> nvcc's default (g++),
# a link named nvcc_host_clang++.sh -> -ccbin clang++. nvcc is looked up in the CUDA toolkit.
nvcc=/usr/local/cuda/bin/nvcc
[ -x "$nvcc" ] || nvcc=nvcc
case "$(basename "$0")" in
  nvcc_host_clang++.sh) exec "$nvcc" -ccbin clang++ "$@" ;;
  *) exec "$nvcc" -ccbin g++ "$@" ;;
esac
