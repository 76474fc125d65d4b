#!/usr/bin/env bash
# ptxbench bad-input campaign.
# usage: campaign.sh [PTXBENCH_BINARY] [PTXBENCH_ROOT] [WORKDIR] [OUTDIR]
#   env: ONLY=<regex of case ids> to run a subset; RUNSRC=<a valid run file>;
#        CUOBJDUMP / NVDISASM = disassembler tools (this machine: /work/main/.deps/bin/...)
# Writes OUTDIR/raw.tsv (one line per case: id, command, exit, crash(auto), data(auto),
# new files, message) and OUTDIR/logs/<id>.{out,err}. merge.py joins raw.tsv with the
# hand judgments (judgments.tsv) into cases.tsv.
set -u
PB=$(readlink -f "${1:-${PB:-/tmp/campaign/bin/ptxbench}}")
ROOT=$(readlink -f "${2:-${ROOT:-/tmp/campaign/root}}")
W=${3:-/tmp/campaign/work}
OUT=${4:-/tmp/campaign/out}
RUNSRC=${RUNSRC:-/work/shared/runs/2026-11-30-h200-main.db}
ONLY=${ONLY:-.}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$W" "$OUT/logs"
W=$(readlink -f "$W")
export PB ROOT W
export PTXBENCH_ROOT=$ROOT
export PTXBENCH_CACHE=$W/cache
export PTXBENCH_CUOBJDUMP=${CUOBJDUMP:-/work/main/.deps/bin/cuobjdump}
export PTXBENCH_NVDISASM=${NVDISASM:-/work/main/.deps/bin/nvdisasm}
export FX=$W/fx K=$ROOT/kernels T=gemm_n7168_k5120 TA=mha_with_lse_d128
export NB="setpriv --reuid=65534 --regid=65534 --clear-groups"   # run as nobody (we are root)
unset PTXBENCH_NO_GPU PTXBENCH_ASSUME_GPU PTXBENCH_BIN_DIR SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT JOB_COMPLETION_INDEX

# ---------------------------------------------------------------- fixtures
setup() {
  rm -rf "$W/fx" "$W/o" "$W/roots"; mkdir -p "$W/fx" "$W/o" "$W/roots" "$W/cache"
  cp "$RUNSRC" "$W/run.db"; chmod 644 "$W/run.db"
  sha256sum "$RUNSRC" | cut -d' ' -f1 > "$W/run.sha"
  cd "$FX" || exit 1
  cp "$K/controls/gemm/naive_correct.cu" good.cu
  cp "$K/controls/gemm/compile_error.cu" cerr.cu
  cp "$K/reference/sm_90a/gemm_n7168_k5120.cu" ref.cu
  : > empty.cu
  printf ' \n\t \n   \n' > blank.cu
  head -c 200000 /dev/urandom > garbage.cu
  { head -c 2000 good.cu; printf '\0\0\0'; tail -c +2001 good.cu; } > nul.cu
  { cat good.cu; printf '// caf\xe9 \xff\xfe invalid utf8\n'; } > badutf8.cu
  printf 'import torch\n\ndef ptxbench_launch(a, b, c):\n    c.copy_(a @ b.T)\n' > python.cu
  printf '\xef\xbb\xbf' > bom.cu; cat good.cu >> bom.cu
  sed 's/$/\r/' good.cu > crlf.cu
  printf 'x' > onebyte.cu
  # 2 MiB of short lines (each line short: not the known long-line case)
  { cat good.cu; for i in $(seq 1 40000); do echo "// filler line $i ......................................"; done; } > big2m.cu
  { cat good.cu; for i in $(seq 1 3000); do echo "__device__ int f$i(int x){return x+$i;}"; done; } > manyfuncs.cu
  { echo 'int g(){'; for i in $(seq 1 20000); do echo '{'; done; for i in $(seq 1 20000); do echo '}'; done; echo 'return 0;}'; cat good.cu; } > nestbraces.cu
  { for i in $(seq 1 5000); do echo '#if 1'; done; cat good.cu; for i in $(seq 1 5000); do echo '#endif'; done; } > nestif.cu
  { echo '#define A0 x x'; for i in $(seq 1 22); do echo "#define A$i A$((i-1)) A$((i-1))"; done; echo 'int A22;'; cat good.cu; } > macrobomb.cu
  { echo '#include "/etc/passwd"'; cat good.cu; } > incabs.cu
  { echo '#include <../../../../etc/shadow>'; cat good.cu; } > incdotdot.cu
  { echo '#define H </etc/passwd>'; echo '#include H'; cat good.cu; } > inccomputed.cu
  { for i in $(seq 1 5000); do echo '#include <cuda_runtime.h>'; done; cat good.cu; } > manyinc.cu
  { echo '#include "good.cu"'; } > incself.cu
  { echo 'asm(".incbin \"/etc/passwd\"");'; cat good.cu; } > incbin.cu
  { echo '#error stop here'; cat good.cu; } > hasherror.cu
  { cat good.cu; echo 'int main(){ system("rm -rf /"); return 0; }'; } > withmain.cu
  printf '// TVM_FFI_DLL_EXPORT_TYPED_FUNC mentioned only in a comment\n' > tvmcomment.cu; cat good.cu >> tvmcomment.cu
  printf '.version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k(){ ret; }\n' > kernel.ptx
  cp good.cu good.ptx.txt
  printf 'Sure! I will not give you code.\n' > reply_nocode.md
  { printf 'Here it is:\n```cuda\n'; cat good.cu; printf '```\n'; } > reply_good.md
  { printf 'Two:\n```cuda\nint a;\n```\nand\n```cuda\n'; cat good.cu; printf '```\n'; } > reply_two.md
  { printf 'Unclosed:\n```cuda\n'; cat good.cu; } > reply_unclosed.md
  { printf '```python\nprint(1)\n```\n'; } > reply_python.md
  { printf '<think>'; for i in $(seq 1 2000); do echo "thinking $i"; done; printf '</think>\n```cuda\n'; cat good.cu; printf '```\n'; } > reply_think.md
  printf '```cuda\n```\n' > reply_emptyblock.md
  { printf '~~~cuda\n'; cat good.cu; printf '~~~\n'; } > reply_tilde.md
  # run-file lookalikes
  echo 'this is not a database' > text.db
  : > zero.db
  head -c 65536 /dev/urandom > random.db
  sqlite3 othersqlite.db 'create table foo(x); insert into foo values(1);'
  sqlite3 fakeschema.db 'create table runs(id integer); create table turns(x); create table meta(key,value); insert into meta values("schema_version","1");'
  sqlite3 futureschema.db 'create table meta(key text, value text);'; sqlite3 futureschema.db "insert into meta values('schema_version','999'),('created_by','ptxbench')"
  gzip -c "$W/run.db" > run.db.gz
  printf 'SQLite format 3\0' > header_only.db; head -c 4000 /dev/urandom >> header_only.db
  cp "$W/run.db" emptyruns.db; sqlite3 emptyruns.db 'delete from messages; delete from turns; delete from trajectories; delete from runs;'
  cp "$W/run.db" noturns.db; sqlite3 noturns.db 'delete from turns;'
  cp "$W/run.db" newerschema.db; sqlite3 newerschema.db "update meta set value='7' where key='schema_version'"
  cp "$W/run.db" nullcfg.db; sqlite3 nullcfg.db "update runs set config_json='{}'"
  cp "$W/run.db" cfgarray.db; sqlite3 cfgarray.db "update runs set config_json='[1,2,3]'"
  cp "$W/run.db" droptraj.db; sqlite3 droptraj.db 'drop table trajectories;'
  cp "$W/run.db" xss.db; sqlite3 xss.db "update runs set config_json=json_set(config_json,'\$.model','</script><script>alert(1)</script><b>x')"
  cp "$W/run.db" deepcfg.db; python3 - "$FX/deepcfg.db" <<'EOF'
import sqlite3,sys
c=sqlite3.connect(sys.argv[1]); c.execute("update runs set provenance_json=?",("["*100000+"]"*100000,)); c.commit()
EOF
  cp "$W/run.db" wal.db; sqlite3 wal.db 'pragma journal_mode=wal;' >/dev/null
  # custom roots
  mkroot() { local r=$W/roots/$1; mkdir -p "$r"; cp -r "$ROOT/tasks" "$ROOT/context" "$ROOT/kernels" "$ROOT/trajectories" "$r/"; }
  mkroot badtoml;  echo 'name = "gemm_n7168_k5120' >> "$W/roots/badtoml/tasks/gemm/gemm_n4096_k4096.toml"
  mkroot bintoml;  head -c 5000 /dev/urandom > "$W/roots/bintoml/tasks/gemm/zz_garbage.toml"
  mkroot nultoml;  printf 'name = "x\0y"\nfamily = "gemm"\n' > "$W/roots/nultoml/tasks/gemm/zz_nul.toml"
  mkroot deeptoml; python3 -c "print('name = \"deep\"\nx = ' + '['*50000 + ']'*50000)" > "$W/roots/deeptoml/tasks/gemm/zz_deep.toml"
  mkroot duptask;  cp "$W/roots/duptask/tasks/gemm/gemm_n4096_k4096.toml" "$W/roots/duptask/tasks/attention_fwd/copy.toml"
  mkroot emptytasks; rm -rf "$W/roots/emptytasks/tasks/"*
  mkroot notasks;  rm -rf "$W/roots/notasks/tasks"
  mkroot loop;     ln -s .. "$W/roots/loop/tasks/gemm/loop"
  mkroot badlevels; echo '[levels.full' > "$W/roots/badlevels/context/levels.toml"
  mkroot nofrag;   rm -f "$W/roots/nofrag/context/common/role.md"
  mkroot negaxes;  sed -i 's/^M = \[8192\]/M = [-5]/; s/M = { min = 1, max = 16384 }/M = { min = 100, max = 1 }/' "$W/roots/negaxes/tasks/gemm/gemm_n7168_k5120.toml"
  mkroot badtraj;  echo 'kernel = "/etc/passwd"' >> "$W/roots/badtraj/trajectories/v1/gemm_n7168_k5120.sm_90a.toml"
  mkroot trajmissing; sed -i 's#kernel = "\([^"]*\)"#kernel = "nonexistent/\1"#' "$W/roots/trajmissing/trajectories/v1/gemm_n7168_k5120.sm_90a.toml"
  chmod -R a+rX "$W"; chmod 777 "$W/o"
  mkdir -p "$W/nbcache"; chmod 777 "$W/nbcache"
  cd "$W"
}

