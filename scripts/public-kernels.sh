#!/usr/bin/env bash
# Public Hopper kernels as ptxbench candidates (kernels/public/README.md).
#
#   scripts/public-kernels.sh [--fetch] [--raw] [--compile PTXBENCH] [--build-checks] [NAME...]
#
# Assembles, for each kernel (all of them, or the NAMEs given), ONE self-contained candidate
#   .public/candidates/NAME.cu  =  the public licence, quoted in a comment
#                                + the public prelude, if any: the lines of the repository's own
#                                  driver file before its first `#include "` (fast.cu: matmul.cu's
#                                  includes, bf16, CEIL_DIV, cudaCheck), as published
#                                + the public source, exactly as published, with
#                                  kernels/public/NAME.patch applied (a copy: .public/ is never
#                                  changed)
#                                + kernels/public/NAME_glue.cu         (our ptxbench_launch)
# Since issue 36 (4a-c: -lcuda, cuBLAS refused when called, -DNDEBUG) no driver-call redirect
# and no prelude of ours are needed (kernels/public/README.md, "Glue").
# and prints the ptxbench task each one is for. Everything it reads is under .public/ and
# kernels/public/: it needs no network (the GPU machine gets .public/ carried).
#
#   --fetch     first download the public files at their pinned commits from GitHub into
#               .public/OWNER-REPO/ (curl; the only step that needs the network)
#   --raw       also write .public/candidates/raw/NAME.cu: the public source UNPATCHED (with the
#               same public prelude), with the thin entry point of kernels/public/raw/, i.e. what
#               a user would submit; it reproduces the refusals kernels/public/README.md records
#   --compile P run `PTXBENCH_ROOT=<this checkout> P compile CANDIDATE --task TASK --json` on each
#               candidate written (P: a ptxbench binary) and print the verdict
#   --build-checks  also build .public/check-bin/chk_NAME (nvcc): the candidate linked with
#               kernels/public/check/public_check.cu, a standalone GPU check; carry .public to a
#               GPU machine and run `for c in .public/check-bin/chk_*; do $c; done`
#
# Every public file is checked against its pinned sha256 before use, so a patch never meets a
# file it was not written for. Exit status: 0, or 1 when a check, a patch or (--compile) a
# compile failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
pub=.public
glue=kernels/public
out=$pub/candidates

# ---- the public files: repository, commit, licence, path, sha256 ------------------------------
fastcu_repo=pranjalssh/fast.cu
fastcu_commit=38eb642e0c081231d6f695978be63604bd7c689b
mattut_repo=KnowingNothing/MatmulTutorial
# fa3.cu was added by this commit and deleted by the next one (70f70fa, 2026-03-05): it is
# published in the repository's history, not at its head.
mattut_commit=e0a721c2d6bee4d8911dad479d05f7c0665b50fa

# repo commit path sha256
files=(
  "$fastcu_repo $fastcu_commit LICENSE 076fb1df0d5125f25033dc51498629925fac3b705e86f8bf9808f5eec9d41785"
  "$fastcu_repo $fastcu_commit README.md be3ec39d24956f9e9df77ecc81dc770375728f4e8da8475df67128d8e49617b6"
  "$fastcu_repo $fastcu_commit Makefile 8f8452fc8a814173f088c75257f30be3aca382d4fcb3e4a5662a61cbd33eef94"
  "$fastcu_repo $fastcu_commit matmul.cu f3e5d331b2c332e19f6995b78717f464aa7d62864c8a230deef0453c39330173"
  "$fastcu_repo $fastcu_commit examples/matmul/matmul_2.cuh 09dafdef86a55d9b59ef6b61f9794f92bc1d7829df39e39e1709fe98b48a10dd"
  "$fastcu_repo $fastcu_commit examples/matmul/matmul_12.cuh f6c40cf385f7bd4a566c989cb98e04df30680ed6bea434461fce799e987ced4b"
  "$mattut_repo $mattut_commit LICENSE 58d1e17ffe5109a7ae296caafcadfdbe6a7d176f0bc4ab01e12a689b0499d8bd"
  "$mattut_repo $mattut_commit examples/attention/cuda/gqa-hopper/fa3.cu e08b02d7044eda613a94616479b0d02dc76708253163aa218377dd945811ef26"
  "$mattut_repo $mattut_commit examples/attention/cuda/gqa-hopper/test.py 0447cfd22685e40da17ac968626d89952c7f4b0353acf87efb4d0a828cbd9823"
)

