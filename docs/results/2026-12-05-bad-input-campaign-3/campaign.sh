#!/usr/bin/env bash
# ptxbench bad-input campaign 3b. usage: campaign.sh [PTXBENCH_BINARY]
#   env: ONLY=<regex of case ids>; W=<workdir, default /tmp/campaign3b/work>; OUT=<default /tmp/campaign3b/out>
# Writes $OUT/raw.tsv: id, command, exit, crash(auto), data(auto), message(first 200 chars), note(auto)
# then merge.py joins raw.tsv with judgments.tsv (hand judgments) into cases.tsv.
set -u
PB=$(readlink -f "${1:-/tmp/campaign/bin3/ptxbench}")
W=${W:-/tmp/campaign3b/work}; OUT=${OUT:-/tmp/campaign3b/out}; ONLY=${ONLY:-.}
RUNSRC=${RUNSRC:-/work/shared/runs/2026-11-30-h200-main.db}
mkdir -p "$W" "$OUT/logs"; W=$(readlink -f "$W")
export PB W
export PTXBENCH_ROOT=/tmp/campaign/root3 PTXBENCH_CACHE=/tmp/campaign3b/cache
export PTXBENCH_CUOBJDUMP=/work/main/.deps/bin/cuobjdump PTXBENCH_NVDISASM=/work/main/.deps/bin/nvdisasm
export ROOT=$PTXBENCH_ROOT K=$PTXBENCH_ROOT/kernels T=gemm_n7168_k5120 TA=mha_with_lse_d128 FX=$W/fx D=$W/db R=$W/roots
export NB="setpriv --reuid=65534 --regid=65534 --clear-groups"
unset PTXBENCH_NO_GPU PTXBENCH_ASSUME_GPU PTXBENCH_BIN_DIR SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_MIN SLURM_ARRAY_TASK_COUNT JOB_COMPLETION_INDEX

setup() {
  rm -rf "$W/fx" "$W/db" "$W/o" "$W/roots" "$W/tmp"; mkdir -p "$W/fx" "$W/db" "$W/o" "$W/roots" "$W/tmp" "$W/nbcache"
  chmod 755 "$W" "$W/fx" "$W/db" "$W/o"; chmod 777 "$W/nbcache" "$W/tmp"
  cp "$RUNSRC" "$W/run.db"; chmod 644 "$W/run.db"
  cd "$FX" || exit 1
  cp "$K/controls/gemm/naive_correct.cu" good.cu
  cp "$K/controls/gemm/compile_error.cu" cerr.cu
  cp "$K/reference/sm_90a/gemm_n7168_k5120.cu" ref.cu
  cp good.cu upper.CU; cp good.cu k.cu.bak
  n=$(wc -c < good.cu); echo "$n" > good.size
  { cat good.cu; printf '// '; head -c 900000 /dev/zero | tr '\0' 'x'; echo; } > longline.cu
  { printf '````cuda\n'; cat good.cu; printf '````\n'; } > reply_4tick.md
  { printf 'Code:\n```cpp\n'; cat good.cu; printf '```\n'; } > reply_cpp.md
  { printf 'Code:\n```CUDA\n'; cat good.cu; printf '```\n'; } > reply_CUDA.md
  { printf 'Code:\n    ```cuda\n'; sed 's/^/    /' good.cu; printf '    ```\n'; } > reply_indent.md
  { printf 'Code:\n```cuda title="k.cu" {1,2}\n'; cat good.cu; printf '```\n'; } > reply_info.md
  { printf '<think>\n```cuda\n'; cat good.cu; printf '```\n</think>\nI decided not to answer.\n'; } > reply_thinkonly.md
  python3 -c "import json,sys; print(json.dumps({'choices':[{'message':{'content':'\`\`\`cuda\n'+open('good.cu').read()+'\`\`\`'}}]}))" > reply_json.md
  { for i in $(seq 1 300); do printf '```cuda\nint x%d;\n```\n' $i; done; printf '```cuda\n'; cat good.cu; printf '```\n'; } > reply_many.md
  { printf '```cuda\n'; cat good.cu; head -c 1200000 /dev/zero | tr '\0' '\n' | sed 's/^$/\/\/ pad/' | head -c 1200000; printf '\n```\n'; } > reply_huge.md
  { printf '````markdown\n```cuda\n'; cat good.cu; printf '```\n````\n'; } > reply_nested.md
  { printf 'Plain:\n```\n'; cat good.cu; printf '```\n'; } > reply_plain.md
  { printf 'Code:\n```cuda\n'; cat good.cu; printf '```\n'; } | iconv -f utf-8 -t utf-16 > reply_utf16.md
  { printf 'Code:\n```cuda\n'; cat good.cu; printf '```\n'; } > reply_good.md
  { printf '#include <tvm/ffi/function.h>\n'; cat good.cu; } > tvmfile.cu
  python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.bind('sock.cu')"
  mkdir -p kdir; ln -s kdir dirlink.cu
  printf '#include "/proc/self/environ"\n' > incproc.cu
  { cat good.cu; printf '\n#pragma message("hello from pragma")\n'; } > pragmamsg.cu
  printf '\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0' > elf.cu; head -c 5000 /bin/ls >> elf.cu
  { printf '\xff\xfe'; iconv -f utf-8 -t utf-16le good.cu; } > utf16.cu
  sha256sum * 2>/dev/null | sort > "$W/fx.sha"
  # ---------------------------------------------------------------- run files
  cd "$D" || exit 1
  mk() { cp "$W/run.db" "$1.db"; sqlite3 "$1.db" "$2" 2>>"$W/setup.err" >/dev/null; }
  mk cfgnotasks "update runs set config_json=json_remove(config_json,'\$.tasks')"
  mk cfgturnsstr "update runs set config_json=json_set(config_json,'\$.turns','eight')"
  mk cfgturnsneg "update runs set config_json=json_set(config_json,'\$.turns',-3)"
  mk cfgarchsempty "update runs set config_json=json_set(config_json,'\$.archs',json('[]'))"
  mk cfgfastpstr "update runs set config_json=json_set(config_json,'\$.fast_p',json('[\"a\",null]'))"
  mk cfgbudgetsempty "update runs set config_json=json_set(config_json,'\$.turn_budgets',json('[]'))"
  mk cfgbudgetszero "update runs set config_json=json_set(config_json,'\$.turn_budgets',json('[0,100]'))"
  mk cfgtargetnull "update runs set config_json=json_set(config_json,'\$.speedup_target',json('null'))"
  mk cfgsamples0 "update runs set config_json=json_set(config_json,'\$.samples',0)"
  mk cfgmodelnum "update runs set config_json=json_set(config_json,'\$.model',42)"
  mk provnotjson "update runs set provenance_json='{oops'"
  mk noruns "delete from runs"
  mk runid99 "update trajectories set run_id=99"
  mk trajfailed "update trajectories set status='failed' where id%2=0; update trajectories set status='pending' where id%2=1"
  mk msgnul "update messages set content=content||char(0)||'after-nul' where role='assistant'"
  mk msgbadutf8 "update messages set content=cast(x'41C328FFFE42' as text) where role='assistant'"
  mk msgnoassistant "delete from messages where role='assistant'"
  mk msgroleswap "update messages set role=case role when 'system' then 'assistant' when 'assistant' then 'system' else role end"
  mk turnincons "update turns set correct=1-correct"
  mk turnharness "update turns set category='harness_error'"
  mk turnarchnull "update turns set arch_executed=NULL"
  mk turnsrcnull "update turns set source=NULL, source_hash=NULL"
  mk evalarr "update turns set eval_json='[1,2]', audit_json='\"str\"', compile_json='3'"
  mk evaltrunc "update turns set eval_json=substr(eval_json,1,20), compile_json=substr(compile_json,1,15)"
  mk llmneg "update turns set llm_json='{\"prompt_tokens\":-5,\"completion_tokens\":1e30,\"latency_s\":-1}'"
  mk llmstr "update turns set llm_json='{\"prompt_tokens\":\"many\",\"completion_tokens\":[1],\"latency_s\":\"x\"}'"
  mk speedinf "update turns set speedup=9e999 where speedup is not null"
  mk speedninf "update turns set speedup=-9e999 where speedup is not null"
  mk turnhuge "update turns set turn=turn+9223372036854775000"
  mk sampleneg "update trajectories set sample=-1"
  mk createdempty "update turns set created_at=''; update runs set created_at=''"
  mk archempty "update trajectories set arch=''"
  mk modelempty "update trajectories set model=''"
  mk modeltrav "update trajectories set model='../../../tmp/evil'||id"
  mk tasktrav "update trajectories set task='../../../../etc/passwd'||id"
  mk twomodels "update trajectories set model='other/m' where id%2=0"
  mk stopreason "update trajectories set stop_reason=printf('%.100000c','r')"
  mk msgturnbig "update messages set turn=turn+50"
  mk metaver1sp "update meta set value='1 ' where key='schema_version'"
  mk metaver01 "update meta set value='01' where key='schema_version'"
  mk nocreatedby "delete from meta where key='created_by'"
  mk userver "pragma user_version=99; pragma application_id=1234"
  mk nospeedcol "create table t2 as select id,trajectory_id,turn,source,source_hash,category,feedback,compile_json,eval_json,audit_json,correct,arch_executed,target_reached,gpu_stages,flags_json,llm_json,created_at from turns; drop table turns; alter table t2 rename to turns"
  mk viewturns "alter table turns rename to turns_old; create view turns as select * from turns_old"
  mk trigger "create trigger tr after insert on turns begin select raise(abort,'TRIGGER-FIRED'); end; create trigger tr2 after insert on trajectories begin select raise(abort,'TRIGGER2'); end"
  mk nocheck "pragma writable_schema=1; update sqlite_master set sql=replace(sql,'CHECK (category IN','CHECK (1 OR category IN') where name='turns'"
  cp "$W/run.db" pagesize.db; sqlite3 pagesize.db "pragma page_size=65536; vacuum" >/dev/null
  sqlite3 "$W/run.db" .dump > "$W/dump.sql"; { echo "pragma encoding='UTF-16le';"; cat "$W/dump.sql"; } | sqlite3 utf16.db
  cp "$W/run.db" trailing.db; head -c 10000 /dev/urandom >> trailing.db
  cp "$W/run.db" zeropage.db; dd if=/dev/zero of=zeropage.db bs=4096 seek=5 count=2 conv=notrunc 2>/dev/null
  cp "$W/run.db" zeropage1.db; dd if=/dev/zero of=zeropage1.db bs=1 seek=100 count=3900 conv=notrunc 2>/dev/null
  cp "$W/run.db" flippage.db; printf '\xff\xff\xff\xff' | dd of=flippage.db bs=1 seek=$((4096*3+8)) conv=notrunc 2>/dev/null
  cp "$W/run.db" halfpage.db; truncate -s $(( $(stat -c %s "$W/run.db") - 2048 )) halfpage.db
  cp "$W/run.db" hotj.db; sqlite3 hotj.db "pragma journal_mode=delete" >/dev/null; python3 - "$D/hotj.db" <<'PY'
import sqlite3,sys,os
c=sqlite3.connect(sys.argv[1]); c.isolation_level=None; c.execute("pragma cache_size=1")
c.execute("begin"); c.execute("update messages set content=content||'HOTJOURNAL'"); c.execute("update turns set feedback=feedback||'HOTJOURNAL'")
os._exit(0)
PY
  ls hotj.db-journal >/dev/null 2>&1 || echo "hot journal not made" >> "$W/setup.err"
  grep -c HOTJOURNAL hotj.db >/dev/null && echo hotj-has-uncommitted >> "$W/setup.err"
  # shards (scripted run, compile-only here)
  ( cd "$D"; "$PB" run --tasks $T,$TA --turns 2 --shard 0/2 --out s0.db --no-progress >/dev/null 2>&1; "$PB" run --tasks $T,$TA --turns 2 --shard 1/2 --out s1.db --no-progress >/dev/null 2>&1 )
  cp s1.db s1cfg.db; sqlite3 s1cfg.db "update runs set config_json=json_set(config_json,'\$.turns',3)"
  cp s1.db s1shard3.db; sqlite3 s1shard3.db "update runs set provenance_json=json_set(provenance_json,'\$.shard.count',3)"
  cp s1.db s1noshard.db; sqlite3 s1noshard.db "update runs set provenance_json=json_remove(provenance_json,'\$.shard')"
  cp s1.db s1idx0.db; sqlite3 s1idx0.db "update runs set provenance_json=json_set(provenance_json,'\$.shard.index',0)"
  cp s1.db s1idxstr.db; sqlite3 s1idxstr.db "update runs set provenance_json=json_set(provenance_json,'\$.shard.index','one')"
  cp s1.db s1dupt.db; sqlite3 s1dupt.db "update trajectories set task='$T'"
  cp s1.db s1v2.db; sqlite3 s1v2.db "update meta set value='2' where key='schema_version'"
  cp s1.db s1nocreated.db; sqlite3 s1nocreated.db "update runs set created_at='not a date'"
  cp s1.db s1prov.db; sqlite3 s1prov.db "update runs set provenance_json='[]'"
  sqlite3 s1.db .dump | sqlite3 s1utf.db 2>/dev/null; sqlite3 s1utf.db "pragma journal_mode" >/dev/null
  cp s1.db s1ro.db; chmod 444 s1ro.db
  sha256sum * | sort > "$W/db.sha"
  # ---------------------------------------------------------------- task roots
  cd "$R" || exit 1
  mkroot() { local r=$R/$1; mkdir -p "$r"; for d in context kernels trajectories; do ln -s "$ROOT/$d" "$r/$d"; done; cp -r "$ROOT/tasks" "$r/"; }
  G=tasks/gemm/gemm_n7168_k5120.toml
  mkroot unkkey;   echo 'frobnicate = 1' >> unkkey/$G
  mkroot namemis;  sed -i 's/^name = .*/name = "gemm_other_name"/' namemis/$G
  mkroot famunk;   sed -i 's/^family = .*/family = "conv"/' famunk/$G
  mkroot arch80;   printf '\n[arch.sm_80]\nfamilies = ["mma_sync"]\nrule = "any"\n' >> arch80/$G
  mkroot suitesempty; sed -i 's/^suites = .*/suites = []/' suitesempty/$G
  mkroot flopsbad; sed -i 's/^flops = .*/flops = "2*M*N*Q"/' flopsbad/$G
  mkroot flopsempty; sed -i 's/^flops = .*/flops = ""/' flopsempty/$G
  mkroot atolneg;  sed -i 's/^atol = .*/atol = -1/' atolneg/$G
  mkroot dtypebad; sed -i '0,/dtype = "bfloat16"/s//dtype = "float8_e9m9"/' dtypebad/$G
  mkroot shapebad; sed -i 's/shape = \["M", "K"\]/shape = ["M", "Z"]/' shapebad/$G
  mkroot notimed;  sed -i 's/^role = "timed"/role = "hidden"/' notimed/$G
  mkroot axeszero; sed -i 's/^M = \[8192\]/M = [0]/; s/axes = { M = 8192,/axes = { M = 0,/' axeszero/$G
  mkroot axeshuge; sed -i 's/^M = \[8192\]/M = [1000000000000]/; s/axes = { M = 8192,/axes = { M = 1000000000000,/' axeshuge/$G
  mkroot nofamilies; sed -i 's/^families = \["wgmma", "tma"\]/families = []/' nofamilies/$G
  mkroot rulebad;  sed -i '0,/rule = "any"/s//rule = "most"/' rulebad/$G
  mkroot noinputs
  python3 - "$R/noinputs/$G" <<'PY'
import re,sys
p=sys.argv[1]; s=open(p).read(); s=re.sub(r'\[\[inputs\]\].*?(?=\[\[outputs\]\])','',s,flags=re.S); open(p,'w').write(s)
PY
  mkroot unitask;  sed 's/^name = .*/name = "gemm_ünï_✓"/' unitask/$G > unitask/tasks/gemm/gemm_ünï_✓.toml
  mkroot slashtask; sed 's#^name = .*#name = "gemm/../../x"#' slashtask/$G > slashtask/tasks/gemm/zz_slash.toml
  mkroot nocontext; rm -f nocontext/context
  mkroot notraj; rm -f notraj/trajectories
  mkroot unreadable; chmod 000 unreadable/tasks/gemm
  mkroot tasksymfile; ln -s /etc/hostname tasksymfile/tasks/gemm/zz_host.toml
  mkroot bigdesc; python3 - "$R/bigdesc/$G" <<'PY'
import sys
p=sys.argv[1]; s=open(p).read(); s=s.replace('description = """','description = """'+'y'*3000000,1); open(p,'w').write(s)
PY
  mkdir -p "uni root ✓"; for d in context kernels trajectories tasks; do ln -s "$ROOT/$d" "uni root ✓/$d"; done
  sha256sum "$RUNSRC" | cut -d' ' -f1 > "$W/src.sha"
  # fake tools
  mkdir -p "$W/bin"; cd "$W/bin"
  printf '#!/bin/sh\nkill -SEGV $$\n' > nvcc_segv
  printf '#!/bin/sh\nhead -c 2000000 /dev/zero | tr "\\0" E >&2; exit 1\n' > nvcc_loud
  printf '#!/bin/sh\nfor a in "$@"; do case "$prev" in -o) : > "$a";; esac; prev=$a; done; exit 0\n' > nvcc_emptyso
  printf '#!/bin/sh\necho "garbage disassembly \\x01\\x02"; exit 0\n' > nvdisasm_garbage
  printf '#!/bin/sh\nsleep 300\n' > cuobjdump_hang
  printf '#!/bin/sh\nhead -c 50000000 /dev/zero | tr "\\0" "A"; exit 0\n' > cuobjdump_huge
  printf '#!/bin/sh\necho "Submitted batch job 42;clusterA"\n' > sbatch_parsable
  printf '#!/bin/sh\necho "Submitted batch job 0"\n' > sbatch_zero
  printf '#!/bin/sh\necho "Submitted batch job 99999999999999999999999"\n' > sbatch_bigid
  printf '#!/bin/sh\nsleep 100\n' > sbatch_hang
  printf '#!/bin/sh\necho "Submitted batch job 7"; echo "Submitted batch job 8"\n' > sbatch_two
  printf '#!/bin/sh\nn=$(cat %s/sbcount 2>/dev/null || echo 0); n=$((n+1)); echo $n > %s/sbcount; if [ $n -ge 2 ]; then echo "sbatch: error: QOSMaxSubmitJobPerUserLimit" >&2; exit 1; fi; echo "Submitted batch job 11"\n' "$W/bin" "$W/bin" > sbatch_second_fails
  printf '#!/bin/sh\necho "Submitted batch job 5"; kill -SEGV $$\n' > sbatch_segv
  chmod +x *
  for s in sbatch_*; do mkdir -p "sb_$s"; cp "$s" "sb_$s/sbatch"; done
}