snap() { # checksums of every regular file below $1 (the cache excluded)
  ( cd "$1" 2>/dev/null && find . -path ./cache -prune -o -type f -print0 2>/dev/null | sort -z | xargs -0 -r sha256sum 2>/dev/null )
}

RAW=$OUT/raw.tsv
clean() { tr '\n\t\r' '   ' | tr -d '\000' | cut -c1-"${1:-200}"; }

# c ID "EXPECTED_EXITS(comma list)" 'COMMAND' ['PRE-STEP']
#   COMMAND runs with bash -c in a fresh case folder $W/o/ID (cwd); PRE-STEP runs before the
#   snapshot (to make inputs). Crash (auto): signal exits (except the interrupt codes a case
#   expects), 124/137 = hang, or crash text. Data (auto): a file of the case folder, fx/ or
#   the run file copy that changed or vanished.
c() {
  local id=$1 exp=$2 cmd=$3 pre=${4:-}
  [[ $id =~ $ONLY ]] || return 0
  local d=$W/o/$id; rm -rf "$d"; mkdir -p "$d"; chmod 777 "$d"; cd "$d" || return
  if [ -n "$pre" ]; then bash -c "$pre" >/dev/null 2>&1; fi
  local before_case before_fx; before_case=$(snap "$d"); before_fx=$(snap "$FX")
  local t0=$SECONDS
  ( ulimit -v 12000000; exec timeout -k 5 120 bash -c "$cmd" ) >"$OUT/logs/$id.out" 2>"$OUT/logs/$id.err" </dev/null
  local rc=$? dt=$((SECONDS - t0))
  cd "$d" 2>/dev/null || cd "$W"
  local after_case after_fx; after_case=$(snap "$d"); after_fx=$(snap "$FX")
  local data=n dnote=""
  # a pre-existing file changed or vanished
  local lost; lost=$(comm -23 <(echo "$before_case" | grep -v '^$' | sort) <(echo "$after_case" | grep -v '^$' | sort) | awk 'NF{print $2}' | tr '\n' ' ')
  [ -n "$lost" ] && { data=y; dnote="changed/removed: $lost"; }
  [ "$before_fx" != "$after_fx" ] && { data=y; dnote="$dnote fixtures changed"; }
  # a command that replaced a device node (report --force onto /dev/null or /dev/full): restore it
  for dv in null:3 full:7; do n=/dev/${dv%%:*}; [ -c "$n" ] || { data=y; dnote="$dnote $n REPLACED by a regular file"; rm -f "$n"; mknod -m 666 "$n" c 1 "${dv##*:}"; }; done
  [ "$(sha256sum "$W/run.db" | cut -d' ' -f1)" != "$(cat "$W/run.sha")" ] && { data=y; dnote="$dnote MASTER run.db changed"; cp "$RUNSRC" "$W/run.db"; }
  local newf; newf=$(comm -13 <(echo "$before_case" | awk 'NF{print $2}' | sort) <(echo "$after_case" | awk 'NF{print $2}' | sort) | tr '\n' ' ')
  local crash=n
  case $rc in 124|137) crash=y;; 132|134|135|136|139) crash=y;; esac
  if grep -aqE 'Segmentation fault|terminate called|Assertion .* failed|AddressSanitizer|core dumped|what\(\):|stack smashing|double free|free\(\): invalid|Aborted' "$OUT/logs/$id.err" "$OUT/logs/$id.out" 2>/dev/null; then crash=y; fi
  local msg; msg=$( (cat "$OUT/logs/$id.err"; echo; cat "$OUT/logs/$id.out") | sed '/^\s*$/d' | clean 200)
  local expok=n; IFS=, read -ra ex <<<"$exp"; for e in "${ex[@]}"; do [ "$e" = "$rc" ] && expok=y; done
  # leftover processes of this case (nvcc, workers) still running
  local orphans; orphans=$(pgrep -af "$W/cache|ptxbench-worker|$d" 2>/dev/null | grep -v pgrep | head -3 | clean 100)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$(printf '%s' "$cmd" | clean 400)" "$rc" "$exp" "$expok" "$crash" "$data" "$(echo "$dnote" | clean 150)" "$(echo "$newf" | clean 150)" "$msg" "${dt}s ${orphans:+ORPHANS:$orphans}" >>"$RAW"
  printf '%-8s rc=%-3s exp=%-8s ok=%s crash=%s data=%s %3ss | %s\n' "$id" "$rc" "$exp" "$expok" "$crash" "$data" "$dt" "$(echo "$msg" | cut -c1-110)"
  cd "$W"
}

# fake endpoint
SRVPORT=18931
srv_start() { python3 "$HERE/fakesrv.py" $SRVPORT "$FX/good.cu" >/dev/null 2>&1 & SRVPID=$!; sleep 1; }
srv_stop() { [ -n "${SRVPID:-}" ] && kill "$SRVPID" 2>/dev/null; wait "$SRVPID" 2>/dev/null; SRVPID=; }
export U=http://127.0.0.1:$SRVPORT
# run against the fake endpoint: one task, one turn
export RM="--tasks $T --turns 1 --retry-max-s 3 --attempts 2 --no-progress"

if [ "${SKIP_SETUP:-0}" != 1 ]; then setup; fi
[ "$ONLY" = . ] && : > "$RAW"
cd "$W"
# cases, sourced by campaign.sh. c ID EXPECTED 'COMMAND' ['PRE']
# ---------------------------------------------------------------- G: global CLI
c G01 2 '"$PB"'
c G02 2 '"$PB" frobnicate'
c G03 2 '"$PB" --verison'
c G04 2 '"$PB" TASKS'
c G05 2 '"$PB" help'
c G06 2 '"$PB" version extra-arg'
c G07 2 '"$PB" version --json'
c G08 2 '"$PB" -- tasks'
c G09 2 '"$PB" "$(printf "\xff\xfe")"'
c G10 2 '"$PB" tasks "$(head -c 120000 /dev/zero | tr "\0" a)"'
c G11 0,141 '"$PB" --help | head -1; exit ${PIPESTATUS[0]}'
c G12 1 '"$PB" version >&-'
c G13 1 '"$PB" version > /dev/full'
c G14 2 '"$PB" tasks --suite=core --suite=extended'
c G15 2 '"$PB" -x'

# ---------------------------------------------------------------- TK: tasks
c TK01 2 '"$PB" tasks --suite bogus'
c TK02 2 '"$PB" tasks --suite " "'
c TK03 2 '"$PB" tasks --family GEMM'
c TK04 2 '"$PB" tasks --arch sm_80'
c TK05 2 '"$PB" tasks --arch sm_90a,sm_100a'
c TK06 2 '"$PB" tasks gemm'
c TK07 2 '"$PB" tasks --format json'
c TK08 0,141 '"$PB" tasks --json | head -1; exit ${PIPESTATUS[0]}'
c TK09 1 '"$PB" tasks --json >&-'
c TK10 1 '"$PB" tasks --json > /dev/full'
c TK11 2 'PTXBENCH_ROOT=/nonexistent "$PB" tasks'
c TK12 2 'PTXBENCH_ROOT=$FX/good.cu "$PB" tasks'
c TK13 2 'PTXBENCH_ROOT= "$PB" tasks'
c TK14 2 'PTXBENCH_ROOT=$W/roots/badtoml "$PB" tasks'
c TK15 2 'PTXBENCH_ROOT=$W/roots/bintoml "$PB" tasks'
c TK16 2 'PTXBENCH_ROOT=$W/roots/nultoml "$PB" tasks'
c TK17 2 'PTXBENCH_ROOT=$W/roots/deeptoml "$PB" tasks'
c TK18 2 'PTXBENCH_ROOT=$W/roots/duptask "$PB" tasks'
c TK19 2 'PTXBENCH_ROOT=$W/roots/emptytasks "$PB" tasks'
c TK20 2 'PTXBENCH_ROOT=$W/roots/notasks "$PB" tasks'
c TK21 0,2 'PTXBENCH_ROOT=$W/roots/loop "$PB" tasks'
c TK22 2 'PTXBENCH_ROOT=$W/roots/negaxes "$PB" tasks --json'
c TK23 2 'PTXBENCH_ROOT=$W/roots/negaxes "$PB" prompt $T'
c TK24 0 'env -u HOME "$PB" tasks --suite core'
c TK25 2 'PTXBENCH_ROOT="$ROOT/tasks" "$PB" tasks'
c TK26 2 '"$PB" tasks --family ""'
c TK27 0 '"$PB" tasks --suite core --family attention_bwd --arch sm_100a'

# ---------------------------------------------------------------- P: prompt
c P01 2 '"$PB" prompt'
c P02 2 '"$PB" prompt no_such_task'
c P03 2 '"$PB" prompt $T --context bogus'
c P04 2 '"$PB" prompt $T --context ""'
c P05 2 '"$PB" prompt $T --speedup-target nan'
c P06 2 '"$PB" prompt $T --speedup-target -1'
c P07 2 '"$PB" prompt $T --speedup-target inf'
c P08 2 '"$PB" prompt $T --speedup-target 1e400'
c P09 2 '"$PB" prompt $T --speedup-target fast'
c P10 2 '"$PB" prompt $T --arch sm_100'
c P11 2 '"$PB" prompt $T --contract TVM-FFI'
c P12 0,2 '"$PB" prompt $T --levels'
c P13 0,141 '"$PB" prompt $T --json | head -1; exit ${PIPESTATUS[0]}'
c P14 1 '"$PB" prompt $T > /dev/full'
c P15 2 'PTXBENCH_ROOT=$W/roots/badlevels "$PB" prompt $T'
c P16 2 'PTXBENCH_ROOT=$W/roots/nofrag "$PB" prompt $T'
c P17 2 '"$PB" prompt $T $TA'
c P18 2 '"$PB" prompt "../../etc/passwd"'
c P19 2 '"$PB" prompt "$T "'
c P20 2 '"$PB" prompt $T --context full,none'
c P21 2 '"$PB" prompt mha_with_lse_d256 --arch sm_100a'
c P22 1 '"$PB" prompt $T >&-'