# ---- the candidates: name task repo commit licence source prelude defines -------------------
# (patch: kernels/public/NAME.patch, glue: kernels/public/NAME_glue.cu, unless named below;
# prelude: a public file of the same repository whose lines before its first `#include "` go
# before the source, or -)
kernels=(
  "fastcu_matmul2 gemm_n7168_k5120 $fastcu_repo $fastcu_commit MIT examples/matmul/matmul_2.cuh matmul.cu -"
  "fastcu_matmul12 gemm_n7168_k5120 $fastcu_repo $fastcu_commit MIT examples/matmul/matmul_12.cuh matmul.cu -"
  "mattut_fa3 mha_with_lse_d128 $mattut_repo $mattut_commit Apache-2.0 examples/attention/cuda/gqa-hopper/fa3.cu - PUBGLUE_CAUSAL=0"
  "mattut_fa3_causal mha_with_lse_d128_causal $mattut_repo $mattut_commit Apache-2.0 examples/attention/cuda/gqa-hopper/fa3.cu - PUBGLUE_CAUSAL=1"
)
# The causal candidate is the same public source, patch and glue as mattut_fa3.
base_of() { case "$1" in mattut_fa3_causal) echo mattut_fa3 ;; *) echo "$1" ;; esac; }

fetch=0 raw=0 compile="" checks=0
names=()
while [ $# -gt 0 ]; do
  case "$1" in
    --fetch) fetch=1 ;;
    --raw) raw=1 ;;
    --compile) compile=${2:?--compile needs a ptxbench binary}; shift ;;
    --build-checks) checks=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "public-kernels: unknown option $1" >&2; exit 2 ;;
    *) names+=("$1") ;;
  esac
  shift
done

dir_of() { echo "$pub/${1%%/*}-${1#*/}"; }  # owner/repo -> .public/owner-repo

if [ "$fetch" = 1 ]; then
  for f in "${files[@]}"; do
    read -r repo commit path sum <<< "$f"
    dst=$(dir_of "$repo")/$path
    mkdir -p "$(dirname "$dst")"
    echo "fetch: https://github.com/$repo/blob/$commit/$path" >&2
    curl -fsSL --retry 3 "https://raw.githubusercontent.com/$repo/$commit/$path" -o "$dst.part"
    mv "$dst.part" "$dst"
  done
fi

status=0
for f in "${files[@]}"; do
  read -r repo commit path sum <<< "$f"
  file=$(dir_of "$repo")/$path
  if [ ! -f "$file" ]; then
    echo "public-kernels: $file is missing: run scripts/public-kernels.sh --fetch (network), or carry .public/" >&2
    exit 1
  fi
  got=$(sha256sum "$file" | cut -d' ' -f1)
  if [ "$got" != "$sum" ]; then
    echo "public-kernels: $file is not the published file (sha256 $got, pinned $sum)" >&2
    exit 1
  fi
done

# The prelude file's lines before its first `#include "` (fast.cu's matmul.cu: its system
# includes, bf16, CEIL_DIV and cudaCheck, up to where it includes the kernels).
public_prelude() { sed '/^#include "/,$d' "$1"; }

# The licence file of `repo` as a C comment.
licence_comment() {
  echo "/* The public source below is third-party code, under this licence ($(dir_of "$1")/LICENSE):"
  echo
  sed 's#\*/#* /#g' "$(dir_of "$1")/LICENSE"
  echo "*/"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
[ "$raw" = 1 ] && mkdir -p "$out/raw"

wanted() {
  [ ${#names[@]} -eq 0 ] && return 0
  local n; for n in "${names[@]}"; do [ "$n" = "$1" ] && return 0; done; return 1
}

run_compile() {  # candidate task [raw]: a raw candidate's refusal is expected, not a failure
  [ -n "$compile" ] || return 0
  local json verdict rc=0 unbuffered=()
  # Unbuffered, so that the whole report is kept even when ptxbench dies after writing it (the
  # build of 2026-12-04 18:58 segfaults in ~JudgeReport at the end of every `compile`).
  command -v stdbuf >/dev/null && unbuffered=(stdbuf -o0)
  local _
  for _ in 1 2 3; do  # that build also aborts now and then before writing anything
    rc=0
    json=$(PTXBENCH_ROOT="$root" "${unbuffered[@]}" "$compile" compile "$1" --task "$2" --json 2>/dev/null) || rc=$?
    printf '%s' "$json" | python3 -c 'import json,sys; json.load(sys.stdin)' 2>/dev/null && break
  done
  verdict=$(printf '%s' "$json" | python3 -c 'import json,sys
try: d=json.load(sys.stdin)
except Exception: print("no-JSON"); sys.exit()
c=d.get("census") or {}
tp=c.get("targets_present")
tp=",".join(map(str,tp)) if isinstance(tp,list) else str(tp)
print(d.get("outcome","?"), "| targets present:", tp or "-",
      "|", (d.get("summary") or "").replace("\n"," ")[:300])' 2>/dev/null || echo "?")
  echo "    compile: $verdict"
  [ "$rc" = 0 ] || echo "    (ptxbench exited with status $rc)"
  printf '%s\n' "$json" > "${1%.cu}.compile.json"
  [ "${3:-}" = raw ] && return 0
  case "$verdict" in passed*) ;; *) status=1 ;; esac
}

# DLPack's header for the checks: PTXBENCH_DLPACK_INCLUDE, else setup.sh's tvm-ffi wheel.
dlpack_include() {
  local d
  for d in "${PTXBENCH_DLPACK_INCLUDE:-}" .deps/wheels/apache-tvm-ffi/tvm_ffi/include .devbin/include; do
    [ -n "$d" ] && [ -f "$d/dlpack/dlpack.h" ] && { echo "$d"; return 0; }
  done
  echo "public-kernels: no dlpack/dlpack.h (set PTXBENCH_DLPACK_INCLUDE)" >&2
  return 1
}

build_check() {  # name candidate task
  [ "$checks" = 1 ] || return 0
  local flags=() dl
  dl=$(dlpack_include) || { status=1; return 0; }
  case "$3" in
    gemm_*) flags=(-DCHECK_GEMM) ;;
    mha_with_lse_*_causal) flags=(-DCHECK_ATTENTION -DCHECK_CAUSAL=1) ;;
    mha_with_lse_*) flags=(-DCHECK_ATTENTION) ;;
  esac
  mkdir -p "$pub/check-bin"
  # The flags ptxbench compiles with (-DNDEBUG: kernel 12 has an assert that does not compile
  # without it) and -lcuda (the candidates call cuTensorMapEncodeTiled directly).
  if nvcc -std=c++17 -O3 -DNDEBUG --expt-relaxed-constexpr -gencode=arch=compute_90a,code=sm_90a -w -lcuda \
       -I"$dl" "${flags[@]}" "$2" "$glue/check/public_check.cu" -o "$pub/check-bin/chk_$1"; then
    echo "    check: $pub/check-bin/chk_$1"
  else
    echo "    check: nvcc failed" >&2; status=1
  fi
}