devcheck() { local bad=""; test -c /dev/null || { bad="/dev/null broken;"; rm -f /dev/null; mknod -m 666 /dev/null c 1 3; }
  test -c /dev/full || { bad="$bad/dev/full broken;"; rm -f /dev/full; mknod -m 666 /dev/full c 1 7; }; echo "$bad"; }

c() {  # c ID COMMAND   (runs in a fresh $W/o/ID holding r.db, a copy of the H200 run; TMPDIR=$W/tmp/ID)
  local id=$1 cmd=$2
  [[ $id =~ $ONLY ]] || return 0
  local cd=$W/o/$id; rm -rf "$cd" "$W/tmp/$id"; mkdir -p "$cd" "$W/tmp/$id"; chmod 777 "$cd" "$W/tmp/$id"; cp "$W/run.db" "$cd/r.db"; chmod 666 "$cd/r.db"
  local before; before=$(sha256sum "$cd/r.db" | cut -d' ' -f1)
  local t0=$SECONDS
  ( cd "$cd" && export TMPDIR=$W/tmp/$id && timeout -k 5 90 bash -c "$cmd" ) >"$OUT/logs/$id.out" 2>"$OUT/logs/$id.err" </dev/null
  local rc=$? dt=$((SECONDS-t0))
  local crash=n data=n note=""
  grep -aqE 'terminate called|Assertion|Segmentation fault|AddressSanitizer|runtime error:|core dumped|Aborted|std::|what\(\)|basic_string|nlohmann|json.exception|\[json\.' "$OUT/logs/$id.err" "$OUT/logs/$id.out" && { crash=y; note="$note crash-text;"; }
  case $rc in 124|137) crash=y; note="$note TIMEOUT;";; 134|136|139|135|132|153) crash=y; note="$note signal $((rc-128));";; esac
  local dv; dv=$(devcheck); [ -n "$dv" ] && { data=y; note="$note $dv"; }
  [ "$(sha256sum "$W/run.db" | cut -d' ' -f1)" = "$(cat "$W/src.sha")" ] || { data=y; note="$note master run.db changed;"; cp "$RUNSRC" "$W/run.db"; chmod 644 "$W/run.db"; }
  [ "$(cd "$FX" && sha256sum * 2>/dev/null | sort)" = "$(cat "$W/fx.sha")" ] || { data=y; note="$note FIXTURE changed;"; }
  [ "$(cd "$D" && sha256sum * | sort)" = "$(cat "$W/db.sha")" ] || { data=y; note="$note DB FIXTURE changed: $(cd "$D" && sha256sum * | sort | diff - "$W/db.sha" | grep '^[<>]' | awk '{print $3}' | sort -u | tr '\n' ' ');"; (cd "$D" && sha256sum * | sort > "$W/db.sha"); }
  [ -f "$cd/r.db" ] && [ "$(sha256sum "$cd/r.db" | cut -d' ' -f1)" != "$before" ] && note="$note r.db changed;"
  [ -f "$cd/r.db" ] || note="$note r.db gone;"
  local tl; tl=$(ls -A "$W/tmp/$id" 2>/dev/null | tr '\n' ',' | cut -c1-80); [ -n "$tl" ] && note="$note TMPDIR left:$tl;"
  note="$note files:$(cd "$cd" && ls -A | grep -v '^r.db$' | tr '\n' ',' | cut -c1-160); ${dt}s"
  local msg; msg=$( { cat "$OUT/logs/$id.err"; cat "$OUT/logs/$id.out"; } | tr '\n\t\r' '   ' | tr -d '\000-\010\033' | cut -c1-200)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$(printf '%s' "$cmd" | tr '\n\t' '  ')" "$rc" "$crash" "$data" "$msg" "$note" >> "$OUT/raw.tsv"
  printf '%s rc=%s %s %s\n' "$id" "$rc" "$crash$data" "${msg:0:110}" >&2
}
if [ "${SKIP_SETUP:-0}" != 1 ]; then setup; fi
[ "$ONLY" = . ] && : > "$OUT/raw.tsv"
# ================================================================ cases
# --- A: global, environment
c A01 '"$PB" version --json'
c A02 'LANG=xx_YY.UTF-8 LC_ALL=xx_YY.UTF-8 "$PB" tasks --suite core | head -2; exit ${PIPESTATUS[0]}'
c A03 'PTXBENCH_CACHE="~/pbcache" "$PB" compile $FX/good.cu --task $T; r=$?; ls -d "~" 2>/dev/null && echo "LITERAL-TILDE-DIR-CREATED" >&2; exit $r'
c A04 'PTXBENCH_CACHE=rel/cache "$PB" compile $FX/good.cu --task $T >/dev/null; r=$?; ls -d rel/cache >&2; exit $r'
c A05 'env -u PTXBENCH_CACHE XDG_CACHE_HOME=relxdg "$PB" compile $FX/good.cu --task $T >/dev/null; r=$?; ls -d relxdg/* >&2; exit $r'
c A06 'env -u PTXBENCH_CACHE -u XDG_CACHE_HOME HOME=/nonexistent/home "$PB" compile $FX/good.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c A07 'PTXBENCH_CACHE=$W/loopc/x; mkdir -p $W/loopc; ln -sfn x $W/loopc/x 2>/dev/null; PTXBENCH_CACHE=$W/loopc/x "$PB" compile $FX/good.cu --task $T; r=$?; rm -rf $W/loopc; exit $r'
c A08 'PTXBENCH_ROOT="$ROOT/" "$PB" tasks --suite core | wc -l'
c A09 'PTXBENCH_ROOT="$ROOT " "$PB" tasks'
c A10 'PTXBENCH_ROOT="$R/uni root ✓" "$PB" prompt $T | head -2; exit ${PIPESTATUS[0]}'
c A11 'PTXBENCH_ROOT=$ROOT/tasks/gemm "$PB" tasks'
c A12 'PTXBENCH_ROOT=/ "$PB" tasks'
c A13 'PTXBENCH_ROOT=/proc/self "$PB" tasks'
c A14 'TMPDIR=reltmp "$PB" compile $FX/good.cu --task $T --no-cache >/dev/null; r=$?; ls -A . >&2; exit $r'
c A15 'touch tfile; TMPDIR=$PWD/tfile "$PB" compile $FX/good.cu --task $T --no-cache | tail -1; exit ${PIPESTATUS[0]}'
c A16 'mkdir "t mp"; TMPDIR="$PWD/t mp" "$PB" compile $FX/good.cu --task $T --no-cache | tail -1; exit ${PIPESTATUS[0]}'
c A17 'p=$PWD; for i in $(seq 1 15); do p=$p/dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd; done; mkdir -p $p; TMPDIR=$p "$PB" compile $FX/good.cu --task $T --no-cache | tail -1; exit ${PIPESTATUS[0]}'
c A18 'PTXBENCH_NO_GPU=0 "$PB" eval $FX/good.cu --task $T | tail -2; exit ${PIPESTATUS[0]}'
c A19 'PTXBENCH_ASSUME_GPU=0 "$PB" eval $FX/good.cu --task $T | tail -2; exit ${PIPESTATUS[0]}'
c A20 'PTXBENCH_NO_GPU=yes "$PB" eval $FX/good.cu --task $T | tail -2; exit ${PIPESTATUS[0]}'
c A21 'PTXBENCH_DLPACK_INCLUDE=$FX/good.cu "$PB" eval $FX/good.cu --task $T | tail -2; exit ${PIPESTATUS[0]}'
c A22 'mkdir e; PTXBENCH_TVM_FFI_ROOT=$PWD/e "$PB" compile $FX/tvmfile.cu --task $T --no-cache | tail -3; exit ${PIPESTATUS[0]}'
c A23 'PTXBENCH_TVM_FFI_ROOT=$FX/good.cu "$PB" compile $FX/tvmfile.cu --task $T --no-cache | tail -3; exit ${PIPESTATUS[0]}'
c A24 'CUDA_VISIBLE_DEVICES="" "$PB" run --tasks $T --turns 1 --gpus 2 --out n.db --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c A25 'CUDA_VISIBLE_DEVICES=0,1 "$PB" run --tasks $T --turns 1 --gpus 3 --out n.db --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c A26 'mkdir bd; printf "#!/bin/sh\necho FAKE-WORKER-RAN >&2; exit 0\n" > bd/ptxbench-worker; chmod +x bd/ptxbench-worker; PTXBENCH_BIN_DIR=$PWD/bd "$PB" eval $FX/good.cu --task $T | tail -2; exit ${PIPESTATUS[0]}'
c A27 'PTXBENCH_BIN_DIR=$FX/good.cu "$PB" compile $FX/good.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c A28 'PTXBENCH_NVCC=$W/bin/nvcc_segv "$PB" compile $FX/good.cu --task $T --no-cache'
c A29 'PTXBENCH_NVCC=$W/bin/nvcc_loud "$PB" compile $FX/good.cu --task $T --no-cache | wc -c; exit ${PIPESTATUS[0]}'
c A30 'PTXBENCH_NVCC=$W/bin/nvcc_emptyso "$PB" compile $FX/good.cu --task $T --no-cache'
c A31 'PTXBENCH_NVDISASM=$W/bin/nvdisasm_garbage "$PB" compile $FX/ref.cu --task $T --no-cache | tail -4; exit ${PIPESTATUS[0]}'
c A32 'PTXBENCH_CUOBJDUMP=$W/bin/cuobjdump_hang "$PB" compile $FX/good.cu --task $T --no-cache --timeout 8 | tail -3; exit ${PIPESTATUS[0]}'
c A33 'PTXBENCH_CUOBJDUMP=$W/bin/cuobjdump_huge "$PB" compile $FX/good.cu --task $T --no-cache | tail -3; exit ${PIPESTATUS[0]}'
c A34 'PTXBENCH_NVCC=$W/bin/nvcc_segv "$PB" version'
c A35 'PTXBENCH_NCU=$W/bin/nvcc_segv PTXBENCH_COMPUTE_SANITIZER=$W/bin/nvcc_segv "$PB" version'
c A36 'PTXBENCH_NVCC=relative/nvcc "$PB" compile $FX/good.cu --task $T --no-cache'
c A37 'PTXBENCH_NVCC="/usr/local/cuda/bin/nvcc -G" "$PB" compile $FX/good.cu --task $T --no-cache'
c A38 'SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=0 "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c A39 'SLURM_ARRAY_TASK_ID=" 1" SLURM_ARRAY_TASK_COUNT=2 "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c A40 'SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_MIN=5 SLURM_ARRAY_TASK_COUNT=2 "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c A41 'JOB_COMPLETION_INDEX=-1 "$PB" run --shard-count 2 --tasks $T --turns 1 --out n.db --no-progress'
c A42 'JOB_COMPLETION_INDEX="" "$PB" run --shard-count 2 --tasks $T --turns 1 --out n.db --no-progress'
c A43 'SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=2 JOB_COMPLETION_INDEX=0 "$PB" run --shard-count 2 --tasks $T,$TA --turns 1 --out n.db --no-progress | tail -1; sqlite3 n.db "select json_extract(provenance_json,\"$.shard\") from runs" >&2; exit ${PIPESTATUS[0]}'
c A44 'SLURM_ARRAY_TASK_ID=99999999999999999999 SLURM_ARRAY_TASK_COUNT=2 "$PB" run --tasks $T --turns 1 --out n.db --no-progress'
c A45 'ulimit -n 12; "$PB" compile $FX/good.cu --task $T --no-cache | tail -2; exit ${PIPESTATUS[0]}'
c A46 'ulimit -u 5 2>/dev/null; "$PB" compile $FX/good.cu --task $T --no-cache | tail -2; exit ${PIPESTATUS[0]}'
c A47 'ulimit -s 256; "$PB" show r.db | head -2; exit ${PIPESTATUS[0]}'
c A48 'ulimit -v 400000; "$PB" compile $FX/good.cu --task $T --no-cache | tail -2; exit ${PIPESTATUS[0]}'
c A49 'ulimit -t 1; "$PB" compile $FX/ref.cu --task $T --no-cache | tail -2; exit ${PIPESTATUS[0]}'
c A50 'PTXBENCH_CACHE=/proc/self "$PB" compile $FX/good.cu --task $T'
# --- T: tasks
c T01 '"$PB" tasks --suite CORE'
c T02 '"$PB" tasks --family " gemm"'
c T03 '"$PB" tasks --arch sm_100a --arch sm_90a | wc -l'
c T04 '"$PB" tasks --family attention_bwd --arch sm_100a'
c T05 '"$PB" tasks --suite extended --family gemm --json | python3 -c "import json,sys; print(len(json.load(sys.stdin)))"'
c T06 '"$PB" tasks --suite "$(printf "core\n")"'
c T07 '"$PB" tasks --family "gemm$(printf "\xe2\x80\x8b")"'
c T08 '"$PB" tasks --arch "sm_90a "'
c T09 '"$PB" tasks --json=true'
c T10 '"$PB" tasks --suite=""'
c T11 '"$PB" tasks -j'
c T12 '"$PB" tasks --family attention'
c T13 '"$PB" tasks --arch sm90a'
c T14 '"$PB" tasks --suite extended --suite=bogus'
c T15 '"$PB" tasks --json | python3 -c "import json,sys; d=json.load(sys.stdin); print(all(\"name\" in t for t in d))"'
# --- K: task roots
c K01 'PTXBENCH_ROOT=$R/unkkey "$PB" tasks | head -3; exit ${PIPESTATUS[0]}'
c K02 'PTXBENCH_ROOT=$R/namemis "$PB" tasks | grep -c gemm_other_name; exit ${PIPESTATUS[0]}'
c K03 'PTXBENCH_ROOT=$R/namemis "$PB" prompt $T | head -2; exit ${PIPESTATUS[0]}'
c K04 'PTXBENCH_ROOT=$R/famunk "$PB" tasks'
c K05 'PTXBENCH_ROOT=$R/arch80 "$PB" tasks --arch sm_80'
c K06 'PTXBENCH_ROOT=$R/arch80 "$PB" compile $FX/good.cu --task $T --arch sm_80'
c K07 'PTXBENCH_ROOT=$R/suitesempty "$PB" tasks | grep -c $T; exit ${PIPESTATUS[0]}'
c K08 'PTXBENCH_ROOT=$R/suitesempty "$PB" run --tasks $T --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c K09 'PTXBENCH_ROOT=$R/flopsbad "$PB" tasks | head -3; exit ${PIPESTATUS[0]}'
c K10 'PTXBENCH_ROOT=$R/flopsempty "$PB" tasks | head -3; exit ${PIPESTATUS[0]}'
c K11 'PTXBENCH_ROOT=$R/atolneg "$PB" tasks | head -2; exit ${PIPESTATUS[0]}'
c K12 'PTXBENCH_ROOT=$R/dtypebad "$PB" tasks | head -2; exit ${PIPESTATUS[0]}'
c K13 'PTXBENCH_ROOT=$R/shapebad "$PB" tasks | head -2; exit ${PIPESTATUS[0]}'
c K14 'PTXBENCH_ROOT=$R/notimed "$PB" tasks | head -2; exit ${PIPESTATUS[0]}'
c K15 'PTXBENCH_ROOT=$R/axeszero "$PB" tasks | head -2; exit ${PIPESTATUS[0]}'
c K16 'PTXBENCH_ROOT=$R/axeshuge "$PB" tasks --json | head -c 300; exit ${PIPESTATUS[0]}'
c K17 'PTXBENCH_ROOT=$R/axeshuge "$PB" prompt $T | grep -i -m2 "M ="; exit ${PIPESTATUS[0]}'
c K18 'PTXBENCH_ROOT=$R/nofamilies "$PB" tasks | head -2; exit ${PIPESTATUS[0]}'
c K19 'PTXBENCH_ROOT=$R/rulebad "$PB" tasks | head -2; exit ${PIPESTATUS[0]}'
c K20 'PTXBENCH_ROOT=$R/noinputs "$PB" tasks | head -2; exit ${PIPESTATUS[0]}'
c K21 'PTXBENCH_ROOT=$R/unitask "$PB" tasks | grep -c "✓"; exit ${PIPESTATUS[0]}'
c K22 'PTXBENCH_ROOT=$R/unitask "$PB" run --tasks "gemm_ünï_✓" --turns 1 --out n.db --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c K23 'PTXBENCH_ROOT=$R/slashtask "$PB" tasks | head -3; exit ${PIPESTATUS[0]}'
c K24 'PTXBENCH_ROOT=$R/nocontext "$PB" prompt $T'
c K25 'PTXBENCH_ROOT=$R/nocontext "$PB" tasks | head -2; exit ${PIPESTATUS[0]}'
c K26 'PTXBENCH_ROOT=$R/notraj "$PB" run --tasks $T --turns 1 --out n.db --no-progress; r=$?; ls >&2; exit $r'
c K27 'PTXBENCH_ROOT=$R/notraj "$PB" compile $FX/good.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c K28 '$NB env PTXBENCH_ROOT=$R/unreadable PTXBENCH_CACHE=$W/nbcache "$PB" tasks'
c K29 'PTXBENCH_ROOT=$R/tasksymfile "$PB" tasks'
c K30 'PTXBENCH_ROOT=$R/bigdesc "$PB" prompt $T | wc -c; exit ${PIPESTATUS[0]}'
c K31 'PTXBENCH_ROOT=$R/famunk "$PB" compile $FX/good.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c K32 'PTXBENCH_ROOT=$R/notimed "$PB" run --tasks $T --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c K33 'PTXBENCH_ROOT=$R/namemis "$PB" rejudge r.db --out n.db | tail -2; exit ${PIPESTATUS[0]}'
c K34 'PTXBENCH_ROOT=$R/nocontext "$PB" show r.db | head -2; exit ${PIPESTATUS[0]}'
c K35 'PTXBENCH_ROOT=$R/shapebad "$PB" compile $FX/good.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
# --- P: prompt
c P01 '"$PB" prompt $T --speedup-target ""'
c P02 '"$PB" prompt $T --speedup-target NaN'
c P03 '"$PB" prompt $T --speedup-target 1e-5 | grep -i -m1 speed'
c P04 '"$PB" prompt $T --speedup-target +1.5 | grep -i -m1 speed'
c P05 '"$PB" prompt $T --speedup-target "１.５"'
c P06 '"$PB" prompt $T --context Full | head -1'
c P07 '"$PB" prompt $T --context "full "'
c P08 '"$PB" prompt $T --arch "sm_90a "'
c P09 '"$PB" prompt $T --contract ""'
c P10 '"$PB" prompt $T --arch sm_100a --contract tvm-ffi --context none | head -3'
c P11 '"$PB" prompt "$(printf "gemm_n7168_k5120\xe2\x80\x8b")"'
c P12 '"$PB" prompt "$(printf "\xff\xfe")"'
c P13 '"$PB" prompt $T --levels extra'
c P14 '"$PB" prompt $T --json --levels | head -2'
c P15 '"$PB" prompt mha_bwd_d128_causal --arch sm_100a | head -2'
c P16 '"$PB" prompt $T --speedup-target 1e308 | grep -i -m1 speed'
c P17 '"$PB" prompt $T --speedup-target -inf'
c P18 '"$PB" prompt $T --speedup-target 1.2.3'
c P19 '"$PB" prompt $T --context reference --context none | grep -c . '
c P20 '"$PB" prompt $T | "$PB" prompt $T >/dev/null; exit ${PIPESTATUS[0]}'
# --- C: compile
c C01 'cp $FX/good.cu k.cu; n=$(cat $FX/good.size); "$PB" compile k.cu --task $T --max-source-bytes $n | tail -1; exit ${PIPESTATUS[0]}'
c C02 'n=$(cat $FX/good.size); "$PB" compile $FX/good.cu --task $T --max-source-bytes $((n-1))'
c C03 '"$PB" compile $FX/good.cu --task $T --max-source-bytes +5000'
c C04 '"$PB" compile $FX/good.cu --task $T --max-source-bytes 1073741824 | tail -1; exit ${PIPESTATUS[0]}'
c C05 '"$PB" compile $FX/good.cu --task $T --max-source-bytes " 5000"'
c C06 '"$PB" compile $FX/ref.cu --task $T --no-cache --timeout 1 | tail -3; exit ${PIPESTATUS[0]}'
c C07 '"$PB" compile $FX/upper.CU --task $T | tail -1; exit ${PIPESTATUS[0]}'
c C08 '"$PB" compile $FX/k.cu.bak --task $T | tail -1; exit ${PIPESTATUS[0]}'
c C09 '"$PB" compile $FX/longline.cu --task $T | tail -2; exit ${PIPESTATUS[0]}'
c C10 '"$PB" compile $FX/reply_good.md --task $T'
c C11 '"$PB" compile $FX/tvmfile.cu --task $T --contract native --no-cache | tail -4; exit ${PIPESTATUS[0]}'
c C12 '"$PB" compile $FX/sock.cu --task $T'
c C13 '"$PB" compile $FX/dirlink.cu --task $T'
c C14 '"$PB" compile $FX/incproc.cu --task $T'
c C15 '"$PB" compile $FX/pragmamsg.cu --task $T --no-cache | tail -2; exit ${PIPESTATUS[0]}'
c C16 '"$PB" compile $FX/elf.cu --task $T'
c C17 '"$PB" compile $FX/utf16.cu --task $T'
c C18 'cat $FX/good.cu | "$PB" compile /dev/stdin --task $T | tail -1; exit ${PIPESTATUS[1]}'
c C19 '"$PB" compile /proc/self/fd/0 --task $T < $FX/good.cu | tail -1; exit ${PIPESTATUS[0]}'
c C20 '"$PB" compile <(cat $FX/good.cu) --task $T | tail -1; exit ${PIPESTATUS[0]}'
c C21 '"$PB" compile $FX/good.cu --task "$(printf "gemm_n7168_k5120\xe2\x80\x8b")"'
c C22 '"$PB" compile $FX/good.cu --task gemm_n7168_k5120.toml'
c C23 '"$PB" compile $FX/good.cu --task $ROOT/tasks/gemm/gemm_n7168_k5120.toml'
c C24 '"$PB" compile $FX/good.cu --task $T --arch sm_90A'
c C25 '"$PB" compile $FX/good.cu --task $T --timeout 3600 --timeout 1 --no-cache | tail -1; exit ${PIPESTATUS[0]}'
c C26 '"$PB" compile $FX/good.cu --task $T --timeout 0x10'
c C27 '"$PB" compile $FX/good.cu --task $T --timeout 1.0'
c C28 '"$PB" compile $FX/good.cu --task $T --contract Native'
c C29 '"$PB" compile $FX/good.cu --task $T --no-cache=1 | tail -1; exit ${PIPESTATUS[0]}'
c C30 '"$PB" compile $FX/good.cu --task $T --json --no-cache | python3 -c "import json,sys; d=json.load(sys.stdin); print(sorted(d)[:6])"; exit ${PIPESTATUS[0]}'
c C31 'mkdir -p c; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T >/dev/null; find c -name kernel.so -exec sh -c "printf x > {}" \; ; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | tail -3; exit ${PIPESTATUS[0]}'
c C32 'mkdir -p c; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T >/dev/null; find c -type f ! -name kernel.so | head -3 | xargs -r -I{} sh -c "echo {garbage > {}"; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | tail -3; exit ${PIPESTATUS[0]}'
c C33 'mkdir -p c; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T >/dev/null; find c -mindepth 2 -maxdepth 2 -type d | head -1 | xargs -r -I{} sh -c "rm -rf {}/*"; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | tail -2; exit ${PIPESTATUS[0]}'
c C34 'mkdir -p c; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T >/dev/null; chmod -R a-w c; $NB env PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/good.cu --task $T | tail -2; r=${PIPESTATUS[0]}; chmod -R u+w c; exit $r'
c C35 '(ulimit -f 20; PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/ref.cu --task $T --no-cache | tail -2; echo rc1=${PIPESTATUS[0]} >&2); PTXBENCH_CACHE=$PWD/c "$PB" compile $FX/ref.cu --task $T | tail -2; exit ${PIPESTATUS[0]}'
c C36 '"$PB" compile $FX/good.cu $FX/cerr.cu --task $T 2>&1 | head -3'
c C37 '"$PB" compile "" --task $T'
c C38 '"$PB" compile . --task $T'
c C39 '"$PB" compile $FX/good.cu --task $T --arch sm_100a --contract tvm-ffi --no-cache | tail -2; exit ${PIPESTATUS[0]}'
c C40 '"$PB" compile $FX/cerr.cu --task $T --json | python3 -c "import json,sys; d=json.load(sys.stdin); print(d.get(\"outcome\", d.get(\"category\")))"; exit ${PIPESTATUS[0]}'
c C41 '"$PB" compile $FX/good.cu --task $T --arch=sm_100a --arch=sm_90a | tail -1; exit ${PIPESTATUS[0]}'
c C42 'cp $FX/good.cu k.cu; ( "$PB" compile k.cu --task $T --no-cache >/dev/null & sleep 0.3; echo "int broken(" >> k.cu; wait ); "$PB" compile k.cu --task $T | tail -1; exit ${PIPESTATUS[0]}'
c C43 'truncate -s 1073741825 big.cu; "$PB" compile big.cu --task $T --max-source-bytes 1073741824; r=$?; rm -f big.cu; exit $r'
c C44 'truncate -s 5000000 sparse.cu; "$PB" compile sparse.cu --task $T'
c C45 '"$PB" compile $FX/good.cu --task $T --json 1>&2 2>/dev/null | head -1; exit ${PIPESTATUS[0]}'
# --- E: eval (no GPU)
c E01 '"$PB" eval $FX/reply_4tick.md --task $T --reply | tail -2; exit ${PIPESTATUS[0]}'
c E02 '"$PB" eval $FX/reply_cpp.md --task $T --reply | tail -2; exit ${PIPESTATUS[0]}'
c E03 '"$PB" eval $FX/reply_CUDA.md --task $T --reply | tail -2; exit ${PIPESTATUS[0]}'
c E04 '"$PB" eval $FX/reply_indent.md --task $T --reply | tail -2; exit ${PIPESTATUS[0]}'
c E05 '"$PB" eval $FX/reply_info.md --task $T --reply | tail -2; exit ${PIPESTATUS[0]}'
c E06 '"$PB" eval $FX/reply_thinkonly.md --task $T --reply | tail -2; exit ${PIPESTATUS[0]}'
c E07 '"$PB" eval $FX/reply_json.md --task $T --reply | tail -2; exit ${PIPESTATUS[0]}'
c E08 '"$PB" eval $FX/reply_many.md --task $T --reply | tail -2; exit ${PIPESTATUS[0]}'
c E09 '"$PB" eval $FX/reply_huge.md --task $T --reply | tail -2; exit ${PIPESTATUS[0]}'
c E10 '"$PB" eval $FX/reply_nested.md --task $T --reply | tail -2; exit ${PIPESTATUS[0]}'
c E11 '"$PB" eval $FX/reply_plain.md --task $T --reply | tail -2; exit ${PIPESTATUS[0]}'
c E12 '"$PB" eval $FX/reply_utf16.md --task $T --reply | tail -2; exit ${PIPESTATUS[0]}'
c E13 'mkfifo f.md; ( sleep 1; cat $FX/reply_good.md > f.md ) & "$PB" eval f.md --task $T --reply | tail -1; exit ${PIPESTATUS[0]}'
c E14 '"$PB" eval $FX/good.cu --task $T --seed 0 --input-seed 18446744073709551615 --json | python3 -c "import json,sys; d=json.load(sys.stdin); print(d.get(\"disposition\"))"; exit ${PIPESTATUS[0]}'
c E15 '"$PB" eval $FX/good.cu --task $T --timeline'
c E16 '"$PB" eval $FX/good.cu --task $T --no-timing --sample-budget 5 --library-plan heuristic | tail -1; exit ${PIPESTATUS[0]}'
c E17 '"$PB" eval $FX/good.cu --task $T --sample-budget 600.0001'
c E18 '"$PB" eval $FX/good.cu --task $T --sustained-load-ms 1e4 | tail -1; exit ${PIPESTATUS[0]}'
c E19 '"$PB" eval $FX/good.cu --task $T --call-timeout 0.999'
c E20 '"$PB" eval $FX/good.cu --task $T --timeout 10 --timeout 3601'
c E21 '"$PB" eval $FX/good.cu --task $T --trials -3'
c E22 '"$PB" eval $FX/good.cu --task $T --seed=-0'
c E23 '"$PB" eval $FX/cerr.cu --task $T --reply'
c E24 '"$PB" eval $FX/reply_good.md --task $T --reply --contract tvm-ffi | tail -2; exit ${PIPESTATUS[0]}'
c E25 '"$PB" eval $FX/sock.cu --task $T --reply'
c E26 '"$PB" eval $FX/good.cu --task $T --json --memcheck --allow-weaker-sandbox | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c E27 '"$PB" eval $FX/good.cu --task $TA | tail -2; exit ${PIPESTATUS[0]}'
c E28 '"$PB" eval $FX/ref.cu --task $T --arch sm_100a | tail -2; exit ${PIPESTATUS[0]}'
c E29 '"$PB" eval $FX/good.cu --task $T --library-plan FASTEST'
c E30 '"$PB" eval $FX/utf16.cu --task $T --reply'
# --- U: audit
c U01 '"$PB" audit $FX/ref.cu --task $T | tail -4; exit ${PIPESTATUS[0]}'
c U02 '"$PB" audit $FX/good.cu --task $T --route cupti | tail -2; exit ${PIPESTATUS[0]}'
c U03 '"$PB" audit $FX/good.cu --task $T --workload timed | tail -2; exit ${PIPESTATUS[0]}'
c U04 '"$PB" audit $FX/good.cu --task $T --workload "M=8192,N=7168,K=5120" | tail -2; exit ${PIPESTATUS[0]}'
c U05 '"$PB" audit $FX/good.cu --task $T --seed 0 --route ncu --allow-weaker-sandbox | tail -2; exit ${PIPESTATUS[0]}'
c U06 '"$PB" audit $FX/cerr.cu --task $T | tail -3; exit ${PIPESTATUS[0]}'
c U07 '"$PB" audit $FX/reply_cpp.md --task $T --reply --json | python3 -c "import json,sys; d=json.load(sys.stdin); print(list(d)[:5])"; exit ${PIPESTATUS[0]}'
c U08 '"$PB" audit $FX/ref.cu --task $TA | tail -3; exit ${PIPESTATUS[0]}'
c U09 '"$PB" audit $FX/good.cu --task $T --arch sm_100a --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c U10 '"$PB" audit $FX/longline.cu --task $T --max-source-bytes 1000 | tail -2; exit ${PIPESTATUS[0]}'
c U11 '"$PB" audit $FX/good.cu --task $T --timeline'
c U12 '"$PB" audit $FX/good.cu --task $T --route ""'
c U13 'PTXBENCH_NCU=$W/bin/nvcc_segv "$PB" audit $FX/good.cu --task $T --route ncu | tail -2; exit ${PIPESTATUS[0]}'
c U14 '"$PB" audit $FX/good.cu --task $T --workload "$(head -c 5000 /dev/zero | tr "\0" M)" | tail -2; exit ${PIPESTATUS[0]}'
c U15 '"$PB" audit $FX/good.cu --task $T --seed 18446744073709551616'
# --- R: run
c R01 '"$PB" run --tasks $T --turns 1 --speedup-target 0 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R02 '"$PB" run --tasks $T --concurrency -1 --out n.db --no-progress'
c R03 '"$PB" run --tasks $T --cpu-jobs 100000 --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R04 '"$PB" run --tasks $T --gpus -1 --out n.db --no-progress'
c R05 '"$PB" run --tasks $T --turns 1 --fast-p 0.5,0.5 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R06 '"$PB" run --tasks $T --turns 1 --fast-p 1e9 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R07 '"$PB" run --tasks $T --turns 1 --fast-p -0 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R08 '"$PB" run --tasks $T --turns 1 --scripted-version "" --out n.db --no-progress'
c R09 '"$PB" run --tasks $T --turns 1 --scripted-version v1/../v1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R10 '"$PB" run --tasks all --arch sm_100a --turns 1 --out n.db --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c R11 '"$PB" run --tasks " $T" --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R12 '"$PB" run --tasks $T --turns 1 --stream --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R13 '"$PB" run --tasks $T --turns 1 --api-key-env HOME --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R14 '"$PB" run --tasks $T --turns 1 --memcheck --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R15 '"$PB" run --tasks $T --turns 1 --out n.db/ --no-progress; r=$?; ls -A >&2; exit $r'
c R16 '"$PB" run --tasks $T --turns 1 --out . --no-progress'
c R17 '"$PB" run --tasks $T --turns 1 --out .. --no-progress'
c R18 ': > e.db; "$PB" run --tasks $T --turns 1 --out e.db --no-progress; r=$?; wc -c < e.db >&2; exit $r'
c R19 '"$PB" run --tasks $T --turns 1 --out r.db-journal --no-progress | tail -1; r=${PIPESTATUS[0]}; "$PB" show r.db | head -1; exit $r'
c R20 '"$PB" run --tasks $T --turns 1 --out n.html --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R21 '"$PB" run --tasks $T --turns 1 --samples 3 --shard 2/3 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R22 '"$PB" run --tasks $T --turns 1 --shard 5/3 --shard 0/1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R23 '"$PB" run --tasks $T --turns 1 --shard "0/2 " --out n.db --no-progress'
c R24 '"$PB" run --tasks $T --turns 1 --shard "/" --out n.db --no-progress'
c R25 '"$PB" run --tasks $T --turns 1 --shard 0/99999999999999999999 --out n.db --no-progress'
c R26 '"$PB" run --tasks $T --turns 1 --shard 1/2 --out n.db --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c R27 '"$PB" run --tasks $T --turns 2147483648 --out n.db --no-progress'
c R28 '"$PB" run --tasks $T --samples 1e3 --out n.db --no-progress'
c R29 '"$PB" run --tasks $T --turns 1 --context reference --speedup-target 1e-300 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R30 '"$PB" run --resume $D/running.db 2>&1 | tail -2; ls $D/ | grep -c running >&2'
c R31 'cp $D/s0.db s.db; "$PB" run --resume s.db --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c R32 '"$PB" run --resume r.db --memcheck --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c R33 '"$PB" run --resume r.db --shard 0/2'
c R34 '"$PB" run --resume r.db --turns 10'
c R35 '"$PB" run --resume $D/s1ro.db'
c R36 'cp $D/cfgnotasks.db x.db; "$PB" run --resume x.db --no-progress; r=$?; sha256sum x.db $D/cfgnotasks.db | cut -c1-16 >&2; exit $r'
c R37 'cp $D/cfgturnsstr.db x.db; "$PB" run --resume x.db --no-progress'
c R38 'cp $D/noruns.db x.db; "$PB" run --resume x.db --no-progress'
c R39 'cp $D/utf16.db x.db; sqlite3 x.db "update runs set status=\"running\", finished_at=NULL"; "$PB" run --resume x.db --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c R40 'cp $D/trajfailed.db x.db; sqlite3 x.db "update runs set status=\"running\", finished_at=NULL"; "$PB" run --resume x.db --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c R41 'cp $D/trigger.db x.db; sqlite3 x.db "update runs set status=\"running\", finished_at=NULL; delete from turns where turn>2"; "$PB" run --resume x.db --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c R42 'cp $D/hotj.db x.db; cp $D/hotj.db-journal x.db-journal; "$PB" run --resume x.db --no-progress | tail -2; r=${PIPESTATUS[0]}; grep -c HOTJOURNAL x.db >&2; exit $r'
c R43 'cp $D/userver.db x.db; sqlite3 x.db "update runs set status=\"running\", finished_at=NULL; update trajectories set status=\"running\""; "$PB" run --resume x.db --no-progress | tail -1; r=${PIPESTATUS[0]}; sqlite3 x.db "pragma user_version; pragma application_id" >&2; exit $r'
c R44 '"$PB" run --tasks $T,$T,$T --arch sm_90a,sm_100a --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R45 '"$PB" run --tasks $T --arch sm_90a, --turns 1 --out n.db --no-progress'
c R46 '"$PB" run --tasks core, --turns 1 --out n.db --no-progress'
c R47 '"$PB" run --tasks extended,core --turns 1 --out n.db --no-progress --shard 0/40 | tail -1; exit ${PIPESTATUS[0]}'
c R48 '"$PB" run --tasks $T --turns 1 --samples 2 --out n.db --no-progress --json | python3 -c "import json,sys; d=json.load(sys.stdin); print(type(d).__name__)"; exit ${PIPESTATUS[0]}'
c R49 '"$PB" run --model m --base-url http://127.0.0.1:1/v1 --attempts 1 --retry-max-s 0 --tasks $T --turns 1 --top-p -0.5 --out n.db --no-progress'
c R50 '"$PB" run --model m --base-url "http://127.0.0.1:1/v1?x=1#frag" --attempts 1 --retry-max-s 0 --tasks $T --turns 1 --out n.db --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c R51 '"$PB" run --model m --base-url "http://user:pass@127.0.0.1:1/v1" --attempts 1 --retry-max-s 0 --tasks $T --turns 1 --out n.db --no-progress 2>&1 | tail -3; sqlite3 n.db "select config_json from runs" 2>/dev/null | grep -c pass >&2'
c R52 '"$PB" run --model m --base-url "http://[::1]:1/v1" --attempts 1 --retry-max-s 0 --tasks $T --turns 1 --out n.db --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c R53 '"$PB" run --model m --base-url "http://127.0.0.1:99999/v1" --attempts 1 --retry-max-s 0 --tasks $T --turns 1 --out n.db --no-progress'
c R54 '"$PB" run --model m --base-url "HTTP://127.0.0.1:1/v1" --attempts 1 --retry-max-s 0 --tasks $T --turns 1 --out n.db --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c R55 '"$PB" run --model m --base-url "http://127.0.0.1:1" --attempts 1 --retry-max-s 0 --tasks $T --turns 1 --out n.db --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c R56 '"$PB" run --model m --base-url "http://127.0.0.1:1/v1/chat/completions" --attempts 1 --retry-max-s 0 --tasks $T --turns 1 --out n.db --no-progress | tail -2; exit ${PIPESTATUS[0]}'
c R57 '"$PB" run --model m --base-url "unix:///tmp/x.sock" --tasks $T --turns 1 --out n.db --no-progress'
c R58 '"$PB" run --model m --base-url http://127.0.0.1:1/v1 --request-timeout 1e308 --attempts 1 --retry-max-s 0 --tasks $T --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R59 '"$PB" run --model m --base-url http://127.0.0.1:1/v1 --stall-timeout inf --stream --attempts 1 --retry-max-s 0 --tasks $T --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R60 '"$PB" run --model m --base-url http://127.0.0.1:1/v1 --max-tokens 1.5 --tasks $T --out n.db --no-progress'
c R61 '"$PB" run --model "m$(printf "\n")x" --base-url http://127.0.0.1:1/v1 --attempts 1 --retry-max-s 0 --tasks $T --turns 1 --out n.db --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R62 '"$PB" run --model m --base-url http://127.0.0.1:1/v1 --attempts 1 --retry-max-s 0 --tasks $T --turns 1 --out n.db --no-progress; r=$?; "$PB" show n.db | head -3 >&2; exit $r'
c R63 '"$PB" run --resume $D/s1v2.db'
c R64 '"$PB" run --tasks $T --turns 1 --out "$(printf "n\x01\x1b[31m.db")" --no-progress | tail -1; exit ${PIPESTATUS[0]}'
c R65 '"$PB" run --tasks $T --turns 1 --out "$(head -c 300 /dev/zero | tr "\0" n).db" --no-progress'
# --- S: show with new inputs/options
c S01 '"$PB" show /dev/zero'
c S02 '"$PB" show /dev/urandom'
c S03 '"$PB" show /proc/self/environ'
c S04 '"$PB" show r.db --price-in 1e-300 --price-out 1e-300 | tail -2; exit ${PIPESTATUS[0]}'
c S05 '"$PB" show r.db --price-in ""'
c S06 '"$PB" show r.db --price-in "3,5"'
c S07 '"$PB" show r.db --price-out -0 | tail -1; exit ${PIPESTATUS[0]}'
c S08 '"$PB" show r.db --compare $FX'
c S09 '"$PB" show r.db $D/s0.db --turns --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c S10 '"$PB" show $D/s0.db $D/s1.db | head -5; exit ${PIPESTATUS[0]}'
c S11 'ln -s r.db l.db; "$PB" show r.db --compare l.db | head -3; exit ${PIPESTATUS[0]}'
c S12 '"$PB" show r.db --price-in 5 | grep -i -m2 usd; exit ${PIPESTATUS[0]}'
c S13 '"$PB" show r.db --json --turns | python3 -c "import json,sys; d=json.load(sys.stdin); print(sorted(d)[:6])"; exit ${PIPESTATUS[0]}'
c S14 'ln r.db h.db; "$PB" show h.db r.db | head -3; exit ${PIPESTATUS[0]}'
c S15 '"$PB" show r.db --compare r.db --compare $D/s0.db | head -3; exit ${PIPESTATUS[0]}'
c S16 '"$PB" show "$(printf "r.db\n")"'
c S17 '"$PB" show R.DB'
c S18 '"$PB" show r.db --turns --price-in 1e9 --price-out 1e9 --json | python3 -m json.tool > /dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c S19 'chmod 222 r.db; $NB "$PB" show r.db'
c S20 'mkdir dd; cp r.db dd/; chmod 311 dd; $NB "$PB" show dd/r.db | head -1; exit ${PIPESTATUS[0]}'
# --- D: damaged run files (new damages; each command works on x.db, a copy; a read-only command must not change it)
DBS="cfgnotasks cfgturnsstr cfgturnsneg cfgarchsempty cfgfastpstr cfgbudgetsempty cfgbudgetszero cfgtargetnull cfgsamples0 cfgmodelnum provnotjson noruns runid99 trajfailed msgnul msgbadutf8 msgnoassistant msgroleswap turnincons turnharness turnarchnull turnsrcnull evalarr evaltrunc llmneg llmstr speedinf speedninf turnhuge sampleneg createdempty archempty modelempty modeltrav tasktrav twomodels stopreason msgturnbig metaver1sp metaver01 nocreatedby userver nospeedcol viewturns trigger nocheck pagesize utf16 trailing zeropage zeropage1 flippage halfpage hotj"
PRE='cp $D/$DB.db x.db; [ -f $D/$DB.db-journal ] && cp $D/$DB.db-journal x.db-journal; h0=$(sha256sum x.db | cut -c1-16); '
POST='; r=$?; [ "$(sha256sum x.db | cut -c1-16)" = "$h0" ] || echo "X.DB CHANGED" >&2; exit $r'
i=0
for DB in $DBS; do i=$((i+1)); n=$(printf %02d $i); export DB
  c D${n}s  "DB=$DB; ${PRE}\"\$PB\" show x.db --turns | head -c 400 | tail -c 200${POST}"
  c D${n}j  "DB=$DB; ${PRE}\"\$PB\" show x.db --json | python3 -c 'import json,sys; json.load(sys.stdin); print(\"json ok\")'; r=\${PIPESTATUS[0]}; [ \"\$(sha256sum x.db | cut -c1-16)\" = \"\$h0\" ] || echo 'X.DB CHANGED' >&2; exit \$r"
  c D${n}h  "DB=$DB; ${PRE}\"\$PB\" report x.db --html o.html --csv o.csv --junit o.xml; r=\$?; ls -A >&2; [ -f o.xml ] && { xmllint --noout o.xml || echo BAD-XML >&2; }; [ -f o.csv ] && { python3 -c 'import csv,sys; list(csv.reader(open(\"o.csv\",newline=\"\")))' || echo BAD-CSV >&2; }; [ \"\$(sha256sum x.db | cut -c1-16)\" = \"\$h0\" ] || echo 'X.DB CHANGED' >&2; exit \$r"
  c D${n}f  "DB=$DB; ${PRE}\"\$PB\" sft fixit x.db --out o; r=\$?; ls -A o >&2; for f in o/*.jsonl; do [ -f \"\$f\" ] && python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1],encoding=\"utf-8\")]' \"\$f\" 2>/dev/null || { [ -f \"\$f\" ] && echo \"BAD-JSONL \$f\" >&2; }; done; [ \"\$(sha256sum x.db | cut -c1-16)\" = \"\$h0\" ] || echo 'X.DB CHANGED' >&2; exit \$r"