# ---------------------------------------------------------------- C: compile (inputs)
c C01 2 '"$PB" compile nonexistent.cu --task $T'
c C02 2 '"$PB" compile "$FX" --task $T'
c C03 11,12 '"$PB" compile "$FX/empty.cu" --task $T'
c C04 11,12 '"$PB" compile "$FX/blank.cu" --task $T'
c C05 2,11,12 '"$PB" compile /dev/null --task $T'
c C06 2,12 '"$PB" compile /dev/zero --task $T --timeout 20'
c C07 2,12,14 'mkfifo p.cu; "$PB" compile p.cu --task $T --timeout 10'
c C08 2 'cp "$FX/good.cu" k.cu; chmod 000 k.cu; $NB env PTXBENCH_CACHE=$W/nbcache "$PB" compile k.cu --task $T'
c C09 11,12 '"$PB" compile "$FX/garbage.cu" --task $T'
c C10 11,12 '"$PB" compile "$FX/nul.cu" --task $T'
c C11 0,11,12 '"$PB" compile "$FX/badutf8.cu" --task $T'
c C12 11,12 '"$PB" compile "$FX/python.cu" --task $T'
c C13 0,11,12 '"$PB" compile "$FX/bom.cu" --task $T'
c C14 0,11 '"$PB" compile "$FX/crlf.cu" --task $T'
c C15 11,12 '"$PB" compile "$FX/onebyte.cu" --task $T'
c C16 12 '"$PB" compile "$FX/big2m.cu" --task $T'
c C17 0 '"$PB" compile "$FX/big2m.cu" --task $T --max-source-bytes 4000000'
c C18 0,11 '"$PB" compile "$FX/manyfuncs.cu" --task $T'
c C19 0,11,12 '"$PB" compile "$FX/nestbraces.cu" --task $T'
c C20 0,11,12 '"$PB" compile "$FX/nestif.cu" --task $T'
c C21 11,14 '"$PB" compile "$FX/macrobomb.cu" --task $T --timeout 15'
c C22 12 '"$PB" compile "$FX/incabs.cu" --task $T'
c C23 12 '"$PB" compile "$FX/incdotdot.cu" --task $T'
c C24 12 '"$PB" compile "$FX/inccomputed.cu" --task $T'
c C25 0,11,12 '"$PB" compile "$FX/manyinc.cu" --task $T'
c C26 12 'cp "$FX/incself.cu" "$FX/good.cu" . ; "$PB" compile incself.cu --task $T'
c C27 12 '"$PB" compile "$FX/incbin.cu" --task $T'
c C28 11 '"$PB" compile "$FX/hasherror.cu" --task $T'
c C29 11,12 '"$PB" compile "$FX/withmain.cu" --task $T'
c C30 0,11 '"$PB" compile "$FX/tvmcomment.cu" --task $T'
c C31 11,12 '"$PB" compile "$FX/kernel.ptx" --task $T'
c C32 0 '"$PB" compile "$FX/good.ptx.txt" --task $T'
c C33 2,12 'ln -s /etc/shadow s.cu; "$PB" compile s.cu --task $T'
c C34 2 'ln -s loop.cu loop.cu; "$PB" compile loop.cu --task $T'
c C35 2 'ln -s /nonexistent dangling.cu; "$PB" compile dangling.cu --task $T'
c C36 11 '"$PB" compile "$FX/good.cu" --task $TA'
c C37 0 '"$PB" compile "$FX/good.cu" --task $T --arch sm_100a'
c C38 0 '"$PB" compile "$FX/good.cu" --task $T --json >&-; echo "exit=$?" >&2; exit 0'
# ---------------------------------------------------------------- C: compile (names)
c CN01 0 'cp "$FX/good.cu" "my kernel.cu"; "$PB" compile "my kernel.cu" --task $T'
c CN02 0 'cp "$FX/good.cu" "k\"q'"'"'uote.cu"; "$PB" compile "k\"q'"'"'uote.cu" --task $T'
c CN03 0 'f="\$(touch PWNED).cu"; cp "$FX/good.cu" "$f"; "$PB" compile "$f" --task $T; r=$?; [ -e PWNED ] && echo PWNED-CREATED >&2; exit $r'
c CN04 0 'f=$(printf "new\nline.cu"); cp "$FX/good.cu" "$f"; "$PB" compile "$f" --task $T'
c CN05 2 'cp "$FX/good.cu" ./-k.cu; "$PB" compile -k.cu --task $T'
c CN06 0 'cp "$FX/good.cu" ./-k.cu; "$PB" compile -- -k.cu --task $T'
c CN07 0 'f=$(printf "%0250d.cu" 0); cp "$FX/good.cu" "$f"; "$PB" compile "$f" --task $T'
c CN08 2 'p=$(for i in $(seq 1 40); do printf "%0100d/" $i; done); "$PB" compile "$p/k.cu" --task $T'
c CN09 0 'cp "$FX/good.cu" "ядро_核.cu"; "$PB" compile "ядро_核.cu" --task $T'
c CN10 0 'cp "$FX/good.cu" "k;rm -rf x.cu"; "$PB" compile "k;rm -rf x.cu" --task $T'
c CN11 0 'mkdir -p "d ir/\$HOME"; cp "$FX/good.cu" "d ir/\$HOME/k.cu"; "$PB" compile "d ir/\$HOME/k.cu" --task $T --json'
c CN12 0,2 'cp "$FX/good.cu" k.txt; "$PB" compile k.txt --task $T'
c CN13 0 'cp "$FX/good.cu" "k<script>.cu"; "$PB" compile "k<script>.cu" --task $T --json'
# ---------------------------------------------------------------- CO: compile options
c CO01 2 '"$PB" compile "$FX/good.cu"'
c CO02 2 '"$PB" compile "$FX/good.cu" --task bogus'
c CO03 2 '"$PB" compile "$FX/good.cu" --task " "'
c CO04 2 '"$PB" compile "$FX/good.cu" --task $T --task $TA'
c CO05 2 '"$PB" compile "$FX/good.cu" --task $T --arch sm_90'
c CO06 2 '"$PB" compile "$FX/good.cu" --task $T --arch ""'
c CO07 2 '"$PB" compile "$FX/good.cu" --task $T --max-source-bytes 0'
c CO08 2 '"$PB" compile "$FX/good.cu" --task $T --max-source-bytes -1'
c CO09 2 '"$PB" compile "$FX/good.cu" --task $T --max-source-bytes 1.5'
c CO10 2 '"$PB" compile "$FX/good.cu" --task $T --max-source-bytes 99999999999999999999'
c CO11 2 '"$PB" compile "$FX/good.cu" --task $T --max-source-bytes 1MB'
c CO12 12 '"$PB" compile "$FX/good.cu" --task $T --max-source-bytes 10'
c CO13 2 '"$PB" compile "$FX/good.cu" --task $T --timeout 0'
c CO14 2 '"$PB" compile "$FX/good.cu" --task $T --timeout -5'
c CO15 2 '"$PB" compile "$FX/good.cu" --task $T --timeout 1e9'
c CO16 2 '"$PB" compile "$FX/good.cu" --task $T --timeout abc'
c CO17 2 '"$PB" compile "$FX/good.cu" --task $T --contract bogus'
c CO18 11 '"$PB" compile "$FX/good.cu" --task $T --contract tvm-ffi'
c CO19 2 '"$PB" compile "$FX/good.cu" "$FX/ref.cu" --task $T'
c CO20 2 '"$PB" compile "$FX/good.cu" --task $T --no-cache --no-cache=false'
c CO21 2 '"$PB" compile "$FX/good.cu" --task $T --jsn'
c CO22 2 '"$PB" compile "$FX/good.cu" --task=$T --arch=sm_90a --timeout='
c CO23 0,141 '"$PB" compile "$FX/good.cu" --task $T --json | head -1; exit ${PIPESTATUS[0]}'
c CO24 1 '"$PB" compile "$FX/good.cu" --task $T --json > /dev/full'
# ---------------------------------------------------------------- CE: compile environment
c CE01 2 'PTXBENCH_NVCC=/nonexistent/nvcc "$PB" compile "$FX/good.cu" --task $T --no-cache'
c CE02 1 'PTXBENCH_NVCC=/bin/false "$PB" compile "$FX/good.cu" --task $T --no-cache'
c CE03 1 'printf "#!/bin/sh\necho garbage; exit 0\n" > nvcc; chmod +x nvcc; PTXBENCH_NVCC=$PWD/nvcc "$PB" compile "$FX/good.cu" --task $T --no-cache'
c CE04 2 'PTXBENCH_NVCC=/tmp "$PB" compile "$FX/good.cu" --task $T --no-cache'
c CE05 2 'PTXBENCH_NVCC= "$PB" compile "$FX/good.cu" --task $T --no-cache'
c CE06 1,2 'PTXBENCH_NVCC=/etc/passwd "$PB" compile "$FX/good.cu" --task $T --no-cache'
c CE07 1,14 'printf "#!/bin/sh\nsleep 1000\n" > nvcc; chmod +x nvcc; PTXBENCH_NVCC=$PWD/nvcc "$PB" compile "$FX/good.cu" --task $T --no-cache --timeout 5'
c CE08 2 'PTXBENCH_CUOBJDUMP=/nonexistent "$PB" compile "$FX/ref.cu" --task $T --no-cache'
c CE09 1 'PTXBENCH_CUOBJDUMP=/bin/false PTXBENCH_NVDISASM=/bin/false "$PB" compile "$FX/good.cu" --task $T --no-cache'
c CE10 1,2 'PTXBENCH_CACHE=/dev/null "$PB" compile "$FX/good.cu" --task $T'
c CE11 1,2 'PTXBENCH_CACHE="$FX/good.cu" "$PB" compile "$FX/good.cu" --task $T'
c CE12 1,2 'mkdir ro; chmod 555 ro; $NB env PTXBENCH_CACHE=$PWD/ro "$PB" compile "$FX/good.cu" --task $T'
c CE13 0,2 'PTXBENCH_CACHE= "$PB" compile "$FX/good.cu" --task $T'
c CE14 1,2 'TMPDIR=/nonexistent "$PB" compile "$FX/good.cu" --task $T --no-cache'
c CE15 1,2 'mkdir rot; chmod 555 rot; $NB env TMPDIR=$PWD/rot PTXBENCH_CACHE=$W/nbcache "$PB" compile "$FX/good.cu" --task $T --no-cache'
c CE16 0,1,2 'env -u HOME -u PTXBENCH_CACHE -u XDG_CACHE_HOME "$PB" compile "$FX/good.cu" --task $T'
c CE17 0,1,2 'env PATH=/nonexistent PTXBENCH_CACHE=$PWD/c "$PB" compile "$FX/good.cu" --task $T --no-cache'
c CE18 0,1,2 'env -i PTXBENCH_ROOT=$ROOT PTXBENCH_CACHE=$PWD/c "$PB" compile "$FX/good.cu" --task $T'
c CE22 0 'env PATH=/nonexistent PTXBENCH_CACHE=$PWD/c "$PB" compile "$FX/good.cu" --task $T >/dev/null 2>&1; PTXBENCH_CACHE=$PWD/c "$PB" compile "$FX/good.cu" --task $T'
c CE23 0 'mkdir bin; printf "#!/bin/sh\nexit 1\n" > bin/gcc; chmod +x bin/gcc; PATH=$PWD/bin:$PATH PTXBENCH_CACHE=$PWD/c "$PB" compile "$FX/good.cu" --task $T >/dev/null 2>&1; PTXBENCH_CACHE=$PWD/c "$PB" compile "$FX/good.cu" --task $T'
c CE19 0 'LANG=tr_TR.UTF-8 LC_ALL=de_DE.UTF-8 "$PB" compile "$FX/good.cu" --task $T --json'
c CE20 2 'PTXBENCH_ROOT=$W/roots/badtoml "$PB" compile "$FX/good.cu" --task $T'
c CE21 1,2 'mkdir -p c2; touch c2/compile; PTXBENCH_CACHE=$PWD/c2 "$PB" compile "$FX/good.cu" --task $T'

