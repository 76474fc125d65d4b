#!/usr/bin/env bash
# ptxbench bad-input campaign 6.  usage: campaign.sh [PTXBENCH_BINARY]
#   env: ONLY=<regex of case ids>; W=<workdir, default /tmp/campaign/work6/w>; OUT=<logs, default /tmp/campaign/work6/out>
# Each case: c ID EXPECTED_EXIT_REGEX 'COMMAND'. Writes $OUT/raw.tsv:
#   id, command, exit, crash(auto), data(auto), message (first line), auto (ok|review), note
# judgments.tsv (hand judgments of the cases sent to review) + merge.py make cases.tsv.
# Needs root (tmpfs mounts, setpriv to uid 65534), python3, sqlite3, xmllint.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PB=$(readlink -f "${1:-/tmp/campaign/bin6/ptxbench}")
W=${W:-/tmp/campaign/work6/w}; OUT=${OUT:-/tmp/campaign/work6/out}; ONLY=${ONLY:-.}
RUNSRC=${RUNSRC:-/work/shared/runs/2026-11-30-h200-main.db}
mkdir -p "$W" "$OUT/logs"; W=$(readlink -f "$W"); OUT=$(readlink -f "$OUT"); : > "$W/setup.err"
export PB W OUT
export PTXBENCH_ROOT=${PTXBENCH_ROOT:-/tmp/campaign/root6} PTXBENCH_CACHE=${PTXBENCH_CACHE:-/tmp/campaign/cache6}
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
# --- G: environment values and global shapes (new values and combinations)
c G01 '0' 'PTXBENCH_ROOT=$ROOT/ "$PB" tasks --suite core | tail -1; exit ${PIPESTATUS[0]}'
c G04 '2' 'PTXBENCH_ROOT=/proc/self "$PB" prompt $T'
c G05 '1|2' 'PTXBENCH_CACHE=/dev/null "$PB" compile $FX/good.cu --task $T'
c G06 '1|2' 'PTXBENCH_CACHE=/proc/self/fdinfo "$PB" compile $FX/good.cu --task $T'
c G07 '0|1|2' 'mkdir ro; mount -t tmpfs -o ro,size=64k tmpfs ro; PTXBENCH_CACHE=$PWD/ro "$PB" compile $FX/good.cu --task $T | tail -1; r=${PIPESTATUS[0]}; umount ro; exit $r'
c G08 '0' 'PTXBENCH_NO_GPU=0 "$PB" compile $FX/good.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c G10 '0|1|2' 'PTXBENCH_NO_GPU=1 PTXBENCH_ASSUME_GPU=1 "$PB" eval $FX/good.cu --task $T | tail -2; exit ${PIPESTATUS[0]}'
c G11 '1|13' 'PTXBENCH_ASSUME_GPU=1 "$PB" gate $FX/good.cu --task $T | tail -2; exit ${PIPESTATUS[0]}'
c G12 '0' 'PTXBENCH_ASSUME_GPU=1 "$PB" run --tasks $T --turns 3 --out n.db --no-progress > l.txt 2>&1; r=$?; tail -2 l.txt; sqlite3 n.db "select turn, category from turns" | tr "\n" " " >&2; exit $r'
c G14 '0|2' 'CUDA_VISIBLE_DEVICES=0,0 "$PB" run --tasks $T --turns 1 --gpus 2 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c G15 '0' 'TZ=Mars/Phobos "$PB" show r.db > out.txt; r=$?; head -2 out.txt; exit $r'
c G16 '0' 'LC_ALL=tr_TR.UTF-8 LANG=tr_TR.UTF-8 "$PB" tasks --family gemm --arch sm_90a | tail -1; exit ${PIPESTATUS[0]}'
c G18 '0' 'env -u PTXBENCH_CACHE XDG_CACHE_HOME= HOME=$PWD/h "$PB" compile $FX/good.cu --task $T | tail -1; r=${PIPESTATUS[0]}; ls -d h/.cache/ptxbench >&2 || bad "empty XDG_CACHE_HOME not treated as unset"; exit $r'
c G19 '0|2' 'PTXBENCH_BIN_DIR=bin6rel "$PB" eval $FX/good.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c G20 '1|11' 'PTXBENCH_NVCC=/bin/false "$PB" compile $FX/good.cu --task $T --no-cache'
c G21 '1|11' 'PTXBENCH_NVCC=$B/nvcc_textso "$PB" compile $FX/good.cu --task $T --no-cache; r=$?; "$PB" compile $FX/good.cu --task $T | tail -1 | grep -q "kernel.so" || harm "good kernel no longer compiles from the cache"; exit $r'
c G22 '1|11' 'PTXBENCH_NVCC=$B/nvcc_stdout_flood "$PB" compile $FX/good.cu --task $T --no-cache --json > c.json; r=$?; ls -l c.json >&2; [ $r != 2 ] && vjson c.json; exit $r'
c G23 '1' 'PTXBENCH_CUOBJDUMP=$B/cuobjdump_fail "$PB" compile $FX/good.cu --task $T --no-cache'
c G24 '0|1' 'PTXBENCH_NVDISASM=$B/nvdisasm_fake "$PB" compile $FX/good.cu --task $T --no-cache --json > c.json; r=$?; vjson c.json; grep -o "\"wgmma\"[^,}]*" c.json | head -2 >&2; exit $r'
c G25 '1' 'PTXBENCH_CUOBJDUMP=$PTXBENCH_NVDISASM "$PB" compile $FX/good.cu --task $T --no-cache'
c G26 '0' 'PTXBENCH_NCU=/bin/true "$PB" audit $FX/good.cu --task $T --route ncu | tail -1; exit ${PIPESTATUS[0]}'
c G27 '0' 'PATH= /tmp/campaign/bin6/ptxbench compile $FX/good.cu --task $T --no-cache | tail -1; exit ${PIPESTATUS[0]}'
c G28 '0|1|2' 'CUDA_HOME=/nonexistent PATH=/usr/bin:/bin "$PB" compile $FX/good.cu --task $T --no-cache | tail -1; exit ${PIPESTATUS[0]}'
c G29 '1|2' 'TMPDIR=$FX/good.cu "$PB" compile $FX/good.cu --task $T --no-cache'
c G30 '1|2|0' 'mkdir -m 555 rot; $NB env TMPDIR=$PWD/rot PTXBENCH_CACHE=$W/nbcache "$PB" compile $FX/good.cu --task $T --no-cache | tail -1; exit ${PIPESTATUS[0]}'
c G31 '2' 'PTXBENCH_TVM_FFI_ROOT=/nonexistent/tvm_ffi "$PB" eval $FX/rp_tvm.md --task $T --reply'
c G32 '2' 'PTXBENCH_NVCC=$B/nvcc_loop/loop1 "$PB" compile $FX/good.cu --task $T --no-cache'
c G33 '2' 'PTXBENCH_NVCC=$FX/good.cu "$PB" compile $FX/good.cu --task $T --no-cache'
c G36 '1' '"$PB" prompt $T --context none >&-'
c G38 '1' '"$PB" sft coverage r.db > /dev/full'
c G39 '2' '"$PB" --version --help tasks'
c G40 '2' '"$PB" tasks extra_positional'
c G41 '2' '"$PB" show r.db --json --json'
c G42 '2' '"$PB" compile $FX/good.cu --task $T --task $TA'
c G43 '0|2' 'PTXBENCH_DLPACK_INCLUDE=/work/main/.deps/wheels "$PB" compile $FX/inc_dlpack.cu --task $T --no-cache | tail -1; exit ${PIPESTATUS[0]}'
c G44 '0' 'env -i PATH=/usr/bin:/bin PTXBENCH_ROOT=$ROOT PTXBENCH_CACHE=$PTXBENCH_CACHE "$PB" tasks | tail -1; exit ${PIPESTATUS[0]}'
c G46 '2' 'PTXBENCH_CACHE=" " "$PB" compile $FX/good.cu --task $T'
# --- T: tasks and prompt (new values and combinations)
c T01 '0|2' '"$PB" tasks --suite extended --arch sm_100a --family attention_bwd; exit $?'
c T04 '2' '"$PB" tasks --arch sm_100'
c T06 '0' '"$PB" tasks --suite extended --json > t.json; r=$?; vjson t.json; exit $r'
c T07 '2' '"$PB" tasks --family=""'
c T08 '0' '"$PB" prompt $T --arch sm_100a --context none --json > p.json; r=$?; vjson p.json; exit $r'
c T09 '0|2' '"$PB" prompt $T --levels --context bogus > out.txt; r=$?; head -3 out.txt; exit $r'
c T10 '2' '"$PB" prompt ""'
c T11 '2' '"$PB" prompt $T --arch ""'
c T12 '0' '"$PB" prompt $T --contract auto --json > p.json; r=$?; vjson p.json; exit $r'
c T13 '0|2' '"$PB" prompt $T --speedup-target 0x1p1 | grep -m1 -i "speed\|faster"; exit ${PIPESTATUS[0]}'
c T15 '2' '"$PB" prompt $T --context none --context full'
c T16 '2' '"$PB" prompt $TA --arch sm_90a,sm_100a'
c T17 '2' '"$PB" prompt --json'
c T19 '0|2' '"$PB" prompt mha_with_lse_d96 --context reference > out.txt; r=$?; head -1 out.txt; exit $r'
c T20 '2' '"$PB" prompt "gemm_*"'
c T21 '2' '"$PB" tasks --json --suite "core,extended"'
c T22 '0' '"$PB" prompt $T --speedup-target 1e-3 --context none > out.txt; r=$?; head -1 out.txt; exit $r'
# --- O: own task roots (new damages)
c O01 '2' 'PTXBENCH_ROOT=$R/danglingtoml "$PB" tasks'
c O02 '0' 'PTXBENCH_ROOT=$R/spacefam "$PB" tasks | grep -c space_copy; exit ${PIPESTATUS[0]}'
c O03 '2' 'PTXBENCH_ROOT=$R/contextfile "$PB" prompt $T'
c O04 '2' 'PTXBENCH_ROOT=$R/nokernels "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c O05 '2' 'PTXBENCH_ROOT=$R/suitesstr "$PB" tasks'
c O06 '2' 'PTXBENCH_ROOT=$R/maxhuge "$PB" tasks'
c O07 '2' 'PTXBENCH_ROOT=$R/fragnul "$PB" prompt $T --context nul'
c O08 '0' 'PTXBENCH_ROOT=$R/fullredef "$PB" prompt $T --context mine > out.txt; r=$?; head -2 out.txt; exit $r'
c O09 '2' 'PTXBENCH_ROOT=$R/trajfifo timeout 30 "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c O10 '0|2' 'PTXBENCH_ROOT=$R/trajbig "$PB" run --tasks $T --turns 1 --out n.db --no-progress > l.txt 2>&1; r=$?; tail -2 l.txt; [ -e n.db ] && sqlite3 n.db "select category from turns" >&2; exit $r'
c O11 '2' 'PTXBENCH_ROOT=$R/famempty "$PB" tasks'
c O12 '0|2' 'PTXBENCH_ROOT=$R/atolzero "$PB" tasks --family gemm | tail -1; exit ${PIPESTATUS[0]}'
c O13 '0' 'PTXBENCH_ROOT=$R/trajreadme "$PB" run --tasks $T --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c O14 '2' 'PTXBENCH_ROOT=$R/taskdirtoml "$PB" tasks'
c O15 '2' 'PTXBENCH_ROOT=$R/levelsmissing "$PB" prompt $T --context none'
c O16 '2' 'PTXBENCH_ROOT=$R/levelsmissing "$PB" prompt --levels'
c O17 '2' 'PTXBENCH_ROOT=$R/danglingtoml "$PB" compile $FX/good.cu --task $T'
c O18 '2' 'PTXBENCH_ROOT=$R/contextfile "$PB" run --model m --base-url $U/nocode/v1 $RM --out n.db'
c O19 '0|2' 'PTXBENCH_ROOT=$R/spacefam "$PB" prompt gemm_space_copy --context none > out.txt; r=$?; head -1 out.txt; exit $r'
c O20 '2' 'PTXBENCH_ROOT=$R/famempty "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
# --- C: compile: new hostile sources, paths and option combinations
c C01 '12' '"$PB" compile $FX/inc_dslash.cu --task $T'
c C02 '12' '"$PB" compile $FX/inc_after_dotdot.cu --task $T'
c C03 '11|12' '"$PB" compile $FX/inc_tilde.cu --task $T'
c C04 '11|12' '"$PB" compile $FX/inc_envvar.cu --task $T'
c C05 '12|11' '"$PB" compile $FX/pragma_op_dep.cu --task $T --json > c.json; r=$?; grep -q "root:x" c.json && harm "/etc/passwd in the report"; exit $r'
c C06 '11|12' '"$PB" compile $FX/pragma_alias.cu --task $T --json > c.json; r=$?; grep -q "root:x" c.json && harm "/etc/passwd in the report"; exit $r'
c C07 '11|12' '"$PB" compile $FX/inc_divslash.cu --task $T'
c C08 '12|11|2' '"$PB" compile $FX/inc_nulname.cu --task $T --json > c.json; r=$?; grep -q "root:x" c.json && harm "/etc/passwd in the report"; exit $r'
c C09 '0' '"$PB" compile $FX/inc_libcudacxx.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c C10 '11|12' '"$PB" compile $FX/inc_cudnn.cu --task $T'
c C11 '11' '"$PB" compile $FX/inc_tvm_native.cu --task $T'
c C12 '12|11' '"$PB" compile $FX/dev_incbin.cu --task $T --json > c.json; r=$?; grep -q "root:x" c.json && harm "/etc/passwd in the report"; exit $r'
c C13 '12' '"$PB" compile $FX/host_fork.cu --task $T'
c C14 '12' '"$PB" compile $FX/host_dlopen.cu --task $T'
c C15 '12|0' '"$PB" compile $FX/host_getenv.cu --task $T | tail -2; exit ${PIPESTATUS[0]}'
c C16 '12' '"$PB" compile $FX/host_syscall.cu --task $T'
c C17 '0|12' '"$PB" compile $FX/host_dtor.cu --task $T | tail -2; exit ${PIPESTATUS[0]}'
c C18 '0|12' '"$PB" compile $FX/host_tls.cu --task $T | tail -2; exit ${PIPESTATUS[0]}'
c C19 '11' '"$PB" compile $FX/launch_hidden.cu --task $T'
c C20 '0' '"$PB" compile $FX/inc_in_if0.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c C21 '0' '"$PB" compile $FX/inc_in_comments.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c C22 '0' '"$PB" compile $FX/inc_in_string.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c C23 '12' '"$PB" compile $FX/inc_tabs_abs.cu --task $T'
c C24 '12' '"$PB" compile $FX/inc_devzero.cu --task $T'
c C25 '11|12' '"$PB" compile $FX/inc_unclosed.cu --task $T'
c C26 '11|12' '"$PB" compile $FX/inc_noname.cu --task $T'
c C27 '0|11' '"$PB" compile $FX/pragma_file.cu --task $T --json > c.json; r=$?; vjson c.json; grep -o "$W[^\"]*" c.json | head -2 >&2; exit $r'
c C28 '0|11|2' '"$PB" compile $FX/cp1252.cu --task $T --json > c.json; r=$?; vjson c.json; exit $r'
c C29 '11|2' '"$PB" compile $FX/utf8_ident_launch.cu --task $T'
c C30 '11|2' '"$PB" compile $FX/zwj.cu --task $T'
c C31 '0|11|2' '"$PB" compile $FX/crlf_bom_mix.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c C32 '11|12|2' '"$PB" compile $FX/ws_only_big.cu --task $T'
c C33 '11|2' '"$PB" compile $FX/comment_only.cu --task $T'
c C34 '0' 'n=$(cat $FX/sz.txt); "$PB" compile $FX/just_under.cu --task $T --max-source-bytes $n | tail -1; exit ${PIPESTATUS[0]}'
c C35 '12' 'n=$(cat $FX/sz.txt); "$PB" compile $FX/good.cu --task $T --max-source-bytes $((n-1)) --no-cache'
c C36 '0' '"$PB" compile "$FX/quote\"d.cu" --task $T | tail -1; exit ${PIPESTATUS[0]}'
c C37 '0' '"$PB" compile "$FX/$(printf "new\nline.cu")" --task $T | tail -1; exit ${PIPESTATUS[0]}'
c C38 '0' '"$PB" compile "$FX/star*.cu" --task $T --json > c.json; r=$?; vjson c.json; exit $r'
c C39 '0' '"$PB" compile "$FX/#hash.cu" --task $T | tail -1; exit ${PIPESTATUS[0]}'
c C40 '2' 'timeout 30 "$PB" compile $W/ff/fifo.cu --task $T'
c C41 '2' 'timeout 30 "$PB" compile $W/ff/fifolink.cu --task $T'
c C42 '2' '"$PB" compile $W/ff/selfdir.cu --task $T'
c C43 '2|12' 'timeout 30 "$PB" compile /dev/zero --task $T'
c C44 '2|11' '"$PB" compile /proc/self/environ --task $T'
c C45 '2' '"$PB" compile $FX/ --task $T'
c C46 '0|2' '"$PB" compile "$(cat $W/ff/deep.path)" --task $T | tail -1; exit ${PIPESTATUS[0]}'
c C47 '2' '"$PB" compile $FX/good.cu --task $T --timeout 0'
c C48 '14' '"$PB" compile $FX/ref.cu --task $T --timeout 1 --no-cache'
c C49 '2' '"$PB" compile $FX/good.cu --task $T --contract ""'
c C50 '11' '"$PB" compile $FX/tvm.cu --task $T --contract native'
c C51 '11' '"$PB" compile $FX/good.cu --task $T --contract tvm-ffi'
c C52 '2' '"$PB" compile $FX/good.cu --task $T --max-source-bytes=""'
c C53 '0' '"$PB" compile $FX/good.cu --task $T --max-source-bytes 1073741824 --json > c.json; r=$?; vjson c.json; exit $r'
c C54 '2' '"$PB" compile $FX/good.cu --task $T --arch sm_90a --arch sm_100a'
c C55 '2' '"$PB" compile $FX/good.cu --task mha_bwd_d128 --arch sm_100a'
c C56 '0' 'cp $FX/good.cu k.cu; "$PB" compile k.cu --task $T >/dev/null; echo "int broken(" >> k.cu; "$PB" compile k.cu --task $T; r=$?; [ $r = 0 ] && harm "an edited kernel was answered from the cache"; [ $r = 11 ] && r=0; exit $r'
c C57 '0' 'cp $FX/good.cu k.cu; "$PB" compile k.cu --task $T >/dev/null; "$PB" compile k.cu --task $TA; r=$?; [ $r = 0 ] && harm "a GEMM kernel passed the attention entry check (cache)"; [ $r = 11 ] && r=0; exit $r'
# --- E: eval: new option combinations and inputs
c E01 '0' '"$PB" eval $FX/good.cu --task $T --no-timing --no-audit --json > e.json; r=$?; vjson e.json; exit $r'
c E03 '0' '"$PB" eval $FX/good.cu --task $T --sustained-load-ms 0.0001 | tail -1; exit ${PIPESTATUS[0]}'
c E04 '0|2' '"$PB" eval $FX/good.cu --task $T --input-seed 5 --json > e.json; r=$?; [ $r = 0 ] && vjson e.json; exit $r'
c E05 '0' '"$PB" eval $FX/good.cu --task $T --trials 100 --call-timeout 600 --sample-budget 600 --timeout 3600 | tail -1; exit ${PIPESTATUS[0]}'
c E06 '0' '"$PB" eval $FX/good.cu --task $T --library-plan heuristic --no-timing | tail -1; exit ${PIPESTATUS[0]}'
c E07 '2' 'PTXBENCH_COMPUTE_SANITIZER=$FX "$PB" eval $FX/good.cu --task $T --memcheck --no-timing'
c E08 '0|2' '$NB env PTXBENCH_CACHE=$W/nbcache "$PB" eval $FX/good.cu --task $T --allow-weaker-sandbox | tail -1; exit ${PIPESTATUS[0]}'
c E09 '11' '"$PB" eval $FX/rp_fence5.md --task $T --reply --contract tvm-ffi'
c E10 '2' '"$PB" eval $FX/good.cu --task mha_bwd_d128 --arch sm_100a'
c E11 '0' '"$PB" eval $FX/good.cu --task $T --seed 0 --input-seed 0 --json > e.json; r=$?; vjson e.json; exit $r'
c E12 '2' '"$PB" eval $FX/good.cu --task $T --input-seed 18446744073709551616'
c E13 '2' '"$PB" eval $FX/good.cu --task $T --sustained-load-ms 1e-400x'
c E14 '2' '"$PB" eval $FX/good.cu --task $T --timeline --json --no-timing --no-audit --trials 2'
c E15 '0' '"$PB" eval $FX/rp_fence5.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E16 '0' '"$PB" eval $FX/rp_details.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E17 '15|11' '"$PB" eval $FX/rp_diff.md --task $T --reply'
c E18 '0|15' '"$PB" eval $FX/rp_cuh.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E19 '0' '"$PB" eval $FX/rp_cuda_then_py.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E20 '0' '"$PB" eval $FX/rp_plain_then_cuda.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E21 '0|11|15' '"$PB" eval $FX/rp_last_empty.md --task $T --reply | tail -2; exit ${PIPESTATUS[0]}'
c E22 '0' '"$PB" eval $FX/rp_tilde4_inner.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E23 '15' '"$PB" eval $FX/rp_fullwidth_fence.md --task $T --reply'
c E24 '0|15' '"$PB" eval $FX/rp_nbsp_lang.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E25 '0' '"$PB" eval $FX/rp_noeol.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E26 '15' '"$PB" eval $FX/rp_indent4.md --task $T --reply'
c E27 '15|11' '"$PB" eval $FX/rp_htmlpre.md --task $T --reply'
c E28 '15|11' '"$PB" eval $FX/rp_jsonesc.md --task $T --reply'
c E29 '0|12' '"$PB" eval $FX/rp_think_huge.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E30 '0' '"$PB" eval $FX/rp_crlf_think.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E31 '12|11' '"$PB" eval $FX/rp_policy_dev.md --task $T --reply'
c E32 '0' '"$PB" eval $FX/rp_link.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E33 '0' '"$PB" eval $FX/rp_named.cu --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E34 '11|15' '"$PB" eval $FX/rp_named.cu --task $T'
c E35 '2' 'timeout 30 "$PB" eval $W/ff/fifo.cu --task $T --reply'
c E36 '0' '"$PB" eval $FX/good.cu --task $T --json --timeline > e.json; r=$?; vjson e.json; exit $r'
c E37 '11' '"$PB" eval $FX/cerr.cu --task $T --no-timing --no-audit --memcheck'
c E40 '0|2' '"$PB" eval $FX/good.cu --task $T --timeout 10 --call-timeout 600 | tail -1; exit ${PIPESTATUS[0]}'
# --- A: audit (new combinations)
c A01 '0' '"$PB" audit $FX/rp_fence5.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c A02 '2' '"$PB" audit $FX/good.cu --task $T --workload "B=1,H=1,S=1"'
c A03 '0|2' '"$PB" audit $FX/good.cu --task $TA --workload "B=1,H=48,S=128" | tail -1; exit ${PIPESTATUS[0]}'
c A04 '0' '"$PB" audit $FX/good.cu --task $T --seed 18446744073709551615 | tail -1; exit ${PIPESTATUS[0]}'
c A05 '11' '"$PB" audit $FX/cerr.cu --task $T --json > a.json; r=$?; vjson a.json; exit $r'
c A06 '0' '"$PB" audit $FX/good.cu --task $T --route ncu --allow-weaker-sandbox | tail -1; exit ${PIPESTATUS[0]}'
c A07 '2' '"$PB" audit $FX/good.cu --task $T --route auto --route ncu'
c A08 '15' '"$PB" audit $FX/rp_indent4.md --task $T --reply --json > a.json; r=$?; vjson a.json; exit $r'
c A09 '2' '"$PB" audit $FX/good.cu --task $T --no-timing'
c A10 '2' '"$PB" audit $FX/good.cu --task $T --timeline --json'
c A11 '12' '"$PB" audit $FX/inc_dslash.cu --task $T --json > a.json; r=$?; vjson a.json; exit $r'
c A12 '2' '"$PB" audit $FX/good.cu --task $T --workload "M=8192;N=7168"'
c A13 '0' '"$PB" audit $FX/rp_crlf_think.md --task $T --reply --arch sm_90a | tail -1; exit ${PIPESTATUS[0]}'
c A14 '0' '"$PB" audit $FX/good.cu --task $T --workload "M=1" | tail -1; exit ${PIPESTATUS[0]}'
# --- R: run: new option values and combinations (scripted agent unless a model is named)
c R01 '2' '"$PB" run --tasks $T,$T --turns 1 --out n.db --no-progress'
c R02 '2' '"$PB" run --tasks $T --arch sm_90a,sm_90a --turns 1 --out n.db --no-progress'
c R03 '2' '"$PB" run --tasks $T --arch "sm_90a," --turns 1 --out n.db --no-progress'
c R04 '2' '"$PB" run --tasks mha_bwd_d128 --arch sm_100a --turns 1 --out n.db --no-progress'
c R05 '0' '"$PB" run --tasks $T --arch sm_100a --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R06 '2' 'mkdir runsdir; "$PB" run --tasks $T --turns 1 --out runsdir --no-progress'
c R07 '2' 'echo "hello" > n.db; "$PB" run --tasks $T --turns 1 --out n.db --no-progress; r=$?; [ "$(cat n.db)" = hello ] || harm "a text file named --out was overwritten"; exit $r'
c R08 '2' 'cp $D/scr.db n.db; s=$(sha256sum < n.db); "$PB" run --tasks $T --turns 1 --out n.db --no-progress; r=$?; [ "$(sha256sum < n.db)" = "$s" ] || harm "an existing finished run was changed by a new run with the same --out"; exit $r'
c R09 '2' 'cp $D/scrrunning.db k.db; "$PB" run --resume k.db --out o.db --no-progress'
c R10 '0' 'cp $D/scr.db k.db; "$PB" run --resume k.db --json > o.json; r=$?; vjson o.json; exit $r'
c R11 '2' 'cp $D/scrrunning.db k.db; "$PB" run --resume k.db --turns 2 --no-progress'
c R12 '0|2' '"$PB" run --tasks $T --turns 1 --shard 0/2 --shard-count 2 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R13 '0' 'JOB_COMPLETION_INDEX=1 "$PB" run --tasks $T,$TA --turns 1 --shard-count 2 --out n.db --no-progress > /dev/null; r=$?; "$PB" show n.db --json | python3 -c "import json,sys; d=json.load(sys.stdin); print(json.dumps(d.get(\"provenance\",{}).get(\"shard\")))" >&2; exit $r'
c R14 '2' 'JOB_COMPLETION_INDEX=2 "$PB" run --tasks $T,$TA --turns 1 --shard-count 2 --out n.db --no-progress'
c R15 '2' 'JOB_COMPLETION_INDEX=-1 "$PB" run --tasks $T --turns 1 --shard-count 2 --out n.db --no-progress'
c R16 '2|0' 'JOB_COMPLETION_INDEX= "$PB" run --tasks $T --turns 1 --shard-count 2 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R17 '0|2' 'JOB_COMPLETION_INDEX=1 "$PB" run --tasks $T --turns 1 --out n.db --no-progress | tail -1; r=${PIPESTATUS[0]}; exit $r'
c R18 '0' 'SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=2 "$PB" run --tasks $T,$TA --turns 1 --out n.db --no-progress > /dev/null; r=$?; "$PB" show n.db --json | python3 -c "import json,sys; d=json.load(sys.stdin); s=d[\"provenance\"][\"shard\"]; print(s); assert s[\"index\"]==0" >&2 || bad "wrong shard index"; exit $r'
c R19 '2' 'SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_COUNT=2 "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c R20 '2|0' 'SLURM_ARRAY_TASK_ID=0 "$PB" run --tasks $T --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R21 '0' 'SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=2 "$PB" run --tasks $T,$TA --turns 1 --shard 0/1 --out n.db --no-progress >/dev/null; r=$?; n=$(sqlite3 n.db "select count(*) from trajectories"); [ "$n" = 2 ] || bad "--shard 0/1 did not run the whole plan ($n)"; exit $r'
c R22 '2|0' 'SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=2 JOB_COMPLETION_INDEX=0 "$PB" run --tasks $T,$TA --turns 1 --shard-count 2 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R23 '2' 'SLURM_ARRAY_TASK_ID=abc SLURM_ARRAY_TASK_COUNT=2 "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c R24 '2' 'SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_MIN=3 SLURM_ARRAY_TASK_COUNT=2 "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c R25 '2' '"$PB" run --model "$(printf "m\nx")" --base-url $U/nocode/v1 $RM --out n.db'
c R26 '0' '"$PB" run --model "$(head -c 10000 /dev/zero | tr "\0" m)" --base-url $U/nocode/v1 $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c R27 '1' '"$PB" run --model m --base-url $U/keycheck/v1 $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c R28 '0' 'K6=s3cret "$PB" run --model m --base-url $U/keycheck/v1 --api-key-env K6 $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c R29 '1|2' 'K6="$(printf "s3cret\r\nX-Injected: 1")" "$PB" run --model m --base-url $U/keycheck/v1 --api-key-env K6 $RM --out n.db; r=$?; grep -a -q "^X-Injected" $W/srv/keycheck.req && harm "API key with CRLF injected a request header"; exit $r'
c R31 '1|2' 'K6="sécrét" "$PB" run --model m --base-url $U/keycheck/v1 --api-key-env K6 $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c R32 '1|2' 'K6=" s3cret " "$PB" run --model m --base-url $U/keycheck/v1 --api-key-env K6 $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c R33 '0' '"$PB" run --model m --base-url $U/goodcode/v1 $RM --context reference --contract tvm-ffi --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c R34 '0' '"$PB" run --tasks $T --turns 1 --cpu-jobs 2 --concurrency 1 --gpus 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R35 '0' '"$PB" run --tasks $T --turns 1 --fast-p 0.5 --speedup-target 0.4 --out n.db --no-progress --json > o.json; r=$?; vjson o.json; exit $r'
c R36 '0' '"$PB" run --model m --base-url $U/realgood/v1 --tasks $T --turns 3 --attempts 1 --no-progress --out n.db > l.txt 2>&1; r=$?; tail -2 l.txt; sqlite3 n.db "select turn||\":\"||category from turns" | tr "\n" " " >&2; exit $r'
c R37 '0' '"$PB" run --model m --base-url $U/nocode/v1 $RM --max-tokens 1 --temperature 0 --top-p 1 --out n.db > /dev/null; r=$?; grep -a -q "\"max_tokens\": *1[,}]" $W/srv/nocode.req || bad "max_tokens 1 not sent"; exit $r'
c R38 '2' '"$PB" run --model m --base-url $U/nocode/v1 $RM --request-timeout 0 --out n.db'
c R39 '2' '"$PB" run --model m --base-url $U/nocode/v1 $RM --request-timeout inf --out n.db'
c R40 '2' '"$PB" run --tasks $T --turns 1 --trials 2 --out n.db --no-progress'
c R41 '2' '"$PB" run --tasks $T --turns 1 --call-timeout 0 --out n.db --no-progress'
c R42 '2' '"$PB" run --tasks $T --turns 1 --sample-budget 601 --out n.db --no-progress'
c R43 '2' '"$PB" run --tasks $T --turns 1 --library-plan "" --out n.db --no-progress'
c R44 '0' '"$PB" run --tasks $T --turns 1 --library-plan heuristic --trials 100 --call-timeout 600 --sample-budget 0.1 --out n.db --no-progress >/dev/null; r=$?; "$PB" show n.db --json | grep -o "\"library_plan\":\"[a-z]*\"" | head -1 >&2; exit $r'
c R45 '2' '"$PB" run --tasks $T --turns 1 --out "" --no-progress'
c R46 '0' '"$PB" run --tasks $T --turns 1 --out a/b/c/n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R47 '2' 'echo x > afile; "$PB" run --tasks $T --turns 1 --out afile/n.db --no-progress'
c R48 '0' '"$PB" run --tasks $T --turns 1 --no-progress > l.txt 2>&1; r=$?; ls runs/*.db >&2 || bad "no default runs/<time>.db"; exit $r'
c R49 '2' '"$PB" run --tasks $T --turns 1 --out n.db --no-progress --resume $D/scr.db'
c R50 '2' '"$PB" run --model m --tasks $T --turns 1 --out n.db --no-progress'
c R51 '2' '"$PB" run --base-url $U/nocode/v1 --tasks $T --turns 1 --out n.db --no-progress'
c R52 '2' '"$PB" run --model m --base-url $U/nocode/v1 $RM --scripted-version v1 --out n.db'
c R53 '2' '"$PB" run --tasks $T --turns 1 --contract both --out n.db --no-progress'
c R54 '0' '"$PB" run --model m --base-url $U/goodcode/v1 --tasks $T --turns 2 --samples 3 --concurrency 3 --attempts 1 --no-progress --out n.db | tail -1; r=${PIPESTATUS[0]}; n=$(sqlite3 n.db "select count(*) from turns"); [ "$n" = 6 ] || bad "expected 6 turns, got $n"; exit $r'
# --- P: model replies of the fake endpoint (new shapes, statuses and streams)
pc() { c "$1" "$2" '"$PB" run --model m --base-url $U/'"$3"'/v1 '"${4:-}"' $RM --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'; }
pc P01 '0|1' choicestext
pc P02 '0|1' contentarrstr
pc P03 '0' lengthcut
pc P04 '0' lengthfull
pc P05 '0' fence5
pc P06 '0' details
pc P07 '0' diffblock
pc P08 '0' cuhblock
pc P09 '0' htmlpre
pc P10 '0' thinkmany
pc P11 '0' reasonbig
pc P12 '0' usagebool
pc P13 '0' usagebig
pc P14 '0' usagedetails
pc P15 '0|1' errandchoices
pc P16 '0|1' dupindex
pc P17 '0|1' choicefirst1
pc P18 '0|1' latin1
pc P19 '0' closefence
pc P20 '0' onlyfenceopen
pc P21 '0' blanklines
pc P22 '0' nbsplang
pc P23 '0' fullwidthfence
pc P24 '0' indented4
pc P25 '0' noeolfence
pc P26 '0' modelother
pc P27 '0|1' idnull
pc P28 '0|1' toolrole
pc P29 '0|1' funccall
pc P30 '0|1' audio
pc P31 '0|1' ctypehtml
pc P32 '1' emptyobj
pc P33 '1' nullbody
pc P34 '1' bigint_clen
pc P35 '1' e402
pc P36 '1' e409
pc P37 '1' e422
pc P38 '1' e451
pc P39 '1' e504
pc P40 '1' e529
pc P41 '1' e500html
pc P42 '1' e401www
pc P43 '1' e400ansi
c P44 '1' '"$PB" run --model m --base-url $U/e503forever/v1 --tasks $T --turns 1 --no-progress --attempts 5 --retry-max-s 2 --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; exit $r'
c P45 '1' '"$PB" run --model m --base-url $U/e429fraction/v1 --tasks $T --turns 1 --no-progress --attempts 3 --retry-max-s 2 --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; exit $r'
pc P46 '0' sse_rolefirst --stream
pc P47 '0|1' sse_emptymid --stream
pc P48 '0' sse_cumusage --stream
pc P49 '0|1' sse_nul --stream
pc P50 '0' sse_lengthcut --stream
pc P51 '0|1' sse_twochoices --stream
pc P52 '0|1' sse_singlenl --stream
pc P53 '0|1' sse_gzip --stream
pc P54 '0' sse_keepalive '--stream --stall-timeout 2'
pc P55 '1' sse_errmid --stream
pc P56 '0' sse_reasoncontent --stream
pc P57 '0' sse_hugeusage --stream
pc P58 '0' sse_chunkedframes --stream
pc P59 '0|1' sse_rolefirst ''
pc P60 '1' hang '--request-timeout 2'
pc P61 '1' sse_keepalive '--stream --request-timeout 2'
c P62 '0' '"$PB" run --model m --base-url $U/e400ansi/v1 $RM --out n.db 2>&1 | od -c | grep -q "033" && bad "terminal escape from the endpoint printed raw"; exit 0'
c P63 '0' '"$PB" run --model m --base-url $U/e500html/v1 $RM --out n.db > l.txt 2>&1; "$PB" report n.db --html o.html; r=$?; vhtml o.html; exit $r'
# --- S: show (new option values and combinations)
c S01 '0|2' '"$PB" show r.db $D/scr.db --price-in 1 | tail -2; exit ${PIPESTATUS[0]}'
c S02 '0' '"$PB" show r.db --price-in=3 --price-out=15 | tail -2; exit ${PIPESTATUS[0]}'
c S03 '2' '"$PB" show r.db --price-in " 3"'
c S04 '2' '"$PB" show r.db --price-in 3usd'
c S05 '0|2' '"$PB" show r.db --price-in -0 | tail -1; exit ${PIPESTATUS[0]}'
c S06 '0' '"$PB" show r.db --price-out 0.0000001 --json > s.json; r=$?; vjson s.json; exit $r'
c S07 '2' '"$PB" show r.db --price-out 1000000000.0001'
c S08 '0' '"$PB" show $D/scr.db --compare $D/rej.db --turns --json > s.json; r=$?; vjson s.json; exit $r'
c S09 '0' '"$PB" show $D/merged.db --compare $D/scr.db | tail -3; exit ${PIPESTATUS[0]}'
c S10 '0|2' '"$PB" show $D/s0.db --compare $D/s1.db | tail -3; exit ${PIPESTATUS[0]}'
c S11 '0|2' '"$PB" show r.db --compare $D/scr.db --price-in 3 | tail -2; exit ${PIPESTATUS[0]}'
c S12 '0' '"$PB" show /dev/stdin < r.db > out.txt; r=$?; head -2 out.txt; exit $r'
c S13 '2' 'mkfifo f.db; timeout 30 "$PB" show f.db'
c S14 '0|2' '"$PB" show /proc/self/fd/0 < r.db > out.txt; r=$?; head -2 out.txt; exit $r'
c S15 '2' '"$PB" show r.db/'
c S16 '0' '"$PB" show ./r.db --turns > out.txt; r=$?; head -3 out.txt; exit $r'
c S17 '0|1|2' 'sqlite3 r.db "begin exclusive; select 1; select sqlite_sleep(3000)" >/dev/null 2>&1 & sleep 0.3; "$PB" show r.db > out.txt; r=$?; head -2 out.txt; wait; exit $r'
c S18 '0|1|2' '(flock -x 9; sleep 3) 9<r.db & sleep 0.3; "$PB" show r.db > out.txt; r=$?; head -2 out.txt; wait; exit $r'
c S19 '0' '"$PB" show $D/scr2.db --turns --json > s.json; r=$?; vjson s.json; exit $r'
c S20 '0' '"$PB" show $D/t0.db --json > s.json; r=$?; vjson s.json; exit $r'
c S21 '2' '"$PB" show --compare r.db'
c S23 '0' 'ln -s r.db r2.db; "$PB" show r.db --compare r2.db | tail -1; exit ${PIPESTATUS[0]}'
# --- D: run files damaged in new ways (each read by one command)
c D01 '2|0' '"$PB" show $D/roleuser.db --turns > out.txt; r=$?; head -3 out.txt; exit $r'
c D02 '2|0' '"$PB" sft fixit $D/msgnull.db --out o | tail -2; exit ${PIPESTATUS[0]}'
c D03 '2' '"$PB" show $D/correct2.db'
c D04 '2|0' '"$PB" report $D/correctnull.db --csv o.csv; r=$?; [ -e o.csv ] && vcsv o.csv; exit $r'
c D05 '2' '"$PB" show $D/turnneg.db --turns'
c D06 '2|0' '"$PB" show $D/gpubogus.db --json > s.json; r=$?; [ $r = 0 ] && vjson s.json; exit $r'
c D07 '0|2' '"$PB" report $D/stopnull.db --junit j.xml; r=$?; [ -e j.xml ] && vxml j.xml; exit $r'
c D08 '2' '"$PB" show $D/cfgarr.db'
c D09 '2' '"$PB" run --resume $D/cfgsamples0.db --no-progress'
c D10 '2' '"$PB" show $D/cfgarchempty.db'
c D11 '2|0' '"$PB" sft coverage $D/cfgtasksdup.db | tail -2; exit ${PIPESTATUS[0]}'
c D12 '2|0' '"$PB" show $D/llmnotjson.db --price-in 1 | tail -2; exit ${PIPESTATUS[0]}'
c D13 '2' '"$PB" sft kernelgen $D/evalnull.db --out o'
c D14 '2|0' '"$PB" report $D/auditarr.db --html o.html; r=$?; [ -e o.html ] && vhtml o.html; exit $r'
c D15 '2' '"$PB" show $D/compstr.db --turns'
c D16 '2|0' '"$PB" sft fixit $D/flagsobj.db --out o | tail -1; exit ${PIPESTATUS[0]}'
c D17 '2' '"$PB" show $D/catempty.db'
c D18 '2|0' '"$PB" show $D/sampleneg.db > out.txt; r=$?; head -3 out.txt; exit $r'
c D19 '2' '"$PB" show $D/schemaspace.db'
c D20 '2' '"$PB" report $D/schema2dot0.db --csv o.csv'
c D21 '2' '"$PB" show $D/createdupper.db'
c D22 '0' '"$PB" show $D/userversion.db > out.txt; r=$?; head -2 out.txt; exit $r'
c D23 '2' '"$PB" show $D/speedinf.db'
c D24 '2' '"$PB" sft kernelgen $D/speednegzero.db --out o'
c D25 '2' '"$PB" show $D/turnhuge.db --turns'
c D26 '2' '"$PB" sft fixit $D/msgorphan.db --out o'
c D27 '2|0' '"$PB" show $D/modelempty.db > out.txt; r=$?; head -3 out.txt; exit $r'
c D28 '2' '"$PB" rejudge $D/taskempty.db --out n.db'
c D29 '0|2' '"$PB" report $D/createdjunk.db --csv o.csv --junit j.xml; r=$?; [ -e o.csv ] && vcsv o.csv; [ -e j.xml ] && vxml j.xml; exit $r'
c D30 '2' '"$PB" show $D/speedobj.db'
c D31 '2' '"$PB" sft fixit $D/msgseqneg.db --out o'
c D32 '0' '"$PB" report $D/feedctl.db --junit j.xml --html o.html --csv o.csv; r=$?; vxml j.xml; vhtml o.html; vcsv o.csv; exit $r'
c D33 '0|2' '"$PB" report $D/srcctl.db --junit j.xml --csv o.csv; r=$?; [ -e j.xml ] && vxml j.xml; [ -e o.csv ] && vcsv o.csv; exit $r'
c D34 '0|2' '"$PB" sft fixit $D/reasonuser.db --out o --pairing all | tail -1; r=${PIPESTATUS[0]}; [ $r = 0 ] && vjsonl o/*.jsonl; exit $r'
c D35 '0|2' '"$PB" show $D/turnsview.db > out.txt; r=$?; head -2 out.txt; exit $r'
c D36 '0|2' '"$PB" show $D/cattask.db > out.txt; r=$?; head -3 out.txt; exit $r'
c D37 '0' '"$PB" sft coverage $D/catharness.db --json > c.json; r=$?; vjson c.json; exit $r'
c D38 '2' '"$PB" run --resume $D/cfgcontract.db --no-progress'
c D39 '2|0' '"$PB" show $D/cfgfastpempty.db --json > s.json; r=$?; [ $r = 0 ] && vjson s.json; exit $r'
c D40 '2|0' '"$PB" show $D/provnull.db --json > s.json; r=$?; [ $r = 0 ] && vjson s.json; exit $r'
c D41 '2|0' '"$PB" report $D/provnotjson.db --html o.html; r=$?; [ -e o.html ] && vhtml o.html; exit $r'
c D42 '0' '"$PB" show $D/llmtokensneg.db --price-in 1 --price-out 1 | tail -3; exit ${PIPESTATUS[0]}'
c D43 '0|2' '"$PB" rejudge $D/evalseedstr.db --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c D44 '2' '"$PB" show $D/archexecnullc.db'
c D45 '0' '"$PB" report $D/sourcehuge.db --html o.html; r=$?; vhtml o.html; ls -l o.html >&2; exit $r'
c D46 '2' '"$PB" sft fixit $D/msgrolebogus.db --out o'
c D47 '0' '"$PB" show $D/journalwal.db > out.txt; r=$?; head -2 out.txt; ls $D/journalwal.db* >&2; exit $r'
c D48 '0|2' '"$PB" show $D/header_tail.db > out.txt; r=$?; head -2 out.txt; exit $r'
c D49 '2' '"$PB" show $D/reserved.db'
c D50 '0' '"$PB" merge $D/s0.db $D/s1extratbl.db --out m.db >/dev/null; r=$?; sqlite3 m.db "select x from notes" 2>&1 | grep -q "keep me" || bad "the shard table notes did not survive the merge (docs/scale-out.md)"; exit $r'
c D51 '0' '"$PB" merge $D/s0.db $D/s1turnsextra.db --out m.db >/dev/null; r=$?; sqlite3 m.db "select count(reviewer) from turns" 2>&1 >&2; exit $r'
c D52 '0|2' '"$PB" merge $D/s0.db $D/s1runid5.db --out m.db | tail -1; exit ${PIPESTATUS[0]}'
c D53 '0|2' '"$PB" merge $D/s0.db $D/s1v1.db --out m.db | tail -1; exit ${PIPESTATUS[0]}'
c D54 '2' '"$PB" run --resume $D/scrcfgurl.db --no-progress'
c D55 '0' '"$PB" merge $D/s0.db $D/s1otherroot.db --out m.db | tail -1; exit ${PIPESTATUS[0]}'
c D56 '2' 'cp $D/catempty.db k.db; "$PB" run --resume k.db --no-progress'
c D57 '2' '"$PB" sft mine $D/turnneg.db --dry-run'
c D58 '2' '"$PB" rejudge $D/correct2.db --out n.db'
c D59 '2' '"$PB" merge $D/cfgarr.db $D/s1.db --out m.db'
c D60 '2' '"$PB" report $D/msgorphan.db --junit j.xml'
# --- M: merge (new combinations)
c M01 '2' '"$PB" merge $D/s0.db $D/s0hard.db $D/s1.db --out m.db'
c M03 '2' 'echo keep > m.txt; "$PB" merge $D/s0.db $D/s1.db --out m.txt; r=$?; [ "$(cat m.txt)" = keep ] || harm "existing file overwritten by merge"; exit $r'
c M04 '2' '"$PB" merge $D/s0.db $D/s1rej.db --out m.db'
c M05 '0' '"$PB" merge $D/s1.db --allow-partial --out m.db >/dev/null; r=$?; sqlite3 m.db "select status from runs" >&2; exit $r'
c M06 '0|2' '"$PB" merge $D/scr.db --out m.db | tail -1; exit ${PIPESTATUS[0]}'
c M07 '1|2' '"$PB" merge $D/s0.db $D/s1.db --out /dev/full'
c M08 '2' '"$PB" merge $D/s0.db $D/s1.db --out mdir/'
c M09 '0|2' 'ln -s nowhere.db m.db; "$PB" merge $D/s0.db $D/s1.db --out m.db | tail -1; exit ${PIPESTATUS[0]}'
c M10 '0' '"$PB" merge $D/t0.db $D/t2.db --allow-partial --out m.db | tail -1; exit ${PIPESTATUS[0]}'
c M11 '2' '"$PB" merge $D/t0.db $D/t2.db --out m.db'
c M12 '2' '"$PB" merge $D/s0.db $D/t2.db --out m.db'
c M13 '2' '"$PB" merge $D/s0.db $D/s1.db --out m.db --out n.db'
c M14 '0' '"$PB" merge $D/s1.copy.db $D/s0.db --out m.db >/dev/null; r=$?; "$PB" show m.db --json > a.json; "$PB" show $D/merged.db --json > b.json; python3 -c "
import json,sys
a=json.load(open(\"a.json\")); b=json.load(open(\"b.json\"))
assert a.get(\"summary\", a.get(\"tasks\")) == b.get(\"summary\", b.get(\"tasks\"))" || bad "merge order changed the summary"; exit $r'
c M15 '2' 'cp $D/s1.db k1.db; chmod 000 k1.db; $NB "$PB" merge $D/s0.db $PWD/k1.db --out /tmp/m6_$$.db; r=$?; rm -f /tmp/m6_$$.db; exit $r'
c M16 '2' 'mkdir ro; mount -t tmpfs -o ro,size=64k tmpfs ro; "$PB" merge $D/s0.db $D/s1.db --out ro/m.db; r=$?; umount ro; exit $r'
c M17 '0' '"$PB" merge $D/s0.db $D/s1.db --out "my merged; \$(id).db" | tail -1; exit ${PIPESTATUS[0]}'
c M19 '2' '"$PB" merge $D/s0.db $D/s1.db $D/merged.db --out m.db'
# --- J: rejudge (new combinations)
c J01 '0' '"$PB" rejudge $D/merged.db --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c J02 '0' '"$PB" rejudge $D/rej.db --out n.db >/dev/null; r=$?; sqlite3 n.db "select json_extract(provenance_json,\"\$.rejudge_of.run\") from runs" >&2; exit $r'
c J03 '2' 'cp $D/scr.db k.db; s=$(sha256sum < k.db); "$PB" rejudge k.db --out k.db; r=$?; [ "$(sha256sum < k.db)" = "$s" ] || harm "rejudge --out its own input changed it"; exit $r'
c J04 '2|1' '"$PB" rejudge $D/scr.db --out /dev/null'
c J05 '0' '"$PB" rejudge $D/scr.db --out x/y/z/n.db | tail -1; exit ${PIPESTATUS[0]}'
c J06 '0' '"$PB" rejudge $D/scr.db --out n.db --shared-inputs --json > j.json; r=$?; vjson j.json; exit $r'
c J07 '0' '"$PB" rejudge $D/s1.db --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c J08 '0' '"$PB" rejudge $D/scrrunning.db --allow-partial --json --out n.db > j.json; r=$?; vjson j.json; exit $r'
c J09 '2' '"$PB" rejudge $D/scr.db --out n.db >/dev/null; s=$(sha256sum < n.db); "$PB" rejudge $D/scr.db --out n.db; r=$?; [ "$(sha256sum < n.db)" = "$s" ] || harm "second rejudge changed n.db"; exit $r'
c J10 '2' 'PTXBENCH_NVCC=/nonexistent/nvcc "$PB" rejudge $D/scr2.db --out n.db; r=$?; [ -e n.db ] && bad "n.db written"; exit $r'
c J11 '0|2' '"$PB" rejudge $D/scr2.db --out n.db --memcheck | tail -1; exit ${PIPESTATUS[0]}'
c J12 '2' '"$PB" rejudge $D/scr.db $D/s1.db --out n.db'
c J13 '2' '"$PB" rejudge $D/scrrunning.db --out n.db; r=$?; [ -e n.db ] && bad "n.db left"; exit $r'
c J14 '0' '"$PB" rejudge $D/scr2.db --out n.db >/dev/null; r=$?; "$PB" show n.db --compare $D/scr2.db | tail -2 >&2; exit $r'
# --- H: report (new combinations)
c H02 '2' 's=$(sha256sum < r.db); "$PB" report r.db --html r.db --force; r=$?; [ "$(sha256sum < r.db)" = "$s" ] || harm "report --html --force wrote over its input run file"; exit $r'
c H05 '0|2' '"$PB" report r.db r.db --csv o.csv; r=$?; [ -e o.csv ] && vcsv o.csv; exit $r'
c H06 '0' '"$PB" report $D/merged.db $D/rej.db --junit j.xml; r=$?; vxml j.xml; exit $r'
c H07 '0' '"$PB" report r.db --html new/dir/o.html; r=$?; vhtml new/dir/o.html; exit $r'
c H08 '2' 'mkdir o.html; "$PB" report r.db --html o.html'
c H10 '0|2' 'ln -s nowhere.csv o.csv; "$PB" report r.db --csv o.csv; r=$?; ls -la >&2; exit $r'
c H11 '0' '"$PB" report $D/scr2.db --csv o.csv --junit j.xml --html o.html; r=$?; vcsv o.csv; vxml j.xml; vhtml o.html; exit $r'
c H13 '2' '"$PB" report r.db --csv ""'
c H14 '0' '"$PB" report $D/t0.db $D/t2.db --html o.html; r=$?; vhtml o.html; exit $r'
c H15 '2' '"$PB" report r.db --csv o.csv >/dev/null; s=$(sha256sum < o.csv); "$PB" report r.db --csv o.csv --html o.html; r=$?; [ "$(sha256sum < o.csv)" = "$s" ] || harm "existing csv changed"; [ -e o.html ] && bad "o.html written although the command was refused"; exit $r'
c H16 '0' '"$PB" report $D/scrrunning.db --csv o.csv; r=$?; vcsv o.csv; exit $r'
c H17 '2|1' 'mkdir -m 555 rod; $NB "$PB" report $PWD/r.db --csv $PWD/rod/o.csv'
c H19 '0' '"$PB" report r.db --junit j.xml --force; r=$?; vxml j.xml; exit $r'
c H20 '2' '"$PB" report $D/places.db --csv o.csv 2>/dev/null; "$PB" report $FX/good.cu --csv o.csv'
# --- Q: gate (new combinations)
c Q01 '17' '"$PB" gate $FX/good.cu $FX/good.cu --task $T'
c Q02 '2' '"$PB" gate $FX --task $T'
c Q03 '2' '"$PB" gate $FX/good.cu $FX/nosuch.cu --task $T --junit j.xml; r=$?; [ -e j.xml ] && bad "junit written for a refused gate"; exit $r'
c Q04 '11' '"$PB" gate $FX/cerr.cu $FX/good.cu --task $T --junit j.xml; r=$?; vxml j.xml; exit $r'
c Q06 '2' '"$PB" gate $FX/good.cu --task $T --json j.jsonl --junit j.jsonl'
c Q07 '2' 'cp $FX/good.cu k.cu; s=$(sha256sum < k.cu); "$PB" gate k.cu --task $T --json k.cu; r=$?; [ "$(sha256sum < k.cu)" = "$s" ] || harm "gate --json wrote over the kernel it judges"; exit $r'
c Q08 '2' 'cp $FX/good.cu k.cu; s=$(sha256sum < k.cu); "$PB" gate k.cu --task $T --junit k.cu --force; r=$?; [ "$(sha256sum < k.cu)" = "$s" ] || harm "gate --junit --force wrote over the kernel it judges"; exit $r'
c Q09 '2' '"$PB" gate $FX/good.cu --task $T --timeline --junit j.xml'
c Q10 '17' '"$PB" gate $FX/good.cu --task $T --require-arch --min-speedup 1'
c Q11 '11' '"$PB" gate $FX/good.cu --task $T --contract tvm-ffi'
c Q12 '11' '"$PB" gate $FX/cerr.cu $FX/cerr.cu $FX/cerr.cu $FX/cerr.cu $FX/cerr.cu --task $T --json j.jsonl; r=$?; vjsonl j.jsonl; n=$(wc -l < j.jsonl); [ "$n" = 5 ] || bad "expected 5 json lines, got $n"; exit $r'
c Q14 '17' '"$PB" gate $FX/good.cu --task $T --shared-inputs --allow-weaker-sandbox'
c Q15 '12' '"$PB" gate $FX/inc_dslash.cu $FX/good.cu --task $T --json j.jsonl; r=$?; vjsonl j.jsonl; exit $r'
c Q16 '2' '"$PB" gate $FX/good.cu --task $T --reply'
c Q17 '2' '"$PB" gate $FX/good.cu --task $T --min-speedup 1e-400x'
c Q18 '17|11|12' '"$PB" gate $FX/good.cu $FX/cerr.cu $FX/inc_dslash.cu --task $T --json j.jsonl --timeline; r=$?; vjsonl j.jsonl; exit $r'
c Q19 '2' '"$PB" gate $FX/good.cu --task $TA,$T'
c Q20 '15|2|11' '"$PB" gate $FX/rp_fence5.md --task $T'
c Q21 '2' 'timeout 30 "$PB" gate $FX/good.cu $W/ff/fifo.cu --task $T'
c Q22 '17' '"$PB" gate $FX/good.cu --task $T --json a/b/j.jsonl --junit c/d/j.xml; r=$?; vjsonl a/b/j.jsonl; vxml c/d/j.xml; exit $r'
# --- F: sft fixit / kernelgen / coverage (new combinations)
c F01 '2' 's=$(sha256sum < r.db); "$PB" sft fixit r.db --out r.db; r=$?; [ "$(sha256sum < r.db)" = "$s" ] || harm "sft fixit --out its own input changed it"; exit $r'
c F02 '2' '"$PB" sft fixit r.db --out r.db/x'
c F03 '0' '"$PB" sft kernelgen r.db --out o --heldout-task gemm_n7168_k5120,mha_bwd_d128,mha_bwd_d128_causal,mha_with_lse_d128,mha_with_lse_d128_causal --allow-missing-instructions | tail -1; r=${PIPESTATUS[0]}; ls o >&2; exit $r'
c F04 '2' '"$PB" sft coverage r.db --json --out c.json >/dev/null; s=$(sha256sum < c.json); "$PB" sft coverage r.db --json --out c.json; r=$?; [ "$(sha256sum < c.json)" = "$s" ] || harm "coverage file overwritten without --force"; exit $r'
c F06 '2' '"$PB" sft fixit r.db --out o --categories harness_error'
c F07 '2' '"$PB" sft fixit r.db --out o --categories task_suite_error'
c F08 '2' '"$PB" sft fixit r.db --out o --categories not_evaluated'
c F09 '0' '"$PB" sft fixit r.db --out o --pairing all --per-task-cap 1 --seed 18446744073709551615 | tail -1; r=${PIPESTATUS[0]}; vjsonl o/*.jsonl; exit $r'
c F10 '0' '"$PB" sft fixit r.db --out o --max-tokens 1 | tail -2; exit ${PIPESTATUS[0]}'
c F11 '0' '"$PB" sft kernelgen r.db --out o --allow-flag side_stream --allow-flag cached_result | tail -1; exit ${PIPESTATUS[0]}'
c F12 '0' '"$PB" sft kernelgen r.db --out o --min-speedup 1000000 | tail -2; exit ${PIPESTATUS[0]}'
c F13 '0' '"$PB" sft fixit r.db $D/rej.db $D/scr.db --out o | tail -1; exit ${PIPESTATUS[0]}'
c F15 '0' '"$PB" sft coverage r.db --json --no-reasoning --pairing all > c.json; r=$?; vjson c.json; exit $r'
c F17 '2' '"$PB" sft kernelgen r.db --out o --categories passed'
c F18 '0' 'mkdir o; touch o/.hidden; "$PB" sft fixit r.db --out o | tail -1; exit ${PIPESTATUS[0]}'
c F19 '2' 'mkdir -p o/sub; "$PB" sft fixit r.db --out o'
c F20 '0' '"$PB" sft fixit r.db --out o >/dev/null; "$PB" sft fixit r.db --out o --force --heldout-task $T | tail -1; r=${PIPESTATUS[0]}; ls o >&2; exit $r'
c F21 '2' '"$PB" sft fixit r.db --out o --bytes-per-token 1e-320'
c F22 '2' '"$PB" sft fixit r.db --out o --heldout-task mha_with_lse_d256'
c F23 '2' 'ln -s nowhere o; "$PB" sft fixit r.db --out o'
c F24 '0' '"$PB" sft kernelgen $D/merged.db $D/s0.db --out o --allow-missing-instructions | tail -1; exit ${PIPESTATUS[0]}'
c F25 '0' '"$PB" sft coverage $D/scr2.db --categories compile_error,incorrect --json > c.json; r=$?; vjson c.json; exit $r'
c F29 '2' '"$PB" sft export r.db --out o'
c F30 '0' '"$PB" sft fixit r.db --out "o dir; \$(id)" | tail -1; r=${PIPESTATUS[0]}; ls "o dir; \$(id)" >&2; exit $r'
# --- N: sft mine (new combinations and endpoints)
c N01 '0' '"$PB" sft mine r.db --dry-run --json --limit 2 > m.jsonl; r=$?; vjsonl m.jsonl; n=$(grep -c . m.jsonl); [ "$n" -le 2 ] || bad "--limit 2 gave $n lines"; exit $r'
c N02 '0|2' '"$PB" sft mine r.db --dry-run --categories no_code | tail -1; exit ${PIPESTATUS[0]}'
c N03 '0' '"$PB" sft mine $D/scr.db --model m --base-url $U/sse_rolefirst/v1 --stream --out m.db $MN | tail -1; exit ${PIPESTATUS[0]}'
c N04 '0|1' '"$PB" sft mine $D/scr.db --model m --base-url $U/sse_errmid/v1 --stream --out m.db $MN | tail -1; exit ${PIPESTATUS[0]}'
c N05 '0' '"$PB" sft mine $D/scr.db --model m --base-url $U/goodcode/v1 --out a/b/m.db $MN | tail -1; exit ${PIPESTATUS[0]}'
c N06 '1|2' 'K6="$(printf "s3cret\nX-Injected: 2")" "$PB" sft mine $D/scr.db --model m --base-url $U/keycheck/v1 --api-key-env K6 --out m.db $MN; r=$?; grep -a -q "^X-Injected: 2" $W/srv/keycheck.req && harm "API key with LF injected a request header"; exit $r'
c N07 '0' '"$PB" sft mine $D/scr.db --model m --base-url $U/goodcode/v1 --cpu-jobs 256 --concurrency 256 --out m.db $MN | tail -1; exit ${PIPESTATUS[0]}'
c N08 '1' '"$PB" sft mine $D/scr.db --model m --base-url $U/e529/v1 --out m.db $MN | tail -1; exit ${PIPESTATUS[0]}'
c N09 '2' '"$PB" sft mine $D/scr.db --model m --base-url $U/goodcode/v1 --out m.db --turns 65 $MN'
c N10 '2' '"$PB" sft mine $D/scr.db --model m --base-url $U/goodcode/v1 --out m.db --speedup-target 1000.5 $MN'
c N11 '2' 'mkdir -m 777 sh; cp $D/scr.db sh/m.db; chmod 644 sh/m.db; $NB "$PB" sft mine $D/scr.db --model m --base-url $U/goodcode/v1 --out $PWD/sh/m.db $MN'
c N12 '2' '"$PB" sft mine $D/scr.db --model m --base-url $U/goodcode/v1 --out $D/rej.db $MN'
c N13 '0|1' '"$PB" sft mine $D/scr.db --model m --base-url $U/realgood/v1 --turns 2 --speedup-target 1000 --out m.db $MN | tail -1; exit ${PIPESTATUS[0]}'
c N14 '2' '"$PB" sft mine $D/scr.db --dry-run --model m'
c N15 '0|2' '"$PB" sft mine $D/scr.db --dry-run --out m.db | tail -1; r=${PIPESTATUS[0]}; [ -e m.db ] && bad "--dry-run created --out"; exit $r'
c N16 '2' '"$PB" sft mine $D/scr.db --model m --base-url $U/goodcode/v1 --json --out m.db $MN'
c N17 '0' '"$PB" sft mine $D/scr.db --model m --base-url $U/lengthcut/v1 --out m.db $MN | tail -1; exit ${PIPESTATUS[0]}'
c N18 '0|1' '"$PB" sft mine $D/scr.db $D/s1.db --model m --base-url $U/choicestext/v1 --out m.db $MN | tail -1; exit ${PIPESTATUS[0]}'
# --- L: slurm (new values and combinations)
c L02 '0' '"$PB" slurm script --shards 2 --gpus-per-shard 0 --cpus-per-shard 1 > s.sh; r=$?; grep -q "cpus-per-task=1" s.sh || bad "no --cpus-per-task=1"; grep -q "gres" s.sh && bad "gres with 0 GPUs"; exit $r'
c L03 '0|2' '"$PB" slurm script --shards 2 --time 0 | grep -m1 -- "--time"; exit ${PIPESTATUS[0]}'
c L04 '2' '"$PB" slurm script --shards 2 --time "1-"'
c L05 '2' '"$PB" slurm script --shards 2 --time "1:2:3:4"'
c L06 '2' '"$PB" slurm script --shards 2 --time "-1"'
c L07 '2' '"$PB" slurm script --shards 2 --time " 04:00:00"'
c L08 '0|2' '"$PB" slurm script --shards 2 --time 61:00 | grep -m1 -- "--time"; exit ${PIPESTATUS[0]}'
c L09 '0' '"$PB" slurm script --shards 2 --partition "gpu,gpu2" | grep -m1 partition; exit ${PIPESTATUS[0]}'
c L10 '0|2' '"$PB" slurm script --shards 2 --sbatch-arg "--gres=gpu:2" | grep -c gres; exit ${PIPESTATUS[0]}'
c L11 '2|0' '"$PB" slurm script --shards 2 --sbatch-arg "--output=/tmp/x.out" | grep -c output; exit ${PIPESTATUS[0]}'
c L13 '2' '"$PB" slurm script --shards 2 --sbatch-arg "not-an-option"'
c L17 '2' '"$PB" slurm script --shards 2 -- --shard-count 2'
c L20 '2' '"$PB" slurm script --shards 2 --gpus-per-shard 1 -- --gpus 4'
c L21 '1' 'PATH=$B/sb_sbatch_second_fails:$PATH "$PB" slurm submit --shards 2 --dir d; r=$?; rm -f $B/sbn; exit $r'
c L22 '1' 'PATH=$B/sb_sbatch_stderr:$PATH "$PB" slurm submit --shards 2 --dir d'
c L23 '1' 'PATH=$B/sb_sbatch_silent:$PATH "$PB" slurm submit --shards 2 --dir d'
c L24 '2|1' 'PATH=$B/sb_sbatch_noexec:$PATH "$PB" slurm submit --shards 2 --dir d'
c L25 '2' 'mkdir d; cp $D/merged.db d/merged.db; PATH=$B/sb_sbatch_cluster:$PATH "$PB" slurm submit --shards 2 --dir d'
c L26 '0|1' 'mkdir d; echo "old" > d/submit.sh; PATH=$B/sb_sbatch_cluster:$PATH "$PB" slurm submit --shards 2 --dir d | tail -2; exit ${PIPESTATUS[0]}'
c L27 '1' 'PATH=$B/sb_sbatch_fail:$PATH "$PB" slurm submit --shards 2 --dir d'
c L28 '130' 'PATH=$B/sb_sbatch_slow:$PATH "$PB" slurm submit --shards 2 --dir d & p=$!; sleep 2; kill -INT $p; wait $p; r=$?; sleep 0.5; pgrep -f "sb_sbatch_slow/sbatch" >&2 && bad "sbatch still running after SIGINT"; exit $r'
c L29 '1' 'mkdir tfs; mount -t tmpfs -o size=8k tmpfs tfs; head -c 8192 /dev/zero > tfs/fill 2>/dev/null; PATH=$B/sb_sbatch_cluster:$PATH "$PB" slurm submit --shards 2 --dir tfs/d; r=$?; umount tfs; exit $r'
c L30 '2' '"$PB" slurm script --shards 2 --dir "$(printf "a\nb")"'
c L31 '0' '"$PB" slurm script --shards 2 --dir "with space/and'"'"'quote" > s.sh; r=$?; bash -n s.sh || bad "script syntax"; exit $r'
c L32 '2' '"$PB" slurm script --shards 2 -- --tasks $T --turns 1 -- --extra'
c L34 '2' '"$PB" slurm script submit --shards 2'
# --- X: interrupts, limits, other users
c X01 '130' '"$PB" run --model m --base-url $U/hang/v1 --tasks $T --turns 1 --no-progress --out n.db > l.txt 2>&1 & p=$!; sleep 2; kill -INT $p; wait $p; r=$?; tail -1 l.txt >&2; grep -q "resume with" l.txt || bad "no resume hint"; exit $r'
c X02 '143' 'PTXBENCH_CACHE=$PWD/c "$PB" gate $FX/ref.cu --task $T & p=$!; sleep 1.5; kill -TERM $p; wait $p; r=$?; sleep 0.5; [ -n "$(find c -name "*.so" 2>/dev/null)" ] && harm "an interrupted gate left a cache entry"; exit $r'
c X03 '143|0' '"$PB" sft coverage r.db $D/scr.db --out cov.txt & p=$!; sleep 0.05; kill -TERM $p; wait $p; r=$?; [ $r = 143 ] && [ -e cov.txt ] && bad "half coverage left"; exit $r'
c X04 '130' 'PTXBENCH_CACHE=$PWD/c "$PB" eval $FX/ref.cu --task $T & p=$!; sleep 1.5; kill -INT $p; wait $p; r=$?; sleep 0.5; [ -n "$(find c -name "*.so" 2>/dev/null)" ] && harm "an interrupted eval left a cache entry"; exit $r'
c X05 '143' 'PTXBENCH_CACHE=$PWD/c "$PB" audit $FX/ref.cu --task $T & p=$!; sleep 1.5; kill -TERM $p; wait $p; r=$?; sleep 0.5; pgrep -f "$PWD/c" >&2 && bad "nvcc still running"; exit $r'
c X06 '130' '"$PB" run --model m --base-url $U/hang/v1 --tasks $T,$TA --turns 2 --no-progress --out n.db > l.txt 2>&1 & p=$!; sleep 2; kill -INT $p; sleep 0.1; kill -INT $p; wait $p; r=$?; sqlite3 n.db "pragma integrity_check" | grep -qx ok || bad "run file damaged by a double SIGINT"; exit $r'
c X07 '0' '"$PB" run --model m --base-url $U/hang/v1 --tasks $T --turns 1 --no-progress --out n.db > /dev/null 2>&1 & p=$!; sleep 2; kill -TERM $p; wait $p; "$PB" run --resume n.db --no-progress > /dev/null 2>&1 & q=$!; sleep 2; kill -INT $q; wait $q; "$PB" show n.db > out.txt; r=$?; head -1 out.txt; exit $r'
c X08 '129' 'PTXBENCH_CACHE=$PWD/c "$PB" run --tasks $T --turns 4 --out n.db --no-progress > l.txt 2>&1 & p=$!; sleep 2; kill -HUP $p; wait $p; r=$?; grep -q "resume with" l.txt || bad "no resume hint after SIGHUP"; exit $r'
c X09 '130|0' '"$PB" sft mine r.db --dry-run & p=$!; sleep 0.05; kill -INT $p; wait $p; exit $?'
c X10 '1' '(ulimit -f 1; "$PB" report r.db --html o.html); r=$?; [ -e o.html ] && bad "partial html left"; exit $r'
c X11 '1' '(ulimit -f 2; "$PB" sft fixit r.db --out o --pairing all); r=$?; [ -n "$(ls -A o 2>/dev/null)" ] && bad "partial export left"; exit $r'
c X12 '1' '(ulimit -f 8; "$PB" run --tasks $T,$TA --turns 2 --out n.db --no-progress); exit $?'
c X13 '1' '(ulimit -n 10; "$PB" run --tasks $T --turns 1 --out n.db --no-progress); exit $?'
c X14 '1' 'mkdir tfs; mount -t tmpfs -o size=24k tmpfs tfs; "$PB" run --tasks $T,$TA --turns 2 --out tfs/n.db --no-progress; r=$?; umount tfs; exit $r'
c X15 '1' 'mkdir tfs; mount -t tmpfs -o size=4k tmpfs tfs; "$PB" sft coverage r.db $D/scr.db --json --out tfs/c.json; r=$?; ls -A tfs >&2; [ -n "$(ls -A tfs)" ] && bad "partial coverage left"; umount tfs; exit $r'
c X16 '2' 'mkdir -m 777 sh; cp r.db sh/k.db; chmod 644 sh/k.db; $NB "$PB" run --resume $PWD/sh/k.db --no-progress'
c X17 '2|1' 'mkdir -m 755 rod; $NB "$PB" report $PWD/r.db --junit $PWD/rod/j.xml'
c X18 '0' '$NB "$PB" sft coverage $PWD/r.db | tail -1; exit ${PIPESTATUS[0]}'
c X19 '2|0' 'mkdir -m 711 hid; cp r.db hid/k.db; chmod 644 hid/k.db; $NB "$PB" show $PWD/hid/k.db > out.txt; r=$?; head -1 out.txt; exit $r'
c X20 '0|2' 'cp $D/scrrunning.db k.db; "$PB" run --resume k.db --no-progress > /dev/null & "$PB" sft fixit k.db --out o | tail -1; r=${PIPESTATUS[0]}; wait; exit $r'
c X21 '0|2' 'cp $D/scrrunning.db k.db; "$PB" run --resume k.db --no-progress > l1.txt 2>&1 & "$PB" run --resume k.db --no-progress > l2.txt 2>&1; r=$?; wait; cat l2.txt | tail -1 >&2; sqlite3 k.db "select count(*) from turns" >&2; sqlite3 k.db "pragma integrity_check" | grep -qx ok || bad "damaged"; exit $r'
c X22 '1|0' '(ulimit -v 400000; "$PB" report $D/sourcehuge.db --html o.html); r=$?; [ $r = 0 ] && vhtml o.html; exit $r'
c X23 '130' '"$PB" sft mine $D/scr.db --model m --base-url $U/hang/v1 --out m.db $MN & p=$!; sleep 2; kill -INT $p; wait $p; r=$?; [ -e m.db ] && { sqlite3 m.db "pragma integrity_check" | grep -qx ok || bad "mine store damaged"; }; exit $r'
c X24 '143' '"$PB" rejudge $D/scr2.db --out n.db & p=$!; sleep 0.3; kill -TERM $p; wait $p; r=$?; ls -A | grep -v "^r.db$" | grep . && bad "left after SIGTERM: $(ls -A)"; exit $r'
c X26 '0' 'PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/ref.cu --task $T >/dev/null & p=$!; sleep 1; kill -KILL $p; wait $p; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/ref.cu --task $T --json > c.json; r=$?; vjson c.json; exit $r'
c X27 '0' 'PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T > /dev/null & PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T > a.txt; r=$?; wait; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | tail -1; exit $r'
echo "cases done" >&2