done
i=0
for DB in cfgturnsstr trajfailed msgnul msgbadutf8 msgnoassistant turnsrcnull evalarr tasktrav modeltrav twomodels archempty nospeedcol viewturns trigger utf16 zeropage halfpage flippage noruns runid99 sampleneg metaver1sp; do i=$((i+1)); n=$(printf %02d $i); export DB
  c DJ${n} "DB=$DB; ${PRE}\"\$PB\" rejudge x.db --out n.db | tail -2; r=\${PIPESTATUS[0]}; ls -A >&2; [ \"\$(sha256sum x.db | cut -c1-16)\" = \"\$h0\" ] || echo 'X.DB CHANGED' >&2; exit \$r"
done
i=0
for DB in msgbadutf8 msgnul tasktrav modeltrav modelempty twomodels sampleneg speedinf utf16 evalarr; do i=$((i+1)); n=$(printf %02d $i); export DB
  c DK${n} "DB=$DB; ${PRE}\"\$PB\" sft kernelgen x.db --out o --allow-missing-instructions; r=\$?; find o -type f >&2; for f in o/*.jsonl; do [ -f \"\$f\" ] && { python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1],encoding=\"utf-8\")]' \"\$f\" 2>/dev/null || echo \"BAD-JSONL \$f\" >&2; }; done; exit \$r"
  c DC${n} "DB=$DB; ${PRE}\"\$PB\" sft coverage x.db --json | python3 -c 'import json,sys; json.load(sys.stdin); print(\"json ok\")'; exit \${PIPESTATUS[0]}"
  c DM${n} "DB=$DB; ${PRE}\"\$PB\" sft mine x.db --dry-run --json --limit 2 | python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]; print(\"jsonl ok\")'; exit \${PIPESTATUS[0]}"