# ---------------------------------------------------------------- E: eval
c E01 15 '"$PB" eval "$FX/reply_nocode.md" --task $T --reply'
c E02 15 '"$PB" eval "$FX/empty.cu" --task $T --reply'
c E03 0,11,15 '"$PB" eval "$FX/reply_two.md" --task $T --reply'
c E04 0,15 '"$PB" eval "$FX/reply_unclosed.md" --task $T --reply'
c E05 11,15 '"$PB" eval "$FX/reply_python.md" --task $T --reply'
c E06 0 '"$PB" eval "$FX/reply_think.md" --task $T --reply'
c E07 11,15 '"$PB" eval "$FX/reply_emptyblock.md" --task $T --reply'
c E08 0,15 '"$PB" eval "$FX/reply_tilde.md" --task $T --reply'
c E09 11,12,15 '"$PB" eval "$FX/garbage.cu" --task $T --reply'
c E10 2 '"$PB" eval "$FX/good.cu" --task $T --seed -1'
c E11 2 '"$PB" eval "$FX/good.cu" --task $T --seed abc'
c E12 2 '"$PB" eval "$FX/good.cu" --task $T --seed 18446744073709551616'
c E13 0,2 '"$PB" eval "$FX/good.cu" --task $T --input-seed 5'
c E14 2 '"$PB" eval "$FX/good.cu" --task $T --trials 2'
c E15 2 '"$PB" eval "$FX/good.cu" --task $T --trials 101'
c E16 2 '"$PB" eval "$FX/good.cu" --task $T --trials 3.5'
c E17 2 '"$PB" eval "$FX/good.cu" --task $T --timeout 5'
c E18 2 '"$PB" eval "$FX/good.cu" --task $T --sample-budget 0'
c E19 2 '"$PB" eval "$FX/good.cu" --task $T --sample-budget nan'
c E20 2 '"$PB" eval "$FX/good.cu" --task $T --call-timeout inf'
c E21 2 '"$PB" eval "$FX/good.cu" --task $T --library-plan slowest'
c E22 2 '"$PB" eval "$FX/good.cu" --task $T --sustained-load-ms -1'
c E23 2 '"$PB" eval "$FX/good.cu" --task $T --timeline'
c E24 0 '"$PB" eval "$FX/good.cu" --task $T --memcheck'
c E25 0,2 '"$PB" eval "$FX/good.cu" --task $T --no-timing --no-audit --json'
c E26 1,2 'PTXBENCH_ASSUME_GPU=1 "$PB" eval "$FX/good.cu" --task $T'
c E27 0,2 'PTXBENCH_NO_GPU=banana "$PB" eval "$FX/good.cu" --task $T'
c E28 0 'CUDA_VISIBLE_DEVICES=garbage,-1 "$PB" eval "$FX/good.cu" --task $T'
c E29 2 'PTXBENCH_BIN_DIR=/nonexistent PTXBENCH_ASSUME_GPU=1 "$PB" eval "$FX/good.cu" --task $T'
c E30 1,2 'PTXBENCH_BIN_DIR=/tmp PTXBENCH_ASSUME_GPU=1 "$PB" eval "$FX/good.cu" --task $T'
c E31 2 'PTXBENCH_DLPACK_INCLUDE=/nonexistent "$PB" eval "$FX/good.cu" --task $T'
c E32 2 'PTXBENCH_TVM_FFI_ROOT=/nonexistent "$PB" eval "$FX/good.cu" --task $T --contract tvm-ffi'
c E33 2 '"$PB" eval nonexistent.md --task $T --reply'
c E34 11 '"$PB" eval "$FX/cerr.cu" --task $T --json'
c E35 2 '"$PB" eval "$FX/good.cu" --task $T --reply --reply'
c E36 0,15 '"$PB" eval "$FX/reply_good.md" --task $T'
c E37 1 '"$PB" eval "$FX/good.cu" --task $T --json > /dev/full'
c E38 2 '"$PB" eval "$FX/good.cu" --task $T --allow-weaker-sandbox=maybe'

# ---------------------------------------------------------------- A: audit
c A01 2 '"$PB" audit "$FX/good.cu" --task $T --route bogus'
c A02 0,2 '"$PB" audit "$FX/good.cu" --task $T --route ncu'
c A03 2 'PTXBENCH_NCU=/nonexistent "$PB" audit "$FX/good.cu" --task $T --route ncu'
c A04 2 '"$PB" audit "$FX/good.cu" --task $T --workload bogus'
c A05 2 '"$PB" audit "$FX/good.cu" --task $T --workload ""'
c A06 2 '"$PB" audit "$FX/good.cu" --task $T --seed -1'
c A07 15 '"$PB" audit "$FX/reply_nocode.md" --task $T --reply'
c A08 0 '"$PB" audit "$FX/good.cu" --task $T --json'
c A09 2 '"$PB" audit "$FX/good.cu" --task $T --workload timed --workload timed'
c A10 2 '"$PB" audit "$FX" --task $T'
c A11 12 '"$PB" audit "$FX/incabs.cu" --task $T'
c A12 2 'PTXBENCH_COMPUTE_SANITIZER=/nonexistent "$PB" eval "$FX/good.cu" --task $T --memcheck'

