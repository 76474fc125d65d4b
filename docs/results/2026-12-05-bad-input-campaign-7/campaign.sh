#!/usr/bin/env bash
# ptxbench bad-input campaign 7.  usage: campaign.sh [PTXBENCH_BINARY]
#   env: ONLY=<regex of case ids>; W=<workdir, default /tmp/campaign/work7/w>; OUT=<logs, default /tmp/campaign/work7/out>
# Each case: c ID EXPECTED_EXIT_REGEX 'COMMAND'. Writes $OUT/raw.tsv:
#   id, command, exit, crash(auto), data(auto), message (first line), auto (ok|review), note
# judgments.tsv (hand judgments of the cases sent to review) + merge.py make cases.tsv.
# Needs root (tmpfs mounts, setpriv to uid 65534), python3, sqlite3, xmllint.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PB=$(readlink -f "${1:-/tmp/campaign/bin7/ptxbench}")
W=${W:-/tmp/campaign/work7/w}; OUT=${OUT:-/tmp/campaign/work7/out}; ONLY=${ONLY:-.}
RUNSRC=${RUNSRC:-/work/shared/runs/2026-11-30-h200-main.db}
mkdir -p "$W" "$OUT/logs"; W=$(readlink -f "$W"); OUT=$(readlink -f "$OUT"); : > "$W/setup.err"
export PB W OUT
export PTXBENCH_ROOT=${PTXBENCH_ROOT:-/tmp/campaign/root7} PTXBENCH_CACHE=${PTXBENCH_CACHE:-/tmp/campaign/cache7}
export PTXBENCH_CUOBJDUMP=${PTXBENCH_CUOBJDUMP:-/work/main/.deps/bin/cuobjdump} PTXBENCH_NVDISASM=${PTXBENCH_NVDISASM:-/work/main/.deps/bin/nvdisasm}
export ROOT=$PTXBENCH_ROOT K=$PTXBENCH_ROOT/kernels T=gemm_n7168_k5120 TA=mha_with_lse_d128 TB=mha_with_lse_d128_causal FX=$W/fx D=$W/db R=$W/roots B=$W/bin
export NB="setpriv --reuid=65534 --regid=65534 --clear-groups"
export PORT=${PORT:-18736}; export U=http://127.0.0.1:$PORT
export RM="--tasks gemm_n7168_k5120 --turns 1 --attempts 1 --retry-max-s 1 --no-progress"
export MN="--limit 1 --attempts 1 --retry-max-s 1"
unset PTXBENCH_NO_GPU PTXBENCH_ASSUME_GPU PTXBENCH_BIN_DIR SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_COUNT JOB_COMPLETION_INDEX PTXBENCH_NVCC PTXBENCH_NCU PTXBENCH_COMPUTE_SANITIZER
harm() { echo "DATAHARM: $*" >&2; }
bad() { echo "BADOUTPUT: $*" >&2; }
# validators of outputs: json FILE, jsonl FILE, xml FILE, csv FILE
vjson() { python3 -c 'import json,sys; json.load(open(sys.argv[1],encoding="utf-8"))' "$1" 2>/dev/null || bad "$1 is not valid UTF-8 JSON"; }
vjsonl() { python3 -c '
import json,sys
for p in sys.argv[1:]:
    for i,l in enumerate(open(p,encoding="utf-8")):
        if l.strip(): json.loads(l)' "$@" 2>/dev/null || bad "$* not valid UTF-8 JSON lines"; }
vxml() { xmllint --noout "$1" 2>/dev/null || bad "$1 is not well-formed XML"; }
vcsv() { python3 -c '
import csv,sys
rows=list(csv.reader(open(sys.argv[1],encoding="utf-8",newline="")))
w={len(r) for r in rows}
assert len(w)==1, w' "$1" 2>/dev/null || bad "$1 is not a rectangular UTF-8 CSV"; }
vhtml() { python3 -c '
import sys,html.parser
s=open(sys.argv[1],encoding="utf-8").read()
assert s.rstrip().endswith("</html>")
assert "<script>alert" not in s' "$1" 2>/dev/null || bad "$1 is not a complete UTF-8 HTML page"; }
export -f harm bad vjson vjsonl vxml vcsv vhtml
setup() {
  rm -rf "$W/ff" "$W/fx" "$W/db" "$W/o" "$W/roots" "$W/tmp" "$W/bin"; mkdir -p "$W/fx" "$W/db" "$W/o" "$W/roots" "$W/tmp" "$W/bin" "$W/nbcache" "$W/srv"
  chmod 755 "$W" "$W/fx" "$W/db" "$W/o" "$W/roots" "$W/bin"; chmod 777 "$W/nbcache" "$W/tmp"
  cp "$RUNSRC" "$W/run.db"; chmod 644 "$W/run.db"; sha256sum "$W/run.db" | cut -d' ' -f1 > "$W/src.sha"
  # ------------------------------------------------------------ kernel sources (new hostile and odd ones)
  cd "$FX" || exit 1
  cp "$K/controls/gemm/naive_correct.cu" good.cu
  cp "$K/controls/gemm/compile_error.cu" cerr.cu
  cp "$K/controls/gemm/off_by_one.cu" wrong.cu
  cp "$K/reference/sm_90a/gemm_n7168_k5120.cu" ref.cu
  cp "$K/examples/tvm_ffi/gemm.cu" tvm.cu
  { printf '#include <//etc/passwd>\n'; cat good.cu; } > inc_dslash.cu
  { printf '#include "cuda_runtime.h/../../../../../etc/passwd"\n'; cat good.cu; } > inc_after_dotdot.cu
  { printf '#include "~/.bashrc"\n'; cat good.cu; } > inc_tilde.cu
  { printf '#include "${HOME}/.bashrc"\n'; cat good.cu; } > inc_envvar.cu
  { printf '_Pragma("GCC dependency \\"/etc/passwd\\"")\n'; cat good.cu; } > pragma_op_dep.cu
  { printf '#pragma include_alias("x.h", "/etc/passwd")\n#include "x.h"\n'; cat good.cu; } > pragma_alias.cu
  { printf '#include "\xe2\x88\x95etc\xe2\x88\x95passwd"\n'; cat good.cu; } > inc_divslash.cu
  { printf '#include "cuda_runtime.h\0/../../../etc/passwd"\n'; cat good.cu; } > inc_nulname.cu
  { printf '#include <cuda/std/cstdint>\n#include <cuda/std/limits>\n'; cat good.cu; } > inc_libcudacxx.cu
  { printf '#include <dlpack/dlpack.h>\n'; cat good.cu; } > inc_dlpack.cu
  { printf '#include <cudnn.h>\n'; cat good.cu; } > inc_cudnn.cu
  { printf '#include <tvm/ffi/function.h>\n'; cat good.cu; } > inc_tvm_native.cu
  { cat good.cu; printf '\n__device__ void leak_dev() { asm volatile(".incbin \\"/etc/passwd\\";"); }\n'; } > dev_incbin.cu
  { cat good.cu; printf '\n#include <unistd.h>\nstatic int forker() { return (int)fork(); }\nint (*keep_fork)() = forker;\n'; } > host_fork.cu
  { cat good.cu; printf '\n#include <dlfcn.h>\nvoid* keep_dl() { return dlopen("libc.so.6", RTLD_NOW); }\n'; } > host_dlopen.cu
  { cat good.cu; printf '\n#include <stdlib.h>\nconst char* keep_env() { return getenv("HOME"); }\n'; } > host_getenv.cu
  { cat good.cu; printf '\n#include <unistd.h>\n#include <sys/syscall.h>\nlong keep_sys() { return syscall(39); }\n'; } > host_syscall.cu
  { cat good.cu; printf '\n__attribute__((destructor)) static void bye() { }\n'; } > host_dtor.cu
  { cat good.cu; printf '\nthread_local int tls_counter = 3;\nint* keep_tls() { return &tls_counter; }\n'; } > host_tls.cu
  sed 's/extern "C"/extern "C" __attribute__((visibility("hidden")))/' good.cu > launch_hidden.cu
  { cat good.cu; printf '\n#if 0\n#include "/etc/passwd"\n#endif\n'; } > inc_in_if0.cu
  { cat good.cu; printf '\n/* #include "/etc/passwd" */\n// #include "/etc/shadow"\n'; } > inc_in_comments.cu
  { cat good.cu; printf '\nconst char* not_an_include = "#include \\"/etc/passwd\\"";\n'; } > inc_in_string.cu
  { printf '#  \t include \t "/etc/passwd"\n'; cat good.cu; } > inc_tabs_abs.cu
  { printf '#include "/dev/zero"\n'; cat good.cu; } > inc_devzero.cu
  { printf '#include <cuda_runtime.h\n'; cat good.cu; } > inc_unclosed.cu
  { printf '#include\n'; cat good.cu; } > inc_noname.cu
  { cat good.cu; printf '\n#define STR(x) #x\n#define XSTR(x) STR(x)\n#pragma message XSTR(__FILE__)\n'; } > pragma_file.cu
  python3 - <<'PY'
g=open('good.cu','rb').read()
open('cp1252.cu','wb').write(g.replace(b'//', b'// \x93smart quotes\x94 //',1))
open('utf8_ident_launch.cu','wb').write(g.replace(b'ptxbench_launch', b'ptxbench_launch\xc2\xa0',1))
open('ws_only_big.cu','wb').write(b' \t\n'*400000)
open('comment_only.cu','wb').write(b'// nothing here\n/* still nothing */\n')
open('just_under.cu','wb').write(g)
open('crlf_bom_mix.cu','wb').write(b'\xef\xbb\xbf'+g.replace(b'\n',b'\r\n')[:len(g)//2]+g[len(g)//2:])
open('zwj.cu','wb').write(g.replace(b'__global__', b'__glo\xe2\x80\x8dbal__',1))
open('sz.txt','w').write(str(len(g)))
PY
  cp good.cu 'quote"d.cu'; cp good.cu "$(printf 'new\nline.cu')"; cp good.cu 'star*.cu'; cp good.cu '#hash.cu'
  mkdir -p "$W/ff"; mkfifo "$W/ff/fifo.cu"; ln -s "$W/ff/fifo.cu" "$W/ff/fifolink.cu"; ln -s . "$W/ff/selfdir.cu"
  python3 - "$W/ff" good.cu <<'PY2'
import os,sys
base=sys.argv[1]; src=open(sys.argv[2],'rb').read(); os.chdir(base); p=base
for i in range(75):
    n='d'*68; os.mkdir(n); os.chdir(n); p=p+'/'+n
open('k.cu','wb').write(src); open(os.path.join(base,'deep.path'),'w').write(p+'/k.cu')
PY2
  chmod 644 -- *.cu
  # replies (new shapes)
  G=good.cu
  { printf 'Here:\n`````cuda\n'; cat $G; printf '`````\n'; } > rp_fence5.md
  { printf '<details><summary>k</summary>\n\n```cuda\n'; cat $G; printf '```\n</details>\n'; } > rp_details.md
  { printf '```diff\n'; sed 's/^/+/' $G; printf '```\n'; } > rp_diff.md
  { printf '```cuh\n'; cat $G; printf '```\n'; } > rp_cuh.md
  { printf '```cuda\n'; cat $G; printf '```\nAnd a test:\n```python\nprint(1)\n```\n'; } > rp_cuda_then_py.md
  { printf '```\nsome plain text\n```\nKernel:\n```cuda\n'; cat $G; printf '```\n'; } > rp_plain_then_cuda.md
  { printf '```cuda\n'; cat $G; printf '```\nOops, final:\n```cuda\n```\n'; } > rp_last_empty.md
  { printf '~~~~cuda\n'; cat $G; printf '\n// ```\n~~~~\n'; } > rp_tilde4_inner.md
  { printf 'Here:\n\xef\xbd\x80\xef\xbd\x80\xef\xbd\x80cuda\n'; cat $G; printf '\xef\xbd\x80\xef\xbd\x80\xef\xbd\x80\n'; } > rp_fullwidth_fence.md
  { printf '```\xc2\xa0cuda\n'; cat $G; printf '```\n'; } > rp_nbsp_lang.md
  { printf '```cuda\n'; cat $G; printf '```'; } > rp_noeol.md
  { printf 'Code:\n\n'; sed 's/^/    /' $G; } > rp_indent4.md
  python3 - <<'PY'
import html,json
g=open('good.cu').read()
open('rp_htmlpre.md','w').write('<pre><code class="language-cuda">'+html.escape(g)+'</code></pre>\n')
open('rp_jsonesc.md','w').write(json.dumps("```cuda\n"+g+"```\n")[1:-1])
open('rp_think_huge.md','w').write('<think>'+'x'*(4*1024*1024)+'</think>\n```cuda\n'+g+'```\n')
open('rp_crlf_think.md','wb').write(('<think>\r\nhmm\r\n</think>\r\n```cuda\r\n'+g+'```\r\n').replace('\r\n','\n').replace('\n','\r\n').encode())
open('rp_tvm.md','w').write('```cuda\n'+open('tvm.cu').read()+'```\n')
open('rp_cerr.md','w').write('```cuda\n'+open('cerr.cu').read()+'```\n')
open('rp_policy_dev.md','w').write('```cuda\n'+open('dev_incbin.cu').read()+'```\n')
PY
  ln -s rp_fence5.md rp_link.md
  cp rp_fence5.md rp_named.cu
  sha256sum * 2>/dev/null | sort > "$W/fx.sha"
  # ------------------------------------------------------------ run files: scripted runs of this binary, and new damages
  cd "$D" || exit 1
  ( "$PB" run --tasks $T,$TA --turns 1 --out scr.db --no-progress >/dev/null 2>&1
    "$PB" run --tasks $T,$TA --turns 1 --shard 0/2 --out s0.db --no-progress >/dev/null 2>&1
    "$PB" run --tasks $T,$TA --turns 1 --shard 1/2 --out s1.db --no-progress >/dev/null 2>&1
    "$PB" run --tasks $T,$TA,$TB --turns 1 --shard 0/3 --out t0.db --no-progress >/dev/null 2>&1
    "$PB" run --tasks $T,$TA,$TB --turns 1 --shard 2/3 --out t2.db --no-progress >/dev/null 2>&1
    "$PB" run --tasks $T --turns 2 --out scr2.db --no-progress >/dev/null 2>&1
    "$PB" merge s0.db s1.db --out merged.db >/dev/null 2>&1
    "$PB" rejudge scr.db --out rej.db >/dev/null 2>&1
    "$PB" rejudge s1.db --out s1rej.db >/dev/null 2>&1 )
  mk() { cp "$W/run.db" "$1.db"; sqlite3 "$1.db" "$2" 2>>"$W/setup.err" >/dev/null || echo "mk $1 failed" >> "$W/setup.err"; }
  mks() { cp "$D/$1.db" "$2.db"; sqlite3 "$2.db" "$3" 2>>"$W/setup.err" >/dev/null || echo "mks $2 failed" >> "$W/setup.err"; }
  mk roleuser      "update messages set role='user'"
  mk msgnull       "update messages set content='' where role='assistant'"
  mk correct2      "pragma ignore_check_constraints=1; update turns set correct=2 where correct=1"
  mk correctnull   "pragma ignore_check_constraints=1; update turns set correct=0.5"
  mk turnneg       "pragma ignore_check_constraints=1; update turns set turn=-turn"
  mk gpubogus      "pragma ignore_check_constraints=1; update turns set gpu_stages='maybe'"
  mk stopnull      "update trajectories set stop_reason=NULL"
  mk cfgarr        "update runs set config_json='[1,2]'"
  mk cfgsamples0   "update runs set config_json=json_set(config_json,'\$.samples',0)"
  mk cfgarchempty  "update runs set config_json=json_set(config_json,'\$.archs',json('[]'))"
  mk cfgtasksdup   "update runs set config_json=json_set(config_json,'\$.tasks',json('[\"gemm_n7168_k5120\",\"gemm_n7168_k5120\"]'))"
  mk llmnotjson    "update turns set llm_json='xyz'"
  mk evalnull      "update turns set eval_json='null' where correct=1"
  mk auditarr      "update turns set audit_json='[]' where audit_json is not null"
  mk compstr       "update turns set compile_json='\"str\"'"
  mk flagsobj      "update turns set flags_json='{\"side_stream\":true}'"
  mk catempty      "pragma ignore_check_constraints=1; update turns set category=''"
  mk sampleneg     "update trajectories set sample=-1-sample"
  mk schemaspace   "update meta set value=' 2' where key='schema_version'"
  mk schema2dot0   "update meta set value='2.0' where key='schema_version'"
  mk createdupper  "update meta set value='PTXBENCH' where key='created_by'"
  mk userversion   "pragma user_version=99; pragma application_id=1234567"
  mk speedinf      "update turns set speedup=9e999 where speedup is not null"
  mk speednegzero  "update turns set speedup=-0.0 where speedup is not null"
  mk turnhuge      "update turns set turn=2147483648 where turn=1"
  mk msgorphan     "update messages set trajectory_id=999 where id=(select min(id) from messages where seq=3)"
  mk modelempty    "update trajectories set model=''"
  mk taskempty     "update trajectories set task='' where id=(select min(id) from trajectories)"
  mk createdjunk   "update runs set created_at='yesterday'; update turns set created_at=x'00ff'"
  mk speedobj      "update turns set eval_json=json_set(eval_json,'\$.speedup',json('{\"v\":1}')) where eval_json is not null"
  mk msgseqneg     "update messages set seq=-seq-1"
  mk feedctl       "update turns set feedback=feedback||char(12)||char(27)||'[31m'||char(1)||']]><script>alert(1)</script>'"
  mk srcctl        "update turns set source=source||char(11)||char(0)||']]>' where source is not null"
  mk reasonuser    "update messages set reasoning='user reasoning '||char(7) where role='user'"
  mk turnsview     "alter table turns rename to turns_real; create view turns as select * from turns_real"
  mk cattask       "pragma ignore_check_constraints=1; update turns set category='task_suite_error'"
  mk catharness    "update turns set category='harness_error', correct=0, speedup=NULL"
  mk cfgcontract   "update runs set config_json=json_set(config_json,'\$.contract','cuda')"
  mk cfgfastpempty "update runs set config_json=json_set(config_json,'\$.fast_p',json('[]'))"
  mk provnull      "update runs set provenance_json='null'"
  mk provnotjson   "update runs set provenance_json='{not json'"
  mk llmtokensneg  "update turns set llm_json=json_set(llm_json,'\$.prompt_tokens',-5,'\$.completion_tokens',1e300)"
  mk evalseedstr   "update turns set eval_json=json_set(eval_json,'\$.input_seed','abc') where eval_json is not null"
  mk archexecnullc "pragma ignore_check_constraints=1; update turns set arch_executed=7"
  mk sourcehuge    "update turns set source=printf('%.3000000c','s')||source where source is not null and category='passed'"
  mk msgrolebogus  "pragma ignore_check_constraints=1; update messages set role='narrator' where seq=2"
  cp "$W/run.db" journalwal.db; sqlite3 journalwal.db "pragma journal_mode=wal; update runs set status=status" >/dev/null 2>>"$W/setup.err"
  cp "$W/run.db" header_tail.db; printf 'XXXXXXXX' | dd of=header_tail.db bs=1 seek=96 conv=notrunc 2>/dev/null
  cp "$W/run.db" reserved.db; printf '\x40' | dd of=reserved.db bs=1 seek=20 conv=notrunc 2>/dev/null
  mks scr  scrrunning  "update runs set status='running', finished_at=NULL; update trajectories set status='running'"
  mks s1   s1runid5    "update runs set id=5; update trajectories set run_id=5"
  mks s1   s1extratbl  "create table notes(x TEXT); insert into notes values('keep me')"
  mks s1   s1turnsextra "alter table turns add column reviewer TEXT default 'me'"
  mks s1   s1otherroot "update runs set provenance_json=json_set(provenance_json,'\$.root','/elsewhere')"
  mks s1   s1v1        "update meta set value='1' where key='schema_version'"
  mks scr  scrcfgurl   "update runs set config_json=json_set(config_json,'\$.model.base_url','ftp://x/v1')"
  ln s0.db s0hard.db
  cp s1.db s1.copy.db
  chmod 644 *.db
  sha256sum * | sort > "$W/db.sha"
  # ------------------------------------------------------------ own task roots (new damages)
  cd "$R" || exit 1
  mkroot() { local r=$R/$1; mkdir -p "$r"; for d in kernels trajectories docs; do ln -s "$ROOT/$d" "$r/$d"; done; cp -r "$ROOT/tasks" "$ROOT/context" "$r/"; }
  GT=tasks/gemm/gemm_n7168_k5120.toml L=context/levels.toml
  mkroot danglingtoml; ln -s nowhere.toml danglingtoml/tasks/gemm/zz_dangling.toml
  mkroot spacefam;     mkdir -p "spacefam/tasks/my family"; sed 's/^name = .*/name = "gemm_space_copy"/' spacefam/$GT > "spacefam/tasks/my family/a.toml"
  mkroot contextfile;  rm -rf contextfile/context; echo x > contextfile/context
  mkroot nokernels;    rm nokernels/kernels
  mkroot suitesstr;    sed -i 's/^suites = .*/suites = "core"/' suitesstr/$GT
  mkroot maxhuge;      sed -i 's/^M = { min = 1, max = 16384 }/M = { min = 1, max = 99999999999999999999 }/' maxhuge/$GT
  mkroot fragnul;      printf '\n[levels.nul]\ndescription = "x"\nfragments = ["common/role.md\\u0000.txt"]\n' >> fragnul/$L
  mkroot fullredef;    python3 -c "
import sys,re
p=sys.argv[1]; s=open(p).read()
s+='\n'
open(p,'w').write(s)" fullredef/$L; printf '\n[levels.mine]\ndescription = "same fragment twice"\nfragments = ["common/role.md", "common/role.md"]\n' >> fullredef/$L
  mkroot trajfifo;     rm trajfifo/trajectories; mkdir -p trajfifo/trajectories/v1 trajfifo/kk; cp $ROOT/trajectories/v1/* trajfifo/trajectories/v1/; mkfifo trajfifo/kk/k.cu
  sed -i '0,/^kernel = .*/s##kernel = "kk/k.cu"#' trajfifo/trajectories/v1/gemm_n7168_k5120.sm_90a.toml
  mkroot trajbig;      rm trajbig/trajectories; mkdir -p trajbig/trajectories/v1 trajbig/kk; cp $ROOT/trajectories/v1/* trajbig/trajectories/v1/
  { cat "$ROOT/kernels/controls/gemm/compile_error.cu"; printf '\n//%*s\n' 2000000 x; } > trajbig/kk/big.cu
  sed -i '0,/^kernel = .*/s##kernel = "kk/big.cu"#' trajbig/trajectories/v1/gemm_n7168_k5120.sm_90a.toml
  mkroot famempty;     sed -i '0,/^families = \[.*\]/s//families = []/' famempty/$GT
  mkroot atolzero;     sed -i '0,/^atol = .*/s//atol = 0.0/' atolzero/$GT
  mkroot trajreadme;   rm trajreadme/trajectories; mkdir -p trajreadme/trajectories/v1; cp $ROOT/trajectories/v1/* trajreadme/trajectories/v1/; echo "# notes" > trajreadme/trajectories/v1/README.md; echo 'garbage = [' > trajreadme/trajectories/v1/notes.toml.bak
  mkroot taskdirtoml;  mkdir -p taskdirtoml/tasks/gemm/folder.toml
  mkroot levelsmissing; rm levelsmissing/$L
  # ------------------------------------------------------------ fake tools
  cd "$B" || exit 1
  printf '#!/bin/sh\nfor a in "$@"; do case "$prev" in -o) echo "not an elf" > "$a";; esac; prev=$a; done; exit 0\n' > nvcc_textso
  printf '#!/bin/sh\nhead -c 4000000 /dev/zero | tr "\\0" "o"; exit 2\n' > nvcc_stdout_flood
  printf '#!/bin/sh\nexit 1\n' > cuobjdump_fail
  printf '#!/bin/sh\necho "        /*0000*/                   WGMMA.FAKE R0, R1 ;"; echo "garbage line \\x00"\n' > nvdisasm_fake
  printf '#!/bin/sh\nsleep 30\necho "Submitted batch job 5"\n' > sbatch_slow
  printf '#!/bin/sh\necho "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2; exit 1\n' > sbatch_fail
  printf '#!/bin/sh\nn=$(cat %s/sbn 2>/dev/null || echo 0); echo $((n+1)) > %s/sbn; if [ $n -ge 1 ]; then echo "sbatch: error: dependency" >&2; exit 1; fi; echo "Submitted batch job 41"\n' "$B" "$B" > sbatch_second_fails
  printf '#!/bin/sh\necho "Submitted batch job 41" >&2\n' > sbatch_stderr
  printf '#!/bin/sh\nexit 0\n' > sbatch_silent
  printf '#!/bin/sh\necho "Submitted batch job 41;cluster1"\n' > sbatch_cluster
  printf 'echo "Submitted batch job 1"\n' > sbatch_noexec
  chmod +x nvcc_* cuobjdump_* nvdisasm_* sbatch_slow sbatch_fail sbatch_second_fails sbatch_stderr sbatch_silent sbatch_cluster
  for s in sbatch_*; do mkdir -p "sb_$s"; cp -p "$s" "sb_$s/sbatch"; done
  mkdir -p nvcc_loop; ln -sf loop2 nvcc_loop/loop1; ln -sf loop1 nvcc_loop/loop2
}
devcheck() { local bad=""; test -c /dev/null || { bad="/dev/null broken;"; rm -f /dev/null; mknod -m 666 /dev/null c 1 3; }
  test -c /dev/full || { bad="$bad/dev/full broken;"; rm -f /dev/full; mknod -m 666 /dev/full c 1 7; }; echo "$bad"; }

c() {  # c ID EXPECT COMMAND  (runs in a fresh $W/o/ID holding r.db, a copy of the H200 run; TMPDIR=$W/tmp/ID)
  local id=$1 exp=$2 cmd=$3
  [[ $id =~ $ONLY ]] || return 0
  local cd=$W/o/$id; rm -rf "$cd" "$W/tmp/$id"; mkdir -p "$cd" "$W/tmp/$id"; chmod 777 "$cd" "$W/tmp/$id"; cp "$W/run.db" "$cd/r.db"; chmod 666 "$cd/r.db"
  local before; before=$(sha256sum "$cd/r.db" | cut -d' ' -f1)
  local t0=$SECONDS
  ( cd "$cd" && export TMPDIR=$W/tmp/$id && timeout -k 5 ${TMO:-120} bash -c "$cmd" ) >"$OUT/logs/$id.out" 2>"$OUT/logs/$id.err" </dev/null
  local rc=$? dt=$((SECONDS-t0))
  local crash=n data=n note="" auto_bad=0
  grep -aqE 'terminate called|Assertion|Segmentation fault|AddressSanitizer|UndefinedBehaviorSanitizer|runtime error:|core dumped|Aborted|std::|what\(\)|basic_string|nlohmann|json\.exception|\[json\.|stack smashing|double free|malloc\(\)' "$OUT/logs/$id.err" "$OUT/logs/$id.out" && { crash=y; note="$note crash-text;"; }
  case $rc in 124|137) crash=y; note="$note TIMEOUT;";; 134|136|139|135|132|133|153|159) crash=y; note="$note signal $((rc-128));";; esac
  grep -aq 'BADOUTPUT' "$OUT/logs/$id.err" && { auto_bad=1; note="$note $(grep -a BADOUTPUT "$OUT/logs/$id.err" | head -2 | tr '\n' ' ');"; }
  grep -aq 'DATAHARM' "$OUT/logs/$id.err" && { data=y; note="$note $(grep -a DATAHARM "$OUT/logs/$id.err" | head -2 | tr '\n' ' ');"; }
  local dv; dv=$(devcheck); [ -n "$dv" ] && { data=y; note="$note $dv"; }
  [ "$(sha256sum "$W/run.db" | cut -d' ' -f1)" = "$(cat "$W/src.sha")" ] || { data=y; note="$note master run.db changed;"; cp "$RUNSRC" "$W/run.db"; chmod 644 "$W/run.db"; }
  [ "$(cd "$FX" && sha256sum * 2>/dev/null | sort)" = "$(cat "$W/fx.sha")" ] || { data=y; note="$note FIXTURE changed;"; (cd "$FX" && sha256sum * 2>/dev/null | sort > "$W/fx.sha"); }
  [ "$(cd "$D" && sha256sum * 2>/dev/null | sort)" = "$(cat "$W/db.sha")" ] || { data=y; note="$note DB FIXTURE changed: $(cd "$D" && sha256sum * 2>/dev/null | sort | diff - "$W/db.sha" | grep '^[<>]' | awk '{print $3}' | sort -u | tr '\n' ' ');"; (cd "$D" && sha256sum * 2>/dev/null | sort > "$W/db.sha"); }
  [ -f "$cd/r.db" ] && [ "$(sha256sum "$cd/r.db" | cut -d' ' -f1)" != "$before" ] && note="$note r.db changed;"
  local tl; tl=$(ls -A "$W/tmp/$id" 2>/dev/null | tr '\n' ',' | cut -c1-80); [ -n "$tl" ] && note="$note TMPDIR left:$tl;"
  note="$note files:$(cd "$cd" && ls -A 2>/dev/null | grep -v '^r.db$' | tr '\n' ',' | cut -c1-160); ${dt}s"
  local msg; msg=$(grep -av '^\s*$' "$OUT/logs/$id.err" | grep -av '^DATAHARM\|^INFO:\|^BADOUTPUT' | head -1)
  [ -z "$msg" ] && msg=$(grep -av '^\s*$' "$OUT/logs/$id.out" | head -1)
  msg=$(printf '%s' "$msg" | tr '\t\r' '  ' | tr -d '\000-\010\033' | cut -c1-220)
  local auto=ok
  [[ $rc =~ ^($exp)$ ]] || { auto=review; note="$note exit $rc not $exp;"; }
  [ $crash = y ] && auto=review; [ $data = y ] && auto=review; [ $auto_bad = 1 ] && auto=review
  [ -z "$msg" ] && { auto=review; note="$note no message;"; }
  grep -aqE '`(SELECT|INSERT|CREATE|BEGIN|COMMIT|PRAGMA|UPDATE|DELETE)|sqlite3_|errno|Success$' "$OUT/logs/$id.err" && { auto=review; note="$note raw internals;"; }
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$(printf '%s' "$cmd" | tr '\n\t' '  ')" "$rc" "$crash" "$data" "$msg" "$auto" "$note" >> "$OUT/raw.tsv"
  printf '%s rc=%s %s%s %s %s\n' "$id" "$rc" "$crash" "$data" "$auto" "${msg:0:110}" >&2
}


if [ "${SKIP_SETUP:-0}" != 1 ]; then setup; fi
[ "$ONLY" = . ] && : > "$OUT/raw.tsv"
python3 "$HERE/fakesrv.py" $PORT "$FX/cerr.cu" "$FX/good.cu" "$W/srv" & SRV=$!
trap 'kill $SRV 2>/dev/null' EXIT
sleep 1
# ================================================================ cases
# ================================================================ cases (generated by gen.py; dropped as repeats of campaigns 1-6: see dropped.txt)
c V00a '2' '"$PB" compile $FX/good.cu --task $T --timeout "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V00b '2' '"$PB" compile $FX/good.cu --task $T --timeout "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V00c '2' '"$PB" compile $FX/good.cu --task $T --timeout "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V00d '2' '"$PB" compile $FX/good.cu --task $T --timeout "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V00e '2' '"$PB" compile $FX/good.cu --task $T --timeout "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V00f '0|2|17' '"$PB" compile $FX/good.cu --task $T --timeout "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V00g '0|2|17' '"$PB" compile $FX/good.cu --task $T --timeout "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V00h '2' '"$PB" compile $FX/good.cu --task $T --timeout "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V01a '2' '"$PB" compile $FX/good.cu --task $T --max-source-bytes "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V01b '2' '"$PB" compile $FX/good.cu --task $T --max-source-bytes "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V01c '2' '"$PB" compile $FX/good.cu --task $T --max-source-bytes "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V01d '2' '"$PB" compile $FX/good.cu --task $T --max-source-bytes "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V01e '2' '"$PB" compile $FX/good.cu --task $T --max-source-bytes "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V01f '0|2|17' '"$PB" compile $FX/good.cu --task $T --max-source-bytes "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V01g '0|2|17' '"$PB" compile $FX/good.cu --task $T --max-source-bytes "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V01h '2' '"$PB" compile $FX/good.cu --task $T --max-source-bytes "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V02a '2' '"$PB" eval $FX/good.cu --task $T --trials "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V02b '2' '"$PB" eval $FX/good.cu --task $T --trials "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V02c '2' '"$PB" eval $FX/good.cu --task $T --trials "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V02d '2' '"$PB" eval $FX/good.cu --task $T --trials "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V02e '2' '"$PB" eval $FX/good.cu --task $T --trials "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V02f '0|2|17' '"$PB" eval $FX/good.cu --task $T --trials "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V02g '0|2|17' '"$PB" eval $FX/good.cu --task $T --trials "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V02h '2' '"$PB" eval $FX/good.cu --task $T --trials "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V03a '2' '"$PB" eval $FX/good.cu --task $T --sample-budget "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V03b '2' '"$PB" eval $FX/good.cu --task $T --sample-budget "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V03c '2' '"$PB" eval $FX/good.cu --task $T --sample-budget "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V03d '2' '"$PB" eval $FX/good.cu --task $T --sample-budget "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V03e '2' '"$PB" eval $FX/good.cu --task $T --sample-budget "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V03f '0|2|17' '"$PB" eval $FX/good.cu --task $T --sample-budget "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V03g '0|2|17' '"$PB" eval $FX/good.cu --task $T --sample-budget "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V03h '2' '"$PB" eval $FX/good.cu --task $T --sample-budget "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V04a '2' '"$PB" eval $FX/good.cu --task $T --call-timeout "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V04b '2' '"$PB" eval $FX/good.cu --task $T --call-timeout "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V04c '2' '"$PB" eval $FX/good.cu --task $T --call-timeout "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V04d '2' '"$PB" eval $FX/good.cu --task $T --call-timeout "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V04e '2' '"$PB" eval $FX/good.cu --task $T --call-timeout "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V04f '0|2|17' '"$PB" eval $FX/good.cu --task $T --call-timeout "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V04g '0|2|17' '"$PB" eval $FX/good.cu --task $T --call-timeout "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V04h '2' '"$PB" eval $FX/good.cu --task $T --call-timeout "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V05a '2' '"$PB" eval $FX/good.cu --task $T --sustained-load-ms "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V05b '2' '"$PB" eval $FX/good.cu --task $T --sustained-load-ms "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V05c '2' '"$PB" eval $FX/good.cu --task $T --sustained-load-ms "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V05d '2' '"$PB" eval $FX/good.cu --task $T --sustained-load-ms "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V05e '2' '"$PB" eval $FX/good.cu --task $T --sustained-load-ms "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V05f '0|2|17' '"$PB" eval $FX/good.cu --task $T --sustained-load-ms "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V05g '0|2|17' '"$PB" eval $FX/good.cu --task $T --sustained-load-ms "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V05h '2' '"$PB" eval $FX/good.cu --task $T --sustained-load-ms "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V06a '2' '"$PB" eval $FX/good.cu --task $T --seed "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V06b '2' '"$PB" eval $FX/good.cu --task $T --seed "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V06c '2' '"$PB" eval $FX/good.cu --task $T --seed "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V06d '2' '"$PB" eval $FX/good.cu --task $T --seed "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V06e '2' '"$PB" eval $FX/good.cu --task $T --seed "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V06f '0|2|17' '"$PB" eval $FX/good.cu --task $T --seed "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V06g '0|2|17' '"$PB" eval $FX/good.cu --task $T --seed "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V06h '2' '"$PB" eval $FX/good.cu --task $T --seed "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V07a '2' '"$PB" eval $FX/good.cu --task $T --input-seed "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V07b '2' '"$PB" eval $FX/good.cu --task $T --input-seed "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V07c '2' '"$PB" eval $FX/good.cu --task $T --input-seed "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V07d '2' '"$PB" eval $FX/good.cu --task $T --input-seed "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V07e '2' '"$PB" eval $FX/good.cu --task $T --input-seed "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V07f '0|2|17' '"$PB" eval $FX/good.cu --task $T --input-seed "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V07g '0|2|17' '"$PB" eval $FX/good.cu --task $T --input-seed "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V07h '2' '"$PB" eval $FX/good.cu --task $T --input-seed "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V08a '2' '"$PB" audit $FX/good.cu --task $T --seed "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V08b '2' '"$PB" audit $FX/good.cu --task $T --seed "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V08c '2' '"$PB" audit $FX/good.cu --task $T --seed "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V08d '2' '"$PB" audit $FX/good.cu --task $T --seed "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V08e '2' '"$PB" audit $FX/good.cu --task $T --seed "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V08f '0|2|17' '"$PB" audit $FX/good.cu --task $T --seed "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V08g '0|2|17' '"$PB" audit $FX/good.cu --task $T --seed "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V08h '2' '"$PB" audit $FX/good.cu --task $T --seed "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V09a '2' '"$PB" prompt $T --speedup-target "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V09b '2' '"$PB" prompt $T --speedup-target "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V09c '2' '"$PB" prompt $T --speedup-target "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V09d '2' '"$PB" prompt $T --speedup-target "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V09e '2' '"$PB" prompt $T --speedup-target "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V09f '0|2|17' '"$PB" prompt $T --speedup-target "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V09g '0|2|17' '"$PB" prompt $T --speedup-target "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V09h '2' '"$PB" prompt $T --speedup-target "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V10a '2' '"$PB" show r.db --price-in "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V10b '2' '"$PB" show r.db --price-in "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V10c '2' '"$PB" show r.db --price-in "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V10d '2' '"$PB" show r.db --price-in "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V10e '2' '"$PB" show r.db --price-in "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V10f '0|2|17' '"$PB" show r.db --price-in "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V10g '0|2|17' '"$PB" show r.db --price-in "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V10h '2' '"$PB" show r.db --price-in "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V11a '2' '"$PB" show r.db --price-out "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V11b '2' '"$PB" show r.db --price-out "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V11c '2' '"$PB" show r.db --price-out "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V11d '2' '"$PB" show r.db --price-out "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V11e '2' '"$PB" show r.db --price-out "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V11f '0|2|17' '"$PB" show r.db --price-out "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V11g '0|2|17' '"$PB" show r.db --price-out "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V11h '2' '"$PB" show r.db --price-out "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V12a '2' '"$PB" sft fixit r.db --out ex --per-task-cap "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V12b '2' '"$PB" sft fixit r.db --out ex --per-task-cap "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V12c '2' '"$PB" sft fixit r.db --out ex --per-task-cap "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V12d '2' '"$PB" sft fixit r.db --out ex --per-task-cap "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V12e '2' '"$PB" sft fixit r.db --out ex --per-task-cap "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V12f '0|2|17' '"$PB" sft fixit r.db --out ex --per-task-cap "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V12g '0|2|17' '"$PB" sft fixit r.db --out ex --per-task-cap "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V12h '2' '"$PB" sft fixit r.db --out ex --per-task-cap "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V13a '2' '"$PB" sft fixit r.db --out ex --bytes-per-token "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V13b '2' '"$PB" sft fixit r.db --out ex --bytes-per-token "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V13c '2' '"$PB" sft fixit r.db --out ex --bytes-per-token "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V13d '2' '"$PB" sft fixit r.db --out ex --bytes-per-token "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V13e '2' '"$PB" sft fixit r.db --out ex --bytes-per-token "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V13f '0|2|17' '"$PB" sft fixit r.db --out ex --bytes-per-token "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V13g '0|2|17' '"$PB" sft fixit r.db --out ex --bytes-per-token "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V13h '2' '"$PB" sft fixit r.db --out ex --bytes-per-token "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V14a '2' '"$PB" sft kernelgen r.db --out ex --max-tokens "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V14b '2' '"$PB" sft kernelgen r.db --out ex --max-tokens "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V14c '2' '"$PB" sft kernelgen r.db --out ex --max-tokens "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V14d '2' '"$PB" sft kernelgen r.db --out ex --max-tokens "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V14e '2' '"$PB" sft kernelgen r.db --out ex --max-tokens "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V14f '0|2|17' '"$PB" sft kernelgen r.db --out ex --max-tokens "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V14g '0|2|17' '"$PB" sft kernelgen r.db --out ex --max-tokens "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V14h '2' '"$PB" sft kernelgen r.db --out ex --max-tokens "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V15a '2' '"$PB" sft coverage r.db --seed "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V15b '2' '"$PB" sft coverage r.db --seed "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V15c '2' '"$PB" sft coverage r.db --seed "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V15d '2' '"$PB" sft coverage r.db --seed "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V15e '2' '"$PB" sft coverage r.db --seed "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V15f '0|2|17' '"$PB" sft coverage r.db --seed "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V15g '0|2|17' '"$PB" sft coverage r.db --seed "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V15h '2' '"$PB" sft coverage r.db --seed "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V16a '2' '"$PB" sft coverage r.db --min-speedup "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V16b '2' '"$PB" sft coverage r.db --min-speedup "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V16c '2' '"$PB" sft coverage r.db --min-speedup "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V16d '2' '"$PB" sft coverage r.db --min-speedup "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V16e '2' '"$PB" sft coverage r.db --min-speedup "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V16f '0|2|17' '"$PB" sft coverage r.db --min-speedup "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V16g '0|2|17' '"$PB" sft coverage r.db --min-speedup "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V16h '2' '"$PB" sft coverage r.db --min-speedup "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V17a '2' '"$PB" sft mine r.db --dry-run --limit "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V17b '2' '"$PB" sft mine r.db --dry-run --limit "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V17c '2' '"$PB" sft mine r.db --dry-run --limit "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V17d '2' '"$PB" sft mine r.db --dry-run --limit "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V17e '2' '"$PB" sft mine r.db --dry-run --limit "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V17f '0|2|17' '"$PB" sft mine r.db --dry-run --limit "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V17g '0|2|17' '"$PB" sft mine r.db --dry-run --limit "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V17h '2' '"$PB" sft mine r.db --dry-run --limit "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V18a '2' '"$PB" sft mine r.db --dry-run --turns "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V18b '2' '"$PB" sft mine r.db --dry-run --turns "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V18c '2' '"$PB" sft mine r.db --dry-run --turns "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V18d '2' '"$PB" sft mine r.db --dry-run --turns "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V18e '2' '"$PB" sft mine r.db --dry-run --turns "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V18f '0|2|17' '"$PB" sft mine r.db --dry-run --turns "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V18g '0|2|17' '"$PB" sft mine r.db --dry-run --turns "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V18h '2' '"$PB" sft mine r.db --dry-run --turns "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V19a '2' '"$PB" slurm script  --shards "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V19b '2' '"$PB" slurm script  --shards "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V19c '2' '"$PB" slurm script  --shards "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V19d '2' '"$PB" slurm script  --shards "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V19e '2' '"$PB" slurm script  --shards "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V19f '0|2|17' '"$PB" slurm script  --shards "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V19g '0|2|17' '"$PB" slurm script  --shards "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V19h '2' '"$PB" slurm script  --shards "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V20a '2' '"$PB" slurm script --shards 2 --gpus-per-shard "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V20b '2' '"$PB" slurm script --shards 2 --gpus-per-shard "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V20c '2' '"$PB" slurm script --shards 2 --gpus-per-shard "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V20d '2' '"$PB" slurm script --shards 2 --gpus-per-shard "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V20e '2' '"$PB" slurm script --shards 2 --gpus-per-shard "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V20f '0|2|17' '"$PB" slurm script --shards 2 --gpus-per-shard "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V20g '0|2|17' '"$PB" slurm script --shards 2 --gpus-per-shard "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V20h '2' '"$PB" slurm script --shards 2 --gpus-per-shard "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V21a '2' '"$PB" slurm script --shards 2 --cpus-per-shard "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V21b '2' '"$PB" slurm script --shards 2 --cpus-per-shard "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V21c '2' '"$PB" slurm script --shards 2 --cpus-per-shard "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V21d '2' '"$PB" slurm script --shards 2 --cpus-per-shard "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V21e '2' '"$PB" slurm script --shards 2 --cpus-per-shard "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V21f '0|2|17' '"$PB" slurm script --shards 2 --cpus-per-shard "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V21g '0|2|17' '"$PB" slurm script --shards 2 --cpus-per-shard "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V21h '2' '"$PB" slurm script --shards 2 --cpus-per-shard "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V22a '2' '"$PB" gate --task $T $FX/good.cu --min-speedup "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V22b '2' '"$PB" gate --task $T $FX/good.cu --min-speedup "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V22c '2' '"$PB" gate --task $T $FX/good.cu --min-speedup "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V22d '2' '"$PB" gate --task $T $FX/good.cu --min-speedup "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V22e '2' '"$PB" gate --task $T $FX/good.cu --min-speedup "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V22f '0|2|17' '"$PB" gate --task $T $FX/good.cu --min-speedup "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V22g '0|2|17' '"$PB" gate --task $T $FX/good.cu --min-speedup "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V22h '2' '"$PB" gate --task $T $FX/good.cu --min-speedup "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V23a '2' '"$PB" run --tasks $T --out n.db --no-progress --turns "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V23b '2' '"$PB" run --tasks $T --out n.db --no-progress --turns "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V23c '2' '"$PB" run --tasks $T --out n.db --no-progress --turns "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V23d '2' '"$PB" run --tasks $T --out n.db --no-progress --turns "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V23e '2' '"$PB" run --tasks $T --out n.db --no-progress --turns "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V23f '0|2|17' '"$PB" run --tasks $T --out n.db --no-progress --turns "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V23g '0|2|17' '"$PB" run --tasks $T --out n.db --no-progress --turns "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V23h '2' '"$PB" run --tasks $T --out n.db --no-progress --turns "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V24a '2' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --concurrency "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V24b '2' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --concurrency "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V24c '2' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --concurrency "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V24d '2' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --concurrency "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V24e '2' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --concurrency "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V24f '0|2|17' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --concurrency "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V24g '0|2|17' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --concurrency "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V24h '2' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --concurrency "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V25a '2' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --shard-count "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V25b '2' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --shard-count "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V25c '2' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --shard-count "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V25d '2' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --shard-count "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V25e '2' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --shard-count "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V25f '0|2|17' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --shard-count "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V25g '0|2|17' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --shard-count "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V25h '2' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --shard-count "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V26a '2' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --max-tokens "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V26b '2' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --max-tokens "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V26c '2' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --max-tokens "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V26d '2' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --max-tokens "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V26e '2' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --max-tokens "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V26f '0|2|17' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --max-tokens "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V26g '0|2|17' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --max-tokens "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V26h '2' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --max-tokens "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V27a '2' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --top-p "٣" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V27b '2' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --top-p "５" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V27c '2' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --top-p "1_0" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V27d '2' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --top-p "0b11" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V27e '2' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --top-p "1,5" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V27f '0|2|17' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --top-p "0x1p2" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V27g '0|2|17' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --top-p "+3" > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c V27h '2' '"$PB" run --model m --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --out n.db --no-progress --top-p "3 " > o.txt 2>e.txt; r=$?; tail -1 o.txt; cat e.txt >&2; exit $r'
c P01 '0|1' '"$PB" run --model m --base-url $U/c7_content_parts/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P02 '0|1' '"$PB" run --model m --base-url $U/c7_content_number/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P03 '0|1' '"$PB" run --model m --base-url $U/c7_refusal/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P04 '0|1' '"$PB" run --model m --base-url $U/c7_toolcalls/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P05 '0|1' '"$PB" run --model m --base-url $U/c7_filter/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P06 '0|1' '"$PB" run --model m --base-url $U/c7_utf16/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P07 '0|1' '"$PB" run --model m --base-url $U/c7_bom/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P08 '1' '"$PB" run --model m --base-url $U/c7_html200/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P09 '0|1' '"$PB" run --model m --base-url $U/c7_redirect/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P10 '1' '"$PB" run --model m --base-url $U/c7_redirloop/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P11 '1' '"$PB" run --model m --base-url $U/c7_retryafter_huge/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P12 '1' '"$PB" run --model m --base-url $U/c7_retryafter_date/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P13 '1' '"$PB" run --model m --base-url $U/c7_retryafter_neg/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P14 '1' '"$PB" run --model m --base-url $U/c7_e401/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P15 '1' '"$PB" run --model m --base-url $U/c7_e413/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P16 '1' '"$PB" run --model m --base-url $U/c7_e404html/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P17 '0|1' '"$PB" run --model m --base-url $U/c7_dupclen/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P18 '1' '"$PB" run --model m --base-url $U/c7_shortbody/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P19 '0|1' '"$PB" run --model m --base-url $U/c7_trailgarbage/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P20 '0|1' '"$PB" run --model m --base-url $U/c7_nan/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P21 '0|1' '"$PB" run --model m --base-url $U/c7_deepnest/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P22 '0|1' '"$PB" run --model m --base-url $U/c7_bigint/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P23 '0|1' '"$PB" run --model m --base-url $U/c7_nul/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P24 '0|1' '"$PB" run --model m --base-url $U/c7_surrogate/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P25 '0|1' '"$PB" run --model m --base-url $U/c7_huge/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P26 '0|1' '"$PB" run --model m --base-url $U/c7_firstempty/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P27 '1' '"$PB" run --model m --base-url $U/c7_gzipbad/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P28 '1' '"$PB" run --model m --base-url $U/c7_chunkbad/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P29 '0|1' '"$PB" run --model m --base-url $U/c7_http10/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P30 '0|1' '"$PB" run --model m --base-url $U/c7_continue/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P31 '1' '"$PB" run --model m --base-url $U/c7_status999/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P32 '1' '"$PB" run --model m --base-url $U/c7_notjsonhttp/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P33 '0|1' '"$PB" run --model m --base-url $U/c7_reasononly/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c P34 '0|1' '"$PB" run --model m --base-url $U/c7_thinkopen/v1  --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c Q01 '0|1' '"$PB" run --model m --base-url $U/c7_sse_nospace/v1 --stream --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c Q02 '0|1' '"$PB" run --model m --base-url $U/c7_sse_crlf/v1 --stream --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c Q03 '1' '"$PB" run --model m --base-url $U/c7_sse_event_error/v1 --stream --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c Q04 '0|1' '"$PB" run --model m --base-url $U/c7_sse_onlydone/v1 --stream --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c Q05 '0|1' '"$PB" run --model m --base-url $U/c7_sse_asjson/v1 --stream --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c Q06 '0|1' '"$PB" run --model m --base-url $U/c7_sse_idretry/v1 --stream --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c Q07 '0|1' '"$PB" run --model m --base-url $U/c7_sse_multiline/v1 --stream --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c Q08 '0|1' '"$PB" run --model m --base-url $U/c7_sse_nodone_close/v1 --stream --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c Q09 '0|1' '"$PB" run --model m --base-url $U/c7_sse_bigline/v1 --stream --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c Q10 '1' '"$PB" run --model m --base-url $U/c7_drip/v1 --request-timeout 2 --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
c Q11 '0|1' 'MYKEY=s3cret "$PB" run --model m --base-url $U/c7_redirect_ext/v1 --api-key-env MYKEY --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db; r=$?; grep -qi "Bearer" $W/srv/c7_recordext.req 2>/dev/null && harm "API key sent to another host after a redirect"; exit $r'
c Q12 '0|1' 'MYKEY=s3cret "$PB" run --model m --base-url $U/c7_redirect/v1 --api-key-env MYKEY --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db; exit $?'
c Q13 '0|1' '"$PB" sft mine r.db --model m --base-url $U/c7_content_parts/v1 --out m.db --limit 1 --attempts 1 --retry-max-s 1 | tail -1; exit ${PIPESTATUS[0]}'
c Q14 '1' '"$PB" sft mine r.db --model m --base-url $U/c7_e401/v1 --out m.db --limit 1 --attempts 1 --retry-max-s 1 | tail -1; exit ${PIPESTATUS[0]}'
c Q15 '0|1' '"$PB" sft mine r.db --model m --base-url $U/c7_sse_crlf/v1 --stream --out m.db --limit 1 --attempts 1 --retry-max-s 1 | tail -1; exit ${PIPESTATUS[0]}'
c Q16 '0|1' '"$PB" sft mine r.db --model m --base-url $U/c7_huge/v1 --out m.db --limit 1 --attempts 1 --retry-max-s 1 | tail -1; exit ${PIPESTATUS[0]}'
c Q17 '1' '"$PB" sft mine r.db --model m --base-url $U/c7_retryafter_huge/v1 --out m.db --limit 1 --attempts 3 --retry-max-s 2 | tail -1; exit ${PIPESTATUS[0]}'
c Q18 '2' '"$PB" run --model m --base-url "$U/nocode/v1?key=abc#frag" --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db'
c Q19 '2' '"$PB" run --model m --base-url "http://[::1:$PORT/v1" --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db'
c Q20 '0|1|2' '"$PB" run --model m --base-url "http://user:pw@127.0.0.1:$PORT/nocode/v1" --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db; r=$?; grep -q "pw" n.db 2>/dev/null && harm "password stored in run file"; exit $r'
c Q21 '2' '"$PB" run --model "" --base-url $U/nocode/v1 --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db'
c Q22 '0|1|2' '"$PB" run --model "$(printf "m\nX-Evil: 1")" --base-url $U/c7_record/v1 --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db; r=$?; grep -q "^X-Evil" $W/srv/c7_record.req 2>/dev/null && harm "model id injected a header"; exit $r'
c Q23 '2' '"$PB" run --model m --base-url $U/nocode/v1 --api-key-env "" --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db'
c Q24 '2' '"$PB" run --model m --base-url $U/nocode/v1 --api-key-env "A=B" --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db'
c Q25 '0|1|2' '"$PB" run --model m --base-url $U/nocode/v1 --temperature 1e308 --tasks $T --turns 1 --attempts 1 --retry-max-s 1 --no-progress --out n.db'
c D01 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "pragma ignore_check_constraints=1; update turns set speedup=-3 where speedup is not null" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db  > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D02 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update runs set config_json=json_set(config_json,'"'"'$.turns'"'"',-1)" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db  > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D03 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update runs set config_json=json_set(config_json,'"'"'$.model'"'"',json('"'"'\\"x\\"'"'"'))" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db  > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D04 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "drop table messages" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db  > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D05 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "drop index if exists idx_turns_traj; create index zz on turns(turn)" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db  > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D06 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update meta set value=null where key='"'"'schema_version'"'"'" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db  > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D07 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "delete from meta" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db  > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D08 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "insert into meta values('"'"'schema_version'"'"','"'"'2'"'"')" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db  > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D09 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update trajectories set task='"'"'gemm_n7168_k5120\r\n'"'"' " >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db  > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D10 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update turns set category='"'"'passed'"'"', correct=0 where category!='"'"'passed'"'"'" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db  > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D11 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update turns set eval_json=json_set(eval_json,'"'"'$.speedup'"'"',1e-320) where eval_json is not null" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db --json > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D12 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update trajectories set model=char(27)||'"'"'[2J'"'"'||model" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db  > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D13 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update runs set provenance_json=json_set(provenance_json,'"'"'$.git'"'"','"'"'<script>alert(2)</script>'"'"')" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" report --html h.html d.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D14 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update turns set category='"'"'passed'"'"'||char(0)||'"'"'x'"'"'" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" report --csv c.csv d.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D15 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update turns set source=char(93,93,62)||source where source is not null" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" report --junit j.xml d.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D16 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update runs set status='"'"'finished'"'"'; update trajectories set status='"'"'running'"'"'" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" rejudge d.db --out rj.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D17 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "pragma ignore_check_constraints=1; update trajectories set sample=1.5" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" sft kernelgen d.db --out ex > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D18 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update messages set content=NULL where seq=1" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" sft fixit d.db --out ex > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D19 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update messages set reasoning=x'"'"'ff00fe'"'"'" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" sft fixit d.db --out ex > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D20 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update turns set arch='"'"'sm_70'"'"'" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" sft coverage d.db  > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D21 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update trajectories set arch='"'"'sm_100a'"'"'" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" sft mine d.db --dry-run --limit 1 > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D22 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "pragma page_size=512; vacuum" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db  > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D23 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "pragma auto_vacuum=full; vacuum" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" merge d.db --out m.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D24 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update runs set id=-1; update trajectories set run_id=-1" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db --turns > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D25 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "update turns set llm_json=json_set(llm_json,'"'"'$.cost'"'"',-1e9)" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db --price-in 1 --price-out 1 > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D26 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "create trigger t after insert on turns begin delete from runs; end" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" rejudge d.db --out rj.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D27 '0|1|2' 'cp $W/run.db d.db; chmod 644 d.db; sqlite3 d.db "create view v as select 1" >/dev/null 2>&1; sha256sum d.db > d.sha; "$PB" show d.db  > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; for f in ex/*.jsonl; do [ -f "$f" ] && vjsonl "$f"; done; [ -f c.csv ] && vcsv c.csv; [ -f j.xml ] && vxml j.xml; [ -f h.html ] && vhtml h.html; ls d.db-wal d.db-shm >&2 2>/dev/null && bad "wal/shm files left beside the input"; sha256sum -c d.sha >/dev/null 2>&1 || harm "input run file changed"; exit $r'
c D28 '2' 'cp $W/run.db d.db; truncate -s -4096 d.db; "$PB" rejudge d.db --out rj.db'
c D29 '2' 'cp $W/run.db d.db; truncate -s 0 d.db; "$PB" sft coverage d.db'
c D30 '2' 'ln -s $W/run.db l.db; "$PB" merge l.db l.db --out m.db'
c D31 '2' 'cp $W/run.db d.db; "$PB" show d.db --compare d.db/'
c D32 '2' 'mkdir dir.db; "$PB" report dir.db --csv c.csv'
c D33 '2' '"$PB" show $D/s0.db --compare /dev/null'
c D34 '0|2' '"$PB" merge $D/s0.db $D/s1.db $D/s0hard.db --out m.db'
c D35 '0|2' '"$PB" merge $D/s1.db $D/s0.db --out m.db --allow-partial; sqlite3 m.db "select status from runs" >&2'
c D36 '2' 'cp $D/s0.db s0.db; "$PB" merge s0.db $D/s1.db --out s0.db; r=$?; cmp s0.db $D/s0.db || harm "merge wrote over its input"; exit $r'
c D37 '2' 'cp $W/run.db d.db; "$PB" rejudge d.db --out d.db; r=$?; cmp d.db $W/run.db || harm "rejudge wrote over its input"; exit $r'
c D38 '2' '"$PB" report r.db --csv r.db; r=$?; cmp r.db $W/run.db || harm "report csv wrote over the run file"; exit $r'
c D39 '2' '"$PB" report r.db --html r.db --force; r=$?; cmp r.db $W/run.db || harm "report --force wrote over the run file"; exit $r'
c D40 '2' '"$PB" sft coverage r.db --out r.db --force; r=$?; cmp r.db $W/run.db || harm "coverage --force wrote over the run file"; exit $r'
c D41 '17|2' 'touch out.jsonl; "$PB" gate --task $T $FX/good.cu --json out.jsonl --force --timeline; r=$?; vjsonl out.jsonl; exit $r'
c D42 '2' '"$PB" report r.db --csv same.out --junit same.out'
c D43 '0|2' 'cp $FX/good.cu g.cu; "$PB" report r.db --html g.cu --force; r=$?; head -c 15 g.cu >&2; exit $r'
c E01 '2' 'PTXBENCH_ROOT="$(printf '"'"'\t'"'"')" "$PB" tasks > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E03 '0|2' 'PTXBENCH_ROOT=/proc/self/cwd "$PB" tasks > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E04 '0|1|2' 'PTXBENCH_CACHE=/dev/null "$PB" compile $FX/good.cu --task $T > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E05 '0|1|2' 'PTXBENCH_CACHE=/proc/1 "$PB" compile $FX/good.cu --task $T --no-cache > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E06 '0|2' 'PTXBENCH_CACHE='"'"'~root/c'"'"' "$PB" compile $FX/good.cu --task $T > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E07 '1|11' 'PTXBENCH_NVCC=/bin/true "$PB" compile $FX/good.cu --task $T --no-cache > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E08 '1|11' 'PTXBENCH_NVCC=/bin/false "$PB" compile $FX/good.cu --task $T --no-cache > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E10 '1|2' 'PTXBENCH_NVCC=nvcc\ --version "$PB" compile $FX/good.cu --task $T --no-cache > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E11 '1' 'PTXBENCH_CUOBJDUMP=/bin/true "$PB" compile $FX/good.cu --task $T --no-cache > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E12 '0|1' 'PTXBENCH_NVDISASM=/bin/cat "$PB" compile $FX/good.cu --task $T --no-cache > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E14 '0|2' 'PTXBENCH_COMPUTE_SANITIZER=/nonexist "$PB" eval $FX/good.cu --task $T --memcheck > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E16 '0' 'PTXBENCH_NO_GPU=0 "$PB" tasks --suite core > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E19 '0|1|2' 'PTXBENCH_BIN_DIR=/tmp "$PB" eval $FX/good.cu --task $T > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E20 '1|2|11' 'PTXBENCH_DLPACK_INCLUDE=/nonexist "$PB" compile $K/examples/tvm_ffi/gemm.cu --task $T > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E21 '1|2|11' 'PTXBENCH_TVM_FFI_ROOT=/etc "$PB" compile $K/examples/tvm_ffi/gemm.cu --task $T > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E22 '0' 'CUDA_VISIBLE_DEVICES=-1 "$PB" eval $FX/good.cu --task $T > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E23 '1|2' 'TMPDIR=/nonexistent/x "$PB" compile $FX/good.cu --task $T --no-cache > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E24 '1|2' 'TMPDIR=$FX/good.cu "$PB" compile $FX/cerr.cu --task $T --no-cache > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E25 '0|2' 'XDG_CACHE_HOME=relative/xdg PTXBENCH_CACHE= "$PB" compile $FX/good.cu --task $T > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E28 '2' 'SLURM_ARRAY_TASK_ID=abc SLURM_ARRAY_TASK_COUNT=2 "$PB" run --tasks $T --turns 1 --out n.db --no-progress > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E29 '2' 'JOB_COMPLETION_INDEX=5 "$PB" run --tasks $T --turns 1 --shard-count 2 --out n.db --no-progress > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E31 '2' 'JOB_COMPLETION_INDEX=1 "$PB" run --tasks $T --turns 1 --shard-count 0 --out n.db --no-progress > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E33 '0' 'LC_NUMERIC=de_DE.UTF-8 LC_ALL=de_DE.UTF-8 "$PB" show r.db --price-in 1.5 > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E34 '0' 'TZ=Nowhere/Bogus "$PB" show r.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E35 '0|1' 'PATH= "$PB" compile $FX/good.cu --task $T --no-cache > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E36 '0' 'COLUMNS=5 "$PB" show r.db --turns > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c E37 '0' 'TERM=dumb NO_COLOR=1 "$PB" run --tasks $T --turns 1 --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; exit $r'
c S01 '130|143|129|0' '"$PB" run --model m --base-url $U/hang/v1 --tasks $T --turns 1 --out n.db --no-progress & p=$!; sleep 3; kill -INT $p; wait $p; r=$?; sqlite3 n.db "select status from runs" >&2; exit $r'
c S02 '129|0' '"$PB" sft mine r.db --model m --base-url $U/hang/v1 --out m.db --limit 1 & p=$!; sleep 3; kill -HUP $p; wait $p'
c S03 '143|0' '"$PB" report r.db --html h.html & p=$!; kill -TERM $p; wait $p; r=$?; [ -f h.html ] && vhtml h.html; exit $r'
c S07 '1|2' '( ulimit -f 0; exec "$PB" gate --task $T $FX/good.cu --junit j.xml 2>&1 ) | cat >&2; exit ${PIPESTATUS[0]}'
c S10 '1' '"$PB" slurm script --shards 2 > /dev/full'
c S11 '1' '"$PB" show r.db --json > /dev/full'
c S13 '0|1|2' 'ulimit -v 200000; "$PB" report r.db --html h.html'
c S14 '2' 'chmod 777 .; $NB "$PB" rejudge $W/run.db --out /root/rj.db'
c S15 '0|2' 'chmod 777 .; cp r.db u.db; chmod 444 u.db; $NB "$PB" show u.db'
c S16 '2|1' 'chmod 777 .; $NB env PTXBENCH_CACHE=/root/.cache/x "$PB" compile $FX/good.cu --task $T'
c S17 '0|2' '"$PB" show r.db <&- >o.txt; r=$?; cat o.txt | tail -1; exit $r'
c S20 '2' '"$PB" compile /dev/stdin --task $T < /dev/null'
c X01 '2' '"$PB" tasks --suite core --suite extended > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X03 '2' '"$PB" tasks --family gemm,attention_fwd > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X04 '2' '"$PB" prompt $T $TA > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X05 '2' '"$PB" prompt --levels --json extra > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X06 '0|2' '"$PB" prompt $T --context FULL > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X07 '2' '"$PB" prompt $T --contract tvm-ffi --context none --arch sm_100 > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X08 '2' '"$PB" compile $FX/good.cu --task $T --arch sm_90a,sm_100a > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X09 '2' '"$PB" compile $FX/good.cu $FX/cerr.cu --task $T > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X11 '2' '"$PB" compile $FX/good.cu --task $T --contract TVM-FFI > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X14 '2' '"$PB" audit $FX/good.cu --task $T --route nsys > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X15 '2' '"$PB" audit $FX/good.cu --task $T --workload '"'"'M=0'"'"' > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X16 '2' '"$PB" audit $FX/good.cu --task $T --workload '"'"'"; rm -rf /'"'"' > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X17 '2' '"$PB" eval $FX/rp_fence5.md --task $T > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X18 '0|15' '"$PB" eval $FX/rp_fence5.md --task $T --reply --no-timing --no-audit > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X19 '2' '"$PB" gate --task $T > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X20 '2' '"$PB" gate --task $T $FX/good.cu --timeline > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X21 '2' '"$PB" gate --task $T $FX/good.cu $FX/good.cu --junit j.xml --json j.xml > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X22 '2' '"$PB" show > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X23 '2' '"$PB" show r.db r.db r.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X24 '2' '"$PB" show r.db --compare > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X25 '2' '"$PB" rejudge r.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X26 '2' '"$PB" rejudge --out rj.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X28 '2' '"$PB" merge r.db --out '"'"''"'"' > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X31 '2' '"$PB" slurm script --shards 2 --job-name '"'"''"'"' > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X32 '2' '"$PB" slurm script --shards 2 --time '"'"'forever'"'"' > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X33 '2' '"$PB" slurm script --shards 2 --partition '"'"'a b;c'"'"' > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X34 '2' '"$PB" slurm script --shards 2 --sbatch-arg '"'"'--wrap=rm -rf /'"'"' > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X35 '2' '"$PB" slurm script --shards 2 --dir '"'"'$(touch pwned)'"'"' > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X36 '2' '"$PB" slurm script --shards 2 --account $'"'"'acc\nX'"'"' > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X38 '2' '"$PB" sft fixit r.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X39 '2' '"$PB" sft fixit r.db --out ex --pairing some > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X40 '2' '"$PB" sft fixit r.db --out ex --categories passed > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X41 '2' '"$PB" sft fixit r.db --out ex --heldout-task nosuch > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X42 '2' '"$PB" sft kernelgen r.db --out ex --allow-flag bogus_flag > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X43 '2' '"$PB" sft coverage r.db --json --pairing ALL > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X45 '2' '"$PB" sft mine r.db --model m --dry-run --base-url ftp://x > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X46 '2' '"$PB" sft mine r.db --turns 65 --dry-run > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X47 '2' '"$PB" report r.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X48 '2' '"$PB" report --html h.html > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X49 '2' '"$PB" report r.db --html '"'"''"'"' > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X50 '2' '"$PB" report r.db --junit / > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X51 '2' '"$PB" run --tasks $T --resume r.db --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X52 '2' '"$PB" run --resume /nonexistent.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X53 '2' '"$PB" run --tasks $T --arch both --turns 1 --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X54 '2' '"$PB" run --tasks $T --turns 1 --shard 1/1 --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X55 '2' '"$PB" run --tasks $T --turns 1 --shard 0/2/3 --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X56 '2' '"$PB" run --tasks $T --turns 1 --fast-p 1.2,0.5 --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X57 '2' '"$PB" run --tasks $T --turns 1 --fast-p , --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X58 '2' '"$PB" run --tasks $T --turns 1 --scripted-version ../v1 --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X59 '2' '"$PB" run --tasks $T --turns 1 --context nonsense --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X60 '2' '"$PB" run --tasks $T --turns 1 --gpus 0 --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X61 '2' '"$PB" run --tasks $T --turns 1 --cpu-jobs 0 --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X62 '2' '"$PB" run --tasks $T --turns 1 --stall-timeout 0 --stream --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X63 '2' '"$PB" run --tasks $T --turns 1 --samples 0 --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X64 '2' '"$PB" run --tasks $T --turns 1 --out n.db --stream > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X66 '2' '"$PB" version extra > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X68 '2' '"$PB" tasks --json=yes > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X69 '2' '"$PB" tasks -json > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X70 '2' '"$PB" compile $FX/good.cu --task=$T --task=$TA > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X71 '2' '"$PB" run --tasks , --turns 1 --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X72 '2' '"$PB" run --tasks '"'"' '"'"' --turns 1 --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
c X73 '2' '"$PB" run --tasks core,extended,all --turns 1 --out n.db > o.txt 2>e.txt; r=$?; tail -2 o.txt; cat e.txt >&2; [ -e pwned ] && harm "shell ran a value"; exit $r'
