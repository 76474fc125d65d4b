#!/usr/bin/env bash
# ptxbench bad-input campaign 5.  usage: campaign.sh [PTXBENCH_BINARY]
#   env: ONLY=<regex of case ids>; W=<workdir, default /tmp/campaign/work5/w>; OUT=<logs, default /tmp/campaign/work5/out>
# Each case: c ID EXPECTED_EXIT_REGEX 'COMMAND'. Writes $OUT/raw.tsv:
#   id, command, exit, crash(auto), data(auto), message (first line), auto (ok|review), note
# judgments.tsv (hand judgments of the cases sent to review) + merge.py make cases.tsv.
# Needs root (tmpfs mounts, setpriv to uid 65534), python3, sqlite3, xmllint.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PB=$(readlink -f "${1:-/tmp/campaign/bin5/ptxbench}")
W=${W:-/tmp/campaign/work5/w}; OUT=${OUT:-/tmp/campaign/work5/out}; ONLY=${ONLY:-.}
RUNSRC=${RUNSRC:-/work/shared/runs/2026-11-30-h200-main.db}
mkdir -p "$W" "$OUT/logs"; W=$(readlink -f "$W"); OUT=$(readlink -f "$OUT"); : > "$W/setup.err"
export PB W OUT
export PTXBENCH_ROOT=${PTXBENCH_ROOT:-/tmp/campaign/root5} PTXBENCH_CACHE=${PTXBENCH_CACHE:-/tmp/campaign/cache5}
export PTXBENCH_CUOBJDUMP=${PTXBENCH_CUOBJDUMP:-/work/main/.deps/bin/cuobjdump} PTXBENCH_NVDISASM=${PTXBENCH_NVDISASM:-/work/main/.deps/bin/nvdisasm}
export ROOT=$PTXBENCH_ROOT K=$PTXBENCH_ROOT/kernels T=gemm_n7168_k5120 TA=mha_with_lse_d128 FX=$W/fx D=$W/db R=$W/roots B=$W/bin
export NB="setpriv --reuid=65534 --regid=65534 --clear-groups"
export PORT=${PORT:-18735}; export U=http://127.0.0.1:$PORT
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
  rm -rf "$W/fx" "$W/db" "$W/o" "$W/roots" "$W/tmp" "$W/bin"; mkdir -p "$W/fx" "$W/db" "$W/o" "$W/roots" "$W/tmp" "$W/bin" "$W/nbcache"
  chmod 755 "$W" "$W/fx" "$W/db" "$W/o" "$W/roots" "$W/bin"; chmod 777 "$W/nbcache" "$W/tmp"
  cp "$RUNSRC" "$W/run.db"; chmod 644 "$W/run.db"; sha256sum "$W/run.db" | cut -d' ' -f1 > "$W/src.sha"
  # ------------------------------------------------------------ kernel sources and replies
  cd "$FX" || exit 1
  cp "$K/controls/gemm/naive_correct.cu" good.cu
  cp "$K/controls/gemm/compile_error.cu" cerr.cu
  cp "$K/controls/gemm/off_by_one.cu" wrong.cu
  cp "$K/reference/sm_90a/gemm_n7168_k5120.cu" ref.cu
  cp "$K/examples/tvm_ffi/gemm.cu" tvm.cu
  { printf '#import "/etc/passwd"\n'; cat good.cu; } > inc_import.cu
  { printf '#pragma GCC dependency "/etc/passwd"\n'; cat good.cu; } > pragma_dep.cu
  { cat good.cu; printf '\n__asm__(".inc" "bin \\"/etc/passwd\\"");\n'; } > incbin_split.cu
  { cat good.cu; printf '\n__asm__(".include \\"/etc/passwd\\"");\n'; } > asm_include.cu
  { cat good.cu; printf '\n__asm__(".INCBIN \\"/etc/hostname\\"");\n'; } > incbin_upper.cu
  { cat good.cu; printf '\n#if __has_include_next(<../../../../etc/passwd>)\nint leak2 = 1;\n#endif\n'; } > has_include_next.cu
  { cat good.cu; printf '\n#if defined(__has_embed)\n#if __has_embed("/etc/passwd")\nint leak3 = 1;\n#endif\n#endif\n'; } > has_embed.cu
  { printf '#include __FILE__\n'; cat good.cu; } > inc_self.cu
  { printf '#include "./../../../../etc/hostname"\n'; cat good.cu; } > inc_dotslash.cu
  { printf '#include "..\\\\..\\\\etc\\\\passwd"\n'; cat good.cu; } > inc_backslash.cu
  { printf '#include "\xef\xbd\x83uda_runtime.h"\n'; cat good.cu; } > inc_fullwidth.cu
  { printf '#include <cuda_runtime.h >\n'; cat good.cu; } > inc_space.cu
  { printf '#line 1 "/etc/passwd"\n'; cat good.cu; } > line_directive.cu
  { cat good.cu; printf '\nstatic_assert(sizeof(int) == 3, "ptxbench-campaign5: deliberate static_assert");\n'; } > static_assert.cu
  { cat good.cu; printf '\n__attribute__((section(".nv_fatbin"))) const char forged[64] = "forged fatbin bytes";\n'; } > fatbin_section.cu
  { cat good.cu; printf '\n__attribute__((section(".nv.info"))) const char forged2[16] = "x";\n'; } > nvinfo_section.cu
  { printf '#define ptxbench_launch ptxbench_launch_renamed\n'; cat good.cu; } > entry_renamed.cu
  sed 's/extern "C"//' good.cu > entry_cxx.cu
  { printf 'extern "C" int ptxbench_launch = 1;\n'; } > entry_var.cu
  { cat good.cu; printf '\nextern "C" __attribute__((weak)) int ptxbench_launch_alias(void) { return 0; }\n'; } > entry_weak_extra.cu
  { cat good.cu; printf '\n__global__ void \xd1\x8f\xd0\xb4\xd1\x80\xd0\xbe(float* p) { if (p) p[0] = 1.f; }\n'; } > unicode_ident.cu
  { cat good.cu; printf '\n#include <thread>\nstatic std::thread* t = nullptr;\n'; } > inc_thread.cu
  { cat good.cu; printf '\n#pragma nv_diag_suppress 177\n#pragma GCC poison system\n'; } > pragma_poison.cu
  { cat good.cu; printf '\n__asm__(".section .init_array,\\"aw\\"\\n.quad 0\\n.previous");\n'; } > init_array.cu
  { cat good.cu; printf '\nextern "C" void _init(void);\n'; } > decl_init.cu
  printf '\xef\xbb\xbf' > bomonly.cu
  printf '\xef\xbb\xbf\n\n' > bomnl.cu
  { printf '\xef\xbb\xbf'; cat good.cu; } > bom_ok.cu
  { cat good.cu; printf '\n// bad utf8 in a comment: \xc0\xaf \xed\xa0\x80 \xf8\x88\x80\x80\x80\n'; } > badutf8_comment.cu
  { cat good.cu; printf '\nstatic const char* s = "\xc0\xaf";\n'; } > badutf8_string.cu
  python3 - <<'PY'