# ---------------------------------------------------------------- R: run (options; nothing may be created on bad input)
c R01 2 '"$PB" run --tasks bogus --out r.db; ls r.db 2>/dev/null && echo CREATED >&2; exit 2'
c R02 2 '"$PB" run --tasks "" --out r.db'
c R03 2 '"$PB" run --tasks ",,," --out r.db'
c R04 0,2 '"$PB" run --tasks $T,$T --out r.db --no-progress'
c R05 2 '"$PB" run --tasks $T,bogus --out r.db'
c R06 2 '"$PB" run --arch sm_80 --out r.db'
c R07 0,2 '"$PB" run --tasks $T --arch sm_90a,sm_90a --out r.db --no-progress'
c R08 2 '"$PB" run --turns 0 --out r.db'
c R09 2 '"$PB" run --turns -1 --out r.db'
c R10 2 '"$PB" run --turns 1000000000 --out r.db'
c R11 2 '"$PB" run --turns eight --out r.db'
c R12 2 '"$PB" run --samples 0 --out r.db'
c R13 2 '"$PB" run --samples 1001 --out r.db'
c R14 2 '"$PB" run --concurrency 0 --out r.db'
c R15 2 '"$PB" run --concurrency 257 --out r.db'
c R16 2 '"$PB" run --cpu-jobs 0 --out r.db'
c R17 2 '"$PB" run --gpus 0 --out r.db'
c R18 2 '"$PB" run --gpus 65 --out r.db'
c R19 2 '"$PB" run --shard 3/2 --out r.db'
c R20 2 '"$PB" run --shard 1/0 --out r.db'
c R21 2 '"$PB" run --shard -1/2 --out r.db'
c R22 2 '"$PB" run --shard a/b --out r.db'
c R23 2 '"$PB" run --shard 0/1/2 --out r.db'
c R24 2 '"$PB" run --shard 1 --out r.db'
c R25 2 'JOB_COMPLETION_INDEX=0 "$PB" run --shard-count 0 --out r.db'
c R26 2 'JOB_COMPLETION_INDEX=banana "$PB" run --shard-count 2 --out r.db'
c R27 2 'JOB_COMPLETION_INDEX=5 "$PB" run --shard-count 2 --out r.db'
c R28 2 'SLURM_ARRAY_TASK_ID=abc SLURM_ARRAY_TASK_COUNT=2 "$PB" run --out r.db'
c R29 2 'SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_COUNT=2 "$PB" run --out r.db'
c R30 2 'SLURM_ARRAY_TASK_ID=1 "$PB" run --out r.db'
c R31 2 '"$PB" run --fast-p abc --out r.db'
c R32 2 '"$PB" run --fast-p=-1,0.5 --out r.db'
c R33 2 '"$PB" run --fast-p "0.5,,1" --out r.db'
c R34 2 '"$PB" run --scripted-version bogus --out r.db'
c R35 2 '"$PB" run --scripted-version ../../../etc --out r.db'
c R36 2 '"$PB" run --context bogus --out r.db'
c R37 2 '"$PB" run --speedup-target nan --out r.db'
c R38 2 '"$PB" run --speedup-target -2 --out r.db'
c R39 2 '"$PB" run --contract cuda --out r.db'
c R40 2 '"$PB" run --model m --out r.db'
c R41 2 '"$PB" run --base-url $U/nocode/v1 --out r.db'
c R42 2 '"$PB" run --model m --base-url ftp://127.0.0.1/v1 --out r.db'
c R43 2 '"$PB" run --model m --base-url "not a url" --out r.db'
c R44 2 '"$PB" run --model m --base-url "http://127.0.0.1:8000/v1 --stream" --out r.db'
c R45 2 '"$PB" run --model m --base-url $U/nocode/v1 --api-key-env NO_SUCH_VAR_XYZ --out r.db'
c R46 2 '"$PB" run --model m --base-url $U/nocode/v1 --api-key-env "" --out r.db'
c R47 2 '"$PB" run --model m --base-url $U/nocode/v1 --api-key-env "MY-KEY=x" --out r.db'
c R48 2 '"$PB" run --model m --base-url $U/nocode/v1 --temperature nan --out r.db'
c R49 2 '"$PB" run --model m --base-url $U/nocode/v1 --temperature -1 --out r.db'
c R50 2 '"$PB" run --model m --base-url $U/nocode/v1 --top-p 2 --out r.db'
c R51 2 '"$PB" run --model m --base-url $U/nocode/v1 --max-tokens 0 --out r.db'
c R52 2 '"$PB" run --model m --base-url $U/nocode/v1 --max-tokens -1 --out r.db'
c R53 2 '"$PB" run --model m --base-url $U/nocode/v1 --request-timeout 0 --out r.db'
c R54 2 '"$PB" run --model m --base-url $U/nocode/v1 --request-timeout nan --out r.db'
c R55 2 '"$PB" run --model m --base-url $U/nocode/v1 --stall-timeout -1 --out r.db'
c R56 2 '"$PB" run --model m --base-url $U/nocode/v1 --attempts 0 --out r.db'
c R57 2 '"$PB" run --model m --base-url $U/nocode/v1 --retry-max-s -1 --out r.db'
c R58 2 '"$PB" run --model " " --base-url $U/nocode/v1 --out r.db'
c R59 2 '"$PB" run --tasks $T --turns 1 --tasks $TA --out r.db'
c R60 2 '"$PB" run --no-such-option --out r.db'
c R61 2 '"$PB" run extra positional --out r.db'
c R62 2 'PTXBENCH_ROOT=$W/roots/badtraj "$PB" run --tasks $T --out r.db --no-progress'
c R63 2 'PTXBENCH_ROOT=$W/roots/trajmissing "$PB" run --tasks $T --out r.db --no-progress'
# ---------------------------------------------------------------- RO: run outputs / resume
c RO01 2 '"$PB" run --tasks $T --out existing.db' 'echo "my notes" > existing.db'
c RO02 2 '"$PB" run --tasks $T --out r.db' 'cp $W/run.db r.db'
c RO03 2 '"$PB" run --tasks $T --out outdir' 'mkdir outdir'
c RO04 1,2 '"$PB" run --tasks $T --out /dev/null'
c RO05 1,2 '"$PB" run --tasks $T --out /dev/full'
c RO06 0 '"$PB" run --tasks $T --out a/b/c/r.db --no-progress; ls -la a/b/c >&2'
c RO07 2 '"$PB" run --tasks $T --out afile/r.db' 'echo x > afile'
c RO08 1,2 'mkdir ro; chmod 555 ro; $NB env PTXBENCH_CACHE=$W/nbcache "$PB" run --tasks $T --out ro/r.db --no-progress'
c RO09 0 'mkdir -p runs; echo keep > runs/notes.txt; "$PB" run --tasks $T --no-progress; ls runs >&2'
c RO10 2 '"$PB" run --tasks $T --out "$FX/good.cu"'
c RO11 2 '"$PB" run --resume nonexistent.db'
c RO12 2 '"$PB" run --resume t.txt' 'echo "not a run" > t.txt'
c RO13 2 '"$PB" run --resume z.db' ': > z.db'
c RO14 2 '"$PB" run --resume d' 'mkdir d'
c RO15 2 '"$PB" run --resume r.db --tasks $TA' 'cp $W/run.db r.db'
c RO16 0,2 '"$PB" run --resume r.db' 'cp $W/run.db r.db'
c RO17 2 '"$PB" run --resume o.db' 'cp $FX/othersqlite.db o.db'
c RO18 2 '"$PB" run --resume r.db --out other.db' 'cp $W/run.db r.db'
c RO19 2 '"$PB" run --resume f.db' 'cp $FX/futureschema.db f.db'
c RO20 2 '"$PB" run --resume g.db' 'cp $FX/random.db g.db'
c RO21 2 '"$PB" run --resume w.db' 'cp $FX/wal.db w.db'
c RO22 1,2 'cp $W/run.db r.db; chmod 444 r.db; $NB env PTXBENCH_CACHE=$W/nbcache "$PB" run --resume r.db' 
c RO23 2 '"$PB" run --resume e.db' 'cp $FX/emptyruns.db e.db'
c RO24 2 '"$PB" run --resume r.db.gz' 'cp $FX/run.db.gz .'
c RO25 2 '"$PB" run --tasks $T --out r.db --resume r2.db' 'cp $W/run.db r2.db'
c RO26 0,141 '"$PB" run --tasks $T --out r.db --json | head -1; exit ${PIPESTATUS[0]}'
c RO27 1 '"$PB" run --tasks $T --out r.db --no-progress > /dev/full'
c RO28 0 'f="\$(touch PWNED)"; "$PB" run --tasks $T --out "$f/r b.db" --no-progress; r=$?; [ -e PWNED ] && echo PWNED >&2; exit $r'
c RO29 2 '"$PB" run --tasks $T --out -r.db'
c RO30 0,1 'mkdir t; chmod 555 t; $NB env TMPDIR=$PWD/t PTXBENCH_CACHE=$W/nbcache "$PB" run --tasks $T --out /tmp/campaign/work/o/RO30/r.db --no-progress'
c RO31 2 '"$PB" run --resume r.db' 'cp $W/run.db r.db; cp $FX/random.db r.db-wal'

# ---------------------------------------------------------------- EP: run against a fake endpoint
srv_start
c EP01 1 '"$PB" run --model m --base-url $U/garbage/v1 $RM --out r.db'
c EP02 1 '"$PB" run --model m --base-url $U/e500/v1 $RM --out r.db'
c EP03 1 '"$PB" run --model m --base-url $U/e401/v1 $RM --out r.db'
c EP04 1,2 '"$PB" run --model m --base-url $U/e404/v1 $RM --out r.db'
c EP05 1 '"$PB" run --model m --base-url $U/e429/v1 $RM --out r.db'
c EP06 1 '"$PB" run --model m --base-url $U/empty/v1 $RM --out r.db'
c EP07 1 '"$PB" run --model m --base-url $U/html/v1 $RM --out r.db'
c EP08 15 '"$PB" run --model m --base-url $U/nocode/v1 $RM --out r.db'
c EP09 1,15 '"$PB" run --model m --base-url $U/nullcontent/v1 $RM --out r.db'
c EP10 1 '"$PB" run --model m --base-url $U/nochoices/v1 $RM --out r.db'
c EP11 1 '"$PB" run --model m --base-url $U/wrongtypes/v1 $RM --out r.db'
c EP12 1,15 '"$PB" run --model m --base-url $U/negusage/v1 $RM --out r.db'
c EP13 1 '"$PB" run --model m --base-url $U/deepjson/v1 $RM --out r.db'
c EP14 1,15 '"$PB" run --model m --base-url $U/badutf8/v1 $RM --out r.db'
c EP15 11,12,15 '"$PB" run --model m --base-url $U/nulcontent/v1 $RM --out r.db'
c EP16 11 '"$PB" run --model m --base-url $U/badcode/v1 $RM --out r.db'
c EP17 0 '"$PB" run --model m --base-url $U/goodcode/v1 $RM --out r.db'
c EP18 1,15 '"$PB" run --model m --base-url $U/huge/v1 $RM --out r.db --request-timeout 30'
c EP19 1 '"$PB" run --model m --base-url $U/redirect/v1 $RM --out r.db'
c EP20 1 '"$PB" run --model m --base-url $U/redirloop/v1 $RM --out r.db'
c EP21 1 '"$PB" run --model m --base-url $U/errjson200/v1 $RM --out r.db'
c EP22 1 '"$PB" run --model m --base-url $U/hang/v1 $RM --out r.db --request-timeout 3'
c EP23 1 '"$PB" run --model m --base-url $U/headers_then_slow/v1 $RM --out r.db --request-timeout 4'
c EP24 1 '"$PB" run --model m --base-url $U/endless/v1 $RM --stream --out r.db --request-timeout 4'
c EP25 1 '"$PB" run --model m --base-url $U/sse_garbage/v1 $RM --stream --out r.db'
c EP26 1 '"$PB" run --model m --base-url $U/sse_nodone/v1 $RM --stream --out r.db'
c EP27 1,15 '"$PB" run --model m --base-url $U/plainforstream/v1 $RM --stream --out r.db'
c EP28 1 '"$PB" run --model m --base-url http://127.0.0.1:1/v1 $RM --out r.db'
c EP29 1 '"$PB" run --model m --base-url http://10.255.255.1/v1 $RM --out r.db'
c EP30 1 '"$PB" run --model m --base-url https://127.0.0.1:18931/v1 $RM --out r.db'
c EP31 1 '"$PB" run --model m --base-url $U/garbage/v1/ $RM --out r.db'
c EP32 1 'MYKEY=$(printf "a\r\nX-Evil: 1") "$PB" run --model m --base-url $U/nocode/v1 --api-key-env MYKEY $RM --out r.db'
c EP33 0,1,15 '"$PB" run --model "$(head -c 5000 /dev/zero | tr "\0" m)" --base-url $U/nocode/v1 $RM --out r.db'
c EP34 1,15 '"$PB" run --model m --base-url $U/nocode/v1 $RM --max-tokens 2147483648 --out r.db'
c EP35 1 '"$PB" sft mine r.db --model m --base-url $U/garbage/v1 --out mine.db --retry-max-s 2' 'cp $W/run.db r.db'
c EP36 1 '"$PB" sft mine r.db --model m --base-url $U/hang/v1 --out mine.db --request-timeout 2 --retry-max-s 3 --limit 1' 'cp $W/run.db r.db'
c EP37 1,15 '"$PB" sft mine r.db --model m --base-url $U/nocode/v1 --out mine.db --limit 1' 'cp $W/run.db r.db'
c EP38 1 '"$PB" sft mine r.db --model m --base-url $U/endless/v1 --stream --out mine.db --limit 1 --request-timeout 4' 'cp $W/run.db r.db'
c EP39 2 '"$PB" sft mine r.db --model m --base-url $U/nocode/v1 --out r.db --limit 1' 'cp $W/run.db r.db'
c EP40 2 '"$PB" sft mine r.db --model m --base-url $U/nocode/v1 --out notes.txt --limit 1' 'cp $W/run.db r.db; echo keep > notes.txt'
c EP41 130 '( "$PB" run --model m --base-url $U/hang/v1 --tasks $T --turns 2 --request-timeout 100 --out r.db --no-progress & p=$!; sleep 2; kill -INT $p; wait $p; r=$?; sqlite3 r.db "pragma integrity_check" >&2; exit $r )'
c EP42 143 '( "$PB" sft mine r.db --model m --base-url $U/hang/v1 --out mine.db --request-timeout 100 --limit 2 & p=$!; sleep 2; kill -TERM $p; wait $p; r=$?; sqlite3 mine.db "pragma integrity_check" >&2; exit $r )' 'cp $W/run.db r.db'
srv_stop
c EP43 1 '"$PB" run --model m --base-url $U/nocode/v1 $RM --out r.db'