done
# --- H: report
c H01 '"$PB" report r.db --csv /dev/stdout | head -2; exit ${PIPESTATUS[0]}'
c H02 'mkfifo p.html; ( timeout 20 cat p.html > got.html & ); "$PB" report r.db --html p.html --force; r=$?; sleep 1; ls -la >&2; exit $r'
c H03 '"$PB" report r.db --junit .'
c H04 'mkdir real; ln -s real dl; "$PB" report r.db --html dl --force; r=$?; ls -A real >&2; exit $r'
c H05 '"$PB" report r.db --csv "$(printf "o\nx.csv")"; r=$?; ls -A >&2; exit $r'
c H06 '"$PB" report $(for i in $(seq 1 60); do echo r.db; done) --csv o.csv; r=$?; wc -l < o.csv >&2; exit $r'
c H07 'mkdir a b; cp r.db a/run.db; cp $D/s0.db b/run.db; "$PB" report a/run.db b/run.db --html o.html --csv o.csv; r=$?; ls >&2; exit $r'
c H08 '"$PB" report r.db $D/s0.db $D/s1.db --junit o.xml; r=$?; xmllint --noout o.xml && grep -c "<testcase" o.xml >&2; exit $r'
c H09 '"$PB" report r.db --html o.html --csv o.html'
c H10 '"$PB" report r.db --junit o.xml --html ./o.xml --force; r=$?; ls >&2; exit $r'
c H11 'mkdir ro; chmod 555 ro; echo keep > ro/o.csv; chmod 444 ro/o.csv; $NB "$PB" report r.db --csv ro/o.csv --force; r=$?; cat ro/o.csv >&2; exit $r'
c H12 'echo keep > o.csv; chmod 444 o.csv; $NB "$PB" report r.db --csv o.csv --force; r=$?; cat o.csv >&2; exit $r'
c H13 '"$PB" report r.db --html o.html --junit o.xml --csv o.csv --force; r=$?; ls >&2; exit $r'
c H14 '"$PB" report $D/s0.db --html o.html; r=$?; grep -c "<html" o.html >&2; exit $r'
c H15 'echo keep > o.html; "$PB" report r.db --html o.html --csv new.csv; r=$?; ls >&2; cat o.html >&2; exit $r'
c H16 '"$PB" report r.db --csv "o.csv " ; r=$?; ls -A | cat -A >&2; exit $r'
c H17 '"$PB" report r.db nonexistent.db --html o.html; r=$?; ls >&2; exit $r'
c H18 '"$PB" report r.db --junit o.xml --json'
c H19 '"$PB" report r.db --html=o.html --force=true'
c H20 '"$PB" report --csv o.csv -- r.db; r=$?; ls >&2; exit $r'
c H21 '"$PB" report r.db --html h.html/; r=$?; ls -la >&2; exit $r'
c H22 '"$PB" report r.db --junit sub/; r=$?; ls -la >&2; exit $r'
# --- G: gate
c G01 '"$PB" gate $FX/good.cu --task $T --min-speedup 0 | tail -2; exit ${PIPESTATUS[0]}'
c G02 '"$PB" gate $FX/good.cu --task $T --min-speedup 1e-9 | tail -1; exit ${PIPESTATUS[0]}'
c G03 '"$PB" gate $FX/good.cu --task $T --require-arch | tail -1; exit ${PIPESTATUS[0]}'
c G04 '"$PB" gate $FX/cerr.cu --task $T | tail -2; exit ${PIPESTATUS[0]}'
c G05 '"$PB" gate $FX/good.cu $FX/sock.cu --task $T --junit j.xml; r=$?; ls >&2; exit $r'
c G06 'ln -s $FX/good.cu l.cu; "$PB" gate $FX/good.cu l.cu ./l.cu --task $T --json j.jsonl | tail -1; r=${PIPESTATUS[0]}; wc -l < j.jsonl >&2; exit $r'
c G07 'cp $FX/good.cu k.cu; "$PB" gate k.cu --task $T --junit ./k.cu; r=$?; head -c 40 k.cu >&2; exit $r'
c G08 '"$PB" gate $FX/reply_good.md --task $T | tail -1; exit ${PIPESTATUS[0]}'
c G09 'for i in $(seq 1 200); do cp $FX/good.cu k$i.cu; done; "$PB" gate k*.cu --task $T --max-source-bytes 2 --junit j.xml | tail -1; r=${PIPESTATUS[0]}; grep -c "<testcase" j.xml >&2; exit $r'
c G10 '"$PB" gate $FX/good.cu --task $T --junit "" --json j.jsonl'
c G11 '"$PB" gate $FX/good.cu --task $T --json /dev/stdout | head -c 100; exit ${PIPESTATUS[0]}'
c G12 'mkfifo f.cu; "$PB" gate f.cu --task $T --max-source-bytes 2'
c G13 '"$PB" gate $FX/good.cu --task $T --min-speedup 1 --require-arch --junit j.xml; r=$?; xmllint --noout j.xml; grep -o "message=\"[^\"]*\"" j.xml | head -2 >&2; exit $r'
c G14 '"$PB" gate $FX/tvmfile.cu --task $T --contract native | tail -2; exit ${PIPESTATUS[0]}'
c G15 '"$PB" gate $FX/good.cu --task $T,$TA'
c G16 '"$PB" gate $FX/elf.cu $FX/utf16.cu --task $T --json j.jsonl; r=$?; python3 -c "import json; [json.loads(l) for l in open(\"j.jsonl\")]; print(\"ok\")" >&2; exit $r'
c G17 'echo keep > j.xml; "$PB" gate $FX/good.cu --task $T --junit j.xml --json j.jsonl; r=$?; ls >&2; cat j.xml >&2; exit $r'
c G18 '"$PB" gate $FX/good.cu --task $T --arch sm_100a --require-arch --json j.jsonl | tail -1; exit ${PIPESTATUS[0]}'
# --- J: rejudge (new angles)
c J01 'ln r.db hl.db; "$PB" rejudge r.db --out hl.db; r=$?; "$PB" show r.db | head -1 >&2; exit $r'
c J02 'mkdir d; ln -s ../r.db d/x.db; "$PB" rejudge r.db --out d/x.db; r=$?; exit $r'
c J03 '"$PB" rejudge $D/s0.db --out n.db --allow-partial | tail -1; exit ${PIPESTATUS[0]}'
c J04 '"$PB" rejudge $D/s0.db --out n.db --shared-inputs --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c J05 '"$PB" rejudge $D/hotj.db --out n.db; r=$?; ls -A >&2; exit $r'
c J06 '"$PB" rejudge $D/s0.db --out "$(printf "n\tx.db")"; r=$?; ls -A | cat -A >&2; exit $r'
c J07 'mkdir ro; chmod 555 ro; $NB env PTXBENCH_CACHE=$W/nbcache "$PB" rejudge $D/s0.db --out ro/sub/n.db; r=$?; ls -A ro >&2; exit $r'
c J08 '"$PB" rejudge $D/s0.db --out n.db; "$PB" rejudge n.db --out n2.db | tail -1; r=${PIPESTATUS[0]}; "$PB" show n2.db --compare n.db | head -3 >&2; exit $r'
c J09 '"$PB" rejudge $D/s1ro.db --out n.db | tail -1; exit ${PIPESTATUS[0]}'
c J10 'PTXBENCH_ROOT=$R/notraj "$PB" rejudge $D/s0.db --out n.db | tail -1; exit ${PIPESTATUS[0]}'
# --- M: merge (real shard files)
c M01 '"$PB" merge $D/s0.db $D/s1.db --out m.db | tail -2; r=${PIPESTATUS[0]}; "$PB" show m.db | head -2 >&2; exit $r'
c M02 '"$PB" merge $D/s0.db $D/s1cfg.db --out m.db; r=$?; ls >&2; exit $r'
c M03 '"$PB" merge $D/s0.db $D/s1shard3.db --out m.db; r=$?; ls >&2; exit $r'
c M04 '"$PB" merge $D/s0.db $D/s1noshard.db --out m.db; r=$?; ls >&2; exit $r'
c M05 '"$PB" merge $D/s0.db $D/s1idx0.db --out m.db; r=$?; ls >&2; exit $r'
c M06 '"$PB" merge $D/s0.db $D/s1idxstr.db --out m.db; r=$?; ls >&2; exit $r'
c M07 '"$PB" merge $D/s0.db $D/s1dupt.db --out m.db; r=$?; ls >&2; exit $r'
c M08 '"$PB" merge $D/s0.db $D/s1v2.db --out m.db; r=$?; ls >&2; exit $r'
c M09 '"$PB" merge $D/s0.db $D/s1nocreated.db --out m.db | tail -1; r=${PIPESTATUS[0]}; ls >&2; exit $r'
c M10 '"$PB" merge $D/s0.db $D/s1prov.db --out m.db; r=$?; ls >&2; exit $r'
c M11 '"$PB" merge $D/s0.db $D/s1utf.db --out m.db | tail -1; r=${PIPESTATUS[0]}; ls >&2; exit $r'
c M12 '"$PB" merge $D/s1.db $D/s0.db --out m.db --allow-partial --allow-partial | tail -1; exit ${PIPESTATUS[0]}'
c M13 '"$PB" merge $D/s0.db $D/s1.db --out m.db; "$PB" merge m.db --out m2.db; r=$?; ls >&2; exit $r'
c M14 '"$PB" merge $D/s0.db $D/s1.db --out $D/s0.db'
c M15 'cp $D/s0.db a.db; cp $D/s1.db b.db; "$PB" merge a.db b.db --out a.db; r=$?; sha256sum a.db $D/s0.db | cut -c1-16 >&2; exit $r'
c M16 'mkdir ro; chmod 555 ro; $NB "$PB" merge $D/s0.db $D/s1.db --out ro/m.db; r=$?; exit $r'
c M17 '(ulimit -f 40; "$PB" merge $D/s0.db $D/s1.db --out m.db); r=$?; ls -A >&2; exit $r'
c M18 '"$PB" merge $D/s0.db $D/s1.db --out m.db & "$PB" merge $D/s0.db $D/s1.db --out m.db; wait; ls -A >&2; "$PB" show m.db | head -1'
c M19 'timeout -s INT 0.05 "$PB" merge $D/s0.db $D/s1.db --out m.db; r=$?; ls -A >&2; exit $r'
c M20 '"$PB" merge $D/s0.db $D/s1.db $D/s1.db --out m.db; r=$?; ls >&2; exit $r'
c M21 '"$PB" merge $D/s0.db $D/hotj.db --out m.db; r=$?; ls >&2; exit $r'
c M22 '"$PB" merge $D/s0.db $D/s1.db --out "m.db " | tail -1; r=${PIPESTATUS[0]}; ls -A | cat -A >&2; exit $r'
c M23 'python3 -c "import sqlite3,time; c=sqlite3.connect(\"$D/s1.db\"); c.execute(\"begin exclusive\"); time.sleep(5)" & sleep 1; "$PB" merge $D/s0.db $D/s1.db --out m.db; r=$?; wait; ls >&2; exit $r'
# --- F: sft fixit / kernelgen
c F01 '"$PB" sft fixit r.db --out o --max-tokens 1; r=$?; find o -type f -exec wc -l {} + >&2; exit $r'
c F02 '"$PB" sft fixit r.db --out o --per-task-cap 1; r=$?; cat o/*.jsonl 2>/dev/null | wc -l >&2; exit $r'
c F03 '"$PB" sft fixit r.db --out o --heldout-task gemm_n7168_k5120,mha_bwd_d128,mha_bwd_d128_causal,mha_with_lse_d128,mha_with_lse_d128_causal; r=$?; wc -l o/*.jsonl >&2; exit $r'
c F04 '"$PB" sft fixit r.db --out o --categories passed_missing_instructions,passed_missing_instructions; r=$?; wc -l o/*.jsonl >&2; exit $r'
c F05 '"$PB" sft fixit r.db --out o --categories no_code; r=$?; ls o >&2; exit $r'
c F06 '"$PB" sft fixit r.db --out o --allow-flag "" ; r=$?; ls o >&2; exit $r'
c F07 '"$PB" sft fixit r.db --out o --heldout-task "$T, $TA"; r=$?; ls o >&2; exit $r'
c F08 '"$PB" sft fixit r.db --out o --seed 0x10'
c F09 '"$PB" sft fixit r.db --out o --bytes-per-token 1e-300; r=$?; ls o >&2; exit $r'
c F10 '"$PB" sft fixit r.db $D/s0.db --out o; r=$?; wc -l o/*.jsonl >&2; exit $r'
c F11 '"$PB" rejudge $D/s0.db --out rj.db >/dev/null; "$PB" sft fixit $D/s0.db rj.db --out o; r=$?; wc -l o/*.jsonl >&2; exit $r'
c F12 'mkdir -p o; ln -s $FX o/train.jsonl; "$PB" sft fixit r.db --out o; r=$?; ls -la o >&2; exit $r'
c F13 'mkdir -p o; mkfifo o/train.jsonl; "$PB" sft fixit r.db --out o --force; r=$?; ls -la o >&2; exit $r'
c F14 '(ulimit -f 2; "$PB" sft fixit r.db --out o); r=$?; ls -la o >&2; exit $r'
c F15 '(ulimit -f 2; "$PB" sft kernelgen r.db --out o --allow-missing-instructions); r=$?; ls -la o >&2; exit $r'
c F16 'timeout -s INT 0.1 "$PB" sft kernelgen r.db --out o; r=$?; ls -A o >&2; exit $r'
c F17 '"$PB" sft kernelgen r.db --out o & "$PB" sft kernelgen r.db --out o; wait; ls -A o >&2'
c F18 '"$PB" sft fixit r.db --out r.db/o'
c F19 '"$PB" sft fixit r.db --out o --no-reasoning --no-reasoning --pairing all --pairing one; r=$?; ls o >&2; exit $r'
c F20 '"$PB" sft kernelgen r.db --out o --min-speedup 1000000; r=$?; find o -type f >&2; exit $r'
c F21 '"$PB" sft kernelgen r.db --out o --allow-flag side_stream --allow-flag side_stream; r=$?; ls o >&2; exit $r'
c F22 '"$PB" sft kernelgen $D/s0.db --out o; r=$?; find o -type f >&2; exit $r'
c F23 '"$PB" sft fixit r.db --out "$(printf "o\nx")"; r=$?; ls -A | cat -A >&2; exit $r'
c F24 'mkdir o; chmod 555 o; $NB "$PB" sft fixit r.db --out o; r=$?; ls -A o >&2; exit $r'
c F25 '"$PB" sft fixit r.db --out o --per-task-cap 0 --max-tokens 0 --bytes-per-token 1000 ; r=$?; ls o >&2; exit $r'
c F26 '"$PB" sft fixit r.db --out o; echo junk > o/extra.txt; "$PB" sft fixit r.db --out o --force; r=$?; ls o >&2; exit $r'
c F27 '"$PB" sft kernelgen --out o r.db --max-tokens=10000000; r=$?; ls o >&2; exit $r'
c F28 '"$PB" sft fixit $D/s0.db --out o --categories compile_error; r=$?; find o -type f -exec wc -l {} + >&2; exit $r'
# --- V: sft coverage
c V01 '"$PB" sft coverage r.db --out /dev/stdout | head -2; exit ${PIPESTATUS[0]}'
c V02 'mkfifo c.txt; ( timeout 15 cat c.txt > got.txt & ); "$PB" sft coverage r.db --out c.txt --force; r=$?; sleep 1; wc -c < got.txt >&2; exit $r'
c V03 '(ulimit -f 1; "$PB" sft coverage r.db --json --out c.json); r=$?; ls -la >&2; exit $r'
c V04 '"$PB" sft coverage r.db --out c.txt & "$PB" sft coverage r.db --out c.txt; wait; ls -A >&2'
c V05 '"$PB" sft coverage r.db --categories "compile_error, incorrect"'
c V06 '"$PB" sft coverage r.db --heldout-task bogus_task'
c V07 '"$PB" sft coverage r.db --per-task-cap 1 --seed 7 --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c V08 '"$PB" sft coverage r.db --out "c.txt/"; r=$?; ls -A >&2; exit $r'
c V09 '"$PB" sft coverage $D/s0.db $D/s1.db | tail -3; exit ${PIPESTATUS[0]}'
c V10 '"$PB" sft coverage r.db --dry-run'
# --- N: sft mine (no endpoint needed)
c N01 '"$PB" sft mine r.db --dry-run --limit 1000000 | wc -l; exit ${PIPESTATUS[0]}'
c N02 '"$PB" sft mine r.db --api-key-env HOME --dry-run | head -2; exit ${PIPESTATUS[0]}'
c N03 '"$PB" sft mine r.db --stream --dry-run | head -1; exit ${PIPESTATUS[0]}'
c N04 '"$PB" sft mine r.db --model m --base-url http://127.0.0.1:1/v1'
c N05 '"$PB" sft mine r.db --model m --out mine.db'
c N06 '"$PB" sft mine r.db --base-url http://127.0.0.1:1/v1 --out mine.db'
c N07 '"$PB" sft mine r.db --model m --base-url http://127.0.0.1:1/v1 --out $D/s0.db --limit 1 --attempts 1 --retry-max-s 0'
c N08 '"$PB" sft mine r.db --model m --base-url http://127.0.0.1:1/v1 --out mine.db --limit 1 --attempts 1 --retry-max-s 0; r=$?; ls -A >&2; "$PB" show mine.db 2>&1 | head -2 >&2; exit $r'
c N09 '"$PB" sft mine r.db --model m --base-url http://127.0.0.1:1/v1 --out mine.db --limit 1 --attempts 1 --retry-max-s 0; "$PB" sft mine r.db --model m2 --base-url http://127.0.0.1:1/v1 --out mine.db --limit 1 --attempts 1 --retry-max-s 0; r=$?; exit $r'
c N10 '"$PB" sft mine r.db --dry-run --temperature -0.1'
c N11 '"$PB" sft mine r.db --dry-run --categories passed'
c N12 '"$PB" sft mine r.db --dry-run --json --heldout-task $T | head -c 100; exit ${PIPESTATUS[0]}'
c N13 '(ulimit -f 4; "$PB" sft mine r.db --model m --base-url http://127.0.0.1:1/v1 --out mine.db --limit 1 --attempts 1 --retry-max-s 0); r=$?; ls -la >&2; exit $r'
c N14 'mkdir ro; chmod 555 ro; $NB "$PB" sft mine r.db --model m --base-url http://127.0.0.1:1/v1 --out ro/mine.db --limit 1 --attempts 1 --retry-max-s 0'
c N15 '"$PB" sft mine $D/s0.db --dry-run | head -3; exit ${PIPESTATUS[0]}'
# --- L: slurm
c L01 '"$PB" slurm script --shards 1 --gpus-per-shard 1000000 | grep -m2 -i gres; exit ${PIPESTATUS[0]}'
c L02 '"$PB" slurm script --shards 2 --time "$(printf "01:00:00\n#SBATCH --wrap=id")" > s.sh; r=$?; grep -n "wrap" s.sh >&2; exit $r'
c L03 '"$PB" slurm script --shards 2 --sbatch-arg "$(printf -- "--mem=1G\n#SBATCH --wrap=id")" > s.sh; r=$?; grep -n "wrap" s.sh >&2; exit $r'
c L04 '"$PB" slurm script --shards 2 --partition "" | grep -c partition; exit ${PIPESTATUS[0]}'
c L05 '"$PB" slurm script --shards 2 --cpus-per-shard 4096 | grep -m1 cpus; exit ${PIPESTATUS[0]}'
c L06 '"$PB" slurm script --shards 2 --dir .. > s.sh; r=$?; grep -m3 -n "\.\." s.sh >&2; exit $r'
c L07 '"$PB" slurm script --shards 2 -- --json | grep -m2 -n -- "--json"; exit ${PIPESTATUS[0]}'
c L08 '"$PB" slurm script --shards 2 -- --no-progress | grep -c -- "--no-progress"; exit ${PIPESTATUS[0]}'
c L09 '"$PB" slurm script --shards 2 -- junk positional'
c L10 '"$PB" slurm script --shards 2 -- --tasks $T --shard-count 2'
c L11 'touch afile; PATH=$W/bin/sb_sbatch_parsable:$PATH "$PB" slurm submit --shards 2 --dir afile -- --tasks $T'
c L12 'mkdir d; echo precious > d/merged.db; echo keep > d/shard-0-of-2.db; PATH=$W/bin/sb_sbatch_parsable:$PATH "$PB" slurm submit --shards 2 --dir d -- --tasks $T; r=$?; cat d/merged.db d/shard-0-of-2.db >&2; ls -A d >&2; exit $r'
c L13 'PATH=$W/bin/sb_sbatch_parsable:$PATH "$PB" slurm submit --shards 2 --dir d -- --tasks $T; r=$?; ls -A d >&2; exit $r'
c L14 'PATH=$W/bin/sb_sbatch_zero:$PATH "$PB" slurm submit --shards 2 --dir d -- --tasks $T'
c L15 'PATH=$W/bin/sb_sbatch_bigid:$PATH "$PB" slurm submit --shards 2 --dir d -- --tasks $T'
c L16 'PATH=$W/bin/sb_sbatch_two:$PATH "$PB" slurm submit --shards 2 --dir d -- --tasks $T'
c L17 'rm -f $W/bin/sbcount; PATH=$W/bin/sb_sbatch_second_fails:$PATH "$PB" slurm submit --shards 2 --dir d -- --tasks $T; r=$?; rm -f $W/bin/sbcount; exit $r'
c L18 'PATH=$W/bin/sb_sbatch_segv:$PATH "$PB" slurm submit --shards 2 --dir d -- --tasks $T'
c L19 'PATH=$W/bin/sb_sbatch_hang:$PATH timeout -s INT 3 "$PB" slurm submit --shards 2 --dir d -- --tasks $T; r=$?; ls -A d >&2; exit $r'
c L20 'PATH=$W/bin/sb_sbatch_parsable:$PATH "$PB" slurm submit --shards 2 --dir d -- --tasks bogus_task; r=$?; ls -A d 2>&1 >&2; exit $r'
c L21 '(ulimit -f 1; PATH=$W/bin/sb_sbatch_parsable:$PATH "$PB" slurm submit --shards 2 --dir d -- --tasks $T); r=$?; ls -la d >&2; exit $r'
c L22 'mkdir ro; chmod 555 ro; PATH=$W/bin/sb_sbatch_parsable:$PATH $NB "$PB" slurm submit --shards 2 --dir ro/d -- --tasks $T'
c L23 'PATH=$W/bin/sb_sbatch_parsable:$PATH "$PB" slurm submit --shards 2 --dir d -- --tasks $T & PATH=$W/bin/sb_sbatch_parsable:$PATH "$PB" slurm submit --shards 2 --dir d -- --tasks $T; wait; ls -A d >&2'
c L24 '"$PB" slurm script --shards 2 --job-name "ünï ✓" | grep -m1 job-name; exit ${PIPESTATUS[0]}'
c L25 '"$PB" slurm script --shards 2 --dir "$(printf "d\x1b[2J")" | head -3 | cat -A | head -3; exit ${PIPESTATUS[0]}'
c L26 '"$PB" slurm script --shards 2 -- --gpus 4 | grep -m2 -i gpu; exit ${PIPESTATUS[0]}'
c L27 '"$PB" slurm script --shards 2 --gpus-per-shard 2 -- --gpus 4'
c L28 '"$PB" slurm script --shards 2 -- --model m --base-url http://x/v1 --api-key-env OPENAI_API_KEY | grep -c OPENAI; exit ${PIPESTATUS[0]}'
c L29 'OPENAI_API_KEY=sk-SECRET123 "$PB" slurm script --shards 2 -- --model m --base-url http://x/v1 --api-key-env OPENAI_API_KEY | grep -c SECRET123; exit 0'
c L30 '"$PB" slurm submit --shards 2 --dir d -- --tasks $T; r=$?; ls -A d 2>&1 >&2; exit $r'
# --- X: full disk, concurrency, interrupts, same file in and out
c X01 '(ulimit -f 10; "$PB" run --tasks $T --turns 2 --out n.db --no-progress | tail -1); r=$?; ls -la >&2; "$PB" show n.db 2>&1 | head -1 >&2; exit $r'
c X02 '(ulimit -f 100; "$PB" rejudge $D/s0.db --out n.db | tail -1); r=$?; ls -la >&2; exit $r'
c X03 '(ulimit -f 1; "$PB" report r.db --csv o.csv); r=$?; ls -la >&2; exit $r'
c X04 '(ulimit -f 1; "$PB" report r.db --junit o.xml); r=$?; ls -la >&2; exit $r'
c X05 '(ulimit -f 1; "$PB" gate $FX/good.cu --task $T --max-source-bytes 2 --junit j.xml --json j.jsonl); r=$?; ls -la >&2; exit $r'
c X06 'echo keep > o.csv; (ulimit -f 1; "$PB" report r.db --csv o.csv --force); r=$?; cat o.csv >&2; exit $r'
c X07 '"$PB" sft fixit r.db --out o; cp -r o o.bak; (ulimit -f 2; "$PB" sft fixit r.db --out o --force); r=$?; diff -r o o.bak >/dev/null && echo SAME >&2 || { echo DIFFERENT >&2; ls -la o >&2; }; exit $r'
c X08 '(ulimit -f 20; "$PB" run --resume $D/../db/s0.db 2>&1 | tail -1); cp $D/s0.db s.db; sqlite3 s.db "update runs set status=\"running\", finished_at=NULL; update trajectories set status=\"running\"; delete from turns where turn=2; delete from messages where turn>=2"; (ulimit -f 0; "$PB" run --resume s.db --no-progress | tail -1); r=$?; "$PB" show s.db | head -1 >&2; sqlite3 s.db "pragma integrity_check" >&2; exit $r'
c X09 '"$PB" run --tasks $T --turns 2 --out n.db --no-progress >/dev/null & "$PB" run --tasks $T --turns 2 --out n.db --no-progress; r=$?; wait; ls -A >&2; "$PB" show n.db | head -1 >&2; exit $r'
c X10 '"$PB" rejudge $D/s0.db --out n.db >/dev/null & "$PB" rejudge $D/s0.db --out n.db | tail -1; r=${PIPESTATUS[0]}; wait; ls -A >&2; exit $r'
c X11 '"$PB" gate $FX/good.cu --task $T --junit j.xml >/dev/null & "$PB" gate $FX/good.cu --task $T --junit j.xml | tail -1; wait; ls -A >&2; xmllint --noout j.xml'
c X12 'cp $D/s0.db s.db; sqlite3 s.db "update runs set status=\"running\", finished_at=NULL; update trajectories set status=\"running\"; delete from turns where turn=2; delete from messages where turn>=2"; "$PB" run --resume s.db --no-progress >/dev/null & "$PB" run --resume s.db --no-progress | tail -1; r=${PIPESTATUS[0]}; wait; "$PB" show s.db --turns | grep -c "turn" >&2; sqlite3 s.db "select count(*) from turns" >&2; exit $r'
c X13 'cp $D/s0.db s.db; sqlite3 s.db "update runs set status=\"running\", finished_at=NULL; update trajectories set status=\"running\"; delete from turns where turn=2; delete from messages where turn>=2"; "$PB" run --resume s.db --no-progress >/dev/null & sleep 0.05; "$PB" report s.db --csv o.csv; r=$?; wait; exit $r'
c X14 'cp $D/s0.db s.db; sqlite3 s.db "update runs set status=\"running\", finished_at=NULL; update trajectories set status=\"running\"; delete from turns where turn=2; delete from messages where turn>=2"; "$PB" run --resume s.db --no-progress >/dev/null & sleep 0.05; "$PB" merge s.db $D/s1.db --out m.db; r=$?; wait; ls -A >&2; exit $r'
c X15 'timeout -s INT 2 "$PB" rejudge r.db --out n.db --no-such; "$PB" rejudge r.db --out n.db >/dev/null & p=$!; sleep 3; kill -HUP $p; wait $p; r=$?; ls -A >&2; exit $r'
c X16 'timeout -s TERM 1 "$PB" run --tasks $T,$TA --turns 4 --out n.db --no-progress; r=$?; ls -A >&2; "$PB" show n.db 2>&1 | head -1 >&2; exit $r'
c X17 'timeout -s INT 0.5 "$PB" compile $FX/ref.cu --task $T --no-cache; r=$?; exit $r'
c X18 'PTXBENCH_CACHE=$PWD/c timeout -s TERM 1 "$PB" gate $FX/ref.cu $FX/good.cu --task $T --json j.jsonl; r=$?; ls -A >&2; cat j.jsonl 2>/dev/null | python3 -c "import json,sys; [json.loads(l) for l in sys.stdin]" || echo BAD-JSONL >&2; exit $r'
c X19 'timeout -s HUP 0.2 "$PB" report r.db $D/s0.db --html o.html --csv o.csv --junit o.xml; r=$?; ls -A >&2; exit $r'
c X20 'timeout -s INT 0.05 "$PB" sft coverage r.db --out c.txt; r=$?; ls -A >&2; exit $r'
c X21 'timeout -s TERM 0.05 "$PB" sft fixit r.db $D/s0.db --out o; r=$?; ls -A . o 2>&1 >&2; exit $r'
c X22 'PTXBENCH_CACHE=$PWD/c timeout -s INT 1 "$PB" eval $FX/ref.cu --task $T --json > e.json; r=$?; ls -A c 2>&1 | head >&2; exit $r'
c X23 'timeout -s INT 3 "$PB" rejudge r.db --out n.db --allow-partial; r=$?; ls -A >&2; exit $r'
c X24 'cp $D/s0.db s.db; "$PB" merge s.db $D/s1.db --out m.db; "$PB" rejudge m.db --out m.db; r=$?; exit $r'
c X25 '"$PB" report r.db --csv r.db-journal; r=$?; "$PB" show r.db | head -1 >&2; ls -A >&2; exit $r'
c X26 '"$PB" report r.db --html r.db-wal; r=$?; "$PB" show r.db | head -1 >&2; ls -A >&2; exit $r'
c X27 '"$PB" sft coverage r.db --out r.db-wal; r=$?; "$PB" show r.db | head -1 >&2; ls -A >&2; exit $r'
c X28 'cp r.db w.db; sqlite3 w.db "pragma journal_mode=wal; create table keep(x); insert into keep values(1);" >/dev/null; python3 -c "import sqlite3,time; c=sqlite3.connect(\"w.db\"); c.execute(\"pragma wal_autocheckpoint=0\"); c.execute(\"insert into keep values(2)\"); c.commit(); import os; os._exit(0)"; "$PB" report w.db --csv w.db-wal --force; r=$?; sqlite3 w.db "select count(*) from keep" >&2; exit $r'
c X29 '"$PB" sft fixit r.db --out o; "$PB" sft kernelgen r.db --out o; r=$?; ls o >&2; exit $r'
c X30 '"$PB" sft fixit r.db --out o; "$PB" sft kernelgen r.db --out o --force; r=$?; ls o >&2; exit $r'
c X31 'mkdir o; cp r.db o/; "$PB" sft fixit o/r.db --out o --force; r=$?; ls o >&2; "$PB" show o/r.db | head -1 >&2; exit $r'
c X32 '"$PB" report r.db --html o.html; "$PB" report r.db --html o.html --csv o.csv; r=$?; ls >&2; exit $r'
c X33 'mkdir ro; cp r.db ro/; chmod 555 ro; $NB "$PB" report ro/r.db --csv /dev/null --force; r=$?; exit $r'
c X34 'cp $D/s0.db s.db; sqlite3 s.db "pragma journal_mode=wal" >/dev/null; chmod 555 .; $NB "$PB" show s.db | head -1; r=${PIPESTATUS[0]}; chmod 777 .; exit $r'
c X35 'python3 -c "import sqlite3,time; c=sqlite3.connect(\"r.db\"); c.execute(\"begin exclusive\"); time.sleep(6)" & sleep 1; "$PB" sft fixit r.db --out o; r=$?; wait; ls -A >&2; exit $r'
c X36 'python3 -c "import sqlite3,time; c=sqlite3.connect(\"r.db\"); c.execute(\"begin exclusive\"); time.sleep(6)" & sleep 1; "$PB" report r.db --csv o.csv; r=$?; wait; ls -A >&2; exit $r'
c X37 'python3 -c "import sqlite3,time; c=sqlite3.connect(\"r.db\"); c.execute(\"begin exclusive\"); time.sleep(6)" & sleep 1; "$PB" rejudge r.db --out n.db; r=$?; wait; ls -A >&2; exit $r'
c X38 'python3 -c "import sqlite3,time; c=sqlite3.connect(\"r.db\"); c.execute(\"begin immediate\"); c.execute(\"update turns set feedback=feedback\"); time.sleep(6)" & sleep 1; "$PB" show r.db | head -1; r=${PIPESTATUS[0]}; wait; exit $r'