g=open('good.cu','rb').read()
open('utf16le_bom.cu','wb').write(b'\xff\xfe'+g.decode().encode('utf-16-le'))
open('nul_middle.cu','wb').write(g[:len(g)//2]+b'\0'+g[len(g)//2:])
open('long_line.cu','wb').write(g+b'\nint z = 0' + b' + 0'*200000 + b';\n')
open('many_lines.cu','wb').write(g+b'\n'*400000)
open('sz.txt','w').write(str(len(g)))
PY
  cp good.cu good.txt; cp good.cu good.CU; cp good.cu noext; cp good.cu ' spaced name.cu'; cp good.cu -- '-dash.cu' 2>/dev/null || cp good.cu ./-dash.cu
  ln -s /etc/shadow shadow_link.cu; ln -s good.cu rel_link.cu; ln -s nowhere.cu dangling.cu; mkdir dir.cu
  chmod 644 -- *.cu
  # replies
  { printf 'Here:\n```CUDA\n'; cat good.cu; printf '```\n'; } > rp_upper.md
  { printf 'Here:\n```ptx\n.version 8.0\n```\n'; } > rp_ptx.md
  { printf 'Here:\n```cuda {.numberLines}\n'; cat good.cu; printf '```\n'; } > rp_attrs.md
  { printf 'Here:\n```cuda title="k.cu"\n'; cat good.cu; printf '```\n'; } > rp_title.md
  { printf 'Here:\n``` cuda\n'; cat good.cu; printf '```\n'; } > rp_spacelang.md
  { printf 'Here:\n```cuda\n'; cat good.cu; printf '\nconst char* s = "```";\n```\n'; } > rp_fenceinstr.md
  { printf '<think>\n```cuda\n'; cat good.cu; printf '```\n</think>\nI have nothing else.\n'; } > rp_thinkcodeonly.md
  { printf '<think></think><think>\n'; printf 'Here:\n```cuda\n'; cat good.cu; printf '```\n'; } > rp_twothink.md
  python3 - <<'PY'
import json
g=open('good.cu').read()
open('rp_apijson.md','w').write(json.dumps({"choices":[{"message":{"role":"assistant","content":"Here:\n```cuda\n"+g+"```\n"}}]}))
open('rp_cronly.md','w').write(("Here:\n```cuda\n"+g+"```\n").replace("\n","\r"))
open('rp_nul.md','wb').write(("Here:\n```cuda\n"+g+"```\n").encode().replace(b"Here",b"He\0re"))
open('rp_utf16le.md','wb').write(b'\xff\xfe'+("Here:\n```cuda\n"+g+"```\n").encode('utf-16-le'))
open('rp_big3m.md','w').write("Here:\n```cuda\n"+g+"\n//"+"p"*(3*1024*1024)+"\n```\n")
open('rp_200blocks.md','w').write("".join("```cuda\nint v%d;\n```\n"%i for i in range(200))+"Final:\n```cuda\n"+g+"```\n")
open('rp_tvm.md','w').write("TVM version:\n```cuda\n"+open('tvm.cu').read()+"```\n")
PY
  : > rp_empty.md
  printf '\n\n   \n' > rp_blank.md
  { printf 'Here:\n```cuda\n#include "/etc/passwd"\n'; cat good.cu; printf '```\n'; } > rp_policy.md
  sha256sum * 2>/dev/null | sort > "$W/fx.sha"
  # ------------------------------------------------------------ damaged run files (new damages)
  cd "$D" || exit 1
  mk() { cp "$W/run.db" "$1.db"; sqlite3 "$1.db" "$2" 2>>"$W/setup.err" >/dev/null || echo "mk $1 failed" >> "$W/setup.err"; }
  py() { cp "$W/run.db" "$1.db"; python3 -c "$2" "$1.db" 2>>"$W/setup.err" || echo "py $1 failed" >> "$W/setup.err"; }
  DEEP='import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("update turns set %s=?", ("["*200000+"]"*200000,)); c.commit()'
  py evaldeep "$(printf "$DEEP" eval_json)"
  py auditdeep "$(printf "$DEEP" audit_json)"
  py llmdeep "$(printf "$DEEP" llm_json)"
  py flagsdeep "$(printf "$DEEP" flags_json)"
  py compdeep "$(printf "$DEEP" compile_json)"
  py provdeep 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("update runs set provenance_json=?", ("{\"a\":"*100000+"1"+"}"*100000,)); c.commit()'
  py modelbadutf8 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("update trajectories set model=cast(? as text)", (b"m\xff\xfe\xc0\xafx",)); c.commit()'
  py feedbadutf8 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("update turns set feedback=cast(feedback||cast(? as text) as text)", (b" \xff\xc3(",)); c.commit()'
  py srcbadutf8 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("update turns set source=cast(source||cast(? as text) as text) where source is not null", (b"\n// \xed\xa0\x80\xff",)); c.commit()'
  py reasonbadutf8 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute("update messages set reasoning=cast(? as text) where role=\"assistant\"", (b"think \xff\xfe\x80",)); c.commit()'
  mk reasonhuge "update messages set reasoning=printf('%.6000000c','r') where role='assistant'"
  py cfgdupkeys 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); s=c.execute("select config_json from runs").fetchone()[0]; c.execute("update runs set config_json=?", ("{\"turns\":1,"+s[1:],)); c.commit()'
  py cfgbignum 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); s=c.execute("select config_json from runs").fetchone()[0]; c.execute("update runs set config_json=?", (s.replace("\"turns\":8","\"turns\":1e400"),)); c.commit()'
  mk cfgtasksstr "update runs set config_json=json_set(config_json,'\$.tasks','core')"
  mk cfgarchsstr "update runs set config_json=json_set(config_json,'\$.archs','sm_90a')"
  mk cfgempty "update runs set config_json='{}'"
  mk provempty "update runs set provenance_json='{}'"
  mk cfgfastpdup "update runs set config_json=json_set(config_json,'\$.fast_p',json('[1.0,1.0,1.0]'))"
  mk cfgtopp "update runs set config_json=json_set(config_json,'\$.model.top_p',7,'\$.model.max_tokens',-5,'\$.model.request_timeout_s','soon')"
  mk evalspeedstr "update turns set eval_json=json_set(eval_json,'\$.speedup','NaN') where eval_json is not null"
  mk auditverdict "update turns set audit_json=json_set(audit_json,'\$.families',json('{\"wgmma\":\"maybe\",\"tma\":42}')) where audit_json is not null"
  mk targetwrong "update turns set target_reached=1 where correct=0"
  mk archexeccerr "update turns set arch_executed=1 where category='compile_error'"
  mk skippedall "update turns set gpu_stages='skipped'"
  mk pendingturns "update trajectories set status='pending'"
  mk startafter "update trajectories set started_at='2030-01-01T00:00:00Z', finished_at='1970-01-01T00:00:00Z'"
  mk createdint "update runs set created_at=12345; update turns set created_at=-1"
  mk seqgaps "update messages set seq=seq*1000+100007"
  mk msgturnsall1 "update messages set turn=1"
  mk samplestr "update trajectories set sample='one'"
  mk speedtiny "update turns set speedup=1e-300 where speedup is not null"
  mk passednospeed "update turns set speedup=NULL where category='passed'"
  mk runid0 "update runs set id=0; update trajectories set run_id=0"
  mk trajidhuge "update turns set trajectory_id=trajectory_id+9223372036854775000; update messages set trajectory_id=trajectory_id+9223372036854775000; update trajectories set id=id+9223372036854775000"
  mk turnsreversed "create table t2 as select * from turns order by id desc; delete from turns; insert into turns select * from t2 order by trajectory_id desc, turn desc; drop table t2"
  mk generatedcol "alter table turns add column g INTEGER GENERATED ALWAYS AS (turn*2) VIRTUAL"
  mk fts5 "create virtual table junk using fts5(x); insert into junk values('hello')"
  mk rtree "create virtual table junk2 using rtree(id, a, b)"
  mk metanopk "create table m2(key TEXT, value TEXT); insert into m2 select * from meta; insert into m2 values('schema_version','2'); drop table meta; alter table m2 rename to meta"
  mk metaextracol "alter table meta add column note TEXT"
  mk trajmany "with recursive n(i) as (select 1 union all select i+1 from n where i<25000) insert into trajectories(run_id,model,task,arch,sample,status) select 1,'scripted/v1','gemm_n7168_k5120','sm_90a',i+100,'done' from n"
  mk turnsmany "with recursive n(i) as (select 1 union all select i+1 from n where i<3000) insert into trajectories(run_id,model,task,arch,sample,status,stop_reason) select 1,'x','gemm_n7168_k5120','sm_90a',i+100,'done','budget' from n; insert into turns(trajectory_id,turn,source,source_hash,category,feedback,correct,created_at) select t.id, k.k, 'int x;','h','compile_error','f',0,'2026-01-01' from trajectories t, (select 1 k union select 2 union select 3 union select 4 union select 5 union select 6 union select 7 union select 8) k where t.sample>=100"
  cp "$W/run.db" pagesize64k.db; sqlite3 pagesize64k.db "pragma page_size=65536; vacuum" 2>>"$W/setup.err"
  sqlite3 "$W/run.db" .dump > "$W/dump.sql"
  { echo "PRAGMA encoding='UTF-16le';"; cat "$W/dump.sql"; } | sqlite3 utf16enc.db 2>>"$W/setup.err"
  { sed 's/^CREATE TABLE turns (/CREATE TABLE turns (/' "$W/dump.sql" | python3 -c '
import sys,re
s=sys.stdin.read()
i=s.index("CREATE TABLE turns ("); j=s.index(");",i)
body=s[i:j+2]
body2=body.replace("TEXT","TEXT").replace(");",") STRICT;")
sys.stdout.write(s.replace(body,body2))'; } | sqlite3 strictturns.db 2>>"$W/setup.err"
  cp "$W/run.db" garbagewal.db; head -c 5000 /dev/urandom > garbagewal.db-wal
  cp "$W/run.db" garbageshm.db; head -c 32768 /dev/urandom > garbageshm.db-shm
  cp "$W/run.db" idxcorrupt.db; python3 - idxcorrupt.db <<'PY' 2>>"$W/setup.err"
import sqlite3,sys
p=sys.argv[1]; c=sqlite3.connect(p); rp=c.execute("select rootpage from sqlite_master where name='turns_by_category'").fetchone()[0]; ps=c.execute("pragma page_size").fetchone()[0]; c.close()
f=open(p,'r+b'); f.seek((rp-1)*ps+8); f.write(b'\xff'*64); f.close()
PY
  cp "$W/run.db" freelistbad.db; printf '\x00\x00\x7f\xff\x00\x00\x00\x63' | dd of=freelistbad.db bs=1 seek=32 conv=notrunc 2>/dev/null
  cp "$W/run.db" trunc_half.db; truncate -s $(( $(stat -c %s "$W/run.db") / 2 )) trunc_half.db
  cp "$W/run.db" padded.db; head -c 100000 /dev/urandom >> padded.db
  python3 -c "import sqlite3; c=sqlite3.connect('places.db'); c.executescript('create table moz_places(id integer primary key, url text); insert into moz_places(url) values(\"http://x\");')"
  # scripted runs of this binary (shards, merged, rejudged, sharded 3 ways)
  ( cd "$D"; "$PB" run --tasks $T,$TA --turns 1 --out scr.db --no-progress >/dev/null 2>&1
    "$PB" run --tasks $T,$TA --turns 1 --shard 0/2 --out s0.db --no-progress >/dev/null 2>&1
    "$PB" run --tasks $T,$TA --turns 1 --shard 1/2 --out s1.db --no-progress >/dev/null 2>&1
    "$PB" run --tasks $T,$TA --turns 1 --samples 2 --shard 0/2 --out q0.db --no-progress >/dev/null 2>&1
    "$PB" run --tasks $TA --turns 1 --shard 0/2 --out other0.db --no-progress >/dev/null 2>&1
    "$PB" merge s0.db s1.db --out merged.db >/dev/null 2>&1
    "$PB" rejudge scr.db --out rej.db >/dev/null 2>&1 )
  cp s1.db s1trajhuge.db; sqlite3 s1trajhuge.db "update turns set trajectory_id=trajectory_id+9223372036854775000; update messages set trajectory_id=trajectory_id+9223372036854775000; update trajectories set id=id+9223372036854775000"
  cp s1.db s1msgextra.db; sqlite3 s1msgextra.db "alter table messages add column extra TEXT default 'x'"
  cp s1.db s1utf16.db; rm s1utf16.db; { echo "PRAGMA encoding='UTF-16le';"; sqlite3 s1.db .dump; } | sqlite3 s1utf16.db
  cp s1.db s1running.db; sqlite3 s1running.db "update runs set status='running', finished_at=NULL"
  cp s1.db s1wal.db; sqlite3 s1wal.db "pragma journal_mode=wal" >/dev/null
  cp scr.db scrmodel.db; sqlite3 scrmodel.db "update trajectories set model='other/model'"
  chmod 644 *.db
  sha256sum * | sort > "$W/db.sha"
  # ------------------------------------------------------------ task roots (new damages)
  cd "$R" || exit 1
  mkroot() { local r=$R/$1; mkdir -p "$r"; for d in kernels trajectories docs; do ln -s "$ROOT/$d" "$r/$d"; done; cp -r "$ROOT/tasks" "$ROOT/context" "$r/"; }
  G=tasks/gemm/gemm_n7168_k5120.toml L=context/levels.toml
  mkroot lvlabs;     printf '\n[levels.abs]\ndescription = "x"\nfragments = ["/etc/passwd"]\n' >> lvlabs/$L
  mkroot lvldotdot;  printf '\n[levels.up]\ndescription = "x"\nfragments = ["../../../../../etc/hostname"]\n' >> lvldotdot/$L
  mkroot lvlsymlink; ln -s /etc/passwd lvlsymlink/context/common/leak.md; printf '\n[levels.leak]\ndescription = "x"\nfragments = ["common/leak.md"]\n' >> lvlsymlink/$L
  mkroot lvldir;     printf '\n[levels.dir]\ndescription = "x"\nfragments = ["common"]\n' >> lvldir/$L
  mkroot lvlempty;   printf '\n[levels.nothing]\ndescription = "x"\nfragments = []\n' >> lvlempty/$L
  mkroot lvlph;      printf '\n[levels.ph]\ndescription = "x"\nfragments = ["{model}/x.md", "{arch"]\n' >> lvlph/$L
  mkroot lvlnover;   sed -i '/^version = /d' lvlnover/$L
  mkroot lvlutf16;   iconv -f utf-8 -t utf-16 lvlutf16/$L > x && mv x lvlutf16/$L
  mkroot lvlbinfrag; printf 'role: \xff\xfe\xc0\xaf bad utf8 \x01\x1b[31m\n' >> lvlbinfrag/context/common/role.md
  mkroot lvlhuge;    python3 -c "import sys; open(sys.argv[1],'a').write('\n'+'w '*20000000)" lvlhuge/context/common/role.md
  mkroot lvlspace;   printf '\n[levels."my level"]\ndescription = "x"\nfragments = ["common/role.md"]\n' >> lvlspace/$L
  mkroot lvlmany;    python3 -c "
import sys
with open(sys.argv[1],'a') as f:
    for i in range(5000): f.write('\n[levels.l%d]\ndescription = \"x\"\nfragments = [\"common/role.md\"]\n' % i)" lvlmany/$L
  mkroot lvltype;    printf '\n[levels.typed]\ndescription = 5\nfragments = "common/role.md"\n' >> lvltype/$L
  mkroot lvlfifo;    rm lvlfifo/context/common/role.md; mkfifo lvlfifo/context/common/role.md
  mkroot tasknameslash; sed -i 's/^name = .*/name = "..\/..\/evil"/' tasknameslash/$G
  mkroot suiteunknown;  sed -i 's/^suites = .*/suites = ["secret"]/' suiteunknown/$G
  mkroot suitesempty;   sed -i 's/^suites = .*/suites = []/' suitesempty/$G
  mkroot archunknown;   printf '\n[arch.sm_120a]\nfamilies = ["tcgen05"]\nrule = "any"\n' >> archunknown/$G
  mkroot dtypebad;      sed -i '0,/dtype = "bfloat16"/s//dtype = "float8_e4m3"/' dtypebad/$G
  mkroot axisunknown;   sed -i '0,/shape = \["M", "K"\]/s//shape = ["M", "Q"]/' axisunknown/$G
  mkroot outisinput;    sed -i 's/^name = "C"/name = "A"/' outisinput/$G
  mkroot maxzero;       sed -i 's/^M = { min = 1, max = 16384 }/M = { min = 0, max = 0 }/' maxzero/$G
  mkroot ruleunknown;   sed -i '0,/rule = "any"/s//rule = "most"/' ruleunknown/$G
  mkroot tasklink;      ln -s /etc/passwd tasklink/tasks/gemm/zz_link.toml
  mkroot tasknested;    mkdir -p tasknested/tasks/gemm/sub; sed 's/^name = .*/name = "gemm_nested_copy"/' tasknested/$G > tasknested/tasks/gemm/sub/n.toml
  mkroot taskunread;    cp taskunread/$G taskunread/tasks/gemm/zz_unread.toml; sed -i 's/^name = .*/name = "gemm_unread"/' taskunread/tasks/gemm/zz_unread.toml; chmod 000 taskunread/tasks/gemm/zz_unread.toml
  mkroot flopsneg;      sed -i 's/^flops = .*/flops = "0-2*M*N*K"/' flopsneg/$G
  mkroot flopsvar;      sed -i 's/^flops = .*/flops = "2*M*N*Z"/' flopsvar/$G
  mkroot trajroot;      rm trajroot/trajectories; mkdir -p trajroot/trajectories/v1; cp $ROOT/trajectories/v1/* trajroot/trajectories/v1/; sed -i '0,/^kernel = .*/s##kernel = "/etc/passwd"#' trajroot/trajectories/v1/gemm_n7168_k5120.sm_90a.toml
  mkroot trajdirk;      rm trajdirk/trajectories; mkdir -p trajdirk/trajectories/v1; cp $ROOT/trajectories/v1/* trajdirk/trajectories/v1/; sed -i '0,/^kernel = .*/s##kernel = "kernels"#' trajdirk/trajectories/v1/gemm_n7168_k5120.sm_90a.toml
  mkroot trajtaskother; rm trajtaskother/trajectories; mkdir -p trajtaskother/trajectories/v1; cp $ROOT/trajectories/v1/* trajtaskother/trajectories/v1/; sed -i 's/^task = .*/task = "mha_with_lse_d128"/' trajtaskother/trajectories/v1/gemm_n7168_k5120.sm_90a.toml
  mkroot trajmissing;   rm trajmissing/trajectories; mkdir -p trajmissing/trajectories/v1; cp $ROOT/trajectories/v1/* trajmissing/trajectories/v1/; rm trajmissing/trajectories/v1/gemm_n7168_k5120.sm_90a.toml
  mkroot trajmany;      rm trajmany/trajectories; mkdir -p trajmany/trajectories/v1; cp $ROOT/trajectories/v1/* trajmany/trajectories/v1/; python3 -c "
import sys
p=sys.argv[1]; s=open(p).read(); i=s.index('[[turn]]'); t=s[i:].split('[[turn]]')[1]
open(p,'w').write(s[:i]+('[[turn]]'+t)*300)" trajmany/trajectories/v1/gemm_n7168_k5120.sm_90a.toml
  # ------------------------------------------------------------ fake tools
  cd "$B" || exit 1
  printf '#!/bin/sh\nsleep 100\n' > nvcc_hang
  printf '#!/bin/sh\necho "nvcc: out of memory" >&2; kill -KILL $$\n' > nvcc_killed
  printf '#!/bin/sh\nfor a in "$@"; do case "$prev" in -o) : > "$a";; esac; prev=$a; done; exit 0\n' > nvcc_emptyso
  printf '#!/bin/sh\nexec /usr/local/cuda/bin/nvcc "$@" 2>/dev/null; \n' > nvcc_quiet
  printf '#!/bin/sh\nhead -c 3000000 /dev/zero | tr "\\0" "e" >&2; exit 1\n' > nvcc_spew
  printf '#!/bin/sh\nsleep 100\n' > cuobjdump_hang
  printf '#!/bin/sh\nhead -c 20000000 /dev/urandom | base64\n' > nvdisasm_flood
  printf '#!/bin/sh\necho ok\n' > ncu_fake
  printf '#!/bin/sh\necho ok\n' > sanitizer_fake
  printf '#!/bin/sh\necho "Submitted batch job 77"\n' > sbatch_words
  printf '#!/bin/sh\necho "-5"\n' > sbatch_neg
  printf '#!/bin/sh\necho "99999999999999999999999"\n' > sbatch_huge
  printf '#!/bin/sh\necho "12;rm -rf /"\n' > sbatch_semicolon
  printf '#!/bin/sh\necho "12"; echo "13"\n' > sbatch_twolines
  printf '#!/bin/sh\nhead -c 5000000 /dev/zero | tr "\\0" "9"\n' > sbatch_flood
  printf '#!/bin/sh\nkill -SEGV $$\n' > sbatch_segv
  chmod +x nvcc_* cuobjdump_* nvdisasm_* ncu_fake sanitizer_fake sbatch_*
  for s in sbatch_*; do mkdir -p "sb_$s"; cp "$s" "sb_$s/sbatch"; done
  mkdir -p nvccdir
  printf '#!/bin/sh\nexit 0\n' > 'nvcc with space'; chmod +x 'nvcc with space'
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
python3 "$HERE/fakesrv.py" $PORT "$FX/cerr.cu" "$FX/tvm.cu" "$W/fakesrv.state" "$FX/good.cu" & SRV=$!
trap 'kill $SRV 2>/dev/null' EXIT
sleep 1
# ================================================================ cases
# --- G: global options and environment values
c G01 '2' '"$PB" TASKS'
c G02 '2' '"$PB" tasks --json=yes'
c G03 '2' '"$PB" --help=all'
c G04 '0' '"$PB" version --help | head -1; exit ${PIPESTATUS[0]}'
c G05 '2' '"$PB" -- tasks'
c G06 '2' '"$PB" tasks -json'
c G08 '0' 'cd $ROOT/.. && PTXBENCH_ROOT=root5 "$PB" tasks --suite core | tail -1; exit ${PIPESTATUS[0]}'
c G11 '2' 'PTXBENCH_ROOT="~/nowhere" "$PB" tasks'
c G12 '0' 'env -u HOME PTXBENCH_CACHE="~/c5" "$PB" compile $FX/good.cu --task $T | head -1; r=${PIPESTATUS[0]}; ls -d "~" 2>/dev/null >&2; exit $r'
c G13 '0' 'HOME=$PWD/h PTXBENCH_CACHE="~/c5" "$PB" compile $FX/good.cu --task $T | tail -1; r=${PIPESTATUS[0]}; ls h/c5 >/dev/null || bad "cache not under HOME"; exit $r'
c G14 '0' 'env -u PTXBENCH_CACHE XDG_CACHE_HOME=rel HOME=$PWD/h "$PB" compile $FX/good.cu --task $T | tail -1; r=${PIPESTATUS[0]}; ls -d rel/ptxbench h/.cache/ptxbench 2>&1 >&2; exit $r'
c G15 '2' 'PTXBENCH_NVCC=$B/nvccdir "$PB" compile $FX/good.cu --task $T --no-cache'
c G16 '2|11|1' 'PTXBENCH_NVCC=nvcc "$PB" compile $FX/good.cu --task $T --no-cache | head -2; exit ${PIPESTATUS[0]}'
c G17 '2' 'PTXBENCH_NCU=/nonexistent/ncu "$PB" audit $FX/good.cu --task $T --route ncu'
c G18 '2' 'PTXBENCH_COMPUTE_SANITIZER=/nonexistent/cs "$PB" eval $FX/good.cu --task $T --memcheck'
c G21 '0|1|2|13' 'PTXBENCH_ASSUME_GPU=2 "$PB" eval $FX/good.cu --task $T | tail -2; exit ${PIPESTATUS[0]}'
c G22 '0|2' 'CUDA_VISIBLE_DEVICES= "$PB" eval $FX/good.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c G23 '0|2' 'CUDA_VISIBLE_DEVICES=-1 "$PB" run --tasks $T --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c G24 '0|2' 'CUDA_VISIBLE_DEVICES=GPU-00000000-0000-0000-0000-000000000000 "$PB" run --tasks $T --turns 1 --gpus 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c G25 '0' 'LANG=C LC_ALL=C "$PB" show r.db | head -1; exit ${PIPESTATUS[0]}'
c G26 '0' 'LC_ALL=POSIX "$PB" prompt $T --context none | head -1; exit ${PIPESTATUS[0]}'
c G27 '0' '(umask 0777; "$PB" report r.db --csv o.csv); r=$?; ls -l o.csv >&2; exit $r'
c G28 '0' '(umask 0277; "$PB" run --tasks $T --turns 1 --out n.db --no-progress >/dev/null); r=$?; "$PB" show n.db >/dev/null || bad "run file unreadable after umask 0277"; exit $r'
c G29 '0|1' '"$PB" tasks <&- | tail -1; exit ${PIPESTATUS[0]}'
c G30 '1' '"$PB" show r.db --turns 1>&-'
c G31 '2' '"$PB" tasks --suite bogus 2>&-'
c G32 '0' 'nice -n 19 "$PB" tasks --family gemm | tail -1; exit ${PIPESTATUS[0]}'
c G33 '0' 'LD_PRELOAD=/nonexistent.so "$PB" version 2>&1 | tail -1; exit ${PIPESTATUS[0]}'
c G34 '2' 'PTXBENCH_BIN_DIR=$FX "$PB" eval $FX/good.cu --task $T'
c G35 '2' 'PTXBENCH_BIN_DIR=$FX/good.cu "$PB" eval $FX/good.cu --task $T'
c G36 '2' 'PTXBENCH_DLPACK_INCLUDE=$FX/good.cu "$PB" compile $FX/good.cu --task $T --no-cache'
c G37 '0|2' 'PTXBENCH_DLPACK_INCLUDE=$PWD "$PB" compile $FX/good.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c G38 '2|11' 'PTXBENCH_TVM_FFI_ROOT=$PWD "$PB" compile $FX/tvm.cu --task $T --no-cache | head -2; exit ${PIPESTATUS[0]}'
c G39 '2' 'PTXBENCH_CUOBJDUMP= "$PB" compile $FX/good.cu --task $T --no-cache'
c G40 '2' 'PTXBENCH_NVDISASM="   " "$PB" compile $FX/good.cu --task $T --no-cache'
c G41 '0|2' 'TMPDIR=relative/tmp "$PB" compile $FX/good.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c G42 '0|2' 'TMPDIR=/nonexistent/tmp "$PB" compile $FX/good.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c G43 '0' 'TMPDIR="$PWD/a b;c" ; mkdir -p "$TMPDIR"; TMPDIR="$TMPDIR" "$PB" compile $FX/good.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c G44 '0' 'PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T >/dev/null; chmod -R a-w c; $NB env PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | head -1; r=${PIPESTATUS[0]}; chmod -R u+w c; exit $r'
c G45 '1|11|0' 'PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T >/dev/null; for f in $(find c -name "*.so"); do head -c 100 /dev/urandom > $f; done; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | head -2; exit ${PIPESTATUS[0]}'
c G46 '0|1|11' 'PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T --json >/dev/null; find c -type f -name "*.json" | while read f; do echo "{" > "$f"; done; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | head -2; exit ${PIPESTATUS[0]}'
c G47 '0|1|11' 'PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T >/dev/null; find c -mindepth 2 -type f | head -50 | while read f; do : > "$f"; done; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | head -2; exit ${PIPESTATUS[0]}'
c G48 '0|1|11' 'PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T >/dev/null; d=$(find c -mindepth 2 -maxdepth 2 -type d | head -1); rm -rf "$d"; ln -s /etc "$d"; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | head -2; exit ${PIPESTATUS[0]}'
# --- T: tasks and prompt
c T01 '0' '"$PB" tasks --suite core --family gemm --arch sm_100a | tail -1; exit ${PIPESTATUS[0]}'
c T02 '2' '"$PB" tasks --arch sm_90a --arch sm_100a'
c T03 '2' '"$PB" tasks --family "gemm "'
c T04 '2' '"$PB" tasks --arch "sm_90a\n"'
c T05 '2' '"$PB" tasks --suite $(printf "core\xff")'
c T06 '0' '"$PB" tasks --json --family attention_bwd > t.json; r=$?; vjson t.json; exit $r'
c T07 '0' '"$PB" tasks --suite extended --family attention_fwd --json > t.json; r=$?; vjson t.json; exit $r'
c T08 '2' '"$PB" tasks --family'
c T09 '2' '"$PB" prompt'
c T10 '2' '"$PB" prompt $T $TA'
c T11 '2' '"$PB" prompt $T --speedup-target -0.5'
c T12 '2' '"$PB" prompt $T --speedup-target nan'
c T13 '2' '"$PB" prompt $T --speedup-target inf'
c T14 '0|2' '"$PB" prompt $T --speedup-target 0 | head -1; exit ${PIPESTATUS[0]}'
c T15 '0|2' '"$PB" prompt $T --speedup-target 1e300 | grep -i speed | head -1; exit ${PIPESTATUS[0]}'
c T16 '0' '"$PB" prompt $T --levels --json | head -3; exit ${PIPESTATUS[0]}'
c T17 '0|2' '"$PB" prompt --levels | head -3; exit ${PIPESTATUS[0]}'
c T18 '0' '"$PB" prompt $T --contract tvm-ffi --json > p.json; r=$?; vjson p.json; exit $r'
c T19 '0' '"$PB" prompt $T --arch sm_100a --contract tvm-ffi --context reference | head -1; exit ${PIPESTATUS[0]}'
c T20 '2' '"$PB" prompt mha_bwd_d128 --arch sm_100a'
c T21 '2' '"$PB" prompt $T --context FULL'
c T22 '2' '"$PB" prompt $T --context "full "'
c T23 '2' '"$PB" prompt "$T\n"'
c T24 '2' '"$PB" prompt gemm_n7168_k5120.toml'
c T25 '2' '"$PB" prompt tasks/gemm/gemm_n7168_k5120'
# --- O: own roots (context levels, task specs, scripted trajectories)
c O01 '2' 'PTXBENCH_ROOT=$R/lvlabs "$PB" prompt $T --context abs > p.txt; r=$?; grep -q "root:" p.txt && harm "prompt holds /etc/passwd"; exit $r'
c O02 '2' 'PTXBENCH_ROOT=$R/lvldotdot "$PB" prompt $T --context up > p.txt; r=$?; grep -qx "$(cat /etc/hostname)" p.txt && harm "prompt holds /etc/hostname"; exit $r'
c O03 '2' 'PTXBENCH_ROOT=$R/lvlsymlink "$PB" prompt $T --context leak > p.txt; r=$?; grep -q "root:" p.txt && harm "prompt holds /etc/passwd through a symlink"; exit $r'
c O04 '2' 'PTXBENCH_ROOT=$R/lvldir "$PB" prompt $T --context dir'
c O05 '0|2' 'PTXBENCH_ROOT=$R/lvlempty "$PB" prompt $T --context nothing | head -2; exit ${PIPESTATUS[0]}'
c O06 '2' 'PTXBENCH_ROOT=$R/lvlph "$PB" prompt $T --context ph'
c O07 '0|2' 'PTXBENCH_ROOT=$R/lvlnover "$PB" prompt $T --context none | head -1; exit ${PIPESTATUS[0]}'
c O08 '2' 'PTXBENCH_ROOT=$R/lvlutf16 "$PB" prompt $T --context none'
c O09 '0|2' 'PTXBENCH_ROOT=$R/lvlbinfrag "$PB" prompt $T --context none --json > p.json; r=$?; [ $r = 0 ] && vjson p.json; exit $r'
c O10 '0|2' 'PTXBENCH_ROOT=$R/lvlhuge "$PB" prompt $T --context none --json | tail -c 300; exit ${PIPESTATUS[0]}'
c O11 '0' 'PTXBENCH_ROOT=$R/lvlspace "$PB" prompt $T --context "my level" | head -1; exit ${PIPESTATUS[0]}'
c O12 '0' 'PTXBENCH_ROOT=$R/lvlmany "$PB" prompt --levels | tail -1; exit ${PIPESTATUS[0]}'
c O13 '2' 'PTXBENCH_ROOT=$R/lvltype "$PB" prompt $T --context typed'
c O14 '2' 'PTXBENCH_ROOT=$R/lvlfifo timeout 20 "$PB" prompt $T --context none'
c O15 '2' 'PTXBENCH_ROOT=$R/lvlabs "$PB" run --context abs --tasks $T --turns 1 --out n.db --no-progress; r=$?; [ -e n.db ] && sqlite3 n.db "select content from messages where role=\"system\"" | grep -q "root:" && harm "run sent /etc/passwd"; exit $r'
c O16 '2' 'PTXBENCH_ROOT=$R/tasknameslash "$PB" tasks'
c O17 '0|2' 'PTXBENCH_ROOT=$R/suiteunknown "$PB" tasks --suite secret | tail -1; exit ${PIPESTATUS[0]}'
c O19 '2' 'PTXBENCH_ROOT=$R/archunknown "$PB" tasks'
c O21 '2' 'PTXBENCH_ROOT=$R/axisunknown "$PB" tasks'
c O22 '2' 'PTXBENCH_ROOT=$R/outisinput "$PB" tasks'
c O23 '2' 'PTXBENCH_ROOT=$R/maxzero "$PB" tasks'
c O24 '2' 'PTXBENCH_ROOT=$R/ruleunknown "$PB" tasks'
c O25 '2' 'PTXBENCH_ROOT=$R/tasklink "$PB" tasks'
c O26 '0|2' 'PTXBENCH_ROOT=$R/tasknested "$PB" tasks | grep -c nested; exit ${PIPESTATUS[0]}'
c O27 '2' '$NB env PTXBENCH_ROOT=$R/taskunread "$PB" tasks'
c O28 '2' 'PTXBENCH_ROOT=$R/flopsneg "$PB" tasks'
c O29 '2' 'PTXBENCH_ROOT=$R/flopsvar "$PB" tasks'
c O30 '2' 'PTXBENCH_ROOT=$R/trajroot "$PB" run --tasks $T --turns 1 --out n.db --no-progress; r=$?; [ -e n.db ] && sqlite3 n.db "select source from turns" | grep -q "root:" && harm "scripted turn read /etc/passwd"; exit $r'
c O31 '2' 'PTXBENCH_ROOT=$R/trajdirk "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c O32 '2' 'PTXBENCH_ROOT=$R/trajtaskother "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c O33 '2' 'PTXBENCH_ROOT=$R/trajmissing "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c O34 '0|2' 'PTXBENCH_ROOT=$R/trajmany "$PB" run --tasks $T --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c O35 '2' 'PTXBENCH_ROOT=$R/tasknameslash "$PB" compile $FX/good.cu --task "../../evil"'
c O36 '2' 'PTXBENCH_ROOT=$R/dtypebad "$PB" prompt $T'
# --- C: compile: hostile and odd sources, paths, options
c C01 '12' '"$PB" compile $FX/inc_import.cu --task $T --no-cache'
c C02 '12|11|0' '"$PB" compile $FX/pragma_dep.cu --task $T --no-cache --json > c.json; r=$?; grep -q "root:x" c.json && harm "/etc/passwd in the report"; exit $r'
c C03 '12' '"$PB" compile $FX/incbin_split.cu --task $T --no-cache'
c C04 '12' '"$PB" compile $FX/asm_include.cu --task $T --no-cache'
c C05 '12' '"$PB" compile $FX/incbin_upper.cu --task $T --no-cache'
c C06 '12|0' '"$PB" compile $FX/has_include_next.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c C07 '12|0' '"$PB" compile $FX/has_embed.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c C08 '12' '"$PB" compile $FX/inc_self.cu --task $T --no-cache'
c C09 '12' '"$PB" compile $FX/inc_dotslash.cu --task $T --no-cache'
c C10 '12|11' '"$PB" compile $FX/inc_backslash.cu --task $T --no-cache'
c C11 '11' '"$PB" compile $FX/inc_fullwidth.cu --task $T --no-cache'
c C12 '11|0' '"$PB" compile $FX/inc_space.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c C13 '0' '"$PB" compile $FX/line_directive.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c C14 '11' '"$PB" compile $FX/static_assert.cu --task $T --no-cache'
c C15 '0|11|12' '"$PB" compile $FX/fatbin_section.cu --task $T --no-cache | head -3; exit ${PIPESTATUS[0]}'
c C16 '0|11|12' '"$PB" compile $FX/nvinfo_section.cu --task $T --no-cache | head -2; exit ${PIPESTATUS[0]}'
c C17 '11' '"$PB" compile $FX/entry_renamed.cu --task $T --no-cache'
c C18 '11' '"$PB" compile $FX/entry_cxx.cu --task $T --no-cache'
c C19 '11' '"$PB" compile $FX/entry_var.cu --task $T --no-cache'
c C20 '0|11|12' '"$PB" compile $FX/entry_weak_extra.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c C21 '0' '"$PB" compile $FX/unicode_ident.cu --task $T --no-cache --json > c.json; r=$?; vjson c.json; exit $r'
c C22 '0|11|12' '"$PB" compile $FX/inc_thread.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c C23 '0|11' '"$PB" compile $FX/pragma_poison.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c C24 '0|11|12' '"$PB" compile $FX/init_array.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c C25 '0|11|12' '"$PB" compile $FX/decl_init.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c C26 '11' '"$PB" compile $FX/bomonly.cu --task $T --no-cache'
c C27 '11' '"$PB" compile $FX/bomnl.cu --task $T --no-cache'
c C28 '0' '"$PB" compile $FX/bom_ok.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c C29 '0|11' '"$PB" compile $FX/badutf8_comment.cu --task $T --no-cache --json > c.json; r=$?; vjson c.json; exit $r'
c C30 '0|11' '"$PB" compile $FX/badutf8_string.cu --task $T --no-cache --json > c.json; r=$?; vjson c.json; exit $r'
c C31 '2' '"$PB" compile $FX/utf16le_bom.cu --task $T --no-cache'
c C32 '11|12|2' '"$PB" compile $FX/nul_middle.cu --task $T --no-cache'
c C33 '0|11' '"$PB" compile $FX/long_line.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c C33b '14' '"$PB" compile $FX/long_line.cu --task $T --no-cache --timeout 30'
c C34 '0' '"$PB" compile $FX/many_lines.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
c C35 '0' '"$PB" compile $FX/good.txt --task $T | head -1; exit ${PIPESTATUS[0]}'
c C36 '0' '"$PB" compile $FX/good.CU --task $T | head -1; exit ${PIPESTATUS[0]}'
c C37 '0' '"$PB" compile $FX/noext --task $T | head -1; exit ${PIPESTATUS[0]}'
c C38 '0' '"$PB" compile "$FX/ spaced name.cu" --task $T | head -1; exit ${PIPESTATUS[0]}'
c C39 '2' '"$PB" compile -dash.cu --task $T'
c C40 '0|2' '"$PB" compile --task $T -- $FX/-dash.cu | head -1; exit ${PIPESTATUS[0]}'
c C41 '11|12|2' '"$PB" compile $FX/shadow_link.cu --task $T --no-cache --json > c.json; r=$?; grep -q "root:" c.json && harm "/etc/shadow contents in the report"; exit $r'
c C42 '0' '"$PB" compile $FX/rel_link.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C43 '2' '"$PB" compile $FX/dangling.cu --task $T'
c C44 '2' '"$PB" compile $FX/dir.cu --task $T'
c C45 '0' '"$PB" compile /proc/self/fd/7 --task $T 7<$FX/good.cu | head -1; exit ${PIPESTATUS[0]}'
c C47 '2' 'cp $FX/good.cu p.cu; chmod 000 p.cu; $NB "$PB" compile $PWD/p.cu --task $T'
c C48 '2' 'mkdir -m 700 hid; cp $FX/good.cu hid/k.cu; $NB env PTXBENCH_CACHE=$W/nbcache "$PB" compile $PWD/hid/k.cu --task $T'
c C49 '14' 'PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/ref.cu --task $T --timeout 1; r=$?; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/ref.cu --task $T | head -1 >&2; [ ${PIPESTATUS[0]} = 0 ] || harm "a timed-out compile poisoned the cache"; exit $r'
c C50 '0' 'n=$(cat $FX/sz.txt); "$PB" compile $FX/good.cu --task $T --max-source-bytes $n | head -1; exit ${PIPESTATUS[0]}'
c C51 '12' 'n=$(cat $FX/sz.txt); "$PB" compile $FX/good.cu --task $T --max-source-bytes $((n-1))'
c C52 '2' '"$PB" compile $FX/good.cu --task $T --max-source-bytes 1073741825'
c C53 '2' '"$PB" compile $FX/good.cu --task $T --max-source-bytes 0x100'
c C54 '2' '"$PB" compile $FX/good.cu --task $T --timeout 3601'
c C55 '2' '"$PB" compile $FX/good.cu --task $T --timeout 1.5'
c C56 '11' '"$PB" compile $FX/good.cu --task $T --contract tvm-ffi'
c C57 '11' '"$PB" compile $FX/tvm.cu --task $T --contract native'
c C58 '0' '"$PB" compile $FX/tvm.cu --task $T | head -1; exit ${PIPESTATUS[0]}'
c C59 '11' '"$PB" compile $FX/ref.cu --task $T --arch sm_100a'
c C60 '11' '"$PB" compile $FX/good.cu --task $TA'
c C61 '2' '"$PB" compile $FX/good.cu --task $T --arch sm_90a,sm_100a'
c C62 '2' '"$PB" compile $FX/good.cu $FX/cerr.cu --task $T'
c C63 '2' '"$PB" compile $FX/good.cu --task $T --task $TA'
c C64 '0' '"$PB" compile $FX/good.cu --task=$T --json --no-cache > c.json; r=$?; vjson c.json; exit $r'
c C65 '11' 'PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/cerr.cu --task $T >/dev/null; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/cerr.cu --task $T --json > c.json; r=$?; vjson c.json; exit $r'
c C66 '1|14' 'PTXBENCH_NVCC=$B/nvcc_hang "$PB" compile $FX/good.cu --task $T --no-cache --timeout 3'
c C67 '1|11' 'PTXBENCH_NVCC=$B/nvcc_killed PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T --no-cache; r=$?; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | grep -q "cache" && harm "a killed nvcc result was cached"; exit $r'
c C68 '1|11' 'PTXBENCH_NVCC=$B/nvcc_emptyso PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T --no-cache; r=$?; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T 2>&1 | grep -q "cache hit" && harm "an empty .so was cached"; exit $r'
c C69 '1|11' 'PTXBENCH_NVCC=$B/nvcc_spew "$PB" compile $FX/good.cu --task $T --no-cache --json > c.json; r=$?; wc -c < c.json >&2; exit $r'
c C70 '1|14' 'PTXBENCH_CUOBJDUMP=$B/cuobjdump_hang "$PB" compile $FX/good.cu --task $T --no-cache --timeout 20'
c C71 '1|0' 'PTXBENCH_NVDISASM=$B/nvdisasm_flood "$PB" compile $FX/ref.cu --task $T --no-cache | head -2; exit ${PIPESTATUS[0]}'
c C72 '0|1|11' 'PTXBENCH_NVCC="$B/nvcc with space" "$PB" compile $FX/good.cu --task $T --no-cache | head -1; exit ${PIPESTATUS[0]}'
# --- E: eval options and replies
c E02 '0' '"$PB" eval $FX/good.cu --task $T --seed 18446744073709551615 --input-seed 18446744073709551615 | tail -1; exit ${PIPESTATUS[0]}'
c E04 '2' '"$PB" eval $FX/good.cu --task $T --seed " 7"'
c E05 '2' '"$PB" eval $FX/good.cu --task $T --sample-budget 0.05'
c E06 '2' '"$PB" eval $FX/good.cu --task $T --sample-budget inf'
c E10 '2' '"$PB" eval $FX/good.cu --task $T --sustained-load-ms nan'
c E12 '2' '"$PB" eval $FX/good.cu --task $T --library-plan Fastest'
c E14 '0' '"$PB" eval $FX/good.cu --task $T --json --timeline > e.json; r=$?; vjson e.json; exit $r'
c E15 '0' '"$PB" eval $FX/good.cu --task $T --no-timing --no-audit --memcheck | tail -1; exit ${PIPESTATUS[0]}'
c E16 '0' '"$PB" eval $FX/good.cu --task $T --allow-weaker-sandbox --trials 100 | tail -1; exit ${PIPESTATUS[0]}'
c E17 '2' '"$PB" eval $FX/good.cu --task $T --trials 3.0'
c E18 '11' '"$PB" eval $FX/cerr.cu --task $T --json > e.json; r=$?; vjson e.json; exit $r'
c E19 '12' '"$PB" eval $FX/inc_import.cu --task $T --json > e.json; r=$?; vjson e.json; exit $r'
c E20 '0' '"$PB" eval $FX/wrong.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c E21 '0' '"$PB" eval $FX/rp_upper.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E22 '15' '"$PB" eval $FX/rp_ptx.md --task $T --reply'
c E23 '0|15' '"$PB" eval $FX/rp_attrs.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E24 '0|15' '"$PB" eval $FX/rp_title.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E25 '0|15' '"$PB" eval $FX/rp_spacelang.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E26 '0|11' '"$PB" eval $FX/rp_fenceinstr.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E27 '15' '"$PB" eval $FX/rp_thinkcodeonly.md --task $T --reply'
c E28 '0|15' '"$PB" eval $FX/rp_twothink.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E29 '15|0' '"$PB" eval $FX/rp_apijson.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E30 '0|15' '"$PB" eval $FX/rp_cronly.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E31 '0|15|2' '"$PB" eval $FX/rp_nul.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E32 '2' '"$PB" eval $FX/rp_utf16le.md --task $T --reply'
c E33 '12' '"$PB" eval $FX/rp_big3m.md --task $T --reply'
c E33b '12' '"$PB" eval $FX/rp_big3m.md --task $T --reply --max-source-bytes 1000'
c E33c '12' '"$PB" audit $FX/rp_big3m.md --task $T --reply'
c E34 '0' '"$PB" eval $FX/rp_200blocks.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E35 '0' '"$PB" eval $FX/rp_tvm.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E36 '15' '"$PB" eval $FX/rp_empty.md --task $T --reply'
c E37 '15' '"$PB" eval $FX/rp_blank.md --task $T --reply --json > e.json; r=$?; vjson e.json; exit $r'
c E38 '12' '"$PB" eval $FX/rp_policy.md --task $T --reply'
c E39 '2' '"$PB" eval $FX/rp_upper.md --task $T --reply --contract bogus'
c E40 '11' '"$PB" eval $FX/rp_upper.md --task $T --reply --contract tvm-ffi'
c E42 '2' '"$PB" eval $FX/dir.cu --task $T --reply'
c E43 '0' '"$PB" eval $FX/good.cu --task $T --arch sm_100a | tail -1; exit ${PIPESTATUS[0]}'
# --- A: audit options
c A01 '2' '"$PB" audit $FX/good.cu --task $T --route CUPTI'
c A02 '2' '"$PB" audit $FX/good.cu --task $T --route ""'
c A04 '2' '"$PB" audit $FX/good.cu --task $T --workload "hidden_audit"'
c A07 '0' '"$PB" audit $FX/good.cu --task $T --seed 0 --json > a.json; r=$?; vjson a.json; exit $r'
c A08 '15' '"$PB" audit $FX/rp_blank.md --task $T --reply'
c A09 '0' '"$PB" audit $FX/rp_upper.md --task $T --reply --allow-weaker-sandbox | tail -1; exit ${PIPESTATUS[0]}'
c A10 '2' '"$PB" audit $FX/good.cu --task $T --memcheck'
c A11 '2' '"$PB" audit $FX/good.cu --task $T --timeline'
c A12 '11' '"$PB" audit $FX/cerr.cu --task $T --route ncu'
c A13 '2' '"$PB" audit $FX/good.cu --task $T --max-source-bytes -1'
c A14 '0' '"$PB" audit $FX/tvm.cu --task $T --contract auto | tail -1; exit ${PIPESTATUS[0]}'
# --- R: run options (nothing may be created when refused)
nofile='r=$?; [ $r = 2 ] && [ -e n.db ] && bad "run file made though refused"; exit $r'
c R01 '2' '"$PB" run --model m --base-url $U/goodcode/v1 --temperature inf $RM --out n.db; '"$nofile"
c R02 '2' '"$PB" run --model m --base-url $U/goodcode/v1 --temperature 1e308 $RM --out n.db; '"$nofile"
c R03 '2' '"$PB" run --model m --base-url $U/goodcode/v1 --top-p -0.1 $RM --out n.db; '"$nofile"
c R04 '2' '"$PB" run --model m --base-url $U/goodcode/v1 --top-p nan $RM --out n.db; '"$nofile"
c R05 '2' '"$PB" run --model m --base-url $U/goodcode/v1 --max-tokens 99999999999 $RM --out n.db; '"$nofile"
c R10 '2' '"$PB" run --model m --base-url $U/goodcode/v1 --tasks $T --turns 1 --attempts 2.5 --no-progress --out n.db; '"$nofile"
c R11 '2' '"$PB" run --model m --base-url $U/goodcode/v1 --tasks $T --turns 1 --retry-max-s inf --no-progress --out n.db; '"$nofile"
c R16 '2' '"$PB" run --tasks " $T" --turns 1 --out n.db --no-progress; '"$nofile"
c R17 '2' '"$PB" run --tasks all --arch sm_100a --samples 1000 --turns 1 --out n.db --no-progress; '"$nofile"
c R18 '2' '"$PB" run --tasks $T --arch sm_90a,,sm_100a --turns 1 --out n.db --no-progress; '"$nofile"
c R19 '2' '"$PB" run --tasks $T --context "" --turns 1 --out n.db --no-progress; '"$nofile"
c R20 '2' '"$PB" run --tasks $T --turns 1 --fast-p "1,,2" --out n.db --no-progress; '"$nofile"
c R21 '2' '"$PB" run --tasks $T --turns 1 --fast-p "0.5;0.8" --out n.db --no-progress; '"$nofile"
c R22 '2' '"$PB" run --tasks $T --turns 1 --fast-p "inf" --out n.db --no-progress; '"$nofile"
c R23 '0|2' '"$PB" run --tasks $T --turns 1 --fast-p "1.2,0.5,0.5" --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R25 '2' '"$PB" run --tasks $T --turns 1 --scripted-version "/etc" --out n.db --no-progress; '"$nofile"
c R26 '2' '"$PB" run --tasks $T --turns 1 --scripted-version v1 --model m --base-url $U/goodcode/v1 --out n.db --no-progress; '"$nofile"
c R28 '2' '"$PB" run --tasks $T --turns 1 --shard " 0/2" --out n.db --no-progress; '"$nofile"
c R29 '2' '"$PB" run --tasks $T --turns 1 --shard 0/99999999999 --out n.db --no-progress; '"$nofile"
c R30 '2' '"$PB" run --tasks $T --turns 1 --shard 0/2 --shard-count 2 --out n.db --no-progress; '"$nofile"
c R33 '2' 'JOB_COMPLETION_INDEX= "$PB" run --shard-count 2 --tasks $T --turns 1 --out n.db --no-progress; '"$nofile"
c R34 '0|2' 'JOB_COMPLETION_INDEX=1 "$PB" run --tasks $T --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R36 '2' 'SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_MIN=5 SLURM_ARRAY_TASK_COUNT=2 "$PB" run --tasks $T --turns 1 --out n.db --no-progress; '"$nofile"
c R39 '2' 'mkdir n.db; "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c R42 '2' '"$PB" run --model m --base-url $U/goodcode/v1 --api-key-env "A=B" $RM --out n.db; '"$nofile"
c R43 '2' '"$PB" run --model m --base-url $U/goodcode/v1 --api-key-env "1BAD" $RM --out n.db; '"$nofile"
c R44 '1|2' '"$PB" run --model m --base-url $U/goodcode/v1 --api-key-env UNSET_VAR_XYZ $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c R46 '2' '"$PB" run --model m --base-url "http://127.0.0.1:70000/v1" $RM --out n.db; '"$nofile"
c R49 '0|2' '"$PB" run --model m --base-url "http://user:pw@127.0.0.1:$PORT/goodcode/v1" $RM --out n.db | tail -1; r=${PIPESTATUS[0]}; [ -e n.db ] && sqlite3 n.db "select config_json, provenance_json from runs" | grep -q "pw@" && harm "password stored in the run file"; exit $r'
c R50 '2' '"$PB" run --model m --base-url "http://127.0.0.1:$PORT/goodcode/v1 " $RM --out n.db; '"$nofile"
c R51 '1|2' '"$PB" run --model m --base-url "http://xn--nxa.invalid/v1" $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c R52 '2' '"$PB" run --model m --base-url "http://127.0.0.1:$PORT\\goodcode\\v1" $RM --out n.db; '"$nofile"
c R53 '2' '"$PB" run --model "$(printf "m\nx")" --base-url $U/goodcode/v1 $RM --out n.db; '"$nofile"
c R54 '2' '"$PB" run --model "   " --base-url $U/goodcode/v1 $RM --out n.db; '"$nofile"
c R55 '2' '"$PB" run --base-url $U/goodcode/v1 $RM --out n.db; '"$nofile"
c R56 '2' '"$PB" run --model m --api-key-env K $RM --out n.db; '"$nofile"
c R57 '0' '"$PB" run --tasks $T --turns 1 --concurrency 256 --cpu-jobs 256 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R59 '0|2' '"$PB" run --tasks $T --turns 1 --gpus 4 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R61 '2' '"$PB" run --tasks $T --turns 1 --library-plan best --out n.db --no-progress; '"$nofile"
c R62 '0' '"$PB" run --tasks $T --turns 1 --json --out n.db > s.json; r=$?; vjson s.json; exit $r'
c R63 '0' '"$PB" run --tasks $T --turns 1 --contract tvm-ffi --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R64 '0' '"$PB" run --tasks $T --turns 1 --out "$PWD/deep/a/b/c/n.db" --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R65 '2' 'touch f; "$PB" run --tasks $T --turns 1 --out f/n.db --no-progress'
c R66 '0|2' '"$PB" run --tasks $T --turns 1 --speedup-target 0 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
# --- P: model endpoints (fakesrv.py modes); each stores one turn, whose category is printed
ep() { # ep ID EXPECT MODE [EXTRA RUN OPTIONS]
  local id=$1 exp=$2 mode=$3; shift 3
  c "$id" "$exp" '"$PB" run --model m --base-url $U/'"$mode"'/v1 '"$*"' $RM --out n.db > log.txt 2>&1; r=$?; tail -2 log.txt; sqlite3 n.db "select category||\" | \"||substr(replace(feedback,char(10),\" \"),1,100) from turns; select status||\" \"||coalesce(stop_reason,\"\") from trajectories" 2>&1 | head -3 >&2; exit $r'
}
ep P01 '0|1' contentnum
ep P02 '0|1' contentobj
ep P03 '0|1' refusal
ep P04 '0|1' filtered
ep P05 '0' contentws
ep P06 '0' partsmixed
ep P07 '0|1' reasonobj
ep P08 '0|1' norole
ep P09 '0|1' roleuser
ep P10 '0' bigcode
ep P11 '0' nulcode
ep P12 '0|1' surrogate
ep P13 '0' ptxblock
ep P14 '0' pyblock
ep P15 '0' twoblocks
ep P16 '0' tvmffi
ep P17 '0' policy
ep P18 '0' tildefence
ep P19 '0' thinkonlyopen
ep P20 '0|1' manychoices
ep P21 '0|1' trailing
ep P22 '0|1' jsonstring
ep P23 '0|1' usagefloat
ep P24 '1' hugeerr
ep P25 '0|1' deflate
ep P26 '1' brotli
ep P27 '1|0' gzipbomb --request-timeout 60
ep P28 '1' badchunk
ep P29 '1' banner
ep P30 '1' h2
ep P31 '1' reset
ep P32 '0|1' noctype
ep P33 '0' untileof
ep P34 '0|1' continue100
ep P35 '0|1' status299
ep P36 '0|1' status201
ep P37 '0|1' noreason
ep P38 '1' nolocation
ep P39 '0|1' hugeheader
ep P40 '0|1' folded
ep P41 '1' dupclen
ep P42 '1' negclen
ep P43 '1' http09
ep P44 '1' e429big
ep P45 '1' e429date
ep P46 '1' e408
ep P47 '1' e413
ep P48 '1' e418
ep P49 '0|1' sse_nodataprefix --stream
ep P50 '0' sse_nospace --stream
ep P51 '0|1' sse_multiline --stream
ep P52 '0' sse_deltanull --stream
ep P53 '0|1' sse_toolcalls --stream
ep P54 '0|1' sse_doneonly --stream
ep P55 '0|1' sse_bom --stream
ep P56 '0|1' sse_cronly --stream
ep P57 '0|1' sse_ctypejson --stream
ep P58 '0' sse_fields --stream
ep P59 '0|1' sse_choicesnull --stream
ep P60 '0' sse_manysmall --stream
ep P61 '0|1' sse_after_done --stream
ep P62 '0' sse_think --stream
ep P63 '1' sse_http500 --stream
ep P64 '0|1' sse_usagebad --stream
ep P65 '0|1' goodcode --stream
c P66 '0' '"$PB" run --model m --base-url $U/alt/v1 --tasks $T --turns 3 --attempts 1 --retry-max-s 1 --no-progress --out n.db | tail -1; r=${PIPESTATUS[0]}; sqlite3 n.db "select turn, category from turns" | tr "\n" " " >&2; exit $r'
c P67 '1' 't0=$SECONDS; "$PB" run --model m --base-url $U/e429big/v1 --tasks $T --turns 1 --attempts 5 --retry-max-s 3 --no-progress --out n.db | tail -1; r=${PIPESTATUS[0]}; [ $((SECONDS-t0)) -gt 30 ] && bad "a Retry-After of 3600 held run for $((SECONDS-t0)) s past --retry-max-s 3"; exit $r'
c P68 '0' 'K5="sk-secret-xyz" "$PB" run --model m --base-url $U/goodcode/v1 --api-key-env K5 $RM --out n.db >/dev/null; r=$?; grep -a -c "sk-secret-xyz" n.db && harm "API key stored in the run file"; exit $r'
c P69 '0|2' '"$PB" run --model m --base-url $U/goodcode/v1/ $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c P70 '0|1|2' '"$PB" run --model m --base-url $U/goodcode/v1/chat/completions $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c P71 '0' '"$PB" run --model m --base-url $U/goodcode/v1 --tasks $T,$TA --samples 3 --turns 1 --concurrency 1 --no-progress --out n.db | tail -1; exit ${PIPESTATUS[0]}'
# the no-GPU feedback crash, kept as its own cases: a reply whose kernel compiles; the scripted agent's second turn; rejudge of a run with compiled candidates
c P73 '0' '"$PB" run --model m --base-url $U/realgood/v1 $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c P74 '0' '"$PB" run --tasks $T --turns 2 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c P75 '0' '"$PB" rejudge r.db --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c P72 '0' '"$PB" run --model m --base-url $U/goodcode/v1 --context none --speedup-target 0.001 $RM --out n.db | tail -1; exit ${PIPESTATUS[0]}'
# --- RS: run --resume
c RS01 '0' 'cp $D/s1running.db k.db; "$PB" run --resume k.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c RS02 '2' 'cp $D/s1running.db k.db; "$PB" run --resume k.db --turns 4'
c RS03 '0|2' 'cp $D/s1running.db k.db; "$PB" run --resume k.db --memcheck --json > s.json; r=$?; [ $r = 0 ] && vjson s.json; exit $r'
c RS04 '2' 'cp $D/utf16enc.db k.db; h=$(sha256sum k.db); "$PB" run --resume k.db --no-progress; r=$?; [ "$h" = "$(sha256sum k.db)" ] || [ $r = 0 ] || harm "refused file changed"; exit $r'
c RS05 '0|2' 'cp $D/s1wal.db k.db; sqlite3 k.db "update runs set status=\"running\", finished_at=NULL"; "$PB" run --resume k.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c RS06 '2' 'cp $D/merged.db k.db; sqlite3 k.db "update runs set status=\"running\""; "$PB" run --resume k.db --no-progress'
c RS07 '0|2' 'cp $D/rej.db k.db; sqlite3 k.db "update runs set status=\"running\", finished_at=NULL"; "$PB" run --resume k.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c RS08 '2' 'cp $D/s1running.db k.db; ln -s k.db l.db; "$PB" run --resume l.db --no-progress >/dev/null & sleep 0.3; "$PB" run --resume k.db --no-progress; r=$?; wait; exit $r'
c RS09 '2' 'cp $D/s1running.db k.db; chmod 444 k.db; $NB "$PB" run --resume $PWD/k.db --no-progress'
c RS10 '0|2' 'cp $D/s1running.db k.db; PTXBENCH_ROOT=$R/trajmissing "$PB" run --resume k.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c RS11 '2' 'cp $D/strictturns.db k.db; sqlite3 k.db "update runs set status=\"running\""; "$PB" run --resume k.db --no-progress; exit $?'
c RS13 '0|2' 'cp $D/s1running.db k.db; ln -s k.db l.db; "$PB" run --resume l.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c RS12 '2' '"$PB" run --resume ""'
# --- D: damaged run files (new damages), each read by show --turns (s), show --json (j), report html+junit+csv (h), sft fixit (f)
dmg() { local id=$1 db=$2
  c ${id}s '0|2' '"$PB" show $D/'"$db"'.db --turns > s.txt; r=$?; head -c 300 s.txt; exit $r'
  c ${id}j '0|2' '"$PB" show $D/'"$db"'.db --json > s.json; r=$?; [ $r = 0 ] && vjson s.json; exit $r'
  c ${id}h '0|2' '"$PB" report $D/'"$db"'.db --html o.html --junit o.xml --csv o.csv; r=$?; if [ $r = 0 ]; then vxml o.xml; vcsv o.csv; vhtml o.html; elif ls -A | grep -qv "^r.db$"; then bad "outputs left after exit $r: $(ls -A)"; fi; exit $r'
  c ${id}f '0|2' '"$PB" sft fixit $D/'"$db"'.db --out o; r=$?; if [ $r = 0 ]; then vjsonl o/*.jsonl; elif [ -n "$(ls -A o 2>/dev/null)" ]; then bad "export left after exit $r"; fi; exit $r'
}
dmg D01 evaldeep
dmg D02 auditdeep
dmg D03 llmdeep
dmg D04 flagsdeep
dmg D05 compdeep
dmg D06 provdeep
dmg D07 modelbadutf8
dmg D08 feedbadutf8
dmg D09 srcbadutf8
dmg D10 reasonbadutf8
dmg D11 reasonhuge
dmg D12 cfgdupkeys
dmg D13 cfgbignum
dmg D14 cfgtasksstr
dmg D15 cfgarchsstr
dmg D16 cfgempty
dmg D17 provempty
dmg D18 cfgfastpdup
dmg D19 cfgtopp
dmg D20 evalspeedstr
dmg D21 auditverdict
dmg D22 targetwrong
dmg D23 archexeccerr
dmg D24 skippedall
dmg D25 pendingturns
dmg D26 startafter
dmg D27 createdint
dmg D28 seqgaps
dmg D29 msgturnsall1
dmg D30 samplestr
dmg D31 speedtiny
dmg D32 passednospeed
dmg D33 runid0
dmg D34 trajidhuge
dmg D35 turnsreversed
dmg D36 generatedcol
dmg D37 fts5
dmg D38 rtree
dmg D39 metanopk
dmg D40 metaextracol
dmg D41 trajmany
dmg D42 turnsmany
dmg D43 pagesize64k
dmg D44 utf16enc
dmg D45 strictturns
dmg D46 idxcorrupt
dmg D47 freelistbad
dmg D48 trunc_half
dmg D49 padded
# files beside a run: garbage -wal / -shm must be left as they were
c D50s '0|2' 'cp $D/garbagewal.db x.db; cp $D/garbagewal.db-wal x.db-wal; h=$(sha256sum x.db x.db-wal); "$PB" show x.db | head -2; r=${PIPESTATUS[0]}; [ "$h" = "$(sha256sum x.db x.db-wal 2>&1)" ] || harm "x.db or its -wal changed by show"; exit $r'
c D50h '0|2' 'cp $D/garbagewal.db x.db; cp $D/garbagewal.db-wal x.db-wal; h=$(sha256sum x.db x.db-wal); "$PB" report x.db --csv o.csv; r=$?; [ "$h" = "$(sha256sum x.db x.db-wal 2>&1)" ] || harm "x.db or its -wal changed by report"; exit $r'
c D51s '0|2' 'cp $D/garbageshm.db x.db; cp $D/garbageshm.db-shm x.db-shm; h=$(sha256sum x.db x.db-shm); "$PB" show x.db | head -2; r=${PIPESTATUS[0]}; [ "$h" = "$(sha256sum x.db x.db-shm 2>&1)" ] || harm "x.db or its -shm changed by show"; exit $r'
c D51f '0|2' 'cp $D/garbageshm.db x.db; cp $D/garbageshm.db-shm x.db-shm; h=$(sha256sum x.db x.db-shm); "$PB" sft fixit x.db --out o | tail -1; r=${PIPESTATUS[0]}; [ "$h" = "$(sha256sum x.db x.db-shm 2>&1)" ] || harm "x.db or its -shm changed by sft"; exit $r'
c D52 '0|2' 'cp $D/s1wal.db x.db; sqlite3 x.db "pragma wal_autocheckpoint=0; update trajectories set model=\"walonly\"" ; chmod 555 .; $NB "$PB" show $PWD/x.db --turns | grep -c walonly; r=${PIPESTATUS[0]}; chmod 777 .; exit $r'
c D53 '0|2' 'cp $D/scr.db x.db; python3 -c "import sqlite3,time; c=sqlite3.connect(\"x.db\"); c.execute(\"pragma locking_mode=exclusive\"); c.execute(\"begin exclusive\"); time.sleep(6)" & sleep 1; "$PB" show x.db | head -2; r=${PIPESTATUS[0]}; wait; exit $r'
c D54 '2' 'timeout 20 "$PB" show /dev/urandom'
c D55 '2' 'python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.bind(\"sock.db\")"; "$PB" show sock.db'
c D56 '0' 'ln -s $D/scr.db l.db; "$PB" show l.db | head -1; exit ${PIPESTATUS[0]}'
c D57 '0' '"$PB" show /proc/self/fd/9 9<$D/scr.db | head -1; exit ${PIPESTATUS[0]}'
c D58 '0' 'cp $D/scr.db noext; "$PB" show noext | head -1; exit ${PIPESTATUS[0]}'
# other commands on some of the new damages
for x in evaldeep:D60 modelbadutf8:D61 trajmany:D62 utf16enc:D63 strictturns:D64 fts5:D65 trajidhuge:D66 idxcorrupt:D67 metanopk:D68 cfgdupkeys:D69; do db=${x%%:*}; id=${x##*:}
  c ${id}k '0|2' '"$PB" sft kernelgen $D/'"$db"'.db --out o; r=$?; [ $r = 0 ] && vjsonl o/*.jsonl; [ $r != 0 ] && [ -n "$(ls -A o 2>/dev/null)" ] && bad "export left"; exit $r'
  c ${id}c '0|2' '"$PB" sft coverage $D/'"$db"'.db --json > c.json; r=$?; [ $r = 0 ] && vjson c.json; exit $r'
  c ${id}r '0|2' '"$PB" rejudge $D/'"$db"'.db --out n.db; r=$?; [ $r != 0 ] && ls -A | grep -v "^r.db$" | grep -q . && bad "left: $(ls -A)"; exit $r'
done
# --- S: show
c S01 '0' '"$PB" show r.db --price-in 1000000000 --price-out 1000000000 | tail -3; exit ${PIPESTATUS[0]}'
c S03 '2' '"$PB" show r.db --price-out inf'
c S04 '2' '"$PB" show r.db --price-in 1e-400x'
c S06 '2' '"$PB" show r.db $D/scr.db $D/s0.db'
c S07 '2' '"$PB" show r.db $D/scr.db --compare $D/s0.db'
c S08 '0' '"$PB" show $D/scr.db --compare r.db --json --turns > s.json; r=$?; vjson s.json; exit $r'
c S09 '0' '"$PB" show $D/merged.db --compare $D/scr.db --turns | tail -2; exit ${PIPESTATUS[0]}'
c S10 '0' '"$PB" show $D/rej.db $D/scr.db --price-in 3 --price-out 15 | tail -2; exit ${PIPESTATUS[0]}'
c S11 '0' '"$PB" show $D/s0.db | tail -2; exit ${PIPESTATUS[0]}'
c S12 '0|2' '"$PB" show $D/scrmodel.db --compare $D/scr.db | tail -2; exit ${PIPESTATUS[0]}'
c S13 '2' '"$PB" show --compare r.db'
c S14 '2' '"$PB" show r.db --compare'
c S15 '0' '"$PB" show $D/s1trajhuge.db --turns | tail -2; exit ${PIPESTATUS[0]}'
c S16 '2' '"$PB" show r.db --compare $D/utf16enc.db/'
c S17 '0' '"$PB" show ./r.db --compare $PWD/r.db --json > s.json; r=$?; vjson s.json; exit $r'
c S18 '2' '"$PB" show r.db --turns --turns'
# --- H: report
c H01 '0|2' '"$PB" report r.db --html o.html --junit o.html'
c H02 '2' '"$PB" report r.db --csv o.csv --junit ./o.csv'
c H03 '2' '"$PB" report r.db --csv r.db'
c H05 '0|1' '"$PB" report r.db --csv /dev/stdout | tail -1; exit ${PIPESTATUS[0]}'
c H06 '0|2' '"$PB" report r.db r.db --csv o.csv; r=$?; [ $r = 0 ] && wc -l < o.csv >&2; exit $r'
c H07 '0' '"$PB" report r.db $D/scr.db $D/merged.db $D/rej.db --html o.html --junit o.xml --csv o.csv; r=$?; vhtml o.html; vxml o.xml; vcsv o.csv; exit $r'
c H08 '2' '"$PB" report r.db --html "$(printf "o\n.html")"; r=$?; exit $r'
c H09 '0' '"$PB" report r.db --html "x y/o &<>.html"; r=$?; vhtml "x y/o &<>.html"; exit $r'
c H10 '2' 'cp $D/scr.db a.db; "$PB" report r.db --junit a.db --force; r=$?; "$PB" show a.db > /dev/null || harm "a run file was overwritten by report --junit --force"; exit $r'
c H11 '2' '"$PB" report r.db --csv $FX/good.cu --force; r=$?; exit $r'
c H12 '0' 'touch o.csv; chmod 444 o.csv; "$PB" report r.db --csv o.csv --force; r=$?; exit $r'
c H13 '2' 'touch o.csv; chmod 444 o.csv; $NB "$PB" report $PWD/r.db --csv $PWD/o.csv --force'
c H14 '0|2' 'ln -s o.csv link.csv; "$PB" report r.db --csv link.csv; r=$?; ls -la >&2; exit $r'
c H15 '2' 'ln -s r.db link.csv; "$PB" report r.db --csv link.csv --force; r=$?; "$PB" show r.db >/dev/null || harm "r.db overwritten through a symlink"; exit $r'
c H16 '2' '"$PB" report r.db'
c H17 '0' '"$PB" report $D/trajmany.db --csv o.csv --junit o.xml; r=$?; vcsv o.csv; vxml o.xml; exit $r'
c H18 '0' '"$PB" report $D/turnsmany.db --html o.html; r=$?; vhtml o.html; ls -la o.html >&2; exit $r'
c H19 '2' '"$PB" report r.db $D/places.db --csv o.csv; r=$?; [ -e o.csv ] && bad "csv written though an input was refused"; exit $r'
c H20 '2' '"$PB" report r.db $D/dir_that_is_not_there.db --html o.html; r=$?; [ -e o.html ] && bad "html written though an input was missing"; exit $r'
# --- Q: gate
c Q03 '17' '"$PB" gate $FX/good.cu --task $T --min-speedup 0 --json j.jsonl; r=$?; vjsonl j.jsonl; exit $r'
c Q04 '2' '"$PB" gate $FX/good.cu --task $T --json'
c Q05 '2' '"$PB" gate $FX/good.cu --task $T --timeline --junit j.xml'
c Q06 '2' 'mkdir j.xml; "$PB" gate $FX/good.cu --task $T --junit j.xml --force'
c Q07 '17' '"$PB" gate $FX/good.cu $FX/good.cu --task $T --junit j.xml; r=$?; vxml j.xml; exit $r'
c Q08 '2' '"$PB" gate $FX/good.cu $FX/nosuch.cu $FX/cerr.cu --task $T --junit j.xml; r=$?; [ -e j.xml ] && bad "junit written though an input is missing"; exit $r'
c Q09 '15|17|2' '"$PB" gate $FX/rp_upper.md --task $T'
c Q11 '11' '"$PB" gate $FX/cerr.cu $FX/good.cu --task $T --json j.jsonl --junit j.xml; r=$?; vjsonl j.jsonl; vxml j.xml; exit $r'
c Q12 '12' '"$PB" gate $FX/inc_import.cu $FX/cerr.cu --task $T --json j.jsonl; r=$?; vjsonl j.jsonl; exit $r'
c Q13 '2' '"$PB" gate $FX/good.cu --task $T --json j.jsonl --junit j.jsonl'
c Q14 '17' '"$PB" gate $FX/good.cu --task $T --shared-inputs --require-arch --allow-weaker-sandbox --library-plan heuristic | tail -1; exit ${PIPESTATUS[0]}'
c Q15 '2' '"$PB" gate $FX/good.cu --task $T --trials 0'
c Q16 '2' '"$PB" gate $FX/good.cu --task $T --arch sm_75'
c Q17 '17|11' '"$PB" gate $FX/good.cu $FX/tvm.cu --task $T --contract auto --json j.jsonl; r=$?; vjsonl j.jsonl; exit $r'
c Q18 '11' '"$PB" gate $FX/good.cu --task $T --contract tvm-ffi'
c Q19 '17' '"$PB" gate "$FX/ spaced name.cu" --task $T --junit "a&b<c>.xml"; r=$?; vxml "a&b<c>.xml"; exit $r'
c Q20 '2' '"$PB" gate $FX/good.cu --task $T --json $FX/good.cu --force; r=$?; exit $r'
# --- J: rejudge
c J01 '2' '"$PB" rejudge $D/scr.db --out $D/scr.db'
c J02 '2' 'cp $D/scr.db a.db; ln -s a.db b.db; "$PB" rejudge a.db --out b.db; r=$?; cmp -s a.db $D/scr.db || harm "input changed"; exit $r'
c J03 '0' '"$PB" rejudge $D/scr.db --out n.db --allow-partial | tail -1; exit ${PIPESTATUS[0]}'
c J04 '0' '"$PB" rejudge $D/merged.db --out n.db | tail -1; r=${PIPESTATUS[0]}; "$PB" show n.db >/dev/null || bad "rejudged merged run unreadable"; exit $r'
c J05 '0' '"$PB" rejudge $D/rej.db --out n.db --json > j.json; r=$?; vjson j.json; exit $r'
c J06 '0' '"$PB" rejudge $D/s0.db --out n.db | tail -1; r=${PIPESTATUS[0]}; sqlite3 n.db "select json_extract(provenance_json,\"\$.shard\") from runs" >&2; exit $r'
c J07 '2' '"$PB" rejudge $D/s1running.db --out n.db'
c J08 '0' '"$PB" rejudge $D/s1running.db --out n.db --allow-partial --shared-inputs | tail -1; exit ${PIPESTATUS[0]}'
c J09 '2' '"$PB" rejudge $D/scr.db --out n.db --memcheck --trials 5'
c J10 '2' 'mkdir n.db; "$PB" rejudge $D/scr.db --out n.db'
c J11 '0' '"$PB" rejudge $D/scr.db --out "$PWD/new dir/a b.db" | tail -1; exit ${PIPESTATUS[0]}'
c J12 '2' '"$PB" rejudge $D/scr.db $D/s0.db --out n.db'
c J13 '2' '"$PB" rejudge $FX/good.cu --out n.db'
c J14 '0' 'cp $D/scr.db k.db; chmod 444 k.db; $NB "$PB" rejudge $PWD/k.db --out $W/tmp/J14/n.db | tail -1; exit ${PIPESTATUS[0]}'
# --- M: merge
c M01 '2' '"$PB" merge $D/s0.db --out m.db'
c M02 '0' '"$PB" merge $D/s0.db --out m.db --allow-partial | tail -1; r=${PIPESTATUS[0]}; sqlite3 m.db "select status from runs" >&2; exit $r'
c M03 '2' '"$PB" merge $D/s0.db $D/other0.db --out m.db'
c M04 '2' 'ln $D/s0.db h.db 2>/dev/null || cp $D/s0.db h.db; "$PB" merge $D/s0.db h.db --out m.db'
c M06 '2' '"$PB" merge $D/scr.db --out m.db'
c M07 '2' '"$PB" merge $D/merged.db $D/s0.db --out m.db'
c M08 '2' '"$PB" merge $D/s0.db $D/q0.db --out m.db'
c M09 '0|2' '"$PB" merge $D/s0.db $D/s1trajhuge.db --out m.db | tail -1; r=${PIPESTATUS[0]}; [ $r = 0 ] && { "$PB" show m.db --turns >/dev/null || bad "merged file unreadable"; }; exit $r'
c M10 '0|2' '"$PB" merge $D/s0.db $D/s1msgextra.db --out m.db | tail -1; exit ${PIPESTATUS[0]}'
c M11 '0|2' '"$PB" merge $D/s0.db $D/s1utf16.db --out m.db | tail -1; r=${PIPESTATUS[0]}; [ $r = 0 ] && { "$PB" show m.db >/dev/null || bad "merged unreadable"; }; exit $r'
c M12 '0|2' '"$PB" merge $D/s0.db $D/s1wal.db --out m.db | tail -1; exit ${PIPESTATUS[0]}'
c M13 '2' '"$PB" merge $D/s0.db $D/s1running.db --out m.db'
c M14 '0' '"$PB" merge $D/s1.db $D/s0.db --out "$PWD/x/y/m.db" | tail -1; exit ${PIPESTATUS[0]}'
c M15 '2' '"$PB" merge $D/s0.db $D/s1.db'
c M16 '2' '"$PB" merge --out m.db'
c M17 '2' 'touch m.db; "$PB" merge $D/s0.db $D/s1.db --out m.db; r=$?; [ -s m.db ] && bad "existing file overwritten"; exit $r'
c M18 '2' '"$PB" merge $D/s0.db $D/s1.db --out m.db --force'
# --- F: sft fixit / kernelgen / coverage
c F01 '2' '"$PB" sft fixit r.db --out o --categories "compile_error,,incorrect"'
c F02 '2' '"$PB" sft fixit r.db --out o --categories "passed"'
c F03 '0|2' '"$PB" sft fixit r.db --out o --categories "no_code" | tail -1; exit ${PIPESTATUS[0]}'
c F04 '2' '"$PB" sft fixit r.db --out o --categories "Compile_Error"'
c F05 '2' '"$PB" sft fixit r.db --out o --pairing ALL'
c F06 '2' '"$PB" sft fixit r.db --out o --per-task-cap 1000001'
c F07 '2' '"$PB" sft fixit r.db --out o --bytes-per-token 1000.5'
c F08 '0' '"$PB" sft fixit r.db --out o --bytes-per-token 0.001 | tail -1; exit ${PIPESTATUS[0]}'
c F09 '0' '"$PB" sft fixit r.db --out o --max-tokens 1 | tail -1; r=${PIPESTATUS[0]}; vjsonl o/*.jsonl; exit $r'
c F10 '2' '"$PB" sft fixit r.db --out o --seed 18446744073709551616'
c F11 '0|2' '"$PB" sft fixit r.db --out o --heldout-task $T,$T | tail -1; exit ${PIPESTATUS[0]}'
c F12 '0|2' '"$PB" sft fixit r.db --out o --allow-flag "" | tail -1; exit ${PIPESTATUS[0]}'
c F13 '0|2' '"$PB" sft fixit r.db --out o --allow-flag no_such_flag | tail -1; exit ${PIPESTATUS[0]}'
c F14 '0|2' '"$PB" sft fixit r.db --out o --min-speedup 999999 | tail -1; exit ${PIPESTATUS[0]}'
c F15 '2' '"$PB" sft fixit r.db --out $FX/good.cu'
c F16 '2' 'mkdir o; echo keep > o/notes.txt; "$PB" sft fixit r.db --out o; r=$?; [ "$(cat o/notes.txt)" = keep ] || harm "a user file in --out changed"; exit $r'
c F17 '0|2' 'mkdir o; echo keep > o/notes.txt; "$PB" sft fixit r.db --out o --force; r=$?; [ -e o/notes.txt ] || harm "--force removed a user file that is not part of an export"; exit $r'
c F18 '0' '"$PB" sft fixit r.db $D/scr.db $D/rej.db $D/merged.db --out o | tail -1; r=${PIPESTATUS[0]}; vjsonl o/*.jsonl; exit $r'
c F19 '0|2' '"$PB" sft fixit r.db r.db --out o | tail -1; exit ${PIPESTATUS[0]}'
c F20 '0' '"$PB" sft fixit r.db --out o --no-reasoning --pairing all --allow-missing-instructions | tail -1; r=${PIPESTATUS[0]}; vjsonl o/*.jsonl; exit $r'
c F21 '2' '"$PB" sft fixit --out o'
c F22 '2' '"$PB" sft fixit r.db --out r.db'
c F25 '0' '"$PB" sft kernelgen r.db --out o --allow-missing-instructions --per-task-cap 0 | tail -1; r=${PIPESTATUS[0]}; vjsonl o/*.jsonl; exit $r'
c F26 '2' '"$PB" sft kernelgen r.db --out o --heldout-task ",,"'
c F27 '2' '"$PB" sft coverage r.db --out c.txt --json --force --pairing two'
c F28 '0' '"$PB" sft coverage r.db --json --categories compile_error > c.json; r=$?; vjson c.json; exit $r'
c F29 '2' 'mkdir c.txt; "$PB" sft coverage r.db --out c.txt --force'
c F30 '2' '"$PB" sft coverage r.db --out r.db --force; r=$?; "$PB" show r.db >/dev/null || harm "r.db overwritten by coverage"; exit $r'
c F31 '2' '"$PB" sft coverage'
c F32 '2' '"$PB" sft bogus r.db'
c F33 '2' '"$PB" sft fixit $D/places.db --out o'
c F34 '0' '"$PB" sft coverage $D/trajmany.db $D/turnsmany.db | tail -2; exit ${PIPESTATUS[0]}'
# --- N: sft mine (teacher endpoints; dry runs)
c N01 '0' '"$PB" sft mine r.db --dry-run --json > m.jsonl; r=$?; vjsonl m.jsonl; exit $r'
c N03 '2' '"$PB" sft mine r.db --dry-run --temperature 10.5'
c N04 '2' '"$PB" sft mine r.db --dry-run --request-timeout 0'
c N05 '2' '"$PB" sft mine r.db --dry-run --stall-timeout -1'
c N09 '2' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out $D/scr.db $MN; r=$?; exit $r'
c N10 '2' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out r.db $MN'
c N11 '0|1' '"$PB" sft mine r.db --model m --base-url $U/contentnum/v1 --out m.db $MN | tail -1; exit ${PIPESTATUS[0]}'
c N12 '0|1' '"$PB" sft mine r.db --model m --base-url $U/sse_multiline/v1 --stream --out m.db $MN | tail -1; exit ${PIPESTATUS[0]}'
c N13 '1' '"$PB" sft mine r.db --model m --base-url $U/banner/v1 --out m.db $MN | tail -1; exit ${PIPESTATUS[0]}'
c N14 '0' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out m.db $MN >/dev/null; "$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out m.db $MN | tail -1; r=${PIPESTATUS[0]}; "$PB" show m.db > /dev/null || bad "mine store unreadable after a second mine"; exit $r'
c N15 '2' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out m.db --limit 1 --attempts 0'
c N16 '0|2' '"$PB" sft mine $D/scr.db $D/rej.db --dry-run | tail -1; exit ${PIPESTATUS[0]}'
c N17 '2' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out m.db --categories "" $MN'
c N18 '0|1' '"$PB" sft mine r.db --model m --base-url $U/policy/v1 --out m.db $MN | tail -1; exit ${PIPESTATUS[0]}'
# --- L: slurm
c L03 '2' '"$PB" slurm script --shards 100001'
c L05 '2' '"$PB" slurm script --shards 2 --job-name "$(printf "a\nb")"'
c L06 '0|2' '"$PB" slurm script --shards 2 --job-name "a b\$(id)" > s.sh; r=$?; [ $r = 0 ] && { bash -n s.sh || bad "script syntax"; grep -q "\$(id)" s.sh && ! grep -q "'"'"'" s.sh && bad "unquoted \$(id)"; }; exit $r'
c L07 '0' '"$PB" slurm script --shards 2 --time 1-00:00:00 | grep -c time; exit ${PIPESTATUS[0]}'
c L12 '0' '"$PB" slurm script --shards 2 --gpus-per-shard 0 -- --tasks $T --turns 1 > s.sh; r=$?; bash -n s.sh || bad "script syntax"; exit $r'
c L13 '2' '"$PB" slurm script --shards 2 --gpus-per-shard 65'
c L15 '0|2' '"$PB" slurm script --shards 2 --sbatch-arg "--mem=4G" --sbatch-arg "--exclusive" | grep -c "SBATCH --mem\|SBATCH --exclusive"; exit ${PIPESTATUS[0]}'
c L16 '2' '"$PB" slurm script --shards 2 --sbatch-arg "--array=0-99"'
c L17 '2' '"$PB" slurm script --shards 2 --sbatch-arg "--dependency=afterok:1"'
c L18 '0|1' 'PATH=$B/sb_sbatch_words:$PATH "$PB" slurm submit --shards 2 --dir d | tail -2; exit ${PIPESTATUS[0]}'
c L19 '1' 'PATH=$B/sb_sbatch_neg:$PATH "$PB" slurm submit --shards 2 --dir d'
c L20 '1' 'PATH=$B/sb_sbatch_huge:$PATH "$PB" slurm submit --shards 2 --dir d'
c L21 '1' 'PATH=$B/sb_sbatch_semicolon:$PATH "$PB" slurm submit --shards 2 --dir d'
c L22 '1|0' 'PATH=$B/sb_sbatch_twolines:$PATH "$PB" slurm submit --shards 2 --dir d | tail -2; exit ${PIPESTATUS[0]}'
c L23 '1' 'PATH=$B/sb_sbatch_flood:$PATH "$PB" slurm submit --shards 2 --dir d 2>&1 | tail -c 300; exit ${PIPESTATUS[0]}'
c L24 '1' 'PATH=$B/sb_sbatch_segv:$PATH "$PB" slurm submit --shards 2 --dir d'
c L25 '2' 'mkdir -m 555 ro; PATH=$B/sb_sbatch_words:$PATH $NB "$PB" slurm submit --shards 2 --dir $PWD/ro/d'
c L26 '2' '"$PB" slurm submit --shards 2 --dir d -- --tasks nosuch'
# --- X: interrupts, full disks, limits, other users, two processes
c X01 '143' '"$PB" merge $D/s0.db $D/s1.db --out m.db & p=$!; sleep 0.05; kill -TERM $p; wait $p; r=$?; ls -A | grep -v "^r.db$" | grep . && bad "left after SIGTERM: $(ls -A)"; exit $r'
c X02 '129' '"$PB" sft kernelgen r.db $D/scr.db --out o --allow-missing-instructions & p=$!; sleep 0.05; kill -HUP $p; wait $p; r=$?; [ -n "$(ls -A o 2>/dev/null)" ] && bad "half export left after SIGHUP"; exit $r'
c X03 '130' '"$PB" rejudge $D/scr.db --out n.db & p=$!; sleep 0.5; kill -INT $p; wait $p; r=$?; ls -A | grep -v "^r.db$" | grep . && bad "left after SIGINT: $(ls -A)"; exit $r'
c X04 '143' 'PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/ref.cu --task $T & p=$!; sleep 1; kill -TERM $p; wait $p; r=$?; sleep 0.5; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/ref.cu --task $T | head -1 | grep -q "cache" && harm "an interrupted compile left a cache entry"; exit $r'
c X05 '130|0' '"$PB" report r.db $D/trajmany.db --html o.html & p=$!; sleep 0.3; kill -INT $p; wait $p; r=$?; [ $r = 130 ] && [ -e o.html ] && bad "o.html left after SIGINT"; exit $r'
c X06 '143' '"$PB" gate $FX/good.cu $FX/cerr.cu $FX/ref.cu --task $T --junit j.xml --json j.jsonl & p=$!; sleep 1; kill -TERM $p; wait $p; r=$?; [ -e j.xml ] && vxml j.xml; exit $r'
c X07 '130' '"$PB" run --model m --base-url $U/goodcode/v1 --tasks $T,$TA --turns 8 --samples 2 --out n.db --no-progress > l.txt 2>&1 & p=$!; sleep 3; kill -INT $p; wait $p; r=$?; tail -1 l.txt >&2; grep -q "resume with" l.txt || bad "no resume hint"; sqlite3 n.db "pragma integrity_check" | grep -qx ok || bad "run file not intact"; exit $r'
c X08 '0' '"$PB" run --model m --base-url $U/goodcode/v1 --tasks $T,$TA --turns 3 --out n.db --no-progress >/dev/null 2>&1 & p=$!; sleep 2; kill -KILL $p; wait $p; "$PB" run --resume n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c X09 '130' '"$PB" sft mine r.db --model m --base-url $U/goodcode/v1 --out m.db --limit 3 & p=$!; sleep 1; kill -INT $p; wait $p; r=$?; [ -e m.db ] && { sqlite3 m.db "pragma integrity_check" | grep -qx ok || bad "mine store damaged"; }; exit $r'
c X10 '0|130' '"$PB" show r.db --turns & p=$!; kill -STOP $p; sleep 0.3; kill -CONT $p; kill -INT $p; wait $p; exit $?'
c X11 '1' 'mkdir tfs; mount -t tmpfs -o size=16k tmpfs tfs; "$PB" report r.db $D/scr.db --html tfs/o.html; r=$?; ls -A tfs >&2; [ -n "$(ls -A tfs)" ] && bad "partial html left on a full disk"; umount tfs; exit $r'
c X12 '1' 'mkdir tfs; mount -t tmpfs -o size=12k tmpfs tfs; "$PB" merge $D/s0.db $D/s1.db --out tfs/m.db; r=$?; ls -A tfs >&2; [ -n "$(ls -A tfs)" ] && bad "partial merge left"; umount tfs; exit $r'
c X13 '1' 'mkdir tfs; mount -t tmpfs -o size=40k tmpfs tfs; "$PB" rejudge $D/scr.db --out tfs/n.db; r=$?; ls -A tfs >&2; [ -n "$(ls -A tfs)" ] && bad "partial rejudge left"; umount tfs; exit $r'
c X14 '1' 'mkdir tfs; mount -t tmpfs -o size=8k tmpfs tfs; "$PB" gate $FX/good.cu $FX/cerr.cu --task $T --junit tfs/j.xml --json tfs/j.jsonl; r=$?; ls -la tfs >&2; umount tfs; exit $r'
c X15 '1' 'mkdir tfs; mount -t tmpfs -o size=64k tmpfs tfs; PTXBENCH_CACHE=$PWD/tfs "$PB" compile $FX/good.cu --task $T --no-cache; r=$?; umount tfs; PTXBENCH_CACHE=$PWD/c2 "$PB" compile $FX/good.cu --task $T >/dev/null || bad "good kernel fails afterwards"; exit $r'
c X16 '1|0' 'mkdir tfs; mount -t tmpfs -o size=64k tmpfs tfs; TMPDIR=$PWD/tfs "$PB" compile $FX/good.cu --task $T --no-cache | tail -1; r=${PIPESTATUS[0]}; ls -A tfs >&2; umount tfs; exit $r'
c X17 '1' 'mkdir tfs; mount -t tmpfs -o size=20k tmpfs tfs; "$PB" sft fixit r.db $D/scr.db --out tfs/o --pairing all; r=$?; ls -A tfs/o 2>&1 >&2; [ -n "$(ls -A tfs/o 2>/dev/null)" ] && bad "partial export left"; umount tfs; exit $r'
c X18 '1' '(ulimit -f 20; "$PB" merge $D/s0.db $D/s1.db --out m.db); r=$?; [ -e m.db ] && bad "partial merge left"; exit $r'
c X19 '1' '(ulimit -f 30; "$PB" rejudge $D/scr.db --out n.db); r=$?; [ -e n.db ] && bad "partial rejudge left"; exit $r'
c X20 '1' '(ulimit -f 4; "$PB" gate $FX/good.cu --task $T --json j.jsonl --junit j.xml); exit $?'
c X21 '1|0' '(ulimit -n 16; "$PB" report r.db $D/scr.db $D/merged.db $D/rej.db $D/s0.db $D/s1.db --csv o.csv); r=$?; exit $r'
c X22 '1|0' '(ulimit -s 256; "$PB" show $D/evaldeep.db --json > /dev/null); exit $?'
c X23 '1|0|2' '(ulimit -v 300000; "$PB" report $D/turnsmany.db --html o.html); exit $?'
c X24 '0|2' '$NB "$PB" show $D/scr.db --turns | tail -1; exit ${PIPESTATUS[0]}'
c X25 '2' '$NB env PTXBENCH_CACHE=$W/nbcache "$PB" run --tasks $T --turns 1 --out /root/n5.db --no-progress; r=$?; rm -f /root/n5.db; exit $r'
c X26 '2' 'mkdir -m 777 sh; cp $D/s1running.db sh/k.db; chmod 666 sh/k.db; "$PB" run --resume sh/k.db --no-progress >/dev/null 2>&1 & sleep 0.3; $NB "$PB" run --resume $PWD/sh/k.db --no-progress; r=$?; wait; exit $r'
c X27 '0|2' '"$PB" merge $D/s0.db $D/s1.db --out m.db >/dev/null & "$PB" merge $D/s1.db $D/s0.db --out m.db; r=$?; wait; sqlite3 m.db "pragma integrity_check" | grep -qx ok || bad "merged file damaged"; exit $r'
c X28 '0|2' 'cp $D/s1running.db k.db; "$PB" run --resume k.db --no-progress >/dev/null & "$PB" rejudge k.db --out n.db --allow-partial | tail -1; r=${PIPESTATUS[0]}; wait; exit $r'
c X29 '0|2' 'cp $D/scr.db k.db; "$PB" report k.db --csv o.csv >/dev/null & "$PB" sft mine k.db --model m --base-url $U/goodcode/v1 --out k.db $MN; r=$?; wait; "$PB" show k.db > /dev/null || harm "k.db unreadable"; exit $r'
c X30 '0' 'cp $D/scr.db k.db; (sleep 0.2; sqlite3 k.db "pragma journal_mode=wal" >/dev/null) & "$PB" show k.db --turns | tail -1; r=${PIPESTATUS[0]}; wait; exit $r'
echo "cases done" >&2