# ---------------------------------------------------------------- S: show
c S01 2 '"$PB" show nonexistent.db'
c S02 2 '"$PB" show'
c S03 2 '"$PB" show t.txt' 'echo hello > t.txt'
c S04 2 '"$PB" show z.db' ': > z.db'
c S05 2 '"$PB" show d' 'mkdir d'
c S06 2 '"$PB" show /dev/null'
c S07 2 '"$PB" show p.db' 'mkfifo p.db'
c S08 2 '"$PB" show o.db' 'cp $FX/othersqlite.db o.db'
c S09 2 '"$PB" show f.db' 'cp $FX/fakeschema.db f.db'
c S10 2 '"$PB" show f.db' 'cp $FX/futureschema.db f.db'
c S11 2 '"$PB" show g.db' 'cp $FX/random.db g.db'
c S12 2 '"$PB" show h.db' 'cp $FX/header_only.db h.db'
c S13 2 '"$PB" show r.db.gz' 'cp $FX/run.db.gz .'
c S14 0,2 '"$PB" show e.db' 'cp $FX/emptyruns.db e.db'
c S15 0,2 '"$PB" show n.db' 'cp $FX/noturns.db n.db'
c S16 2 '"$PB" show n.db' 'cp $FX/newerschema.db n.db'
c S17 0,2 '"$PB" show c.db' 'cp $FX/nullcfg.db c.db'
c S18 0,2 '"$PB" show c.db' 'cp $FX/cfgarray.db c.db'
c S19 2 '"$PB" show d.db' 'cp $FX/droptraj.db d.db'
c S20 0,2 '"$PB" show d.db --json' 'cp $FX/deepcfg.db d.db'
c S21 0 '"$PB" show w.db' 'cp $FX/wal.db w.db'
c S22 2 '"$PB" show r.db' 'cp $W/run.db r.db; cp $FX/random.db r.db-wal'
c S23 2 '"$PB" show r.db' 'cp $W/run.db r.db; echo garbage > r.db-journal'
c S24 2 '"$PB" show r.db --price-in -1' 'cp $W/run.db r.db'
c S25 2 '"$PB" show r.db --price-in nan' 'cp $W/run.db r.db'
c S26 2 '"$PB" show r.db --price-out 1e10' 'cp $W/run.db r.db'
c S27 2 '"$PB" show r.db --price-in '"'"'$3'"'"'' 'cp $W/run.db r.db'
c S28 0 '"$PB" show r.db --compare r.db' 'cp $W/run.db r.db'
c S29 2 '"$PB" show r.db --compare nonexistent.db' 'cp $W/run.db r.db'
c S30 2 '"$PB" show r.db r.db r.db' 'cp $W/run.db r.db'
c S31 2 '"$PB" show r.db r2.db --compare r2.db' 'cp $W/run.db r.db; cp $W/run.db r2.db'
c S32 0,141 '"$PB" show r.db --turns | head -1; exit ${PIPESTATUS[0]}' 'cp $W/run.db r.db'
c S33 1 '"$PB" show r.db --json >&-' 'cp $W/run.db r.db'
c S34 1 '"$PB" show r.db > /dev/full' 'cp $W/run.db r.db'
c S35 0,2 'cp $W/run.db r.db; chmod 000 r.db; $NB "$PB" show r.db'
c S36 0 'cp $W/run.db r.db; chmod 444 r.db; mkdir ro; mv r.db ro/; chmod 555 ro; $NB "$PB" show ro/r.db'
c S37 0 'mkdir "sp ace"; cp $W/run.db "sp ace/\$(id).db"; "$PB" show "sp ace/\$(id).db"'
c S38 0 '"$PB" show x.db --json' 'cp $FX/xss.db x.db'
c S39 2 '"$PB" show r.db --compare t.txt' 'cp $W/run.db r.db; echo hi > t.txt'
c S40 0 '"$PB" show -- -r.db' 'cp $W/run.db ./-r.db'
c S41 2 '"$PB" show $FX/good.cu'
c S42 0 '"$PB" show r.db --price-in 0 --price-out 0' 'cp $W/run.db r.db'
c S43 2 '"$PB" show r.db --turns=yes' 'cp $W/run.db r.db'
c S44 0 'ln -s $PWD/r.db link.db; "$PB" show link.db' 'cp $W/run.db r.db'

# ---------------------------------------------------------------- RP: report
c RP01 2 '"$PB" report r.db' 'cp $W/run.db r.db'
c RP02 2 '"$PB" report --html o.html'
c RP03 2 '"$PB" report r.db --html outdir' 'cp $W/run.db r.db; mkdir outdir'
c RP04 0,1 '"$PB" report r.db --html /dev/null' 'cp $W/run.db r.db'
c RP05 1 '"$PB" report r.db --csv /dev/full' 'cp $W/run.db r.db'
c RP06 0 '"$PB" report r.db --html a/b/c/o.html; ls a/b/c >&2' 'cp $W/run.db r.db'
c RP07 2 '"$PB" report r.db --html afile/o.html' 'cp $W/run.db r.db; echo x > afile'
c RP08 1,2 'cp $W/run.db r.db; mkdir ro; chmod 555 ro; $NB "$PB" report r.db --html ro/o.html'
c RP09 2 '"$PB" report r.db --html o.html' 'cp $W/run.db r.db; echo "old report" > o.html'
c RP10 2 '"$PB" report r.db --csv r.db' 'cp $W/run.db r.db'
c RP11 2 '"$PB" report r.db --csv r.db --force' 'cp $W/run.db r.db'
c RP12 2 '"$PB" report r.db --junit r.db --force' 'cp $W/run.db r.db'
c RP13 2 '"$PB" report r.db --html keep/ --force' 'cp $W/run.db r.db; mkdir keep; echo x > keep/f'
c RP14 0,2 '"$PB" report r.db r.db --csv o.csv' 'cp $W/run.db r.db'
c RP15 2 '"$PB" report r.db t.txt --csv o.csv' 'cp $W/run.db r.db; echo hi > t.txt'
c RP16 2 '"$PB" report z.db --html o.html' ': > z.db'
c RP17 0,2 '"$PB" report e.db --html o.html' 'cp $FX/emptyruns.db e.db'
c RP18 0 '"$PB" report x.db --html o.html; r=$?; grep -c "<script>alert" o.html >&2; exit $r' 'cp $FX/xss.db x.db'
c RP19 0 'cp $W/run.db "<img src=x onerror=alert(1)>.db"; "$PB" report "<img src=x onerror=alert(1)>.db" --html o.html; r=$?; grep -c "<img src=x" o.html >&2; exit $r'
c RP34 1 '"$PB" report r.db --csv /dev/full --force' 'cp $W/run.db r.db'
c RP35 0 '"$PB" report r.db --html /dev/null --force; r=$?; ls -la /dev/null >&2; exit $r' 'cp $W/run.db r.db'
c RP20 2 '"$PB" report r.db --html ""' 'cp $W/run.db r.db'
c RP21 2 '"$PB" report r.db --csv " "' 'cp $W/run.db r.db'
c RP22 0 '"$PB" report r.db --csv - ' 'cp $W/run.db r.db'
c RP23 1 '"$PB" report r.db --junit /dev/full' 'cp $W/run.db r.db'
c RP24 0,2 '"$PB" report d.db --html o.html' 'cp $FX/deepcfg.db d.db'
c RP25 0,2 '"$PB" report c.db --junit o.xml --csv o.csv' 'cp $FX/nullcfg.db c.db'
c RP26 0 '"$PB" report r.db --html o.html --force' 'cp $W/run.db r.db; echo old > o.html'
c RP27 2 '"$PB" report r.db --html o.html --html p.html' 'cp $W/run.db r.db'
c RP28 2 '"$PB" report r.db --json o.json' 'cp $W/run.db r.db'
c RP29 0 'ln -s o.html link.html; "$PB" report r.db --html link.html --force; ls -la >&2' 'cp $W/run.db r.db'
c RP30 2 '"$PB" report r.db --csv o.csv --junit ./o.csv' 'cp $W/run.db r.db'
c RP31 0 '"$PB" report w.db --csv o.csv' 'cp $FX/wal.db w.db'
c RP32 2 '"$PB" report r.db --html ../RP32/r.db --force' 'cp $W/run.db r.db'
c RP33 0 '"$PB" report r.db n.db --html o.html' 'cp $W/run.db r.db; cp $FX/noturns.db n.db'

# ---------------------------------------------------------------- GT: gate
c GT01 2 '"$PB" gate --task $T'
c GT02 2 '"$PB" gate "$FX/good.cu" nonexistent.cu --task $T --junit j.xml; ls j.xml 2>/dev/null >&2'
c GT03 2 '"$PB" gate "$FX/good.cu" --task $T --min-speedup -1'
c GT04 2 '"$PB" gate "$FX/good.cu" --task $T --min-speedup nan'
c GT05 2 '"$PB" gate "$FX/good.cu" --task $T --min-speedup 1001'
c GT06 2 '"$PB" gate "$FX/good.cu" --task $T --min-speedup 1x'
c GT07 17 '"$PB" gate "$FX/good.cu" --task $T'
c GT08 2 '"$PB" gate "$FX/good.cu" --task $T --junit outdir' 'mkdir outdir'
c GT09 2 '"$PB" gate "$FX/good.cu" --task $T --junit o.out --json o.out'
c GT10 2 'cp $FX/good.cu k.cu; "$PB" gate k.cu --task $T --junit k.cu --force'
c GT11 2 '"$PB" gate "$FX/good.cu" --task $T --json j.jsonl' 'echo "{\"old\":1}" > j.jsonl'
c GT12 2 '"$PB" gate "$FX/good.cu" --task $T --timeline'
c GT13 2 '"$PB" gate "$FX" --task $T'
c GT14 17 '"$PB" gate "$FX/good.cu" "$FX/good.cu" --task $T --junit j.xml'
c GT15 11 '"$PB" gate "$FX/cerr.cu" "$FX/good.cu" --task $T --junit j.xml; grep -c testcase j.xml >&2'
c GT16 2 '"$PB" gate "$FX/good.cu" --task $T --shared-inputs --allow-weaker-sandbox'
c GT17 2 '"$PB" gate "$FX/good.cu" --task $T --contract nope'
c GT18 1,17 '"$PB" gate "$FX/good.cu" --task $T --json /dev/full'
c GT19 17 '"$PB" gate "$FX/good.cu" --task $T --junit a/b/j.xml; ls a/b >&2'
c GT20 1,2 'mkdir ro; chmod 555 ro; $NB env PTXBENCH_CACHE=$W/nbcache "$PB" gate "$FX/good.cu" --task $T --junit ro/j.xml'
c GT21 2 '"$PB" gate "$FX/good.cu" --task $T --junit ""'
c GT22 12,17 '"$PB" gate "$FX/good.cu" "$FX/incabs.cu" --task $T --json j.jsonl; wc -l j.jsonl >&2'
c GT23 2 '"$PB" gate "$FX/good.cu" --task bogus --junit j.xml; ls j.xml 2>/dev/null >&2'
c GT24 17 '"$PB" gate "$FX/good.cu" --task $T --require-arch --min-speedup 0'
c GT25 15,17 '"$PB" gate "$FX/reply_nocode.md" --task $T'
c GT26 2 '"$PB" gate "$FX/good.cu" --task $T --junit j.xml' 'echo "<old/>" > j.xml'
c GT27 2 '"$PB" gate -- --task $T'

