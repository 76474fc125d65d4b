#!/usr/bin/env bash
# ptxbench bad-input campaign 4.  usage: campaign.sh [PTXBENCH_BINARY]
#   env: ONLY=<regex of case ids>; W=<workdir, default /tmp/campaign4/work>; OUT=<logs, default /tmp/campaign4/out>
# Each case: c ID EXPECTED_EXIT_REGEX 'COMMAND'. Writes $OUT/raw.tsv:
#   id, command, exit, crash(auto), data(auto), message (first line), auto (ok|review), note
# judgments.tsv (hand judgments of the cases the automatic check sent to review, and of any
# case judged other than automatically) + merge.py make cases.tsv.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PB=$(readlink -f "${1:-/tmp/campaign/bin4/ptxbench}")
W=${W:-/tmp/campaign4/work}; OUT=${OUT:-/tmp/campaign4/out}; ONLY=${ONLY:-.}
RUNSRC=${RUNSRC:-/work/shared/runs/2026-11-30-h200-main.db}
mkdir -p "$W" "$OUT/logs"; : > "$W/setup.err" 2>/dev/null; W=$(readlink -f "$W"); OUT=$(readlink -f "$OUT")
export PB W OUT
export PTXBENCH_ROOT=${PTXBENCH_ROOT:-/tmp/campaign/root4} PTXBENCH_CACHE=${PTXBENCH_CACHE:-/tmp/campaign4/cache}
export PTXBENCH_CUOBJDUMP=/work/main/.deps/bin/cuobjdump PTXBENCH_NVDISASM=/work/main/.deps/bin/nvdisasm
export ROOT=$PTXBENCH_ROOT K=$PTXBENCH_ROOT/kernels T=gemm_n7168_k5120 TA=mha_with_lse_d128 FX=$W/fx D=$W/db R=$W/roots B=$W/bin
export NB="setpriv --reuid=65534 --regid=65534 --clear-groups"
export PORT=${PORT:-18734}; export U=http://127.0.0.1:$PORT
export RM="--tasks gemm_n7168_k5120 --turns 1 --attempts 1 --retry-max-s 1 --no-progress"
unset PTXBENCH_NO_GPU PTXBENCH_ASSUME_GPU PTXBENCH_BIN_DIR SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_COUNT JOB_COMPLETION_INDEX
harm() { echo "DATAHARM: $*" >&2; }
export -f harm

