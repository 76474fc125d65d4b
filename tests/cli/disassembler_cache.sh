#!/usr/bin/env bash
# disassembler_cache.sh PTXBENCH: a broken disassembler never poisons the compile cache
# (issue 38). With a cuobjdump and an nvdisasm on PATH that run and print nothing (then ones
# that print garbage), compile is an error of the tool (exit 1, nothing cached); the next
# compile with the right tools, on the same cache, finds the target instructions in the SASS.
# A cache entry whose listing was emptied afterwards is built again, never served.
set -u
ptxbench=$1
kernel=$PTXBENCH_ROOT/tests/kernels/sm90_wgmma_tma.cu
task=gemm_n7168_k5120
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-disasm-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export PTXBENCH_CACHE=$tmp/cache
unset PTXBENCH_CUOBJDUMP PTXBENCH_NVDISASM
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$tmp/empty" "$tmp/garbage"
for t in cuobjdump nvdisasm; do
  printf '#!/bin/sh\nexit 0\n' >"$tmp/empty/$t"
  printf '#!/bin/sh\necho "Fatbin elf code:"\necho "  Function : not_a_kernel"\necho "garbage"\nexit 0\n' \
    >"$tmp/garbage/$t"
done
chmod +x "$tmp"/empty/* "$tmp"/garbage/*
for broken in empty garbage; do
  out=$(PATH="$tmp/$broken:$PATH" "$ptxbench" compile "$kernel" --task "$task" 2>&1)
  code=$?
  echo "$out"
  [ "$code" -eq 1 ] || fail "$broken disassembler: exit $code, expected 1 (an error of the tool)"
  grep -q "cuobjdump ran but its listing" <<<"$out" || fail "$broken: the error does not name cuobjdump's listing"
  grep -q "nvdisasm ran but its listing" <<<"$out" || fail "$broken: the error does not name nvdisasm's listing"
  entries=$(find "$PTXBENCH_CACHE" -name result.json 2>/dev/null | wc -l)
  [ "$entries" -eq 0 ] || fail "$broken: $entries cache entries written by a broken disassembler"
done
good() {
  out=$("$ptxbench" compile "$kernel" --task "$task" 2>&1)
  code=$?
  echo "$out"
  [ "$code" -eq 0 ] || fail "$1: exit $code with the right tools"
  grep -q "target instructions present in SASS: .*wgmma" <<<"$out" || fail "$1: wgmma not found in the SASS"
}
good "first compile with the right tools"
# An entry whose listing is empty (as a broken tool left one before issue 38) is not served.
sass=$(find "$PTXBENCH_CACHE" -name kernel.sass | head -1)
[ -n "$sass" ] || fail "no kernel.sass cached"
: >"$sass"
good "compile after the cached listing was emptied"
[ -s "$sass" ] || fail "the emptied listing was not rebuilt"
echo "ok: a broken disassembler is an error of the tool and caches nothing"