# ---------------------------------------------------------------- RJ: rejudge
c RJ01 2 '"$PB" rejudge r.db' 'cp $W/run.db r.db'
c RJ02 2 '"$PB" rejudge r.db --out r.db' 'cp $W/run.db r.db'
c RJ03 2 '"$PB" rejudge r.db --out ./r.db' 'cp $W/run.db r.db'
c RJ04 2 '"$PB" rejudge r.db --out n.db' 'cp $W/run.db r.db; echo keep > n.db'
c RJ05 2 '"$PB" rejudge r.db --out outdir' 'cp $W/run.db r.db; mkdir outdir'
c RJ06 1,2 '"$PB" rejudge r.db --out /dev/null' 'cp $W/run.db r.db'
c RJ07 2 '"$PB" rejudge nonexistent.db --out n.db'
c RJ08 2 '"$PB" rejudge t.txt --out n.db' 'echo hi > t.txt'
c RJ09 0 '"$PB" rejudge r.db --out new/dir/n.db --json; ls -la new/dir >&2' 'cp $W/run.db r.db'
c RJ10 1,2 'cp $W/run.db r.db; mkdir ro; chmod 555 ro; $NB env PTXBENCH_CACHE=$W/nbcache "$PB" rejudge r.db --out ro/n.db'
c RJ11 2 '"$PB" rejudge r.db --out afile/n.db' 'cp $W/run.db r.db; echo x > afile'
c RJ12 2 '"$PB" rejudge e.db --out n.db' 'cp $FX/emptyruns.db e.db'
c RJ13 2 '"$PB" rejudge d.db --out n.db' 'cp $FX/droptraj.db d.db'
c RJ14 143 '( "$PB" rejudge r.db --out n.db & p=$!; sleep 1.5; kill -TERM $p; wait $p; r=$?; ls -la >&2; exit $r )' 'cp $W/run.db r.db'
c RJ15 130 '( "$PB" rejudge r.db --out n.db & p=$!; sleep 1; kill -INT $p; wait $p; r=$?; ls -A >&2; exit $r )' 'cp $W/run.db r.db'
c RJ16 0,1 '"$PB" rejudge r.db --out n.db > /dev/full' 'cp $W/run.db r.db'
c RJ17 2 '"$PB" rejudge r.db --out n.db --shared-inputs --allow-partial --allow-partial' 'cp $W/run.db r.db'
c RJ18 0,2 '"$PB" rejudge r.db --out n.db' 'cp $FX/wal.db r.db'
c RJ19 2 '"$PB" rejudge r.db r2.db --out n.db' 'cp $W/run.db r.db; cp $W/run.db r2.db'
c RJ20 2 '"$PB" rejudge r.db --out "$FX/../fx/good.cu"' 'cp $W/run.db r.db'

# ---------------------------------------------------------------- M: merge (shards made by the scripted agent, compile cache warm)
c M01 2 '"$PB" merge r.db --out m.db' 'cp $W/run.db r.db'
c M02 2 '"$PB" merge r.db r.db --out m.db' 'cp $W/run.db r.db'
c M03 2 '"$PB" merge r.db r2.db --out r.db' 'cp $W/run.db r.db; cp $W/run.db r2.db'
c M04 2 '"$PB" merge r.db t.txt --out m.db' 'cp $W/run.db r.db; echo hi > t.txt'
c M05 2 '"$PB" merge r.db --out m.db' 'cp $W/run.db r.db; echo keep > m.db'
c M06 2 '"$PB" merge r.db --out outdir' 'cp $W/run.db r.db; mkdir outdir'
c M07 2 '"$PB" merge --out m.db'
c M08 2 '"$PB" merge nonexistent.db --out m.db'
c M09 2 '"$PB" merge s0.db --out m.db' 'PTXBENCH_ROOT=$ROOT $PB run --tasks $T,$TA --shard 0/2 --out s0.db --no-progress'
c M10 0 '"$PB" merge s1.db s0.db --out sub/m.db; "$PB" show sub/m.db | head -3 >&2' 'PTXBENCH_ROOT=$ROOT $PB run --tasks $T,$TA --shard 0/2 --out s0.db --no-progress; PTXBENCH_ROOT=$ROOT $PB run --tasks $T,$TA --shard 1/2 --out s1.db --no-progress'
c M11 2 '"$PB" merge s0.db s0b.db --out m.db' 'PTXBENCH_ROOT=$ROOT $PB run --tasks $T,$TA --shard 0/2 --out s0.db --no-progress; cp s0.db s0b.db'
c M12 2 '"$PB" merge s0.db r.db --out m.db' 'PTXBENCH_ROOT=$ROOT $PB run --tasks $T,$TA --shard 0/2 --out s0.db --no-progress; cp $W/run.db r.db'
c M13 0 '"$PB" merge s0.db --out m.db --allow-partial' 'PTXBENCH_ROOT=$ROOT $PB run --tasks $T,$TA --shard 0/2 --out s0.db --no-progress'
c M14 2 '"$PB" merge s0.db z.db --out m.db' 'PTXBENCH_ROOT=$ROOT $PB run --tasks $T,$TA --shard 0/2 --out s0.db --no-progress; : > z.db'
c M15 130,143 '( "$PB" merge s0.db s1.db --out m.db & p=$!; kill -TERM $p; wait $p; r=$?; ls -A >&2; exit $r )' 'PTXBENCH_ROOT=$ROOT $PB run --tasks $T,$TA --shard 0/2 --out s0.db --no-progress; PTXBENCH_ROOT=$ROOT $PB run --tasks $T,$TA --shard 1/2 --out s1.db --no-progress'
c M16 1 '"$PB" merge r.db --out /dev/full --allow-partial' 'cp $W/run.db r.db'

# ---------------------------------------------------------------- SL: slurm
c SL01 2 '"$PB" slurm script --shards 0'
c SL02 2 '"$PB" slurm script --shards -1'
c SL03 2 '"$PB" slurm script --shards 1000000000'
c SL04 2 '"$PB" slurm script --shards abc'
c SL05 2 '"$PB" slurm script'
c SL06 2 '"$PB" slurm script --shards 2 --gpus-per-shard -1'
c SL07 2 '"$PB" slurm script --shards 2 --time "forever"'
c SL08 0 '"$PB" slurm script --shards 2 --partition "gpu\"; touch PWNED; echo \"" > s.sh; bash -n s.sh; grep -n PWNED s.sh >&2'
c SL09 0 '"$PB" slurm script --shards 2 --job-name "$(printf "a\nrm -rf ~")" > s.sh; grep -n "^rm" s.sh >&2; ! grep -q "^rm" s.sh'
c SL10 0 '"$PB" slurm script --shards 2 --sbatch-arg "--wrap=touch PWNED" > s.sh; cat s.sh | grep -n wrap >&2'
c SL11 2 '"$PB" slurm script --shards 2 -- --samples 0'
c SL12 2 '"$PB" slurm script --shards 2 -- --out x.db'
c SL13 2 '"$PB" slurm script --shards 2 -- --shard 0/2'
c SL14 2 '"$PB" slurm script --shards 2 -- --tasks bogus'
c SL15 0 '"$PB" slurm script --shards 2 --dir "my runs/with space" > s.sh; bash -n s.sh'
c SL16 2 '"$PB" slurm script --shards 2 --dir afile' 'echo x > afile'
c SL17 1,2 '"$PB" slurm submit --shards 2 --dir d'
c SL18 1 'mkdir bin; printf "#!/bin/sh\necho sbatch: error: invalid partition >&2; exit 1\n" > bin/sbatch; chmod +x bin/sbatch; PATH=$PWD/bin:$PATH "$PB" slurm submit --shards 2 --dir d'
c SL19 0 '"$PB" slurm script --shards 2 --account "\$(id)" > s.sh; grep -n "id)" s.sh >&2'
c SL20 0,141 '"$PB" slurm script --shards 2 | head -1; exit ${PIPESTATUS[0]}'
c SL21 1 '"$PB" slurm script --shards 2 > /dev/full'
c SL22 2 '"$PB" slurm script --shards 2 --cpus-per-shard 0'
c SL23 2 '"$PB" slurm script --shards 2 -- --model m --base-url "http://[::1/v1"'
c SL24 2 '"$PB" slurm script --shards 2 -- --resume x.db'
c SL25 0 'mkdir bin; printf "#!/bin/sh\necho Submitted batch job 42\n" > bin/sbatch; chmod +x bin/sbatch; PATH=$PWD/bin:$PATH "$PB" slurm submit --shards 2 --dir d; ls -R d >&2'
c SL26 2 'mkdir bin; printf "#!/bin/sh\necho Submitted batch job 42\n" > bin/sbatch; chmod +x bin/sbatch; mkdir d; echo keep > d/shard-0-of-2.db; PATH=$PWD/bin:$PATH "$PB" slurm submit --shards 2 --dir d'
c SL27 2 '"$PB" slurm script --shards 2 --gpus-per-shard 1e3'
c SL28 2 '"$PB" slurm bogus --shards 2'