setup() {
  rm -rf "$W/fx" "$W/db" "$W/o" "$W/roots" "$W/tmp" "$W/bin"; mkdir -p "$W/fx" "$W/db" "$W/o" "$W/roots" "$W/tmp" "$W/bin" "$W/nbcache"
  chmod 755 "$W" "$W/fx" "$W/db" "$W/o" "$W/roots" "$W/bin"; chmod 777 "$W/nbcache" "$W/tmp"
  cp "$RUNSRC" "$W/run.db"; chmod 644 "$W/run.db"; sha256sum "$W/run.db" | cut -d' ' -f1 > "$W/src.sha"
  # ------------------------------------------------------------ kernel sources and replies
  cd "$FX" || exit 1
  cp "$K/controls/gemm/naive_correct.cu" good.cu
  cp "$K/controls/gemm/compile_error.cu" cerr.cu
  cp "$K/reference/sm_90a/gemm_n7168_k5120.cu" ref.cu
  { printf '#include <cuda/../../../../../etc/passwd>\n'; cat good.cu; } > inc_angle_dotdot.cu
  { printf '#include \\\n"/etc/passwd"\n'; cat good.cu; } > inc_contline.cu
  { printf '#define HDR "/etc/hostname"\n#include HDR\n'; cat good.cu; } > inc_macrostr.cu
  { cat good.cu; printf '\n#if 0\n#include "/etc/passwd"\n#endif\n'; } > inc_ifzero.cu
  { cat good.cu; printf '\n// #include "/etc/passwd"\n/* #include </etc/shadow> */\n'; } > inc_comment.cu
  { cat good.cu; printf '\nstatic const char* kDoc = R"doc(\n#include </etc/passwd>\n)doc";\n'; } > inc_rawstr.cu
  { cat good.cu; printf '\n#if __has_include("/etc/passwd")\nstatic int leak = 1;\n#endif\n'; } > has_include.cu
  { printf '??=include "/etc/passwd"\n'; cat good.cu; } > trigraph.cu
  { printf '%%:include "/etc/passwd"\n'; cat good.cu; } > digraph.cu
  { printf '#include_next <cuda_runtime.h>\n'; cat good.cu; } > include_next.cu
  { printf '#include <dlpack/dlpack.h>\n#include <cstdio>\n#include <cuda/std/cstdint>\n'; cat good.cu; } > inc_allowed.cu
  { printf '#include <%s>\n' "$(printf 'x%.0s' $(seq 1 5000))"; cat good.cu; } > inc_longname.cu
  { cat good.cu; printf '\n__attribute__((constructor)) static void pwn() { }\n'; } > ctor.cu
  { cat good.cu; printf '\n#include <cstdlib>\nstatic int r = std::system("id > /tmp/campaign4-pwned");\n'; } > system.cu
  { cat good.cu; printf '\nint main() { return 0; }\n'; } > withmain.cu
  { cat good.cu; cat good.cu; } > dupdef.cu
  { printf '#define A0 x x x x x x x x x x\n'; for i in $(seq 1 9); do printf '#define A%d A%d A%d A%d A%d A%d A%d A%d A%d A%d A%d\n' $i $((i-1)) $((i-1)) $((i-1)) $((i-1)) $((i-1)) $((i-1)) $((i-1)) $((i-1)) $((i-1)) $((i-1)); done; printf 'int bomb = sizeof((A9));\n'; cat good.cu; } > macrobomb.cu
  { printf 'template<int N> struct F { static const int v = F<N+1>::v; };\nint t = F<0>::v;\n'; cat good.cu; } > tmplbomb.cu
  { printf '#error "ptxbench-campaign: deliberately stopped"\n'; cat good.cu; } > hasherror_msg.cu
  { cat good.cu; printf '\n// \xe2\x80\xae bidi override \xe2\x80\xa6 in a comment\nstatic const char* tr = "\xe2\x80\xae";\n'; } > bidi.cu
  { cat good.cu; printf '\n// latin-1 comment: caf\xe9 \xff\xfe\n'; } > latin1.cu
  tr '\n' '\r' < good.cu > cronly.cu
  { cat good.cu; printf '\n\f\v// form feed and vertical tab\n'; } > ffvt.cu
  { cat good.cu; printf '\nint %s = 1;\n' "$(head -c 300000 /dev/zero | tr '\0' 'v')"; } > longident.cu
  python3 - <<'PY'
g=open('good.cu','rb').read()
n=1048576
pad=lambda m: g+b'\n//'+b'p'*(m-len(g)-4)+b'\n'
open('exact1m.cu','wb').write(pad(n)); open('exact1m1.cu','wb').write(pad(n+1))
open('utf32.cu','wb').write(g.decode().encode('utf-32'))
open('utf16be.cu','wb').write(b'\xfe\xff'+g.decode().encode('utf-16-be'))
open('utf16nobom.cu','wb').write(g.decode().encode('utf-16-le'))
open('bom_twice.cu','wb').write(b'\xef\xbb\xbf\xef\xbb\xbf'+g)
open('gz.cu','wb').write(__import__('gzip').compress(g))
PY
  printf '.version 8.0\n.target sm_90a\n.address_size 64\n' > ptxonly.cu
  printf '' > zero.cu; printf '\n\n\n' > newlines.cu
  cp good.cu "$(printf 'new\nline.cu')"
  cp good.cu 'star*?.cu'
  ln good.cu hard.cu
  # replies
  r() { local name=$1; shift; { printf "$@"; } > "$name"; }
  { printf 'Here:\n```cu\n'; cat good.cu; printf '```\n'; } > rp_cu.md
  { printf 'Here:\n```c++\n'; cat good.cu; printf '```\n'; } > rp_cxx.md
  { printf 'Here:\n```cuda\n'; cat good.cu; } > rp_unterminated.md
  { printf 'First try:\n```cuda\n'; cat cerr.cu; printf '```\nFinal:\n```cuda\n'; cat good.cu; printf '```\n'; } > rp_two.md
  { printf 'Here:\r\n```cuda\r\n'; sed 's/$/\r/' good.cu; printf '```\r\n'; } > rp_crlf.md
  { printf 'Use `__global__ void k(){}` inline only.\n'; } > rp_inline.md
  { printf '<pre><code class="language-cuda">'; sed 's/</\&lt;/g' good.cu; printf '</code></pre>\n'; } > rp_html.md
  { printf 'Here:\n```cuda   \n'; cat good.cu; printf '```   \n'; } > rp_trailsp.md
  { printf '\xef\xbb\xbfHere:\n```cuda\n'; cat good.cu; printf '```\n'; } > rp_bom.md
  { printf 'Here:\n```cuda\n'; cat good.cu; printf '```\n'; } | iconv -f utf-8 -t utf-32 > rp_utf32.md
  { printf 'Caf\xe9:\n```cuda\n'; cat good.cu; printf '```\n'; } > rp_latin1.md
  { printf '> Here:\n> ```cuda\n'; sed 's/^/> /' good.cu; printf '> ```\n'; } > rp_quote.md
  { printf '1. Here:\n   ```cuda\n'; sed 's/^/   /' good.cu; printf '   ```\n'; } > rp_listindent.md
  { printf '```cuda\n```\n'; } > rp_emptyblock.md
  { printf '<think>\nscratch ```cuda\nint bad(;\n```\n'; printf 'Here:\n```cuda\n'; cat good.cu; printf '```\n'; } > rp_thinkopen.md
  { printf '```cuda\n'; cat good.cu; printf '```\n'; head -c 2000000 /dev/urandom | base64 -w 100; } > rp_bigtail.md
  head -c 4096 /dev/urandom > rp_binary.md
  { printf 'Here:\n```\xe2\x80\x8bcuda\n'; cat good.cu; printf '```\n'; } > rp_zwsp.md
  sha256sum * 2>/dev/null | sort > "$W/fx.sha"
  # ------------------------------------------------------------ damaged run files
  cd "$D" || exit 1
  mk() { cp "$W/run.db" "$1.db"; sqlite3 "$1.db" "$2" 2>>"$W/setup.err" >/dev/null || echo "mk $1 failed" >> "$W/setup.err"; }
  mk cfgconc0 "update runs set config_json=json_set(config_json,'\$.concurrency',0,'\$.gpus',-1,'\$.cpu_jobs','many')"
  mk cfgctxbad "update runs set config_json=json_set(config_json,'\$.context','bogus')"
  mk cfgarch75 "update runs set config_json=json_set(config_json,'\$.archs',json('[\"sm_75\"]'))"
  mk cfgtaskunk "update runs set config_json=json_set(config_json,'\$.tasks',json('[\"no_such_task\"]'))"
  mk cfgturns0 "update runs set config_json=json_set(config_json,'\$.turns',0)"
  mk cfgturnsbig "update runs set config_json=json_set(config_json,'\$.turns',1000000000000)"
  mk cfgtemp "update runs set config_json=json_set(config_json,'\$.model.temperature','hot')"
  mk cfgtargetneg "update runs set config_json=json_set(config_json,'\$.speedup_target',-2.5)"
  mk cfgscripttrav "update runs set config_json=json_set(config_json,'\$.scripted_version','../../../etc')"
  mk cfgbudgetsunsorted "update runs set config_json=json_set(config_json,'\$.turn_budgets',json('[8,1,4]'))"
  mk cfgbudgetsneg "update runs set config_json=json_set(config_json,'\$.turn_budgets',json('[-1,4,8]'))"
  mk cfgfastpnum "update runs set config_json=json_set(config_json,'\$.fast_p',1.0)"
  mk cfgfastpneg "update runs set config_json=json_set(config_json,'\$.fast_p',json('[-1,0,1e308]'))"
  mk cfgextra "update runs set config_json=json_set(config_json,'\$.future_option',json('{\"a\":[1,2]}'))"
  mk cfgmodelnull "update runs set config_json=json_set(config_json,'\$.model',json('null'))"
  mk cfgdeep "update runs set config_json=json_set(config_json,'\$.deep','x')"
  python3 - "$D/cfgdeep.db" <<'PY'
import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); s=c.execute("select config_json from runs").fetchone()[0]
c.execute("update runs set config_json=?", (s[:-1]+',"nest":'+'['*100000+']'*100000+'}',)); c.commit()
PY
  mk provargvstr "update runs set provenance_json=json_set(provenance_json,'\$.argv','ptxbench run')"
  mk provgpusstr "update runs set provenance_json=json_set(provenance_json,'\$.gpus','H200')"
  mk provnopipe "update runs set provenance_json=json_remove(provenance_json,'\$.pipeline')"
  mk provshardbad "update runs set provenance_json=json_set(provenance_json,'\$.shard',json('{\"index\":5,\"count\":2}'))"
  mk provstartnum "update runs set provenance_json=json_set(provenance_json,'\$.started_at',12345)"
  mk statusdonepart "update trajectories set status='running' where id in (2,4)"
  mk finnull "update runs set finished_at=NULL"
  mk failednoreason "update trajectories set status='failed', stop_reason=NULL where id=3"
  mk notevalrun "update turns set category='not_evaluated', gpu_stages='run'"
  mk correctcerr "update turns set correct=1 where category='compile_error'"
  mk speedzero "update turns set speedup=0 where speedup is not null"
  mk speedblob "update turns set speedup=x'00ff' where speedup is not null"
  mk srcblob "update turns set source=x'00fffe41c328' where turn=1"
  mk srcbig "update turns set source=printf('%.8000000c','s') where id=1"
  mk srchashbad "update turns set source_hash='0000'"
  mk seqrev "update messages set seq=-seq"
  mk msgblob "update messages set content=x'00ff00fe' where role='user'"
  mk msgturn0 "update messages set turn=0 where role='assistant'"
  mk roletool "pragma ignore_check_constraints=1; update messages set role='tool' where role='system'"
  mk turnzero "pragma ignore_check_constraints=1; update turns set turn=0 where turn=1"
  mk catbogus "pragma ignore_check_constraints=1; update turns set category='exploded' where category='incorrect'"
  mk statusbogus "pragma ignore_check_constraints=1; update runs set status='paused'"
  mk llmreasonhuge "update turns set llm_json='{\"model\":\"m\",\"prompt_tokens\":1,\"completion_tokens\":2,\"reasoning_tokens\":1e300,\"latency_s\":\"NaN\",\"attempts\":-3}'"
  mk flagsmixed "update turns set flags_json='[\"side_stream\",5,null,{\"x\":1}]'"
  mk evalempty "update turns set eval_json='{}', audit_json='{}' where eval_json is not null"
  mk auditfam "update turns set audit_json=json_set(audit_json,'\$.families','none') where audit_json is not null"
  mk compoutcome "update turns set compile_json=json_set(compile_json,'\$.outcome','exploded')"
  mk metaextra "insert into meta values('owner','someone-else'),('schema_version_2','9')"
  mk createdbysp "update meta set value='ptxbench ' where key='created_by'"
  mk tasknl "update trajectories set task='gemm'||char(10)||'x' where id=1"
  mk csvinj "update trajectories set model='=HYPERLINK(\"http://evil\",\"click\")', task='+cmd|'' /C calc''!A0' where id=1"
  mk xmlctl "update trajectories set model='m'||char(1)||char(27)||'x' where id=1; update turns set feedback=feedback||char(2)||']]>' "
  mk archsm100 "update trajectories set arch='sm_100a' where id=2"
  mk dupsample "update trajectories set sample=7"
  mk sampleshuge "update trajectories set sample=9223372036854775807 where id=1"
  mk turnsextraorphan "insert into turns(trajectory_id,turn,source,source_hash,category,feedback,correct,created_at) values(99,1,'x','h','no_code','f',0,'2026-01-01')"
  mk journaloff "pragma journal_mode=off; update meta set value=value"
  mk autovac "pragma auto_vacuum=full; vacuum"
  mk metaview "alter table meta rename to meta_t; create view meta as select * from meta_t"
  mk idxdrop "drop index turns_by_category"
  mk trajcols "alter table trajectories add column extra TEXT default 'x'"
  cp "$W/run.db" magic.db; printf 'SQLite format 4\0' | dd of=magic.db bs=1 seek=0 conv=notrunc 2>/dev/null
  cp "$W/run.db" hdrpagesize.db; printf '\x00\x03' | dd of=hdrpagesize.db bs=1 seek=16 conv=notrunc 2>/dev/null
  cp "$W/run.db" dbsize.db; printf '\x7f\xff\xff\xff' | dd of=dbsize.db bs=1 seek=28 conv=notrunc 2>/dev/null
  head -c 100 "$W/run.db" > hdronly.db
  head -c 4096 "$W/run.db" > page1only.db
  cp "$W/run.db" lastpage.db; truncate -s $(( $(stat -c %s "$W/run.db") - 4096 )) lastpage.db
  python3 -c "import sqlite3; c=sqlite3.connect('places.db'); c.executescript('create table moz_places(id integer primary key, url text); create table meta(key text primary key, value text); insert into meta values(\"schema_version\",\"1\"),(\"created_by\",\"firefox\"); insert into moz_places(url) values(\"http://x\");')"
  python3 -c "import sqlite3; c=sqlite3.connect('metaonly.db'); c.executescript('create table meta(key text primary key, value text not null); insert into meta values(\"schema_version\",\"1\"),(\"created_by\",\"ptxbench\");')"
  sqlite3 "$W/run.db" .dump > "$W/dump.sql"
  { grep -v '^COMMIT\|^CREATE INDEX' "$W/dump.sql" | sed 's/CREATE TABLE turns (/CREATE TABLE turns_x (/; s/^INSERT INTO turns VALUES/INSERT INTO turns_x VALUES/' ; echo 'CREATE TABLE turns AS SELECT * FROM turns_x; COMMIT;'; } | sqlite3 notypes.db 2>>"$W/setup.err"
  printf 'SQLite format 3\0' > fakehdr.db; head -c 8000 /dev/urandom >> fakehdr.db
  ( cd "$D"; "$PB" run --tasks $T,$TA --turns 2 --out scr.db --no-progress >/dev/null 2>&1
    "$PB" run --tasks $T,$TA --turns 2 --shard 0/2 --out s0.db --no-progress >/dev/null 2>&1
    "$PB" run --tasks $T,$TA --turns 2 --shard 1/2 --out s1.db --no-progress >/dev/null 2>&1
    "$PB" run --tasks $T,$TA --turns 3 --shard 1/2 --out s1t3.db --no-progress >/dev/null 2>&1
    "$PB" run --tasks $T,$TA,mha_bwd_d128 --turns 2 --shard 0/3 --out t0.db --no-progress >/dev/null 2>&1
    "$PB" merge s0.db s1.db --out merged.db >/dev/null 2>&1
    "$PB" rejudge scr.db --out rej.db >/dev/null 2>&1 )
  cp scr.db scrrun.db; sqlite3 scrrun.db "update runs set status='running', finished_at=NULL; update trajectories set status='running' where id=2; delete from turns where trajectory_id=2 and turn=2; delete from messages where trajectory_id=2 and turn=2"
  sqlite3 scr.db .dump > "$W/scrdump.sql"
  cp s1.db s1dupidx.db; sqlite3 s1dupidx.db "update runs set provenance_json=json_set(provenance_json,'\$.shard.index',0)"
  cp s1.db s1cfgtasks.db; sqlite3 s1cfgtasks.db "update runs set config_json=json_set(config_json,'\$.tasks',json('[\"$T\"]'))"
  cp s1.db s1gitother.db; sqlite3 s1gitother.db "update runs set provenance_json=json_set(provenance_json,'\$.git_commit','0000000000000000000000000000000000000000')"
  cp s1.db s1seed.db; sqlite3 s1seed.db "update runs set provenance_json=json_set(provenance_json,'\$.plan_seed',42)"
  chmod 644 *.db
  sha256sum * | sort > "$W/db.sha"
  # ------------------------------------------------------------ task roots
  cd "$R" || exit 1
  mkroot() { local r=$R/$1; mkdir -p "$r"; for d in context kernels trajectories docs; do ln -s "$ROOT/$d" "$r/$d"; done; cp -r "$ROOT/tasks" "$r/"; }
  G=tasks/gemm/gemm_n7168_k5120.toml
  mkroot dupname;    cp dupname/$G dupname/tasks/gemm/zz_copy.toml
  mkroot crlf;       sed -i 's/$/\r/' crlf/$G
  mkroot bomtoml;    printf '\xef\xbb\xbf' | cat - bomtoml/$G > x && mv x bomtoml/$G
  mkroot utf16toml;  iconv -f utf-8 -t utf-16 utf16toml/$G > x && mv x utf16toml/$G
  mkroot emptytoml;  : > emptytoml/$G
  mkroot dirtoml;    mkdir dirtoml/tasks/gemm/zz_dir.toml
  mkroot dupkey;     sed -i '0,/^family = .*/s//family = "gemm"\nfamily = "gemm"/' dupkey/$G
  mkroot baselinebad; sed -i 's/^baseline = .*/baseline = "mkl"/' baselinebad/$G
  mkroot tolnan;     sed -i 's/^rtol = .*/rtol = nan/' tolnan/$G
  mkroot tolinf;     sed -i 's/^atol = .*/atol = inf/' tolinf/$G
  mkroot ratio2;     sed -i 's/^matched_ratio = .*/matched_ratio = 2.0/' ratio2/$G
  mkroot minmax;     sed -i 's/^M = { min = 1, max = 16384 }/M = { min = 100, max = 10 }/' minmax/$G
  mkroot timedoutside; sed -i 's/axes = { M = 8192,/axes = { M = 99999,/; s/^M = \[8192\]/M = [99999]/' timedoutside/$G
  mkroot twotimed;   printf '\n[[workloads]]\nname = "timed2"\nrole = "timed"\naxes = { M = 16, N = 7168, K = 5120 }\n' >> twotimed/$G
  mkroot dupinput;   printf '\n[[inputs]]\nname = "A"\nshape = ["M", "K"]\ndtype = "bfloat16"\n' >> dupinput/$G
  mkroot nooutputs;  python3 -c "import re,sys; p=sys.argv[1]; s=open(p).read(); s=re.sub(r'\[\[outputs\]\].*?(?=\[tolerance\])','',s,flags=re.S); open(p,'w').write(s)" nooutputs/$G
  mkroot shapeneg;   sed -i 's/^N = \[7168\]/N = [-7168]/; s/N = 7168, K/N = -7168, K/' shapeneg/$G
  mkroot flopsdiv0;  sed -i 's/^flops = .*/flops = "2*M*N*K\/0"/' flopsdiv0/$G
  mkroot flopsover;  sed -i 's/^flops = .*/flops = "M*N*K*M*N*K*M*N*K*M*N*K"/' flopsover/$G
  mkroot namespace;  sed -i 's/^name = .*/name = "gemm n7168"/' namespace/$G
  mkroot nameempty;  sed -i 's/^name = .*/name = ""/' nameempty/$G
  mkroot familynum;  sed -i 's/^family = .*/family = 7/' familynum/$G
  mkroot archfamunk; sed -i '0,/families = \["wgmma", "tma"\]/s//families = ["warp_magic"]/' archfamunk/$G
  mkroot ctxmissing; rm ctxmissing/context; mkdir ctxmissing/context
  mkroot ctxloop;    rm ctxloop/context; ln -s context ctxloop/context
  mkroot trajbad;    rm trajbad/trajectories; mkdir -p trajbad/trajectories/v1; cp -r $ROOT/trajectories/v1/* trajbad/trajectories/v1/; sed -i 's#^kernel = "kernels/controls/gemm/compile_error.cu"#kernel = "../../../../etc/passwd"#' trajbad/trajectories/v1/gemm_n7168_k5120.sm_90a.toml
  mkroot trajempty;  rm trajempty/trajectories; mkdir -p trajempty/trajectories/v1; cp -r $ROOT/trajectories/v1/* trajempty/trajectories/v1/; python3 -c "import re,sys; p=sys.argv[1]; s=open(p).read(); s=s[:s.index('[[turn]]')]; open(p,'w').write(s)" trajempty/trajectories/v1/gemm_n7168_k5120.sm_90a.toml
  mkroot trajexpect; rm trajexpect/trajectories; mkdir -p trajexpect/trajectories/v1; cp -r $ROOT/trajectories/v1/* trajexpect/trajectories/v1/; sed -i 's/^expect = "compile_error"/expect = "sparkling"/' trajexpect/trajectories/v1/gemm_n7168_k5120.sm_90a.toml
  mkroot tasksfifo;  mkfifo tasksfifo/tasks/gemm/zz_fifo.toml
  mkroot manytasks;  for i in $(seq 1 300); do sed "s/^name = .*/name = \"gemm_copy_$i\"/" manytasks/$G > manytasks/tasks/gemm/gemm_copy_$i.toml; done
  mkroot hugetoml;   python3 -c "import sys; open(sys.argv[1],'a').write('\n# '+'z'*50000000+'\n')" hugetoml/$G
  mkroot emptyroot0; rm -rf emptyroot0/tasks; mkdir emptyroot0/tasks
  # ------------------------------------------------------------ fake tools
  cd "$B" || exit 1
  printf '#!/bin/sh\nexit 0\n' > nvcc_true
  printf '#!/bin/sh\nfor a in "$@"; do case "$prev" in -o) head -c 4096 /dev/urandom > "$a";; esac; prev=$a; done; exit 0\n' > nvcc_randso
  printf '#!/bin/sh\nexec /usr/local/cuda/bin/nvcc "$@"\n' > nvcc_wrap
  printf '#!/bin/sh\nexit 0\n' > cuobjdump_empty
  printf '#!/bin/sh\necho "cuobjdump fatal: boom" >&2; exit 3\n' > cuobjdump_fail
  printf '#!/bin/sh\nkill -ABRT $$\n' > nvdisasm_abrt
  printf 'not a script' > nvcc_noexec
  printf '#!/bin/sh\necho "42"\n' > sbatch_ok
  printf '#!/bin/sh\nexit 0\n' > sbatch_silent
  printf '#!/bin/sh\necho "sbatch: warning: deprecated" >&2; echo "43"\n' > sbatch_warn
  printf '#!/bin/sh\necho "<html>proxy error</html>"\n' > sbatch_html
  printf '#!/bin/sh\ncat > %s/sbatch_stdin.txt; echo "44"\n' "$B" > sbatch_stdin
  printf '#!/bin/sh\necho "$@" > %s/sbatch_args.txt; echo "45"\n' "$B" > sbatch_args
  printf '#!/bin/sh\nexit 137\n' > sbatch_137
  printf '#!/bin/sh\nsleep 30\n' > sbatch_hang
  chmod +x nvcc_true nvcc_randso nvcc_wrap cuobjdump_empty cuobjdump_fail nvdisasm_abrt sbatch_*
  for s in sbatch_*; do mkdir -p "sb_$s"; cp "$s" "sb_$s/sbatch"; done
  mkdir -p sb_nonexec; printf 'x' > sb_nonexec/sbatch
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
  grep -aqE 'terminate called|Assertion|Segmentation fault|AddressSanitizer|UndefinedBehaviorSanitizer|runtime error:|core dumped|Aborted|std::|what\(\)|basic_string|nlohmann|json\.exception|\[json\.' "$OUT/logs/$id.err" "$OUT/logs/$id.out" && { crash=y; note="$note crash-text;"; }
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
python3 "$HERE/fakesrv.py" $PORT "$FX/good.cu" "$W/fakesrv.state" & SRV=$!
trap 'kill $SRV 2>/dev/null' EXIT
sleep 1
# ================================================================ cases
# --- G: global options, environment
c G01 '2' '"$PB" --version tasks'
c G02 '0' '"$PB" -h tasks | head -1; exit ${PIPESTATUS[0]}'
c G04 '2' '"$PB" tasks --jso'
c G05 '2' '"$PB" tasks --suite'
c G06 '2' '"$PB" --bogus-global tasks'
c G07 '2' '"$PB" tasks extra positional'
c G08 '2' '"$PB" $(printf "x%.0s" $(seq 1 120000))'
c G09 '2' '"$PB" show $(for i in $(seq 1 20000); do printf "a%d.db " $i; done)'
c G10 '0' 'PTXBENCH_ROOT=$ROOT/./tasks/.. "$PB" tasks --suite core | tail -1; exit ${PIPESTATUS[0]}'
c G12 '2' 'mkdir -p lp; ln -s lp/x lp/x 2>/dev/null; ln -s $PWD/lp/x rootloop; PTXBENCH_ROOT=$PWD/rootloop "$PB" tasks'
c G13 '2' 'PTXBENCH_ROOT=$R/emptyroot0 "$PB" tasks'
c G14 '0|2' 'PTXBENCH_CACHE=$PWD/cfile; touch cfile; PTXBENCH_CACHE=$PWD/cfile "$PB" compile $FX/good.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c G15 '0|1|2' 'mkdir roc; chmod 555 roc; $NB env PTXBENCH_CACHE=$PWD/roc "$PB" compile $FX/good.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c G16 '0' 'ln -s $W/nbcache cl; PTXBENCH_CACHE=$PWD/cl "$PB" compile $FX/good.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c G17 '2' 'PTXBENCH_NVCC=$B/nvcc_noexec "$PB" compile $FX/good.cu --task $T --no-cache'
c G18 '1|11' 'PTXBENCH_NVCC=$B/nvcc_true PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T --no-cache; r=$?; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | grep -q "cache hit" && harm "a fake nvcc result was cached"; exit $r'
c G19 '1|11' 'PTXBENCH_NVCC=$B/nvcc_randso PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T --no-cache; r=$?; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | grep -q "cache hit" && harm "garbage .so cached"; exit $r'
c G20 '0' 'PTXBENCH_NVCC=$B/nvcc_wrap "$PB" compile $FX/good.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c G21 '1' 'PTXBENCH_CUOBJDUMP=$B/cuobjdump_empty "$PB" compile $FX/good.cu --task $T --no-cache'
c G22 '1' 'PTXBENCH_CUOBJDUMP=$B/cuobjdump_fail PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T --no-cache; r=$?; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T 2>&1 | grep -q "cuobjdump fatal" && harm "tool failure replayed from cache"; exit $r'
c G23 '1' 'PTXBENCH_NVDISASM=$B/nvdisasm_abrt "$PB" compile $FX/ref.cu --task $T --no-cache'
c G24 '0|2' 'PTXBENCH_NO_GPU=1 PTXBENCH_ASSUME_GPU=1 "$PB" eval $FX/good.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c G25 '1|13' 'PTXBENCH_ASSUME_GPU=1 "$PB" run --tasks $T --turns 1 --out n.db --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c G26 '0' 'env -u PATH /tmp/campaign/bin4/ptxbench version | head -3; exit ${PIPESTATUS[0]}'
c G27 '0' 'env CUDA_HOME=/nonexistent PATH=/usr/bin:/bin "$PB" compile $FX/good.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c G28 '0' 'LC_ALL=tr_TR.UTF-8 "$PB" tasks --arch SM_90A --family GEMM | head -2; exit ${PIPESTATUS[0]}'
c G29 '0' 'LC_ALL=de_DE.UTF-8 LC_NUMERIC=de_DE.UTF-8 "$PB" run --tasks $T --turns 1 --speedup-target 1.5 --fast-p 0.5,1.5 --out n.db --no-progress >/dev/null; r=$?; sqlite3 n.db "select json_extract(config_json,\"$.speedup_target\"), json_extract(config_json,\"$.fast_p\") from runs" >&2; exit $r'
c G30 '0' 'TZ=Pacific/Kiritimati "$PB" run --tasks $T --turns 1 --out n.db --no-progress >/dev/null; r=$?; sqlite3 n.db "select created_at from runs" >&2; exit $r'
c G31 '0' 'COLUMNS=0 LINES=0 "$PB" show r.db | head -2; exit ${PIPESTATUS[0]}'
c G32 '2' 'PTXBENCH_BIN_DIR= "$PB" eval $FX/good.cu --task $T'
c G33 '2' 'PTXBENCH_DLPACK_INCLUDE=/nonexistent "$PB" compile $FX/good.cu --task $T'
c G34 '0|2' 'PTXBENCH_TVM_FFI_ROOT=/nonexistent "$PB" compile $FX/good.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c G35 '0|2' 'TMPDIR=/dev/null "$PB" compile $FX/good.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c G36 '0|1|2' 'mkdir rot; chmod 555 rot; $NB env TMPDIR=$PWD/rot PTXBENCH_CACHE=$W/nbcache "$PB" compile $FX/good.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c G37 '0' 'HOME= XDG_CACHE_HOME= PTXBENCH_CACHE=$PWD/c "$PB" version | tail -1; exit ${PIPESTATUS[0]}'
c G38 '2' 'env -u PTXBENCH_CACHE XDG_CACHE_HOME=$FX/good.cu "$PB" compile $FX/good.cu --task $T'
c G39 '0' '"$PB" version 2>&1 >/dev/null | head -1; "$PB" version > /dev/null; exit $?'
c G42 '0|141' '"$PB" tasks --json | head -c 10 >/dev/null; exit ${PIPESTATUS[0]}'
c G43 '2' 'CUDA_VISIBLE_DEVICES=abc "$PB" run --tasks $T --turns 1 --gpus 2 --out n.db --no-progress'
c G44 '0|2' 'SLURM_ARRAY_TASK_ID=1 "$PB" run --tasks $T --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c G45 '2' 'SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=1 "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c G46 '2' 'JOB_COMPLETION_INDEX=0x1 "$PB" run --shard-count 2 --tasks $T --turns 1 --out n.db --no-progress'
c G47 '0|2' 'SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=2 "$PB" run --shard 0/3 --tasks $T --turns 1 --out n.db --no-progress; r=$?; sqlite3 n.db "select json_extract(provenance_json,\"$.shard\") from runs" >&2; exit $r'
# --- T: tasks
c T01 '2' '"$PB" tasks --suite extended,core'
c T02 '2' '"$PB" tasks --family gemm,attention_fwd'
c T03 '2' '"$PB" tasks --arch sm_100'
c T05 '0' '"$PB" tasks --suite extended --family attention_bwd --arch sm_90a --json | python3 -c "import json,sys; print(len(json.load(sys.stdin)))"; exit ${PIPESTATUS[0]}'
c T06 '2' '"$PB" tasks --suite "core\n"'
c T07 '2' '"$PB" tasks --arch "$(printf "sm_90a\n")"'
c T08 '2' '"$PB" tasks --family=gemm --family=attention_fwd'
c T10 '2' '"$PB" tasks --suite -- core'
c T11 '1' '"$PB" tasks >&-'
c T12 '2' '"$PB" tasks --json=false'
c T13 '2' '"$PB" tasks --suite "$(printf "\xff\xfe")"'
c T14 '2' '"$PB" tasks -s core'
c T15 '0' '"$PB" tasks --arch sm_90a --suite core | wc -l'
# --- O: own task roots
c O01 '2' 'PTXBENCH_ROOT=$R/dupname "$PB" tasks'
c O02 '0|2' 'PTXBENCH_ROOT=$R/crlf "$PB" tasks | grep -c gemm_n7168_k5120; exit ${PIPESTATUS[0]}'
c O03 '0' 'PTXBENCH_ROOT=$R/bomtoml "$PB" tasks | grep -c gemm_n7168_k5120; exit ${PIPESTATUS[0]}'
c O04 '2' 'PTXBENCH_ROOT=$R/utf16toml "$PB" tasks'
c O05 '2' 'PTXBENCH_ROOT=$R/emptytoml "$PB" tasks'
c O06 '2' 'PTXBENCH_ROOT=$R/dirtoml "$PB" tasks'
c O07 '2' 'PTXBENCH_ROOT=$R/dupkey "$PB" tasks'
c O08 '2' 'PTXBENCH_ROOT=$R/baselinebad "$PB" tasks'
c O09 '2' 'PTXBENCH_ROOT=$R/tolnan "$PB" tasks'
c O10 '2' 'PTXBENCH_ROOT=$R/tolinf "$PB" tasks'
c O11 '2' 'PTXBENCH_ROOT=$R/ratio2 "$PB" tasks'
c O12 '2' 'PTXBENCH_ROOT=$R/minmax "$PB" tasks'
c O13 '2' 'PTXBENCH_ROOT=$R/timedoutside "$PB" tasks'
c O14 '2' 'PTXBENCH_ROOT=$R/twotimed "$PB" tasks'
c O15 '2' 'PTXBENCH_ROOT=$R/dupinput "$PB" tasks'
c O16 '2' 'PTXBENCH_ROOT=$R/nooutputs "$PB" tasks'
c O17 '2' 'PTXBENCH_ROOT=$R/shapeneg "$PB" tasks'
c O18 '2' 'PTXBENCH_ROOT=$R/flopsdiv0 "$PB" tasks'
c O19 '2' 'PTXBENCH_ROOT=$R/flopsover "$PB" tasks'
c O20 '2' 'PTXBENCH_ROOT=$R/namespace "$PB" tasks'
c O21 '2' 'PTXBENCH_ROOT=$R/nameempty "$PB" tasks'
c O22 '2' 'PTXBENCH_ROOT=$R/familynum "$PB" tasks'
c O23 '2' 'PTXBENCH_ROOT=$R/archfamunk "$PB" tasks'
c O24 '2' 'PTXBENCH_ROOT=$R/ctxmissing "$PB" prompt $T --context full'
c O25 '2' 'PTXBENCH_ROOT=$R/ctxloop "$PB" prompt $T --context reference'
c O26 '2' 'PTXBENCH_ROOT=$R/trajbad "$PB" run --tasks $T --turns 1 --out n.db --no-progress; r=$?; [ -e n.db ] && harm "n.db made for a refused run"; exit $r'
c O27 '2' 'PTXBENCH_ROOT=$R/trajempty "$PB" run --tasks $T --turns 2 --out n.db --no-progress; r=$?; [ -e n.db ] && echo "n.db made" >&2; exit $r'
c O28 '2' 'PTXBENCH_ROOT=$R/trajexpect "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c O29 '2' 'PTXBENCH_ROOT=$R/tasksfifo timeout 20 "$PB" tasks'
c O30 '0' 'PTXBENCH_ROOT=$R/manytasks "$PB" tasks | wc -l'
c O31 '0|2' 'PTXBENCH_ROOT=$R/hugetoml "$PB" tasks | wc -l; exit ${PIPESTATUS[0]}'
c O32 '2' 'PTXBENCH_ROOT=$R/emptytoml "$PB" show r.db'
c O33 '2' 'PTXBENCH_ROOT=$R/tolnan "$PB" compile $FX/good.cu --task $T'
c O34 '2' 'PTXBENCH_ROOT=$R/dupname "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c O35 '0|2' 'PTXBENCH_ROOT=$R/emptyroot0 "$PB" show r.db | head -2; exit ${PIPESTATUS[0]}'
c O36 '2' 'PTXBENCH_ROOT=$R/emptyroot0 "$PB" rejudge r.db --out n.db'
# --- P: prompt
c P01 '2' '"$PB" prompt $T --speedup-target 1,5'
c P02 '0|2' '"$PB" prompt $T --speedup-target 1e-300 | grep -m1 -i "speedup\|x "; exit ${PIPESTATUS[0]}'
c P03 '0|2' '"$PB" prompt $T --speedup-target -0 | grep -m1 -io "[-0-9.]*x" ; exit ${PIPESTATUS[0]}'
c P05 '0' '"$PB" prompt mha_bwd_d128 --arch sm_100a | head -1; exit ${PIPESTATUS[0]}'
c P06 '0' '"$PB" prompt $T --contract tvm-ffi --context none --json | python3 -c "import json,sys; d=json.load(sys.stdin); print(sorted(d)[:5])"; exit ${PIPESTATUS[0]}'
c P11 '2' '"$PB" prompt $T --context FULL'
c P12 '2' '"$PB" prompt $T --speedup-target 0x'
c P13 '2' '"$PB" prompt "../tasks/gemm/$T"'
c P14 '2' '"$PB" prompt $ROOT/tasks/gemm/$T.toml'
c P15 '0' '"$PB" prompt $T --levels --json | head -c 300; exit ${PIPESTATUS[0]}'
c P16 '2' '"$PB" prompt --arch sm_90a'
c P17 '2' '"$PB" prompt $T --contract native,tvm-ffi'
c P18 '0|2' '"$PB" prompt $T --speedup-target 1e308 | grep -m1 -io "1e+308\|inf"; exit ${PIPESTATUS[0]}'
c P19 '0' '"$PB" prompt $T --context reference | wc -c'
c P20 '0|2' '"$PB" prompt $T --context none --context full'
# --- C: compile, hostile sources
c C01 '12' '"$PB" compile $FX/inc_angle_dotdot.cu --task $T'
c C02 '12' '"$PB" compile $FX/inc_contline.cu --task $T'
c C03 '12' '"$PB" compile $FX/inc_macrostr.cu --task $T'
c C04 '0|12' '"$PB" compile $FX/inc_ifzero.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C05 '0' '"$PB" compile $FX/inc_comment.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C06 '0' '"$PB" compile $FX/inc_rawstr.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C07 '0|12' '"$PB" compile $FX/has_include.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C08 '11|12' '"$PB" compile $FX/trigraph.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C09 '12' '"$PB" compile $FX/digraph.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C10 '0|11|12' '"$PB" compile $FX/include_next.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C11 '0' '"$PB" compile $FX/inc_allowed.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C12 '11|12' '"$PB" compile $FX/inc_longname.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C13 '0|12' '"$PB" compile $FX/ctor.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C14 '0|12' '"$PB" compile $FX/system.cu --task $T | head -3; r=${PIPESTATUS[0]}; [ -e /tmp/campaign4-pwned ] && harm "system() ran at compile"; exit $r'
c C15 '11|12' '"$PB" compile $FX/withmain.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C16 '11' '"$PB" compile $FX/dupdef.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C17 '11|14|12' '"$PB" compile $FX/macrobomb.cu --task $T --timeout 20 | head -1; exit ${PIPESTATUS[0]}'
c C18 '11|14' '"$PB" compile $FX/tmplbomb.cu --task $T --timeout 30 | head -1; exit ${PIPESTATUS[0]}'
c C19 '11' '"$PB" compile $FX/hasherror_msg.cu --task $T | grep -m1 "deliberately"; exit ${PIPESTATUS[0]}'
c C20 '0' '"$PB" compile $FX/bidi.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C21 '0|2' '"$PB" compile $FX/latin1.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C22 '0|11' '"$PB" compile $FX/cronly.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C23 '0' '"$PB" compile $FX/ffvt.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C24 '0|11' '"$PB" compile $FX/longident.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C25 '0' '"$PB" compile $FX/exact1m.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C26 '12' '"$PB" compile $FX/exact1m1.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C27 '2' '"$PB" compile $FX/utf32.cu --task $T'
c C28 '2' '"$PB" compile $FX/utf16be.cu --task $T'
c C29 '2' '"$PB" compile $FX/utf16nobom.cu --task $T'
c C30 '0|2|11' '"$PB" compile $FX/bom_twice.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C31 '2|11' '"$PB" compile $FX/gz.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C32 '11' '"$PB" compile $FX/ptxonly.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C33 '11|2' '"$PB" compile $FX/zero.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C34 '11|2' '"$PB" compile $FX/newlines.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C35 '0' '"$PB" compile "$FX/$(printf "new\nline.cu")" --task $T | head -1; exit ${PIPESTATUS[0]}'
c C36 '0' '"$PB" compile "$FX/star*?.cu" --task $T | head -1; exit ${PIPESTATUS[0]}'
c C37 '0' '"$PB" compile $FX/hard.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C38 '0' '"$PB" compile /dev/stdin --task $T < $FX/good.cu | head -1; exit ${PIPESTATUS[0]}'
c C39 '0|2' 'cat $FX/good.cu | "$PB" compile /dev/stdin --task $T | head -1; exit ${PIPESTATUS[0]}'
c C41 '2' 'cp $FX/good.cu u.cu; chmod 000 u.cu; $NB "$PB" compile u.cu --task $T'
c C42 '0' '"$PB" compile $FX/good.cu --task $T --max-source-bytes 1073741824 | head -1; exit ${PIPESTATUS[0]}'
c C43 '2' '"$PB" compile $FX/good.cu --task $T --max-source-bytes -1'
c C44 '2' '"$PB" compile $FX/good.cu --task $T --max-source-bytes 1e6'
c C45 '2' '"$PB" compile $FX/good.cu --task $T --timeout 180.5'
c C46 '2' '"$PB" compile $FX/good.cu --task $T --timeout " 60"'
c C47 '2' '"$PB" compile $FX/good.cu --task $T --arch SM_90A'
c C48 '0' '"$PB" compile $FX/good.cu --task $T --arch sm_100a | head -1; exit ${PIPESTATUS[0]}'
c C49 '2' '"$PB" compile $FX/good.cu --task mha_bwd_d128 --arch sm_100a'
c C50 '11' '"$PB" compile $FX/good.cu --task $TA | head -2; exit ${PIPESTATUS[0]}'
c C51 '11' '"$PB" compile $FX/good.cu --task $T --contract tvm-ffi | head -2; exit ${PIPESTATUS[0]}'
c C52 '0' '"$PB" compile $FX/good.cu --task $T --json --no-cache | python3 -c "import json,sys; d=json.load(sys.stdin); print(d.get(\"outcome\", list(d)[:4]))"; exit ${PIPESTATUS[0]}'
c C53 '1' '"$PB" compile $FX/good.cu --task $T --json > /dev/full'
c C54 '0' 'PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T >/dev/null & PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T > b.txt; r=$?; wait $! ; r2=$?; head -1 b.txt >&2; [ $r2 = 0 ] || harm "first concurrent compile failed $r2"; exit $r'
c C55 '0' 'PTXBENCH_CACHE=$PWD/c timeout -s INT 1.2 "$PB" compile $FX/ref.cu --task $T; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/ref.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C56 '0' 'mkdir -p c; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T >/dev/null; f=$(find c -name kernel.so | head -1); : > "$f"; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C57 '0' 'mkdir -p c; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T >/dev/null; for f in $(find c -type f -name "*.json"); do echo "{garbage" > $f; done; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C58 '0|1|2' 'mkdir -p c; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T >/dev/null; chmod -R 000 c/compile/*; $NB env PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C59 '0' '(ulimit -f 50; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/ref.cu --task $T --no-cache >/dev/null; echo "limited rc=$?" >&2); PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/ref.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C60 '1' 'mkdir tfs; mount -t tmpfs -o size=200k tmpfs tfs; PTXBENCH_CACHE=$PWD/tfs/c "$PB" compile $FX/ref.cu --task $T --no-cache; r=$?; umount tfs; exit $r'
# --- E: eval (no GPU here: a passed compile is "not evaluated", exit 0)
c E02 '2' '"$PB" eval $FX/good.cu --task $T --seed 0x10'
c E03 '2' '"$PB" eval $FX/good.cu --task $T --seed 1e3'
c E04 '0|2' '"$PB" eval $FX/good.cu --task $T --input-seed 5 | tail -1; exit ${PIPESTATUS[0]}'
c E08 '0' '"$PB" eval $FX/good.cu --task $T --sustained-load-ms -0 | tail -1; exit ${PIPESTATUS[0]}'
c E09 '2' '"$PB" eval $FX/good.cu --task $T --library-plan ""'
c E11 '0' '"$PB" eval $FX/good.cu --task $T --no-timing --no-audit | tail -1; exit ${PIPESTATUS[0]}'
c E12 '0|2' '"$PB" eval $FX/good.cu --task $T --memcheck | tail -1; exit ${PIPESTATUS[0]}'
c E13 '0' '"$PB" eval $FX/rp_cu.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E14 '0' '"$PB" eval $FX/rp_cxx.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E15 '15|0' '"$PB" eval $FX/rp_unterminated.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E16 '0|11' '"$PB" eval $FX/rp_two.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E17 '0' '"$PB" eval $FX/rp_crlf.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E18 '15' '"$PB" eval $FX/rp_inline.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E19 '15' '"$PB" eval $FX/rp_html.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E20 '0' '"$PB" eval $FX/rp_trailsp.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E21 '0' '"$PB" eval $FX/rp_bom.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E22 '2' '"$PB" eval $FX/rp_utf32.md --task $T --reply'
c E23 '0|2' '"$PB" eval $FX/rp_latin1.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E24 '0|15' '"$PB" eval $FX/rp_quote.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E25 '0' '"$PB" eval $FX/rp_listindent.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E26 '11|15' '"$PB" eval $FX/rp_emptyblock.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E27 '0' '"$PB" eval $FX/rp_thinkopen.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E28 '0' '"$PB" eval $FX/rp_bigtail.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E29 '2|15' '"$PB" eval $FX/rp_binary.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E30 '0|15' '"$PB" eval $FX/rp_zwsp.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E31 '11' '"$PB" eval $FX/good.cu --task $T --json --reply | python3 -c "import json,sys; d=json.load(sys.stdin); print(d.get(\"disposition\"))"; exit ${PIPESTATUS[0]}'
c E32 '2' '"$PB" eval $FX/good.cu $FX/good.cu --task $T'
c E34 '1' '"$PB" eval $FX/good.cu --task $T --json > /dev/full'
c E35 '0' '"$PB" eval $FX/good.cu --task $T --allow-weaker-sandbox --shared-inputs 2>&1 | tail -1; exit ${PIPESTATUS[0]}'
c E36 '12' '"$PB" eval $FX/inc_contline.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c E37 '0' '"$PB" eval $FX/good.cu --task $T --seed 18446744073709551615 --input-seed 0 --json | python3 -c "import json,sys; d=json.load(sys.stdin); print(d.get(\"disposition\"))"; exit ${PIPESTATUS[0]}'
c E38 '2' '"$PB" eval $FX/good.cu --task $T --sustained-load-ms nan'
c E39 '2' '"$PB" eval $FX/good.cu --task $T --call-timeout 1e999'
c E40 '0|2' 'PTXBENCH_ASSUME_GPU=1 PTXBENCH_BIN_DIR=$PWD/nowhere "$PB" eval $FX/good.cu --task $T'
# --- A: audit
c A01 '2|0' '"$PB" audit $FX/good.cu --task $T --workload "" | tail -1; exit ${PIPESTATUS[0]}'
c A02 '2' '"$PB" audit $FX/good.cu --task $T --workload b2h8s1024'
c A03 '2' '"$PB" audit $FX/good.cu --task $T --workload M=0'
c A04 '0|2' '"$PB" audit $FX/good.cu --task $T --workload timed | tail -1; exit ${PIPESTATUS[0]}'
c A06 '0|2' '"$PB" audit $FX/good.cu --task $T --route ncu | tail -1; exit ${PIPESTATUS[0]}'
c A07 '0' '"$PB" audit $FX/good.cu --task $T --seed 18446744073709551615 | tail -1; exit ${PIPESTATUS[0]}'
c A08 '15' '"$PB" audit $FX/rp_inline.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c A09 '11' '"$PB" audit $FX/cerr.cu --task $T --json | python3 -c "import json,sys; d=json.load(sys.stdin); print(d.get(\"disposition\"))"; exit ${PIPESTATUS[0]}'
c A10 '2' '"$PB" audit $FX/good.cu --task $T --trials 5'
c A11 '2' '"$PB" audit $FX/good.cu --task $T --workload "M=99999999"'
c A12 '1' '"$PB" audit $FX/good.cu --task $T > /dev/full'
c A13 '2' '"$PB" audit $FX/good.cu --task $T --arch sm_100a --workload timed --route cupti,ncu'
c A14 '12' '"$PB" audit $FX/exact1m1.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c A15 '11' '"$PB" audit $FX/good.cu --task $TA --contract native 2>&1 | tail -1; exit ${PIPESTATUS[0]}'
# --- R: run options
c R01 '2' '"$PB" run --tasks $T --turns 0 --out n.db --no-progress; r=$?; [ -e n.db ] && harm "n.db made"; exit $r'
c R03 '2' '"$PB" run --tasks $T --samples 1001 --out n.db --no-progress'
c R04 '2' '"$PB" run --tasks $T --concurrency 0 --out n.db --no-progress'
c R05 '2' '"$PB" run --tasks $T --cpu-jobs 257 --out n.db --no-progress'
c R06 '2' '"$PB" run --tasks $T --gpus 0 --out n.db --no-progress'
c R07 '2' '"$PB" run --tasks $T --shard 0/0 --out n.db --no-progress'
c R08 '2' '"$PB" run --tasks $T --shard a/b --out n.db --no-progress'
c R09 '2' '"$PB" run --tasks $T --shard 0/2/3 --out n.db --no-progress'
c R10 '2' '"$PB" run --tasks $T --shard " 0/2" --out n.db --no-progress'
c R11 '2' '"$PB" run --tasks $T --shard 0/-2 --out n.db --no-progress'
c R12 '0|2' '"$PB" run --tasks $T --shard 00/02 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R13 '2' '"$PB" run --tasks $T --shard 0x1/2 --out n.db --no-progress'
c R14 '2' '"$PB" run --tasks $T --shard-count -1 --out n.db --no-progress'
c R15 '0|2' '"$PB" run --tasks $T,$TA --shard 1/2 --shard-count 3 --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R16 '0|2' '"$PB" run --tasks $T --shard 1/2 --turns 1 --out n.db --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c R17 '2' '"$PB" run --tasks $T --fast-p "" --out n.db --no-progress'
c R18 '0|2' '"$PB" run --tasks $T --fast-p 1,1 --turns 1 --out n.db --no-progress >/dev/null; r=$?; sqlite3 n.db "select json_extract(config_json,\"$.fast_p\") from runs" >&2 2>/dev/null; exit $r'
c R19 '0|2' '"$PB" run --tasks $T --fast-p 2,1 --turns 1 --out n.db --no-progress >/dev/null; r=$?; sqlite3 n.db "select json_extract(config_json,\"$.fast_p\") from runs" >&2 2>/dev/null; exit $r'
c R20 '2' '"$PB" run --tasks $T --fast-p -0.5 --out n.db --no-progress'
c R21 '2' '"$PB" run --tasks $T --fast-p 1e999 --out n.db --no-progress'
c R22 '2' '"$PB" run --tasks $T --speedup-target 0 --out n.db --no-progress'
c R23 '2' '"$PB" run --tasks $T --speedup-target -1 --out n.db --no-progress'
c R24 '2' '"$PB" run --tasks $T --scripted-version ../v1 --out n.db --no-progress'
c R25 '2' '"$PB" run --tasks $T --scripted-version v2 --out n.db --no-progress; r=$?; [ -e n.db ] && harm "n.db made"; exit $r'
c R26 '2' '"$PB" run --tasks $T --scripted-version "" --out n.db --no-progress'
c R27 '2' '"$PB" run --tasks " $T" --out n.db --no-progress'
c R28 '0|2' '"$PB" run --tasks $T,$T --turns 1 --out n.db --no-progress | tail -1; r=${PIPESTATUS[0]}; sqlite3 n.db "select count(*) from trajectories" >&2 2>/dev/null; exit $r'
c R29 '0|2' '"$PB" run --tasks $T --arch sm_90a,sm_90a --turns 1 --out n.db --no-progress | tail -1; r=${PIPESTATUS[0]}; sqlite3 n.db "select count(*) from trajectories" >&2 2>/dev/null; exit $r'
c R30 '2' '"$PB" run --tasks mha_bwd_d128 --arch sm_100a --out n.db --no-progress'
c R31 '2' '"$PB" run --tasks $T --out /proc/self/n.db --no-progress'
c R32 '2' '"$PB" run --tasks $T --out /dev/stdout --no-progress'
c R33 '0' 'mkdir sub; "$PB" run --tasks $T --turns 1 --out sub/../n2.db --no-progress >/dev/null; r=$?; ls n2.db >&2; exit $r'
c R34 '2' 'touch e.db; "$PB" run --tasks $T --turns 1 --out e.db --no-progress; r=$?; [ -s e.db ] && harm "existing empty e.db written"; exit $r'
c R35 '2' '"$PB" run --base-url $U/nocode/v1 $RM --out n.db'
c R36 '2' '"$PB" run --model m --base-url "$U/nocode/v1?x=1" $RM --out n.db'
c R37 '2' '"$PB" run --model m --base-url "$U/nocode/v1#frag" $RM --out n.db'
c R38 '2' '"$PB" run --model m --base-url "http://127.0.0.1:0/v1" $RM --out n.db'
c R39 '2' '"$PB" run --model m --base-url "http://127.0.0.1:99999/v1" $RM --out n.db'
c R40 '2' '"$PB" run --model m --base-url "$U/nocode/v1 " $RM --out n.db'
c R41 '2' '"$PB" run --model m --base-url "http:///v1" $RM --out n.db'
c R42 '0' '"$PB" run --model m --base-url "HTTP://127.0.0.1:$PORT/nocode/v1" $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c R43 '1' '"$PB" run --model m --base-url "https://127.0.0.1:$PORT/nocode/v1" $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c R44 '0|2' '"$PB" run --model m --base-url "$U/nocode" $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c R45 '2|0' 'EMPTYKEY= "$PB" run --model m --base-url $U/echoauth/v1 --api-key-env EMPTYKEY $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c R46 '2' '"$PB" run --model m --base-url $U/nocode/v1 --api-key-env "A=B" $RM --out n.db'
c R47 '0' 'BIGKEY=$(head -c 100000 /dev/zero | tr "\0" k) "$PB" run --model m --base-url $U/echoauth/v1 --api-key-env BIGKEY $RM --out n.db | tail -1; r=${PIPESTATUS[0]}; sqlite3 n.db "select count(*) from messages where content like \"%kkkkkkkkkk%\"" | grep -qv "^0$" && harm "API key stored in the run file"; exit $r'
c R48 '0' 'SECRETK=sk-campaign4-secret "$PB" run --model m --base-url $U/echoauth/v1 --api-key-env SECRETK $RM --out n.db >/dev/null; r=$?; grep -ac "sk-campaign4-secret" n.db >&2 && echo "key visible in stored reply (echoed by server)" >&2; sqlite3 n.db "select config_json, provenance_json from runs" | grep -q sk-campaign4 && harm "key in config/provenance"; exit $r'
c R49 '2' '"$PB" run --model m --base-url $U/nocode/v1 --temperature 3 $RM --out n.db'
c R50 '2' '"$PB" run --model m --base-url $U/nocode/v1 --top-p 2 $RM --out n.db'
c R51 '2' '"$PB" run --model m --base-url $U/nocode/v1 --max-tokens -1 $RM --out n.db'
c R52 '2' '"$PB" run --model m --base-url $U/nocode/v1 --request-timeout 0 $RM --out n.db'
c R53 '2' '"$PB" run --model m --base-url $U/nocode/v1 --stall-timeout -5 $RM --out n.db'
c R54 '2' '"$PB" run --model m --base-url $U/nocode/v1 --attempts 0 $RM --out n.db'
c R55 '2' '"$PB" run --model m --base-url $U/nocode/v1 --retry-max-s 1e999 --tasks $T --turns 1 --no-progress --out n.db'
c R56 '2' '"$PB" run --model "" --base-url $U/nocode/v1 $RM --out n.db'
c R57 '0' '"$PB" run --model "$(printf "m\x01\x1b[31mred")" --base-url $U/nocode/v1 $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c R58 '0|2' '"$PB" run --tasks $T --contract tvm-ffi --context none --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R59 '0|2' '"$PB" run --tasks $T --memcheck --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R60 '2' '"$PB" run --tasks $T --trials 2 --out n.db --no-progress'
c R61 '0' '"$PB" run --tasks $T --turns 1 --no-progress --json --out n.db | python3 -c "import json,sys; json.load(sys.stdin); print(\"json ok\")"; exit ${PIPESTATUS[0]}'
c R62 '1' '"$PB" run --tasks $T --turns 1 --no-progress --json --out n.db > /dev/full; r=$?; sqlite3 n.db "select status from runs" >&2; exit $r'
c R63 '2' '"$PB" run --tasks core,$T --out n.db --no-progress'
c R64 '2' '"$PB" run --tasks all --samples 1000 --arch sm_90a,sm_100a --out n.db --no-progress'
# --- EP: model endpoints (fake server modes); a scored-or-failed trajectory, never a crash
ep() { c "$1" "$2" "\"\$PB\" run --model m --base-url \$U/$3/v1 \$RM ${4:-} --out n.db | tail -3; r=\${PIPESTATUS[0]}; sqlite3 n.db \"select t.status, group_concat(u.category) from trajectories t left join turns u on u.trajectory_id=t.id group by t.id\" >&2; exit \$r"; }
ep EP01 '0' parts
ep EP02 '0|1' toolcalls
ep EP03 '0' reasononly
ep EP04 '0' lengthcut
ep EP05 '0' twochoices
ep EP06 '0|1' usagehuge
ep EP07 '0' usagenull
ep EP08 '0|1' bom
ep EP09 '1' shortlen
ep EP10 '1' longlen "--request-timeout 5"
ep EP11 '0|1' gzip
ep EP12 '0' chunked
ep EP13 '0' http10close
ep EP14 '1' e400ctx
ep EP15 '1' e403
c EP16 '1' '"$PB" run --model m --base-url $U/e503ra/v1 --tasks $T --turns 1 --attempts 3 --retry-max-s 3 --no-progress --out n.db | tail -2; exit ${PIPESTATUS[0]}'
c EP17 '1' '"$PB" run --model m --base-url $U/e429neg/v1 --tasks $T --turns 1 --attempts 3 --retry-max-s 2 --no-progress --out n.db | tail -2; exit ${PIPESTATUS[0]}'
ep EP18 '1' e204
c EP19 '0' 'echo 0 > $W/fakesrv.state; "$PB" run --model m --base-url $U/flaky/v1 --tasks $T --turns 1 --attempts 3 --retry-max-s 5 --no-progress --out n.db | tail -2; exit ${PIPESTATUS[0]}'
ep EP20 '1' redirhttps
ep EP21 '1' textplain
ep EP22 '1' jsonarray
ep EP23 '1' choicesnull
ep EP24 '1' msgstr
ep EP25 '1' nan
ep EP26 '0' dupkeys
ep EP27 '0' unicode
ep EP28 '0' thinkopen
ep EP29 '0|1' bigheaders
ep EP30 '1' slowheaders "--request-timeout 3"
ep EP31 '0' trickle "--stall-timeout 2"
ep EP32 '1' closeearly
ep EP33 '0' sse_crlf "--stream"
ep EP34 '1' sse_errorevent "--stream"
ep EP35 '0|1' sse_usageonly "--stream"
ep EP36 '0' sse_comments "--stream"
ep EP37 '0|1' sse_json "--stream"
ep EP38 '0' sse_reasoning "--stream"
ep EP39 '1' sse_slowstall "--stream --stall-timeout 2"
ep EP40 '0|1' sse_hugeline "--stream"
ep EP41 '0' goodcode "--stream --stall-timeout 0.5"
c EP42 '1' '"$PB" run --model m --base-url http://127.0.0.1:1/v1 --tasks $T,$TA --turns 2 --attempts 1 --retry-max-s 0 --no-progress --out n.db | tail -2; r=${PIPESTATUS[0]}; sqlite3 n.db "select status from runs; select status from trajectories" >&2; exit $r'
c EP43 '0|1' '"$PB" run --model m --base-url $U/goodcode/v1 --tasks $T --turns 2 --concurrency 256 --cpu-jobs 256 --samples 3 --no-progress --out n.db | tail -1; exit ${PIPESTATUS[0]}'
# --- RS: run --resume
mkkill() { echo '"$PB" run --tasks $T,$TA --turns 4 --out k.db --no-progress >/dev/null 2>&1 & p=$!; for i in $(seq 1 60); do sleep 0.2; n=$(sqlite3 k.db "select count(*) from turns" 2>/dev/null || echo 0); [ "${n:-0}" -ge 2 ] && break; done; kill -KILL $p; wait $p 2>/dev/null; '; }
c RS01 '0' "$(mkkill)"'"$PB" run --resume k.db --no-progress | tail -1; r=${PIPESTATUS[0]}; sqlite3 k.db "select status from runs; select count(*) from turns" >&2; exit $r'
c RS02 '2' "$(mkkill)"'"$PB" run --resume k.db --turns 2 --no-progress'
c RS03 '2' "$(mkkill)"'"$PB" run --resume k.db --model m --base-url $U/goodcode/v1 --no-progress'
c RS04 '2' "$(mkkill)"'chmod 444 k.db; $NB "$PB" run --resume k.db --no-progress; r=$?; exit $r'
c RS05 '0' 'cp $D/merged.db m.db; "$PB" run --resume m.db --no-progress | tail -1; r=${PIPESTATUS[0]}; cmp -s m.db $D/merged.db || harm "finished merged file changed by resume"; exit $r'
c RS06 '0' 'cp $D/s0.db s.db; "$PB" run --resume s.db --no-progress | tail -1; r=${PIPESTATUS[0]}; cmp -s s.db $D/s0.db || harm "finished shard changed by resume"; exit $r'
c RS07 '0' 'cp $D/rej.db j.db; "$PB" run --resume j.db --no-progress | tail -1; r=${PIPESTATUS[0]}; cmp -s j.db $D/rej.db || harm "finished rejudge changed"; exit $r'
c RS08 '0' 'cp $D/scrrun.db k.db; "$PB" run --resume k.db --no-progress | tail -1; r=${PIPESTATUS[0]}; sqlite3 k.db "select status from runs; select count(*) from turns" >&2; exit $r'
c RS09 '2' 'cp $D/scrrun.db k.db; "$PB" run --resume k.db --out k.db --no-progress'
c RS10 '2' '"$PB" run --resume $D/places.db --no-progress'
c RS11 '2' '"$PB" run --resume $D/metaonly.db --no-progress'
c RS12 '2' 'cp $D/cfgturns0.db x.db; sqlite3 x.db "update runs set status=\"running\""; "$PB" run --resume x.db --no-progress'
c RS13 '2' 'cp $D/cfgscripttrav.db x.db; sqlite3 x.db "update runs set status=\"running\""; "$PB" run --resume x.db --no-progress'
c RS14 '2' 'cp $D/cfgtaskunk.db x.db; sqlite3 x.db "update runs set status=\"running\""; "$PB" run --resume x.db --no-progress; r=$?; sqlite3 x.db "select status from runs" >&2; exit $r'
c RS15 '2' 'cp $D/cfgctxbad.db x.db; sqlite3 x.db "update runs set status=\"running\""; "$PB" run --resume x.db --no-progress'
c RS16 '2' 'cp $D/scrrun.db k.db; "$PB" run --resume k.db --no-progress --shard 0/2'
c RS17 '2' '"$PB" run --resume ""'
c RS18 '2' '"$PB" run --resume $D'
c RS19 '0|2' 'cp $D/scrrun.db k.db; ln -s k.db l.db; "$PB" run --resume k.db --no-progress >/dev/null & "$PB" run --resume l.db --no-progress; r=$?; wait; exit $r'
c RS20 '0' 'cp $D/scrrun.db k.db; "$PB" run --resume ./k.db --no-progress --json | python3 -c "import json,sys; json.load(sys.stdin); print(\"ok\")"; exit ${PIPESTATUS[0]}'
# --- D: damaged run files, each through show --turns, show --json, report (html+junit+csv, outputs validated), sft fixit
dmg() { local name=$1 exp=$2 n=$3
  c "D${n}s" "$exp" "\"\$PB\" show \$D/$name.db --turns > s.txt; r=\$?; head -c 400 s.txt; exit \$r"
  c "D${n}j" "$exp" "\"\$PB\" show \$D/$name.db --json > s.json; r=\$?; [ \$r = 0 ] && { python3 -c 'import json,sys; json.load(open(\"s.json\"))' 2>/dev/null || echo 'BADOUTPUT: show --json is not valid JSON' >&2; }; exit \$r"
  c "D${n}h" "$exp" "\"\$PB\" report \$D/$name.db --html o.html --junit o.xml --csv o.csv; r=\$?; if [ \$r = 0 ]; then xmllint --noout o.xml 2>/dev/null || echo 'BADOUTPUT: junit is not well-formed XML' >&2; python3 -c 'import csv; rows=list(csv.reader(open(\"o.csv\",newline=\"\"))); assert len(set(map(len,rows)))==1' 2>/dev/null || echo 'BADOUTPUT: csv rows differ in width' >&2; else ls o.* >/dev/null 2>&1 && echo \"BADOUTPUT: outputs left after failure: \$(ls o.*)\" >&2; fi; exit \$r"
  c "D${n}f" "$exp" "\"\$PB\" sft fixit \$D/$name.db --out o; r=\$?; [ \$r != 0 ] && [ -e o ] && [ -n \"\$(ls -A o)\" ] && echo \"BADOUTPUT: export left after failure: \$(ls o)\" >&2; exit \$r"
}
dmg cfgconc0 2 01; dmg cfgctxbad 2 02; dmg cfgarch75 2 03; dmg cfgtaskunk '0|2' 04; dmg cfgturns0 2 05; dmg cfgturnsbig 2 06
dmg cfgtemp 2 07; dmg cfgtargetneg 2 08; dmg cfgscripttrav '0|2' 09; dmg cfgbudgetsunsorted '0|2' 10; dmg cfgbudgetsneg 2 11
dmg cfgfastpnum 2 12; dmg cfgfastpneg 2 13; dmg cfgextra 0 14; dmg cfgmodelnull 2 15; dmg cfgdeep '0|2' 16
dmg provargvstr '0|2' 17; dmg provgpusstr '0|2' 18; dmg provnopipe '0|2' 19; dmg provshardbad 2 20; dmg provstartnum '0|2' 21
dmg statusdonepart '0|2' 22; dmg finnull '0|2' 23; dmg failednoreason 0 24; dmg notevalrun '0|2' 25; dmg speedzero 2 26
dmg speedblob 2 27; dmg srcblob '0|2' 28; dmg srcbig 0 29; dmg srchashbad '0|2' 30; dmg seqrev '0|2' 31; dmg msgblob '0|2' 32
dmg msgturn0 '0|2' 33; dmg roletool 2 34; dmg turnzero 2 35; dmg catbogus 2 36; dmg statusbogus 2 37; dmg llmreasonhuge '0|2' 38
dmg flagsmixed 2 39; dmg evalempty '0|2' 40; dmg auditfam 2 41; dmg compoutcome 2 42; dmg metaextra 0 43; dmg createdbysp '0|2' 44
dmg tasknl '0|2' 45; dmg csvinj 0 46; dmg xmlctl 0 47; dmg archsm100 '0|2' 48; dmg dupsample 0 49; dmg sampleshuge '0|2' 50
dmg turnsextraorphan 2 51; dmg journaloff 0 52; dmg autovac 0 53; dmg metaview '0|2' 54; dmg idxdrop 0 55; dmg trajcols 0 56
dmg magic 2 57; dmg hdrpagesize 2 58; dmg dbsize '0|2' 59; dmg hdronly 2 60; dmg page1only 2 61; dmg lastpage 2 62
dmg places 2 63; dmg metaonly 2 64; dmg notypes '0|2' 65; dmg fakehdr 2 66
# the same damages through rejudge / coverage / kernelgen / mine --dry-run (a sample)
for x in "cfgdeep 0|2 71" "speedblob 2 72" "turnzero 2 73" "catbogus 2 74" "magic 2 75" "places 2 76" "turnsextraorphan 2 77" "cfgtemp 2 78"; do set -- $x
  c "D$3r" "$2" "\"\$PB\" rejudge \$D/$1.db --out n.db; r=\$?; [ \$r != 0 ] && ls -A | grep -v '^r.db$' | grep -q . && echo \"BADOUTPUT: left: \$(ls -A)\" >&2; exit \$r"
  c "D$3c" "$2" "\"\$PB\" sft coverage \$D/$1.db | head -3; exit \${PIPESTATUS[0]}"
  c "D$3k" "$2" "\"\$PB\" sft kernelgen \$D/$1.db --out o; r=\$?; [ \$r != 0 ] && [ -n \"\$(ls -A o 2>/dev/null)\" ] && echo 'BADOUTPUT: export left' >&2; exit \$r"
  c "D$3m" "$2" "\"\$PB\" sft mine \$D/$1.db --dry-run | head -3; exit \${PIPESTATUS[0]}"
done
# --- S: show
c S01 '2' '"$PB" show r.db --price-in -0.01'
c S02 '2' '"$PB" show r.db --price-out 1000000001'
c S03 '0' '"$PB" show r.db --price-in 1e3 --price-out 0 | tail -2; exit ${PIPESTATUS[0]}'
c S04 '2' '"$PB" show r.db --compare $FX/good.cu'
c S05 '0' 'ln -s r.db l.db; "$PB" show r.db l.db | head -2; exit ${PIPESTATUS[0]}'
c S06 '0' '"$PB" show r.db --turns --json | python3 -c "import json,sys; json.load(sys.stdin); print(\"ok\")"; exit ${PIPESTATUS[0]}'
c S07 '0' '"$PB" show $D/s0.db | head -3; exit ${PIPESTATUS[0]}'
c S08 '0' '"$PB" show $D/merged.db --compare $D/scr.db | head -5; exit ${PIPESTATUS[0]}'
c S09 '0' '"$PB" show $D/rej.db --compare $D/scr.db --json | python3 -c "import json,sys; json.load(sys.stdin); print(\"ok\")"; exit ${PIPESTATUS[0]}'
c S10 '0' '"$PB" show $D/scrrun.db | head -3; exit ${PIPESTATUS[0]}'
c S11 '2' '"$PB" show r.db --compare'
c S12 '2' '"$PB" show r.db $D/s0.db $D/s1.db --compare $D/scr.db'
c S13 '0' '"$PB" run --tasks $T --turns 3 --out w.db --no-progress >/dev/null & p=$!; sleep 1; "$PB" show w.db | head -2; r=${PIPESTATUS[0]}; wait $p; exit $r'
c S15 '2' '"$PB" show /proc/self/mem'
c S16 '0' '"$PB" show r.db --price-in 0.0000001 --price-out 999999999 --json | python3 -c "import json,sys; json.load(sys.stdin); print(\"ok\")"; exit ${PIPESTATUS[0]}'
c S18 '0|2' '"$PB" show r.db --compare r.db --turns | head -3; exit ${PIPESTATUS[0]}'
# --- H: report
c H02 '1|2' '"$PB" report r.db --html /dev/full --force'
c H03 '0' '"$PB" report r.db --csv /dev/stdout | head -1; exit ${PIPESTATUS[0]}'
c H04 '2' 'ln -s nowhere.html dl.html; "$PB" report r.db --html dl.html; r=$?; [ -e nowhere.html ] && harm "wrote through a dangling symlink without --force"; exit $r'
c H05 '0|2' 'echo keep > target.txt; ln -s target.txt l.html; "$PB" report r.db --html l.html --force; r=$?; grep -q "^keep$" target.txt || echo "symlink target target.txt was overwritten" >&2; exit $r'
c H07 '2' 'cp $D/s0.db s0c.db; "$PB" report r.db --junit s0c.db --force; r=$?; "$PB" show s0c.db >/dev/null 2>&1 || echo "run file s0c.db replaced by JUnit (--force)" >&2; exit $r'
c H08 '2' '"$PB" report r.db $D/places.db --html o.html; r=$?; [ -e o.html ] && harm "o.html written for a refused report"; exit $r'
c H09 '0' '"$PB" report r.db $D/scr.db $D/merged.db --html o.html --junit o.xml --csv o.csv; r=$?; xmllint --noout o.xml || echo "BADOUTPUT: xml" >&2; exit $r'
c H10 '0' '"$PB" report $D/scrrun.db --junit o.xml; r=$?; xmllint --noout o.xml || echo "BADOUTPUT: xml" >&2; grep -c "<testcase" o.xml >&2; exit $r'
c H11 '2' 'touch o.csv; "$PB" report r.db --csv o.csv --html o2.html; r=$?; [ -e o2.html ] && echo "o2.html written although o.csv refused" >&2; exit $r'
c H12 '0|1' 'mkdir tfs; mount -t tmpfs -o size=40k tmpfs tfs; "$PB" report r.db --html tfs/o.html; r=$?; ls -A tfs >&2; umount tfs; exit $r'
c H13 '1' 'mkdir tfs; mount -t tmpfs -o size=20k tmpfs tfs; "$PB" report r.db --html tfs/o.html --csv tfs/o.csv; r=$?; ls -A tfs >&2; [ -n "$(ls -A tfs)" ] && echo "BADOUTPUT: left $(ls -A tfs)" >&2; umount tfs; exit $r'
c H14 '2' '"$PB" report r.db --html "$(printf "o\nx.html")"; r=$?; ls >&2; exit $r'
c H15 '0' '"$PB" report r.db --html "ünï ✓.html" | tail -1; exit ${PIPESTATUS[0]}'
c H16 '2' '"$PB" report --csv o.csv -- r.db --force'
c H17 '2' '"$PB" report r.db --html /proc/o.html'
c H18 '1' '"$PB" report r.db --csv /dev/stdout >&-'
c H19 '0' '"$PB" report $D/csvinj.db --csv o.csv; r=$?; grep -q "^=\|,=\|,+" o.csv && echo "CSV formula cells present (spreadsheet injection): $(grep -o "=HYPERLINK[^,]*" o.csv | head -1)" >&2; exit $r'
c H20 '0' '"$PB" report $D/xmlctl.db --junit o.xml; r=$?; xmllint --noout o.xml 2>&1 | head -2 >&2; xmllint --noout o.xml 2>/dev/null || echo "BADOUTPUT: junit not well-formed" >&2; exit $r'
# --- Q: gate
c Q01 '17' '"$PB" gate $FX/good.cu --task $T --min-speedup 0'
c Q02 '2' '"$PB" gate $FX/good.cu --task $T --min-speedup 1000.0001'
c Q03 '17' '"$PB" gate $FX/good.cu $FX/good.cu --task $T --junit j.xml; r=$?; grep -c "<testcase" j.xml >&2; exit $r'
c Q04 '2' '"$PB" gate $FX --task $T'
c Q05 '2' '"$PB" gate $FX/good.cu --task nosuch --junit j.xml; r=$?; [ -e j.xml ] && harm "j.xml for unknown task"; exit $r'
c Q06 '2' 'echo keep > j.jsonl; "$PB" gate $FX/good.cu --task $T --json j.jsonl; r=$?; grep -q keep j.jsonl || harm "j.jsonl overwritten without --force"; exit $r'
c Q07 '2' 'touch f; "$PB" gate $FX/good.cu --task $T --junit f/j.xml'
c Q08 '11|2' '"$PB" gate $FX/zero.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c Q09 '11' '"$PB" gate $FX/rp_cu.md --task $T | tail -1; exit ${PIPESTATUS[0]}'
c Q10 '17' '"$PB" gate $FX/good.cu --task $T --arch sm_100a | tail -1; exit ${PIPESTATUS[0]}'
c Q11 '12' '"$PB" gate $FX/exact1m1.cu $FX/good.cu --task $T --junit j.xml --json j.jsonl; r=$?; xmllint --noout j.xml || echo BADOUTPUT: xml >&2; wc -l < j.jsonl >&2; exit $r'
c Q12 '11' '"$PB" gate $FX/cerr.cu $FX/exact1m1.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c Q13 '2' '"$PB" gate $FX/good.cu --task $T --min-speedup ""'
c Q14 '2' '"$PB" gate $FX/good.cu --task $T --min-speedup nan'
c Q15 '2' '"$PB" gate $FX/good.cu nonexistent.cu --task $T --junit j.xml; r=$?; [ -e j.xml ] && echo "j.xml written" >&2; exit $r'
c Q16 '17' '"$PB" gate $FX/good.cu --task $T --json /dev/stdout | python3 -c "import json,sys; [json.loads(l) for l in sys.stdin]; print(\"ok\")"; exit ${PIPESTATUS[0]}'
c Q17 '12' '"$PB" gate $FX/inc_angle_dotdot.cu --task $T --require-arch | tail -1; exit ${PIPESTATUS[0]}'
c Q18 '17' 'PTXBENCH_NO_GPU=1 "$PB" gate $FX/good.cu --task $T --require-arch --allow-weaker-sandbox --shared-inputs | tail -1; exit ${PIPESTATUS[0]}'
c Q19 '2' '"$PB" gate $FX/good.cu --task $T --junit j.xml --json j.xml'
c Q20 '1' 'mkdir tfs; mount -t tmpfs -o size=8k tmpfs tfs; head -c 6000 /dev/zero > tfs/fill; "$PB" gate $FX/good.cu $FX/cerr.cu --task $T --json tfs/j.jsonl; r=$?; ls -la tfs >&2; umount tfs; exit $r'
# --- J: rejudge
c J01 '2' 'mkdir ro; chmod 555 ro; $NB "$PB" rejudge $D/scr.db --out ro/n.db'
c J02 '2' 'ln -s $D/scr.db l.db; "$PB" rejudge l.db --out $D/scr.db'
c J03 '0' '"$PB" rejudge $D/s0.db --out n.db | tail -1; r=${PIPESTATUS[0]}; "$PB" show n.db | head -1 >&2; exit $r'
c J04 '0' '"$PB" rejudge $D/merged.db --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c J05 '0' '"$PB" rejudge $D/scr.db --allow-partial --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c J06 '1' '"$PB" rejudge $D/scr.db --out n.db --json > /dev/full; r=$?; [ -e n.db ] && echo "n.db kept although the output failed" >&2; exit $r'
c J07 '0|2' 'PTXBENCH_ROOT=$R/dupkey "$PB" rejudge $D/scr.db --out n.db'
c J08 '2' '"$PB" rejudge $D/scrrun.db --out n.db; r=$?; [ -e n.db ] && harm "n.db for refused partial"; exit $r'
c J09 '0' '"$PB" rejudge $D/scrrun.db --allow-partial --out n.db | tail -1; r=${PIPESTATUS[0]}; sqlite3 n.db "select json_extract(provenance_json,\"$.rejudge_of.partial\") from runs" >&2; exit $r'
c J10 '143' '"$PB" rejudge $D/scr.db --out n.db >/dev/null & p=$!; sleep 0.3; kill -TERM $p; wait $p; r=$?; ls -A | grep -v "^r.db$" | grep . && echo "BADOUTPUT: left behind" >&2; exit $r'
c J11 '2' '"$PB" rejudge $D/scr.db $D/s0.db --out n.db'
c J12 '2' '"$PB" rejudge $D/scr.db --out n.db --shared-inputs --memcheck --allow-partial --json --out m.db'
c J13 '0|1' 'mkdir tfs; mount -t tmpfs -o size=60k tmpfs tfs; "$PB" rejudge $D/scr.db --out tfs/n.db; r=$?; ls -A tfs >&2; [ $r != 0 ] && [ -n "$(ls -A tfs)" ] && echo "BADOUTPUT: left $(ls -A tfs)" >&2; umount tfs; exit $r'
# --- M: merge
c M01 '2' '"$PB" merge $D/s0.db $D/s1t3.db --out m.db; r=$?; [ -e m.db ] && harm "m.db made from different runs"; exit $r'
c M02 '2' '"$PB" merge $D/s0.db $D/s0.db --out m.db'
c M03 '2' '"$PB" merge $D/s0.db $D/s1.db $D/t0.db --out m.db'
c M04 '2' '"$PB" merge $D/scr.db $D/s1.db --out m.db'
c M05 '2' 'cp $D/s0.db a.db; "$PB" merge a.db $D/s1.db --out a.db; r=$?; cmp -s a.db $D/s0.db || harm "input shard changed"; exit $r'
c M06 '2' '"$PB" merge $D/merged.db --out m.db'
c M07 '2' '"$PB" merge $D/s0.db $D/s1dupidx.db --out m.db'
c M08 '2' '"$PB" merge $D/s0.db $D/s1cfgtasks.db --out m.db'
c M09 '0|2' '"$PB" merge $D/s0.db $D/s1gitother.db --out m.db | tail -1; exit ${PIPESTATUS[0]}'
c M10 '0' '"$PB" merge $D/s0.db $D/s1seed.db --out m.db | tail -1; exit ${PIPESTATUS[0]}'
c M11 '0' '"$PB" merge $D/t0.db --allow-partial --out m.db | tail -1; r=${PIPESTATUS[0]}; sqlite3 m.db "select status from runs" >&2; exit $r'
c M12 '2' '"$PB" merge $D/t0.db --out m.db'
c M13 '2' 'ln -s $D/s0.db l0.db; "$PB" merge $D/s0.db l0.db --out m.db'
c M14 '2' 'ln -s m.db dangling.db; "$PB" merge $D/s0.db $D/s1.db --out dangling.db; r=$?; [ -e m.db ] && echo "wrote through dangling link" >&2; exit $r'
c M15 '129' '"$PB" merge $D/s0.db $D/s1.db --out m.db & p=$!; sleep 0.05; kill -HUP $p; wait $p; r=$?; ls -A | grep -v "^r.db$\|^m.db$" | grep . && echo "BADOUTPUT: temp left" >&2; exit $r'
c M16 '0' '"$PB" merge $D/s1.db $D/s0.db --out "sp ace/ü m.db" | tail -1; exit ${PIPESTATUS[0]}'
c M17 '1' 'mkdir tfs; mount -t tmpfs -o size=50k tmpfs tfs; "$PB" merge $D/s0.db $D/s1.db --out tfs/m.db; r=$?; ls -A tfs >&2; [ -n "$(ls -A tfs)" ] && echo "BADOUTPUT: left $(ls -A tfs)" >&2; umount tfs; exit $r'
c M18 '2' '"$PB" merge $D/s0.db $D/places.db --out m.db'
c M19 '2' '"$PB" merge $D/s0.db $D/s1.db --out m.db --out n.db'
# --- F: sft fixit / kernelgen
c F01 '2' '"$PB" sft fixit r.db --out o --categories passed'
c F02 '0|2' '"$PB" sft fixit r.db --out o --categories compile_error,compile_error | tail -1; exit ${PIPESTATUS[0]}'
c F05 '2' '"$PB" sft fixit r.db --out o --max-tokens 10000001'
c F06 '2' '"$PB" sft fixit r.db --out o --bytes-per-token 1000.1'
c F07 '2' '"$PB" sft fixit r.db --out o --pairing ""'
c F08 '0' '"$PB" sft fixit r.db --out o --heldout-task gemm_n7168_k5120,mha_bwd_d128,mha_bwd_d128_causal,mha_with_lse_d128,mha_with_lse_d128_causal | tail -1; r=${PIPESTATUS[0]}; wc -l o/*.jsonl >&2; exit $r'
c F09 '2' '"$PB" sft fixit r.db --out o --allow-flag ""'
c F10 '2' 'echo keep > ofile; "$PB" sft fixit r.db --out ofile; r=$?; grep -q keep ofile || harm "file replaced"; exit $r'
c F11 '2' 'echo keep > notes.txt; "$PB" sft fixit r.db --out .; r=$?; grep -q keep notes.txt || harm "notes.txt lost"; exit $r'
c F12 '2' 'mkdir o; echo mine > o/notes.txt; "$PB" sft fixit r.db --out o --force; r=$?; [ -f o/notes.txt ] || harm "unrelated o/notes.txt deleted by --force"; exit $r'
c F13 '0' 'mkdir o; "$PB" sft fixit r.db --out o | tail -1; exit ${PIPESTATUS[0]}'
c F14 '2' '"$PB" sft fixit r.db --out /'
c F15 '130' '"$PB" sft kernelgen r.db $D/scr.db $D/merged.db --out o & p=$!; sleep 0.01; kill -INT $p; wait $p; r=$?; ls -A . o 2>&1 | tr "\n" " " >&2; [ -e o.lock ] && echo "BADOUTPUT: lock left" >&2; exit $r'
c F16 '0|2' '"$PB" sft kernelgen r.db --out o --per-task-cap 0 | tail -1; exit ${PIPESTATUS[0]}'
c F17 '2' 'echo keep > ofile; "$PB" sft kernelgen r.db --out ofile --force; r=$?; grep -q keep ofile || harm "file replaced by --force"; exit $r'
c F18 '0' '"$PB" sft kernelgen r.db --out o --heldout-task $T --heldout-task $TA | tail -1; exit ${PIPESTATUS[0]}'
c F19 '2' '"$PB" sft kernelgen r.db --out o --heldout-task nosuch'
c F20 '0' '"$PB" sft fixit r.db $D/scr.db --out o | tail -1; exit ${PIPESTATUS[0]}'
c F22 '2' 'mkdir o; chmod 555 o; $NB "$PB" sft fixit r.db --out o'
c F23 '1' 'mkdir tfs; mount -t tmpfs -o size=12k tmpfs tfs; "$PB" sft fixit r.db --out tfs/o; r=$?; ls -A tfs tfs/o 2>&1 | tr "\n" " " >&2; [ -n "$(ls -A tfs/o 2>/dev/null)" ] && echo "BADOUTPUT: half export left" >&2; umount tfs; exit $r'
c F25 '0' '"$PB" sft fixit $D/scrrun.db --out o | tail -1; exit ${PIPESTATUS[0]}'
# --- V: coverage
c V01 '0' '"$PB" sft coverage r.db --json --pairing all | python3 -c "import json,sys; json.load(sys.stdin); print(\"ok\")"; exit ${PIPESTATUS[0]}'
c V03 '2' '"$PB" sft coverage r.db --out r.db'
c V05 '2' '"$PB" sft coverage r.db --categories nosuch'
c V06 '1' '"$PB" sft coverage r.db > /dev/full'
c V07 '0' '"$PB" sft coverage r.db $D/scr.db $D/s0.db | tail -2; exit ${PIPESTATUS[0]}'
c V08 '0|2' '"$PB" sft coverage r.db --force'
c V09 '0|2' '"$PB" sft coverage r.db --no-reasoning --max-tokens 0 | tail -1; exit ${PIPESTATUS[0]}'
# --- N: sft mine
MN='--limit 1 --attempts 1 --retry-max-s 1'
export MN
c N01 '2' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out mine.db --turns 0'
c N02 '2' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out mine.db --turns 65'
c N03 '2' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out mine.db --speedup-target 1001'
c N04 '2' 'echo keep > mine.db; "$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out mine.db $MN; r=$?; grep -q keep mine.db || harm "mine.db replaced"; exit $r'
c N05 '2' 'mkdir mine.db; "$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out mine.db $MN'
c N06 '0' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out mine.db $MN | tail -2; r=${PIPESTATUS[0]}; "$PB" show mine.db | head -2 >&2; exit $r'
c N07 '0|1' '"$PB" sft mine r.db --model m --base-url $U/nocode/v1 --out mine.db $MN | tail -2; exit ${PIPESTATUS[0]}'
c N08 '1' '"$PB" sft mine r.db --model m --base-url $U/e403/v1 --out mine.db $MN | tail -2; exit ${PIPESTATUS[0]}'
c N09 '0' '"$PB" sft mine r.db --model m --base-url $U/sse_crlf/v1 --stream --out mine.db $MN | tail -2; exit ${PIPESTATUS[0]}'
c N10 '2' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out r.db $MN; r=$?; cmp -s r.db $W/run.db || harm "input run changed"; exit $r'
c N11 '2' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --api-key-env UNSET_VAR_C4 --out mine.db $MN'
c N12 '0' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out mine.db $MN >/dev/null; "$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out mine.db $MN | tail -1; r=${PIPESTATUS[0]}; sqlite3 mine.db "select count(*) from trajectories" >&2; exit $r'
c N13 '0|2' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out mine.db $MN >/dev/null; "$PB" sft mine r.db --model other --base-url $U/goodcode/v1 --out mine.db $MN --temperature 0 | tail -1; exit ${PIPESTATUS[0]}'
c N14 '0|2' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out mine.db $MN & "$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out mine.db $MN; r=$?; wait; sqlite3 mine.db "pragma integrity_check; select count(*) from trajectories" >&2; exit $r'
c N15 '2' '"$PB" sft mine $D/places.db --dry-run'
c N16 '130' '"$PB" sft mine r.db --model m --base-url $U/slowheaders/v1 --out mine.db --limit 1 --request-timeout 60 & p=$!; sleep 2; kill -INT $p; wait $p; r=$?; sqlite3 mine.db "pragma integrity_check" >&2; exit $r'
c N17 '2' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out mine.db --limit -1'
c N18 '0' '"$PB" sft mine r.db --dry-run --limit 1000000 | tail -1; exit ${PIPESTATUS[0]}'
c N19 '2' '"$PB" sft mine r.db --model m --out mine.db $MN'
c N20 '2' '"$PB" sft mine r.db --model m --base-url "$U/goodcode/v1?k=v" --out mine.db $MN'
# --- L: slurm
c L03 '0' '"$PB" slurm script --shards 1 | grep -c "#SBATCH"; exit ${PIPESTATUS[0]}'
c L04 '2' '"$PB" slurm script --shards 2x'
c L05 '0|2' '"$PB" slurm script --shards 2 --gpus-per-shard 0 | grep -i "gres\|gpus" | head -3; exit ${PIPESTATUS[0]}'
c L07 '2' '"$PB" slurm script --shards 2 --time bogus'
c L08 '2' '"$PB" slurm script --shards 2 --time "$(printf "01:00:00\n#SBATCH --wrap=id")"'
c L09 '0|2' '"$PB" slurm script --shards 2 --partition "gpu q\"x" > s.sh; r=$?; [ $r = 0 ] && { bash -n s.sh || echo "BADOUTPUT: script syntax" >&2; grep -n partition s.sh >&2; }; exit $r'
c L10 '0|2' '"$PB" slurm script --shards 2 --account "\$(id)" > s.sh; r=$?; [ $r = 0 ] && { grep -n "account" s.sh >&2; }; exit $r'
c L11 '0|2' '"$PB" slurm script --shards 2 --sbatch-arg "--wrap=rm -rf /" > s.sh; r=$?; grep -n "wrap" s.sh >&2; exit $r'
c L12 '2' '"$PB" slurm script --shards 2 --sbatch-arg "$(printf -- "--qos=x\nrm -rf ~")"; r=$?; exit $r'
c L13 '2' 'touch dfile; "$PB" slurm script --shards 2 --dir dfile'
c L14 '0|2' '"$PB" slurm script --shards 2 --dir / | grep -n "merged.db" | head -2; exit ${PIPESTATUS[0]}'
c L16 '2' '"$PB" slurm script --shards 2 -- --turns abc'
c L17 '2' '"$PB" slurm script --shards 2 --gpus-per-shard 1 -- --gpus 2'
c L18 '2' '"$PB" slurm script --shards 2 -- --json --model m'
c L19 '2' 'PATH=/usr/bin:/bin "$PB" slurm submit --shards 2 --dir d'
c L20 '0' 'PATH=$B/sb_sbatch_ok:$PATH "$PB" slurm submit --shards 2 --dir d | tail -2; exit ${PIPESTATUS[0]}'
c L21 '1' 'PATH=$B/sb_sbatch_silent:$PATH "$PB" slurm submit --shards 2 --dir d'
c L22 '0' 'PATH=$B/sb_sbatch_warn:$PATH "$PB" slurm submit --shards 2 --dir d | tail -2; exit ${PIPESTATUS[0]}'
c L23 '1' 'PATH=$B/sb_sbatch_html:$PATH "$PB" slurm submit --shards 2 --dir d'
c L24 '0' 'PATH=$B/sb_sbatch_args:$PATH "$PB" slurm submit --shards 2 --dir "a b" --job-name "j k" | tail -1; r=${PIPESTATUS[0]}; cat $B/sbatch_args.txt >&2; exit $r'
c L25 '1' 'PATH=$B/sb_sbatch_137:$PATH "$PB" slurm submit --shards 2 --dir d'
c L26 '2' 'PATH=$B/sb_nonexec:/usr/bin:/bin "$PB" slurm submit --shards 2 --dir d'
c L27 '2' '"$PB" slurm --shards 2'
c L28 '2' '"$PB" slurm script submit --shards 2'
c L29 '0' '"$PB" slurm script --shards 3 --dir "$(printf "d\x27q")" > s.sh; r=$?; bash -n s.sh || echo "BADOUTPUT: script syntax" >&2; exit $r'
c L30 '2' '"$PB" slurm script --shards 2 -- --tasks nosuch'
# --- X: full disk, file-size limit, interrupts, concurrency, unprivileged user, same file
c X01 '1' 'mkdir tfs; mount -t tmpfs -o size=64k tmpfs tfs; "$PB" run --tasks $T,$TA --turns 2 --out tfs/n.db --no-progress | tail -2; r=${PIPESTATUS[0]}; ls -A tfs >&2; umount tfs; exit $r'
c X02 '1' 'mkdir tfs; mount -t tmpfs -o size=30k tmpfs tfs; "$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out tfs/mine.db $MN; r=$?; ls -A tfs >&2; umount tfs; exit $r'
c X03 '1' 'mkdir tfs; mount -t tmpfs -o size=8k tmpfs tfs; "$PB" sft coverage r.db --out tfs/c.txt; r=$?; ls -la tfs >&2; [ -n "$(ls -A tfs)" ] && echo "BADOUTPUT: left" >&2; umount tfs; exit $r'
c X04 '1' '(ulimit -f 2; "$PB" sft kernelgen r.db --out o); r=$?; ls -A o 2>&1 | tr "\n" " " >&2; [ -n "$(ls -A o 2>/dev/null)" ] && echo "BADOUTPUT: half export" >&2; exit $r'
c X05 '1' '(ulimit -f 1; "$PB" slurm script --shards 400 > s.sh); r=$?; exit $r'
c X06 '1' '(ulimit -f 1; "$PB" show r.db --turns > s.txt); exit $?'
c X07 '1' '(ulimit -f 1; "$PB" prompt $T > p.txt); exit $?'
c X08 '1' 'cp $D/scrrun.db k.db; (ulimit -f 20; "$PB" run --resume k.db --no-progress); r=$?; sqlite3 k.db "pragma integrity_check" >&2; exit $r'
c X09 '129' '"$PB" run --model m --base-url $U/slowheaders/v1 --tasks $T,$TA --turns 4 --request-timeout 60 --out n.db --no-progress > log.txt 2>&1 & p=$!; sleep 2; kill -HUP $p; wait $p; r=$?; tail -1 log.txt >&2; sqlite3 n.db "pragma integrity_check; select status from runs" >&2; exit $r'
c X10 '143' '"$PB" sft coverage r.db $D/scr.db --out c.txt & p=$!; sleep 0.05; kill -TERM $p; wait $p; r=$?; ls -A >&2; exit $r'
c X11 '130' '"$PB" report r.db $D/scr.db $D/merged.db --html o.html --csv o.csv & p=$!; sleep 0.02; kill -INT $p; wait $p; r=$?; ls -A | grep -v "^r.db$" | grep . && echo "BADOUTPUT: left after interrupt" >&2; exit $r'
c X12 '130' 'PTXBENCH_CACHE=$PWD/c "$PB" gate $FX/ref.cu --task $T --json j.jsonl & p=$!; sleep 2; kill -INT $p; wait $p; r=$?; ls -A >&2; exit $r'
c X13 '130' 'PTXBENCH_CACHE=$PWD/c "$PB" eval $FX/ref.cu --task $T & p=$!; sleep 1.5; kill -INT $p; wait $p; r=$?; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/ref.cu --task $T | head -1 >&2; exit $r'
c X14 '143' 'PTXBENCH_CACHE=$PWD/c "$PB" audit $FX/ref.cu --task $T & p=$!; sleep 1.5; kill -TERM $p; wait $p; r=$?; sleep 0.5; pgrep -f "$PWD/c" >&2 && echo "BADOUTPUT: child processes left" >&2; exit $r'
c X15 '130' '"$PB" run --model m --base-url $U/slowheaders/v1 --tasks $T --turns 1 --request-timeout 60 --out n.db --no-progress & p=$!; sleep 2; kill -INT $p; wait $p; r=$?; sqlite3 n.db "select status from runs; select status from trajectories" >&2; exit $r'
c X16 '130' 'PATH=$B/sb_sbatch_hang:$PATH "$PB" slurm submit --shards 2 --dir d & p=$!; sleep 1; kill -INT $p; wait $p; r=$?; sleep 0.3; pgrep -f sb_sbatch_hang >&2 && echo "BADOUTPUT: sbatch child left running" >&2; exit $r'
c X17 '0|130' 'PATH=$B/sb_sbatch_ok:$PATH "$PB" slurm submit --shards 2 --dir d & p=$!; sleep 0.05; kill -INT $p; wait $p; exit $?'
c X18 '0|2' '"$PB" run --tasks $T --turns 1 --out same.db --no-progress >/dev/null 2>e1 & "$PB" run --tasks $TA --turns 1 --out same.db --no-progress; r=$?; wait; cat e1 >&2; sqlite3 same.db "pragma integrity_check; select task from trajectories" >&2; exit $r'
c X19 '0' 'cp $D/scr.db a.db; "$PB" rejudge a.db --out n1.db >/dev/null & "$PB" rejudge a.db --out n2.db | tail -1; r=${PIPESTATUS[0]}; wait; cmp -s a.db $D/scr.db || harm "input changed"; exit $r'
c X20 '0|2' '"$PB" rejudge $D/scr.db --out n.db >/dev/null & "$PB" rejudge $D/scr.db --out n.db; r=$?; wait; ls -A >&2; sqlite3 n.db "pragma integrity_check" >&2; exit $r'
c X21 '0|2' '"$PB" merge $D/s0.db $D/s1.db --out m.db >/dev/null & "$PB" merge $D/s0.db $D/s1.db --out m.db; r=$?; wait; ls -A >&2; sqlite3 m.db "pragma integrity_check; select count(*) from trajectories" >&2; exit $r'
c X22 '0|2' '"$PB" sft fixit r.db --out o >/dev/null & "$PB" sft fixit r.db --out o; r=$?; wait; ls -A o >&2; exit $r'
c X23 '0|2' '"$PB" report r.db --html o.html --force >/dev/null & "$PB" report r.db --html o.html --force; r=$?; wait; tail -c 20 o.html >&2; exit $r'
c X24 '0' 'cp $D/scrrun.db k.db; "$PB" run --resume k.db --no-progress >/dev/null & "$PB" report k.db --csv o.csv; r=$?; wait; exit $r'
c X25 '0' 'cp $D/scrrun.db k.db; "$PB" run --resume k.db --no-progress >/dev/null & "$PB" sft fixit k.db --out o | tail -1; r=${PIPESTATUS[0]}; wait; exit $r'
c X26 '2' 'cp $D/scr.db k.db; chmod 644 k.db; $NB "$PB" sft mine k.db --model m --base-url $U/goodcode/v1 --out k.db $MN'
c X27 '0' 'cp $D/scr.db k.db; chmod 444 k.db; $NB "$PB" show k.db | head -1; exit ${PIPESTATUS[0]}'
c X28 '0' 'cp $D/scr.db k.db; chmod 444 k.db; $NB "$PB" report k.db --csv /tmp/campaign4/work/tmp/X28/o.csv; exit $?'
c X29 '2' 'mkdir -m 711 dd; cp $D/scr.db dd/k.db; chmod 600 dd/k.db; $NB "$PB" sft fixit dd/k.db --out $W/tmp/X29/o'
c X30 '2' 'cp $D/scrrun.db k.db; chmod 644 k.db; $NB "$PB" run --resume k.db --no-progress; r=$?; exit $r'
c X31 '0|1|2' '$NB env HOME=/nonexistent PTXBENCH_CACHE= "$PB" compile $FX/good.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c X32 '0' 'mkdir -m 777 wr; $NB env PTXBENCH_CACHE=$W/nbcache "$PB" run --tasks $T --turns 1 --out wr/n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c X33 '2' '"$PB" report r.db --csv ./r.db-journal --force; r=$?; [ -e r.db-journal ] && echo "r.db-journal made" >&2; exit $r'
c X34 '2' 'cp $D/scr.db k.db; "$PB" sft coverage k.db --out k.db-wal --force'
c X35 '2' '"$PB" rejudge r.db --out r.db-shm'
c X36 '2' 'cp $D/s0.db a.db; "$PB" merge a.db $D/s1.db --out a.db-wal'
c X37 '2' 'cp $D/scr.db k.db; "$PB" gate $FX/good.cu --task $T --junit k.db --force; r=$?; "$PB" show k.db >/dev/null || harm "run file overwritten by gate --junit"; exit $r'
c X38 '2' '"$PB" sft fixit r.db --out o; "$PB" report r.db --csv o/train.jsonl --force; r=$?; exit $r'
c X39 '2' 'cp $D/scr.db k.db; "$PB" run --tasks $T --turns 1 --out ./k.db --no-progress; r=$?; cmp -s k.db $D/scr.db || harm "existing run overwritten"; exit $r'
c X40 '0' 'cp $D/scrrun.db k.db; python3 -c "import sqlite3,time; c=sqlite3.connect(\"k.db\"); c.execute(\"begin\"); c.execute(\"select count(*) from turns\").fetchone(); time.sleep(5)" & sleep 1; "$PB" run --resume k.db --no-progress | tail -1; r=${PIPESTATUS[0]}; wait; exit $r'
c X41 '0|2' 'cp $D/scrrun.db k.db; python3 -c "import sqlite3,time; c=sqlite3.connect(\"k.db\"); c.execute(\"begin immediate\"); time.sleep(8)" & sleep 1; "$PB" run --resume k.db --no-progress | tail -1; r=${PIPESTATUS[0]}; wait; sqlite3 k.db "pragma integrity_check" >&2; exit $r'