for k in "${kernels[@]}"; do
  read -r name task repo commit licence src prelude defines <<< "$k"
  wanted "$name" || continue
  base=$(base_of "$name")
  srcdir=$(dir_of "$repo")
  # A patched copy of the public tree's file (the published file itself stays as it is).
  rm -rf "${work:?}/$name" && mkdir -p "$work/$name/$(dirname "$src")"
  cp "$srcdir/$src" "$work/$name/$src"
  if ! patch -s -p1 --fuzz=0 --no-backup-if-mismatch -d "$work/$name" < "$glue/$base.patch"; then
    echo "public-kernels: $glue/$base.patch does not apply to $srcdir/$src" >&2
    exit 1
  fi
  cand=$out/$name.cu
  {
    echo "// ptxbench candidate $name for task $task, assembled by scripts/public-kernels.sh"
    echo "// (do not edit: edit kernels/public/ and assemble again). Public source:"
    echo "//   https://github.com/$repo/blob/$commit/$src ($licence)"
    echo "// patched with kernels/public/$base.patch; the rest is ptxbench's glue (kernels/public/)."
    if [ "$defines" != - ]; then
      echo "#define ${defines%%=*} ${defines#*=}"
    fi
    echo
    licence_comment "$repo"
    if [ "$prelude" != - ]; then
      echo "// ==== public prelude: $repo@${commit:0:12} $prelude, up to its first #include \"...\" ===="
      public_prelude "$srcdir/$prelude"
    fi
    echo "// ==== public source: $repo@${commit:0:12} $src, with kernels/public/$base.patch ===="
    cat "$work/$name/$src"
    echo
    echo "// ==== kernels/public/${base}_glue.cu ===="
    cat "$glue/${base}_glue.cu"
  } > "$cand.part"
  mv "$cand.part" "$cand"
  echo "$name: $cand  task $task"
  run_compile "$cand" "$task"
  build_check "$name" "$cand" "$task"

  if [ "$raw" = 1 ]; then
    rawc=$out/raw/$name.cu
    {
      echo "// $name AS PUBLISHED (unpatched) with a thin ptxbench entry point:"
      echo "// what a user would submit; assembled by scripts/public-kernels.sh --raw."
      if [ "$defines" != - ]; then
        echo "#define ${defines%%=*} ${defines#*=}"
      fi
      licence_comment "$repo"
      [ "$prelude" != - ] && public_prelude "$srcdir/$prelude"
      cat "$srcdir/$src"
      echo
      # The thin entry point; where the published host function's signature needs none of our
      # patch (fa3.cu), it is the glue itself.
      rawglue=$glue/raw/${base}_raw.cu
      [ -f "$rawglue" ] || rawglue=$glue/${base}_glue.cu
      cat "$rawglue"
    } > "$rawc"
    echo "$name (raw): $rawc  task $task"
    run_compile "$rawc" "$task" raw
  fi
done
exit $status