# ---------------------------------------------------------------- SF: sft
c SF01 2 '"$PB" sft fixit r.db' 'cp $W/run.db r.db'
c SF02 2 '"$PB" sft fixit r.db --out r.db' 'cp $W/run.db r.db'
c SF03 2 '"$PB" sft fixit r.db --out notes.txt' 'cp $W/run.db r.db; echo keep > notes.txt'
c SF04 2 '"$PB" sft fixit r.db --out o --categories bogus' 'cp $W/run.db r.db'
c SF05 2 '"$PB" sft fixit r.db --out o --categories ""' 'cp $W/run.db r.db'
c SF06 2 '"$PB" sft fixit r.db --out o --per-task-cap -1' 'cp $W/run.db r.db'
c SF07 2 '"$PB" sft fixit r.db --out o --seed -1' 'cp $W/run.db r.db'
c SF08 2 '"$PB" sft fixit r.db --out o --min-speedup nan' 'cp $W/run.db r.db'
c SF09 2 '"$PB" sft fixit r.db --out o --max-tokens -1' 'cp $W/run.db r.db'
c SF10 2 '"$PB" sft fixit r.db --out o --bytes-per-token 0' 'cp $W/run.db r.db'
c SF11 2 '"$PB" sft fixit r.db --out o --bytes-per-token -3' 'cp $W/run.db r.db'
c SF12 2 '"$PB" sft fixit r.db --out o --bytes-per-token nan' 'cp $W/run.db r.db'
c SF13 2 '"$PB" sft fixit r.db --out o --pairing some' 'cp $W/run.db r.db'
c SF14 2 '"$PB" sft fixit r.db --out o --heldout-task bogus' 'cp $W/run.db r.db'
c SF15 2 '"$PB" sft fixit nonexistent.db --out o'
c SF16 2 '"$PB" sft fixit t.txt --out o' 'echo hi > t.txt'
c SF17 0,2 '"$PB" sft fixit e.db --out o' 'cp $FX/emptyruns.db e.db'
c SF18 0,2 '"$PB" sft fixit r.db r.db --out o' 'cp $W/run.db r.db'
c SF19 2 '"$PB" sft fixit r.db --out /dev/null' 'cp $W/run.db r.db'
c SF20 0 '"$PB" sft fixit r.db --out a/b/o; ls a/b/o >&2' 'cp $W/run.db r.db'
c SF21 1,2 'cp $W/run.db r.db; mkdir ro; chmod 555 ro; $NB "$PB" sft fixit r.db --out ro/o'
c SF22 2 '"$PB" sft fixit r.db --out o --allow-flag' 'cp $W/run.db r.db'
c SF23 0 '"$PB" sft fixit r.db --out o --heldout-task $T,$T --pairing all --no-reasoning --per-task-cap 0 --max-tokens 0' 'cp $W/run.db r.db'
c SF24 2 '"$PB" sft fixit r.db --out o --force' 'cp $W/run.db r.db; mkdir o; echo precious > o/thesis.tex'
c SF25 2 '"$PB" sft fixit r.db --out . --force' 'cp $W/run.db r.db; echo keep > mine.txt'
c SF26 130,143 '( "$PB" sft fixit r.db --out o & p=$!; kill -TERM $p; wait $p; r=$?; ls -A o 2>&1 >&2; exit $r )' 'cp $W/run.db r.db'
c SF27 2 '"$PB" sft kernelgen r.db --out r.db' 'cp $W/run.db r.db'
c SF28 2 '"$PB" sft kernelgen r.db --out o --per-task-cap -5' 'cp $W/run.db r.db'
c SF29 2 '"$PB" sft kernelgen r.db --out o --min-speedup -1' 'cp $W/run.db r.db'
c SF30 2 '"$PB" sft kernelgen r.db --out o --pairing all' 'cp $W/run.db r.db'
c SF31 0 '"$PB" sft kernelgen r.db --out o; ls o >&2' 'cp $W/run.db r.db'
c SF32 2 '"$PB" sft kernelgen g.db --out o' 'cp $FX/random.db g.db'
c SF33 2 '"$PB" sft kernelgen r.db --out o --bytes-per-token inf' 'cp $W/run.db r.db'
c SF34 2 '"$PB" sft kernelgen r.db --out o' 'cp $W/run.db r.db; mkdir o; echo keep > o/train.jsonl'
c SF35 0,141 '"$PB" sft coverage r.db | head -1; exit ${PIPESTATUS[0]}' 'cp $W/run.db r.db'
c SF36 1 '"$PB" sft coverage r.db --json > /dev/full' 'cp $W/run.db r.db'
c SF37 2 '"$PB" sft coverage r.db --out cov.txt' 'cp $W/run.db r.db; echo keep > cov.txt'
c SF38 2 '"$PB" sft coverage r.db --out r.db --force' 'cp $W/run.db r.db'
c SF39 2 '"$PB" sft coverage r.db --out d' 'cp $W/run.db r.db; mkdir d'
c SF40 2 '"$PB" sft coverage r.db --categories compile_error,,incorrect' 'cp $W/run.db r.db'
c SF41 2 '"$PB" sft coverage' 
c SF42 0 '"$PB" sft coverage r.db --categories no_code --json' 'cp $W/run.db r.db'
c SF43 2 '"$PB" sft mine r.db --dry-run --limit -1' 'cp $W/run.db r.db'
c SF44 0,141 '"$PB" sft mine r.db --dry-run --json | head -1; exit ${PIPESTATUS[0]}' 'cp $W/run.db r.db'
c SF45 2 '"$PB" sft mine r.db --out mine.db' 'cp $W/run.db r.db'
c SF46 2 '"$PB" sft mine r.db --model m --base-url http://127.0.0.1:1/v1 --out mine.db --turns 0' 'cp $W/run.db r.db'
c SF47 2 '"$PB" sft mine r.db --model m --base-url http://127.0.0.1:1/v1 --out mine.db --concurrency 0' 'cp $W/run.db r.db'
c SF48 2 '"$PB" sft mine r.db --model m --base-url http://127.0.0.1:1/v1 --out mine.db --cpu-jobs -1' 'cp $W/run.db r.db'
c SF49 2 '"$PB" sft mine r.db --json' 'cp $W/run.db r.db'
c SF50 2 '"$PB" sft mine r.db --model m --base-url http://127.0.0.1:1/v1 --out mine.db --speedup-target -1' 'cp $W/run.db r.db'
c SF51 2 '"$PB" sft mine t.txt --dry-run' 'echo hi > t.txt'
c SF52 2 '"$PB" sft mine r.db --model m --base-url http://127.0.0.1:1/v1 --out o.db' 'cp $W/run.db r.db; cp $FX/othersqlite.db o.db'
c SF53 2 '"$PB" sft bogus r.db' 'cp $W/run.db r.db'
c SF54 2 '"$PB" sft fixit r.db --out o --heldout-task ""' 'cp $W/run.db r.db'
c SF55 0 '"$PB" sft fixit w.db --out o' 'cp $FX/wal.db w.db'
c SF56 2 '"$PB" sft kernelgen r.db --out o --out p' 'cp $W/run.db r.db'

# ---------------------------------------------------------------- SG: signals during longer commands (fresh compile caches: real nvcc)
c SG01 130 '( PTXBENCH_CACHE=$PWD/c "$PB" run --tasks $T,$TA --out r.db --no-progress & p=$!; sleep 4; kill -INT $p; wait $p; r=$?; sqlite3 r.db "pragma integrity_check; select count(*) from turns;" >&2; exit $r )'
c SG02 0 'PTXBENCH_CACHE=$PWD/c "$PB" run --resume r.db --no-progress; r=$?; sqlite3 r.db "select status from runs; select count(*) from turns;" >&2; exit $r' '( PTXBENCH_CACHE=$PWD/c $PB run --tasks $T --out r.db --no-progress & p=$!; sleep 3; kill -INT $p; wait $p )'
c SG03 143 '( PTXBENCH_CACHE=$PWD/c "$PB" run --tasks $T,$TA --out r.db --no-progress & p=$!; sleep 3; kill -TERM $p; wait $p; r=$?; sqlite3 r.db "pragma integrity_check" >&2; sleep 1; pgrep -f "$PWD/c" >&2 && echo ORPHAN >&2; exit $r )'
c SG04 137 '( PTXBENCH_CACHE=$PWD/c "$PB" run --tasks $T --out r.db --no-progress & p=$!; sleep 3; kill -KILL $p; wait $p; r=$?; sleep 2; pgrep -af "$PWD/c" >&2; PTXBENCH_CACHE=$PWD/c "$PB" run --resume r.db --no-progress >&2; echo resume=$? >&2; exit $r )'
c SG05 130,143 '( PTXBENCH_CACHE=$PWD/c "$PB" compile "$FX/ref.cu" --task $T & p=$!; sleep 1.5; kill -INT $p; wait $p; r=$?; find c -type f | head >&2; PTXBENCH_CACHE=$PWD/c "$PB" compile "$FX/ref.cu" --task $T >&2; echo second=$? >&2; exit $r )'
c SG06 130 '( PTXBENCH_CACHE=$PWD/c "$PB" gate "$FX/ref.cu" "$FX/good.cu" --task $T --junit j.xml --json j.jsonl & p=$!; sleep 1.5; kill -INT $p; wait $p; r=$?; ls -A >&2; [ -f j.xml ] && { xmllint --noout j.xml 2>&1 || python3 -c "import xml.dom.minidom,sys;xml.dom.minidom.parse(\"j.xml\")"; } >&2; exit $r )'
c SG07 143 '( PTXBENCH_CACHE=$PWD/c "$PB" eval "$FX/ref.cu" --task $T --json > out.json & p=$!; sleep 1.5; kill -TERM $p; wait $p; r=$?; wc -c out.json >&2; exit $r )'
c SG08 0,130 '( "$PB" report r.db --html o.html --csv o.csv --junit o.xml & p=$!; sleep 0.05; kill -INT $p; wait $p; r=$?; ls -A >&2; exit $r )' 'cp $W/run.db r.db'
c SG09 130,143 '( PTXBENCH_CACHE=$PWD/c "$PB" run --tasks $T --out r.db --no-progress & p=$!; sleep 2; kill -INT $p; sleep 0.2; kill -INT $p; kill -TERM $p; wait $p; r=$?; sqlite3 r.db "pragma integrity_check" >&2; exit $r )'
c SG10 2 '( PTXBENCH_CACHE=$PWD/c "$PB" run --tasks $T --out r.db --no-progress & p=$!; sleep 2; PTXBENCH_CACHE=$PWD/c "$PB" run --resume r.db --no-progress; r=$?; kill -INT $p; wait $p; exit $r )'

srv_stop
echo "done: $(wc -l < "$RAW") cases in $RAW"
