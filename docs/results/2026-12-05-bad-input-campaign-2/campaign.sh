#!/usr/bin/env bash
# ptxbench bad-input campaign 3. usage: campaign.sh PTXBENCH_BINARY
#   env: ONLY=<regex of case ids>; W=<workdir, default /tmp/campaign3/work>; OUT=<default /tmp/campaign3/out>
# Writes $OUT/raw.tsv: id, command, exit, crash(auto), data(auto), message(first 200 chars), note(auto)
set -u
PB=$(readlink -f "${1:?usage: campaign.sh PTXBENCH_BINARY}")
W=${W:-/tmp/campaign3/work}; OUT=${OUT:-/tmp/campaign3/out}; ONLY=${ONLY:-.}
RUNSRC=${RUNSRC:-/work/shared/runs/2026-11-30-h200-main.db}
mkdir -p "$W" "$OUT/logs"; W=$(readlink -f "$W")
export PB W
export PTXBENCH_ROOT=/tmp/campaign/root2 PTXBENCH_CACHE=/tmp/campaign3/cache
export PTXBENCH_CUOBJDUMP=/work/main/.deps/bin/cuobjdump PTXBENCH_NVDISASM=/work/main/.deps/bin/nvdisasm
export K=$PTXBENCH_ROOT/kernels T=gemm_n7168_k5120 TA=mha_with_lse_d128 FX=$W/fx D=$W/db
export NB="setpriv --reuid=65534 --regid=65534 --clear-groups"
unset PTXBENCH_NO_GPU PTXBENCH_ASSUME_GPU PTXBENCH_BIN_DIR SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT JOB_COMPLETION_INDEX

setup() {
  rm -rf "$W/fx" "$W/db" "$W/o" "$W/roots"; mkdir -p "$W/fx" "$W/db" "$W/o" "$W/roots"
  chmod 755 "$W" "$W/fx" "$W/db" "$W/o"
  cp "$RUNSRC" "$W/run.db"; chmod 644 "$W/run.db"
  cd "$FX" || exit 1
  cp "$K/controls/gemm/naive_correct.cu" good.cu
  cp "$K/controls/gemm/compile_error.cu" cerr.cu
  ln -s good.cu s1.cu; ln -s s1.cu s2.cu                      # symlink to symlink
  ln -s nowhere.cu dangling.cu
  cp good.cu ./--json; cp good.cu ./-o.cu; cp good.cu "sp ace é.cu"; cp good.cu noext; cp good.cu k.cuh; cp good.cu k.txt
  { printf '\t\t// tabs\n#line 1 "/etc/passwd"\n#line 99999999 "x.cu"\n'; cat good.cu | sed 's/^    /\t/'; } > tabsline.cu
  { printf '// unicode identifiers\n__device__ int \xc3\xa9t\xc3\xa9 = 1; __device__ int \xce\xb1\xce\xb2 = 2;\n'; cat good.cu; } > unicode.cu
  printf '#include <vector>\n#include <string>\nint main(){ std::vector<std::string> v{"a"}; return (int)v.size(); }\n' > cxxonly.cu
  { echo '#define BIG(x) \'; for i in $(seq 1 400); do echo "  ((x) + $i) * \\"; done; echo '  1'; cat good.cu; } > hugemacro.cu
  { cat good.cu; printf 'const char *s = "__global__ void fake(){} asm(\\"wgmma\\")";\n'; } > strlit.cu
  printf '#pragma once\n' > pragmaonly.cu
  { printf '\xef\xbb\xbf'; sed 's/$/\r/' good.cu; } > bomcrlf.cu
  chmod 000 good.cu.unreadable 2>/dev/null; cp good.cu unreadable.cu; chmod 000 unreadable.cu
  mkdir -p sub/dir; cp good.cu sub/dir/k.cu
  printf 'Here you go:\r\n```cuda\r\n' > reply_crlf.md; sed 's/$/\r/' good.cu >> reply_crlf.md; printf '```\r\n' >> reply_crlf.md
  { echo 'Here:'; echo '~~~cuda'; cat good.cu; echo '~~~'; } > reply_tilde.md
  { echo 'First:'; echo '```cuda'; echo 'int x;'; echo '```'; echo 'Better:'; echo '```cuda'; cat good.cu; echo '```'; } > reply_two.md
  { echo '> ```cuda'; sed 's/^/> /' good.cu; echo '> ```'; } > reply_quoted.md
  printf '```\n```\n' > reply_emptyplain.md
  : > empty.md
  printf 'int x;\n' > tiny.cu
  sha256sum * 2>/dev/null | sort > "$W/fx.sha"
  # damaged run files
  cd "$D" || exit 1
  mk() { cp "$W/run.db" "$1.db"; sqlite3 "$1.db" "$2" 2>>"$W/setup.err"; }
  mk schema2 "update meta set value='2' where key='schema_version'"
  mk schema0 "update meta set value='0' where key='schema_version'"
  mk schemaabc "update meta set value='abc' where key='schema_version'"
  mk nometa "delete from meta"
  mk othercreator "update meta set value='somebody-else' where key='created_by'"
  mk tworuns "insert into runs(created_at,config_json,provenance_json,status) select created_at,config_json,provenance_json,status from runs"
  mk running "update runs set status='running', finished_at=NULL"
  mk confnull "update runs set config_json='null'"
  mk confempty "update runs set config_json=''"
  mk provarr "update runs set provenance_json='[]'"
  mk compilenull "update turns set compile_json=NULL, eval_json=NULL, audit_json=NULL"
  mk speedneg "update turns set speedup=-1"
  mk speedtext "update turns set speedup='fast'"
  mk speedhuge "update turns set speedup=1e308"
  mk notraj "delete from trajectories"
  mk noturns "delete from turns"
  mk orphanturns "update turns set trajectory_id=trajectory_id+1000"
  mk turngap "update turns set turn=turn+1000; update turns set turn=(turn-1000)*3"
  mk dupmodel "update trajectories set model='m', sample=id"
  mk ansimodel "update trajectories set model=char(27)||'[2J'||char(27)||'[31mEVIL'||char(10)||'line2'"
  mk htmlmodel "update trajectories set model='</script><script>alert(1)</script><b>x'"
  mk droptable "drop table messages"
  mk extratable "create table extra(x); alter table turns add column extra_col TEXT"
  mk wal "pragma journal_mode=wal; update meta set value=value where key='created_by'"
  mk badtask "update trajectories set task='no_such_task_xyz'"
  mk badarch "update trajectories set arch='sm_75'"
  mk futuredate "update runs set created_at='9999-99-99T99:99:99Z', finished_at='garbage'"
  mk flagsbad "update turns set flags_json='{not json', llm_json='[1,2'"
  mk hugecat "update turns set feedback=printf('%.200000c','x')"
  mk onetraj "delete from turns where trajectory_id <> (select min(id) from trajectories); delete from messages where trajectory_id <> (select min(id) from trajectories); delete from trajectories where id <> (select min(id) from trajectories); delete from turns where turn>1"
  cp "$W/run.db" gz.db; gzip -f gz.db; mv gz.db.gz gz.db
  head -c 4096 "$W/run.db" > trunc4k.db
  cp "$W/run.db" readonly.db; chmod 444 readonly.db
  sha256sum * | sort > "$W/db.sha"
  # roots
  cd "$W/roots"; ln -s /tmp/campaign/root2 rl1; ln -s rl1 rl2
  mkdir -p tasksfile; cp -r /tmp/campaign/root2/context tasksfile/ 2>/dev/null; : > tasksfile/tasks
  mkdir -p dupe; for d in context kernels trajectories; do ln -s /tmp/campaign/root2/$d dupe/$d; done; cp -r /tmp/campaign/root2/tasks dupe/; cp dupe/tasks/gemm/$T.toml dupe/tasks/gemm/copy_of.toml
  mkdir -p crlf; for d in context kernels trajectories; do ln -s /tmp/campaign/root2/$d crlf/$d; done; cp -r /tmp/campaign/root2/tasks crlf/; for f in crlf/tasks/*/*.toml; do sed -i 's/$/\r/' "$f"; done
  mkdir -p bom; for d in context kernels trajectories; do ln -s /tmp/campaign/root2/$d bom/$d; done; cp -r /tmp/campaign/root2/tasks bom/; for f in bom/tasks/*/*.toml; do { printf '\xef\xbb\xbf'; cat "$f"; } > x && mv x "$f"; done
  mkdir -p junk; for d in context kernels trajectories; do ln -s /tmp/campaign/root2/$d junk/$d; done; cp -r /tmp/campaign/root2/tasks junk/; : > junk/tasks/gemm/empty.toml; echo hi > junk/tasks/gemm/notes.txt; mkdir junk/tasks/gemm/subdir.toml
  mkdir -p ro; chmod 555 ro
  sha256sum "$RUNSRC" | cut -d' ' -f1 > "$W/src.sha"
}

devcheck() { local bad=""; test -c /dev/null || { bad="/dev/null broken;"; rm -f /dev/null; mknod -m 666 /dev/null c 1 3; }
  test -c /dev/full || { bad="$bad/dev/full broken;"; rm -f /dev/full; mknod -m 666 /dev/full c 1 7; }; echo "$bad"; }

c() {  # c ID COMMAND   (runs in a fresh $W/o/ID holding r.db, a copy of the valid run)
  local id=$1 cmd=$2
  [[ $id =~ $ONLY ]] || return 0
  local cd=$W/o/$id; rm -rf "$cd"; mkdir -p "$cd"; chmod 777 "$cd"; cp "$W/run.db" "$cd/r.db"; chmod 666 "$cd/r.db"
  local before; before=$(sha256sum "$cd/r.db" | cut -d' ' -f1)
  local t0=$SECONDS
  ( cd "$cd" && timeout -k 5 120 bash -c "$cmd" ) >"$OUT/logs/$id.out" 2>"$OUT/logs/$id.err" </dev/null
  local rc=$? dt=$((SECONDS-t0))
  local crash=n data=n note=""
  grep -aqE 'terminate called|Assertion|Segmentation fault|AddressSanitizer|runtime error:|core dumped|Aborted|std::|what\(\)' "$OUT/logs/$id.err" "$OUT/logs/$id.out" && { crash=y; note="$note crash-text;"; }
  case $rc in 124|137) crash=y; note="$note TIMEOUT;";; 134|136|139|135|132) crash=y; note="$note signal $((rc-128));";; esac
  local dv; dv=$(devcheck); [ -n "$dv" ] && { data=y; note="$note $dv"; }
  [ "$(sha256sum "$W/run.db" | cut -d' ' -f1)" = "$(sha256sum "$RUNSRC" | cut -d' ' -f1)" ] || { data=y; note="$note master run.db changed;"; cp "$RUNSRC" "$W/run.db"; chmod 644 "$W/run.db"; }
  [ "$(cd "$FX" && sha256sum * 2>/dev/null | sort)" = "$(cat "$W/fx.sha")" ] || { data=y; note="$note FIXTURE changed;"; }
  [ "$(cd "$D" && sha256sum * | sort)" = "$(cat "$W/db.sha")" ] || { data=y; note="$note DB FIXTURE changed;"; }
  [ -f "$cd/r.db" ] && [ "$(sha256sum "$cd/r.db" | cut -d' ' -f1)" != "$before" ] && note="$note r.db changed;"
  [ -f "$cd/r.db" ] || note="$note r.db gone;"
  note="$note files:$(cd "$cd" && ls -A | grep -v '^r.db$' | tr '\n' ',' | cut -c1-120); ${dt}s"
  local msg; msg=$( { cat "$OUT/logs/$id.err"; cat "$OUT/logs/$id.out"; } | tr '\n\t\r' '   ' | tr -d '\000-\010\033' | cut -c1-200)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$(printf '%s' "$cmd" | tr '\n\t' '  ')" "$rc" "$crash" "$data" "$msg" "$note" >> "$OUT/raw.tsv"
  printf '%s rc=%s %s %s\n' "$id" "$rc" "$crash$data" "${msg:0:100}" >&2
}
setup
[ "$ONLY" = . ] && : > "$OUT/raw.tsv"
# ================================================================ cases
# --- global / version
c V01 '"$PB" --version --help'
c V02 '"$PB" --version extra'
c V03 '"$PB" --version=1'
c V04 '"$PB" -V'
c V05 '"$PB" version --version'
c V06 'COLUMNS=1 "$PB" --help >/dev/null'
c V07 'TERM=dumb NO_COLOR=1 "$PB" version'
c V08 'LC_ALL=C LANG=C "$PB" version'
c V09 'LC_ALL=ja_JP.UTF-8 "$PB" version'
c V10 '"$PB" version 0<&-'
c V11 '"$PB" version 2>&-'
c V12 'env -i "$PB" version'
c V13 'PTXBENCH_NVCC=/bin/false "$PB" version'
c V14 'printf "#!/bin/sh\necho garbage version output\n" > nv; chmod +x nv; PTXBENCH_NVCC=$PWD/nv "$PB" version'
c V15 'PTXBENCH_CUOBJDUMP=/nonexistent/cuobjdump "$PB" version'
c V16 'PTXBENCH_ROOT= "$PB" version'
c V17 '"$PB" VERSION'
c V18 '"$PB" vers'
c V19 '"$PB" " tasks"'
c V20 '"$PB" tasks=1'
c V21 '"$PB" -h tasks'
c V22 '"$PB" sft'
c V23 '"$PB" slurm'
c V24 '"$PB" sft --json'
c V25 '"$PB" version | cat | cat; exit ${PIPESTATUS[0]}'
c V26 'PTXBENCH_NO_GPU=banana "$PB" version'
c V27 'PTXBENCH_NO_GPU=1 PTXBENCH_ASSUME_GPU=1 "$PB" version'
c V28 'PTXBENCH_BIN_DIR=/nonexistent "$PB" version'
c V29 '"$PB" version --help --help'
c V30 '"$PB" $(for i in $(seq 1 5000); do printf -- "--help "; done) >/dev/null'
# --- tasks
c T01 '"$PB" tasks --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c T02 '"$PB" tasks --suite extended --family attention_fwd --arch sm_100a'
c T03 '"$PB" tasks --family gemm --family attention_fwd'
c T04 '"$PB" tasks --arch SM_90A'
c T05 '"$PB" tasks --arch sm_90'
c T06 '"$PB" tasks --arch sm_80'
c T07 '"$PB" tasks --suite all'
c T08 '"$PB" tasks --suite core,extended'
c T09 '"$PB" tasks --family "gemm "'
c T10 '"$PB" tasks --json --json'
c T11 '"$PB" tasks extra'
c T12 'PTXBENCH_ROOT=$W/roots/rl2 "$PB" tasks | wc -l'
c T13 'PTXBENCH_ROOT=$W/roots/tasksfile "$PB" tasks'
c T14 'PTXBENCH_ROOT=$W/roots/dupe "$PB" tasks'
c T15 'PTXBENCH_ROOT=$W/roots/crlf "$PB" tasks | head -3; exit ${PIPESTATUS[0]}'
c T16 'PTXBENCH_ROOT=$W/roots/bom "$PB" tasks | head -3; exit ${PIPESTATUS[0]}'
c T17 'PTXBENCH_ROOT=$W/roots/junk "$PB" tasks'
c T18 'PTXBENCH_ROOT=/tmp/campaign/root2/tasks/../ "$PB" tasks | wc -l'
c T19 'PTXBENCH_ROOT=relative/nowhere "$PB" tasks'
c T20 'PTXBENCH_ROOT=$FX/good.cu "$PB" tasks'
c T21 'COLUMNS=1 TERM=dumb "$PB" tasks | head -2; exit ${PIPESTATUS[0]}'
c T22 'LC_ALL=C "$PB" tasks --json | python3 -c "import json,sys; print(len(json.load(sys.stdin)))"'
c T23 'LANG=tr_TR.UTF-8 LC_ALL=tr_TR.UTF-8 "$PB" tasks --family GEMM'
c T24 '"$PB" tasks --json | head -c 10; exit ${PIPESTATUS[0]}'
c T25 '"$PB" tasks --suite=core --json | python3 -c "import json,sys; d=json.load(sys.stdin); print(type(d).__name__, len(d))"'
c T26 'cd /; "$PB" tasks | wc -l'
c T27 '$NB "$PB" tasks | wc -l'
c T28 'env -u HOME -u XDG_CACHE_HOME "$PB" tasks --arch sm_100a | wc -l'
c T29 '"$PB" tasks --arch ""'
c T30 '"$PB" tasks --suite extended --suite core'
# --- prompt
c P01 '"$PB" prompt'
c P02 '"$PB" prompt $T $T'
c P03 '"$PB" prompt $T --levels --json'
c P04 '"$PB" prompt --levels'
c P05 '"$PB" prompt $T --context NONE'
c P06 '"$PB" prompt $TA --context reference --arch sm_100a --contract tvm-ffi | wc -c'
c P07 '"$PB" prompt $T --speedup-target 0 | grep -c "0"'
c P08 '"$PB" prompt $T --speedup-target -0 | head -2'
c P09 '"$PB" prompt $T --speedup-target 1e-320 | grep -i -m2 speed'
c P10 '"$PB" prompt $T --speedup-target 0x10 | grep -i -m2 speed'
c P11 '"$PB" prompt $T --speedup-target " 1.2"'
c P12 '"$PB" prompt $T --speedup-target 1,2'
c P13 'LC_ALL=de_DE.UTF-8 "$PB" prompt $T --speedup-target 1.5 --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c P14 '"$PB" prompt $T --json | python3 -c "import json,sys; d=json.load(sys.stdin); print(sorted(d)[:5])"'
c P15 '"$PB" prompt $T --arch sm_90a,sm_100a'
c P16 '"$PB" prompt $T.toml'
c P17 '"$PB" prompt ../tasks/$T'
c P18 '"$PB" prompt "$T "'
c P19 '"$PB" prompt GEMM_N7168_K5120'
c P20 '"$PB" prompt $T --contract auto --contract native | head -1'
c P21 '"$PB" prompt $T --context='
c P22 '"$PB" prompt -- $T | head -1'
c P23 '"$PB" prompt mha_bwd_d128 --arch sm_100a'
c P24 '"$PB" prompt $T --speedup-target 1e6 | grep -i -m1 speed'
c P25 '"$PB" prompt $T --levels --context none'
c P26 'PTXBENCH_ROOT=$W/roots/crlf "$PB" prompt $T | md5sum; "$PB" prompt $T | md5sum'
c P27 '"$PB" prompt $T --context full --json | python3 -m json.tool | head -3'
c P28 '"$PB" prompt $T --speedup-target inf | grep -i -m1 speed'
# --- compile: refused before nvcc
c C01 '"$PB" compile $FX/good.cu --task $T --arch sm_90'
c C02 '"$PB" compile $FX/good.cu --task $T --arch sm_100a,sm_90a'
c C03 '"$PB" compile $FX/good.cu --task $T --timeout 3601'
c C04 '"$PB" compile $FX/good.cu --task $T --timeout 1e3'
c C05 '"$PB" compile $FX/good.cu --task $T --timeout -5'
c C06 '"$PB" compile $FX/good.cu --task $T --max-source-bytes 1073741825'
c C07 '"$PB" compile $FX/good.cu --task $T --max-source-bytes 10'
c C08 '"$PB" compile $FX/good.cu --task $T --max-source-bytes 0x100'
c C09 '"$PB" compile $FX/good.cu --task $T --contract TVM'
c C10 '"$PB" compile --task $T'
c C11 '"$PB" compile $FX/good.cu --task ""'
c C12 '"$PB" compile $FX/good.cu --task "$T,$TA"'
c C13 '"$PB" compile $FX/good.cu --task ../$T'
c C14 '"$PB" compile $FX/sub/ --task $T'
c C15 '"$PB" compile /dev/null --task $T'
c C16 '"$PB" compile /dev/zero --task $T --max-source-bytes 1000'
c C17 '"$PB" compile /dev/urandom --task $T'
c C18 '"$PB" compile $FX/dangling.cu --task $T'
c C19 '$NB "$PB" compile $FX/unreadable.cu --task $T'
c C20 '"$PB" compile $FX/pragmaonly.cu --task $T'
c C21 '"$PB" compile $FX/empty.md --task $T --json | python3 -m json.tool; exit ${PIPESTATUS[0]}'
c C22 '"$PB" compile $FX/good.cu --task $T --timeout=""'
c C23 '"$PB" compile $FX/good.cu $FX/good.cu --task $T'
c C24 '"$PB" compile "$FX/nothere.cu" --task nosuch'
c C25 '"$PB" compile $FX/good.cu --task $T --json --json'
c C26 '"$PB" compile $FX/good.cu --arch sm_100a'
c C27 'PTXBENCH_NVCC=$FX "$PB" compile $FX/tiny.cu --task $T --no-cache'
c C28 '"$PB" compile - --task $T < $FX/good.cu'
c C29 '"$PB" compile /proc/self/status --task $T --max-source-bytes 100'
c C30 '"$PB" compile $FX/tiny.cu --task $T --max-source-bytes 1 --json | python3 -m json.tool; exit ${PIPESTATUS[0]}'
# --- compile reaching nvcc (NV)
c N01 '"$PB" compile $FX/s2.cu --task $T --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c N02 '"$PB" compile --task $T -- "$FX/--json"'
c N03 '"$PB" compile "$FX/sp ace é.cu" --task $T'
c N04 '"$PB" compile $FX/tabsline.cu --task $T'
c N05 '"$PB" compile $FX/unicode.cu --task $T'
c N06 '"$PB" compile $FX/cxxonly.cu --task $T'
c N07 '"$PB" compile $FX/hugemacro.cu --task $T'
c N08 '"$PB" compile $FX/strlit.cu --task $T --json | python3 -c "import json,sys; d=json.load(sys.stdin); print(d.get(\"outcome\"))"'
c N09 '"$PB" compile $FX/bomcrlf.cu --task $T'
c N10 '"$PB" compile $FX/noext --task $T'
c N11 'cd $FX/sub/dir && "$PB" compile ../../sub/./dir/../dir/k.cu --task $T; r=$?; exit $r'
c N12 'TMPDIR=/nonexistent "$PB" compile $FX/tiny.cu --task $T --no-cache'
c N13 'LC_ALL=C TERM=dumb "$PB" compile $FX/good.cu --task $T --arch sm_100a --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}'
c N14 'for i in 1 2; do "$PB" compile $FX/good.cu --task $T --json > o$i.json; echo rc=$?; done; python3 -c "import json; a=json.load(open(\"o1.json\")); b=json.load(open(\"o2.json\")); print(\"same\" if a.get(\"outcome\")==b.get(\"outcome\") else \"DIFF\")"'
# --- eval
c E01 '"$PB" eval $FX/good.cu --task $T --trials 2'
c E02 '"$PB" eval $FX/good.cu --task $T --trials 101'
c E03 '"$PB" eval $FX/good.cu --task $T --timeout 9'
c E04 '"$PB" eval $FX/good.cu --task $T --sample-budget 0.09'
c E05 '"$PB" eval $FX/good.cu --task $T --call-timeout 601'
c E06 '"$PB" eval $FX/good.cu --task $T --sustained-load-ms 10001'
c E07 '"$PB" eval $FX/good.cu --task $T --library-plan slowest'
c E08 '"$PB" eval $FX/good.cu --task $T --timeline'
c E09 '"$PB" eval $FX/good.cu --task $T --seed 18446744073709551616'
c E10 '"$PB" eval $FX/good.cu --task $T --input-seed " 5"'
c E11 '"$PB" eval $FX/good.cu --task $T --library-plan=""'
c E12 '"$PB" eval $FX/good.cu --task $T --reply'
c E13 '"$PB" eval $FX/empty.md --task $T --reply --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}'
c E14 '"$PB" eval $FX/reply_emptyplain.md --task $T --reply'
c E15 '"$PB" eval $FX/good.cu --task $T --call-timeout 0.5'
c E16 '"$PB" eval $FX/good.cu --task $T --trials 3 --trials 4 --trials abc'
c E17 '"$PB" eval --task $T'
c E18 '"$PB" eval $FX/good.cu $FX/cerr.cu --task $T'
c E19 'PTXBENCH_BIN_DIR=/nonexistent "$PB" eval $FX/tiny.cu --task $T'
c E20 '"$PB" eval $FX/dangling.cu --task $T --reply'
c N15 '"$PB" eval $FX/reply_crlf.md --task $T --reply --json | python3 -c "import json,sys; d=json.load(sys.stdin); print(d.get(\"disposition\", list(d)[:6]))"'
c N16 '"$PB" eval $FX/reply_tilde.md --task $T --reply'
c N17 '"$PB" eval $FX/reply_two.md --task $T --reply'
c N18 '"$PB" eval $FX/reply_quoted.md --task $T --reply'
c N19 'PTXBENCH_ASSUME_GPU=1 "$PB" eval $FX/good.cu --task $T --no-timing'
c N20 '"$PB" eval $FX/good.cu --task $T --arch sm_100a --contract tvm-ffi --memcheck --no-timing --no-audit --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}'
# --- audit
c A01 '"$PB" audit $FX/good.cu --task $T --route bogus'
c A02 '"$PB" audit $FX/good.cu --task $T --route CUPTI'
c A03 '"$PB" audit $FX/good.cu --task $T --workload "M=0"'
c A04 '"$PB" audit $FX/good.cu --task $T --seed -1'
c A05 '"$PB" audit $FX/empty.md --task $T --reply --json | python3 -m json.tool; exit ${PIPESTATUS[0]}'
c A06 '"$PB" audit --task $TA'
c A07 'PTXBENCH_NCU=/nonexistent "$PB" audit $FX/tiny.cu --task $T --route ncu'
c A08 '"$PB" audit $FX/good.cu --task $T --seed 1 --seed 2 --workload a --workload b'
c A09 '"$PB" audit $FX/good.cu --task nosuch --route ncu'
c A10 '"$PB" audit $FX/good.cu --task $T --max-source-bytes 5'
c N21 '"$PB" audit $FX/s2.cu --task $T --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c N22 '"$PB" audit $FX/good.cu --task $T --workload "M=999999999999"'
# --- gate
c G01 '"$PB" gate $FX/good.cu --task $T --min-speedup 1000.1'
c G02 '"$PB" gate $FX/good.cu --task $T --junit x.out --json x.out'
c G03 '"$PB" gate $FX/good.cu --task $T --timeline'
c G04 '"$PB" gate $FX/*.nomatch --task $T'
c G05 '"$PB" gate --task $T --junit j.xml; ls j.xml'
c G06 '"$PB" gate $FX/good.cu --task $T --min-speedup=-0.0 --min-speedup 1'
c G07 'ln -s $FX/good.cu link.xml; "$PB" gate $FX/tiny.cu --task $T --junit link.xml --max-source-bytes 2'
c G08 'ln -s $FX/good.cu link.xml; "$PB" gate $FX/tiny.cu --task $T --junit link.xml --force --max-source-bytes 2'
c G09 '"$PB" gate $FX/dangling.cu $FX/tiny.cu --task $T --max-source-bytes 2 --junit j.xml; cat j.xml | head -c 300'
c G10 '"$PB" gate $FX/tiny.cu --task $T --max-source-bytes 2 --json - | head -2'
c G11 '"$PB" gate $FX/tiny.cu --task $T --max-source-bytes 2 --junit /dev/stdout | xmllint --noout -; exit ${PIPESTATUS[0]}'
c G12 '"$PB" gate $FX/tiny.cu --task $T --max-source-bytes 2 --json j.jsonl; python3 -c "import json; [json.loads(l) for l in open(\"j.jsonl\")]; print(\"ok\")"'
c G13 'mkdir d; "$PB" gate d --task $T --junit j.xml'
c G14 '"$PB" gate $FX/tiny.cu --task $T --max-source-bytes 2 --junit $W/roots/ro/j.xml'
c G15 '"$PB" gate $FX/tiny.cu --task $T --max-source-bytes 2 --require-arch --min-speedup 0'
c N23 '"$PB" gate $FX/good.cu $FX/s2.cu --task $T --junit j.xml; xmllint --noout j.xml && grep -c "<testcase" j.xml'
c N24 '"$PB" gate $FX/cerr.cu $FX/good.cu --task $T --json j.jsonl; python3 -c "import json; print([json.loads(l)[\"gate\"] for l in open(\"j.jsonl\")])"'
c N25 'echo stale > j.xml; "$PB" gate $FX/good.cu --task $T --junit j.xml --force; xmllint --noout j.xml'
# --- run: refused before any work
c R01 '"$PB" run --arch sm_90a,sm_90a --out n.db --tasks $T --turns 0'
c R02 '"$PB" run --arch "" --out n.db'
c R03 '"$PB" run --samples 0 --out n.db'
c R04 '"$PB" run --samples -1 --out n.db'
c R05 '"$PB" run --temperature -1 --model m --base-url http://127.0.0.1:1/v1 --out n.db'
c R06 '"$PB" run --temperature nan --model m --base-url http://127.0.0.1:1/v1 --out n.db'
c R07 '"$PB" run --top-p 0 --model m --base-url http://127.0.0.1:1/v1 --out n.db'
c R08 '"$PB" run --max-tokens 0 --model m --base-url http://127.0.0.1:1/v1 --out n.db'
c R09 '"$PB" run --request-timeout -1 --model m --base-url http://127.0.0.1:1/v1 --out n.db'
c R10 '"$PB" run --stall-timeout 0 --model m --base-url http://127.0.0.1:1/v1 --stream --out n.db'
c R11 '"$PB" run --attempts 101 --model m --base-url http://127.0.0.1:1/v1 --out n.db'
c R12 '"$PB" run --retry-max-s -1 --model m --base-url http://127.0.0.1:1/v1 --out n.db'
c R13 '"$PB" run --concurrency 100000 --out n.db --tasks nosuch'
c R14 '"$PB" run --cpu-jobs 0 --out n.db'
c R15 '"$PB" run --gpus 9999 --out n.db --tasks nosuch'
c R16 '"$PB" run --shard 0/1 --shard-count 3 --out n.db --tasks nosuch'
c R17 '"$PB" run --shard -1/2 --out n.db'
c R18 '"$PB" run --shard 2/2 --out n.db'
c R19 '"$PB" run --shard " 0/2" --out n.db --tasks nosuch'
c R20 '"$PB" run --shard-count 0 --out n.db'
c R21 '"$PB" run --fast-p "" --out n.db'
c R22 '"$PB" run --fast-p 1.0,0.5 --out n.db --tasks nosuch'
c R23 '"$PB" run --fast-p nan --out n.db'
c R24 '"$PB" run --contract bogus --out n.db'
c R25 '"$PB" run --context bogus --out n.db'
c R26 '"$PB" run --resume r.db --tasks $TA'
c R27 '"$PB" run --resume r.db --out other.db'
c R28 '"$PB" run --resume r.db; ls'
c R29 '"$PB" run --model m --out n.db'
c R30 '"$PB" run --base-url http://127.0.0.1:1/v1 --out n.db --tasks $T'
c R31 'unset NOPE_KEY; "$PB" run --model m --base-url http://127.0.0.1:1/v1 --api-key-env NOPE_KEY --out n.db --tasks $T --turns 1'
c R32 '"$PB" run --resume $D/schema2.db'
c R33 '"$PB" run --resume $D/running.db --tasks $T --no-progress'
c R34 '"$PB" run --resume $D/readonly.db'
c R35 '"$PB" run --out $FX/good.cu --tasks $T'
c R36 'ln -s r.db alias.db; "$PB" run --out alias.db --tasks $T'
c R37 '"$PB" run --out n.db --tasks $T --arch sm_100a --turns 1 --samples 1 --scripted-version v999'
c R38 '"$PB" run --out n.db --tasks mha_bwd_d128 --arch sm_100a --turns 1'
c R39 '"$PB" run --out n.db --tasks core --arch sm_90a --turns -1'
c R40 '"$PB" run --out "" --tasks $T'
c R41 '"$PB" run --resume r.db --resume r.db'
c R42 '"$PB" run --out n.db --speedup-target nan --tasks nosuch'
c R43 'SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=2 "$PB" run --out n.db --tasks nosuch'
c R44 'JOB_COMPLETION_INDEX=3 "$PB" run --shard-count 2 --out n.db --tasks nosuch'
c R45 '"$PB" run --out n.db --tasks "$T,$T" --turns 0'
c R46 '"$PB" run --out $W/roots/ro/n.db --tasks nosuch'
c R47 '"$PB" run --out n.db --max-tokens 2147483647 --model m --base-url http://127.0.0.1:1/v1 --attempts 1 --retry-max-s 0 --tasks nosuch'
c R48 '"$PB" run --resume $D/trunc4k.db'
c R49 '"$PB" run --resume $D/gz.db'
c R50 '"$PB" run --resume $D/noturns.db --no-progress --turns 1'
c N26 '"$PB" run --out ../$(basename $PWD)/./sub/../n.db --tasks $T --turns 1 --no-progress --json | python3 -m json.tool >/dev/null; echo rc=${PIPESTATUS[0]}; ls'
# --- show
c S01 '"$PB" show r.db --turns --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c S02 '"$PB" show r.db --compare r.db'
c S03 '"$PB" show r.db --compare r.db --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c S04 'cp r.db r2.db; "$PB" show r.db r2.db --compare r.db'
c S05 '"$PB" show r.db --price-in 1e9 --price-out 1e9 | tail -3'
c S06 '"$PB" show r.db --price-in 1000000001'
c S07 '"$PB" show r.db --price-in inf'
c S08 '"$PB" show r.db --price-in 0x1p3 | tail -2'
c S09 '"$PB" show --price-out 1'
c S10 'ln -s r.db a; ln -s a b; "$PB" show b | head -3'
c S11 'LC_ALL=C COLUMNS=1 TERM=dumb NO_COLOR=1 "$PB" show r.db | head -3'
c S12 'LC_ALL=de_DE.UTF-8 "$PB" show r.db --price-in 3 --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c S13 '"$PB" show "r?.db"'
c S14 '"$PB" show $D/schema2.db'
c S15 '"$PB" show $D/schema0.db'
c S16 '"$PB" show $D/schemaabc.db'
c S17 '"$PB" show $D/nometa.db'
c S18 '"$PB" show $D/othercreator.db'
c S19 '"$PB" show $D/tworuns.db'
c S20 '"$PB" show $D/running.db | head -5'
c S21 '"$PB" show $D/confnull.db'
c S22 '"$PB" show $D/confempty.db'
c S23 '"$PB" show $D/provarr.db --json | head -c 300'
c S24 '"$PB" show $D/compilenull.db | head -8'
c S25 '"$PB" show $D/speedneg.db | head -8'
c S26 '"$PB" show $D/speedtext.db | head -8'
c S27 '"$PB" show $D/speedhuge.db --json | python3 -m json.tool | grep -i -m3 speed'
c S28 '"$PB" show $D/notraj.db'
c S29 '"$PB" show $D/noturns.db'
c S30 '"$PB" show $D/orphanturns.db --turns | head -8'
c S31 '"$PB" show $D/turngap.db --turns | head -12'
c S32 '"$PB" show $D/dupmodel.db | head -8'
c S33 '"$PB" show $D/ansimodel.db | od -c | grep -m3 "033"'
c S34 '"$PB" show $D/droptable.db'
c S35 '"$PB" show $D/extratable.db | head -4'
c S36 '"$PB" show $D/wal.db | head -3; ls $D | grep -c wal'
c S37 '"$PB" show $D/badtask.db | head -6'
c S38 '"$PB" show $D/badarch.db | head -6'
c S39 '"$PB" show $D/futuredate.db --json | head -c 300'
c S40 '"$PB" show $D/flagsbad.db --turns | head -6'
c S41 '"$PB" show $D/hugecat.db --turns | wc -c'
c S42 '"$PB" show $D/gz.db'
c S43 '$NB "$PB" show $D/readonly.db | head -2'
c S44 '"$PB" show r.db --compare $D/schema2.db'
c S45 '"$PB" show r.db --compare $D/onetraj.db | head -8'
c S46 '"$PB" show r.db --turns --compare $D/badtask.db | head -8'
c S47 '"$PB" show r.db & "$PB" show r.db & "$PB" show r.db --json >/dev/null & wait; sha256sum r.db'
c S48 'python3 -c "import sqlite3,time; c=sqlite3.connect(\"r.db\"); c.execute(\"begin exclusive\"); time.sleep(6)" & sleep 1; "$PB" show r.db | head -2; r=${PIPESTATUS[0]}; wait; exit $r'
c S49 '"$PB" show r.db --price-in 3 --price-in 4 --price-out 0 | tail -2'
c S50 '"$PB" show $FX/good.cu'
c S51 '"$PB" show $D'
c S52 '"$PB" show r.db --turns 0<&- | wc -l'
c S53 '"$PB" show r.db $D/onetraj.db $D/dupmodel.db'
c S54 '"$PB" show r.db --compare ""'
# --- report
c P101 '"$PB" report r.db --html o.html; "$PB" report r.db --html o.html --force; h1=$(sha256sum o.html); "$PB" report r.db --html o.html --force; h2=$(sha256sum o.html); [ "$h1" = "$h2" ] && echo idempotent || echo NOT-idempotent'
c P102 '"$PB" report r.db --html o.html --junit o.xml --csv o.csv && xmllint --noout o.xml && python3 -c "import csv; print(len(list(csv.reader(open(\"o.csv\")))))"'
c P103 'cp $FX/good.cu keep.cu; ln -s keep.cu sym.html; "$PB" report r.db --html sym.html; sha256sum keep.cu | cut -c1-16; sha256sum $FX/good.cu | cut -c1-16'
c P104 'cp $FX/good.cu keep.cu; ln -s keep.cu sym.html; "$PB" report r.db --html sym.html --force; ls -l sym.html | cut -c1-10; head -c 40 keep.cu'
c P105 'mkdir o.html; "$PB" report r.db --html o.html --force'
c P106 '"$PB" report r.db r.db --html o.html; ls'
c P107 '"$PB" report --html o.html'
c P108 '"$PB" report r.db --html ""'
c P109 'TMPDIR=/nonexistent "$PB" report r.db --html o.html; ls'
c P110 '"$PB" report $D/htmlmodel.db --html o.html; grep -c "<script>alert" o.html'
c P111 '"$PB" report $D/ansimodel.db --csv o.csv; python3 -c "import csv; r=list(csv.reader(open(\"o.csv\"))); print(len(r), len(set(map(len,r))))"'
c P112 '"$PB" report $D/schema2.db --html o.html; ls'
c P113 '"$PB" report $D/droptable.db --html o.html --junit o.xml; ls'
c P114 '"$PB" report $D/notraj.db --html o.html --junit o.xml --csv o.csv; ls'
c P115 '"$PB" report $D/speedtext.db --csv o.csv; head -3 o.csv'
c P116 '"$PB" report r.db $D/onetraj.db --html o.html; ls'
c P117 '"$PB" report r.db --junit o.xml --force --force; xmllint --noout o.xml'
c P118 '"$PB" report r.db --html o.html & "$PB" report r.db --html o.html & wait; ls; python3 -c "d=open(\"o.html\").read(); print(len(d), d.rstrip().endswith(\"</html>\"))"'
c P119 '"$PB" report r.db --html o.html & p=$!; sleep 0.3; kill -INT $p; wait $p; echo rc=$?; ls'
c P120 '(while :; do cp $D/onetraj.db r.db.tmp && mv r.db.tmp r.db; cp $W/run.db r.db.tmp && mv r.db.tmp r.db; done) & L=$!; for i in 1 2 3; do "$PB" report r.db --csv o$i.csv --force; echo rc=$?; done; kill $L; wait $L 2>/dev/null; ls'
c P121 '"$PB" report r.db --csv sub/none/o.csv'
c P122 '"$PB" report r.db --html o.HTML --junit o.XML'
c P123 '"$PB" report r.db --csv o.csv; "$PB" report r.db --csv o.csv; echo rc=$?'
c P124 '"$PB" report $D/hugecat.db --csv o.csv; wc -c < o.csv'
c P125 '"$PB" report $D/running.db --junit o.xml; grep -c testcase o.xml'
c P126 'LC_ALL=de_DE.UTF-8 "$PB" report r.db --csv o.csv; head -2 o.csv'
c P127 '"$PB" report r.db --html -- o.html'
c P128 '"$PB" report r.db --html ./--force'
# --- rejudge
c J01 '"$PB" rejudge r.db --out r.db; sha256sum r.db | cut -c1-16'
c J02 'ln -s $FX/good.cu keep.db; "$PB" rejudge r.db --out keep.db'
c J03 '"$PB" rejudge --out n.db'
c J04 '"$PB" rejudge $D/schema2.db --out n.db; ls'
c J05 '"$PB" rejudge r.db --out sub/'
c J06 '"$PB" rejudge $D/running.db --out n.db; ls'
c J07 '"$PB" rejudge r.db --out ""'
c J08 '"$PB" rejudge $D/gz.db --out n.db; ls'
c J09 '"$PB" rejudge $D/notraj.db --out n.db; ls'
c J10 '"$PB" rejudge $D/noturns.db --out n.db; ls'
c J11 '"$PB" rejudge r.db --out $W/roots/ro/n.db'
c J12 '"$PB" rejudge r.db --out n.db --json --memcheck & p=$!; sleep 2; kill -TERM $p; wait $p; echo rc=$?; ls'
c J13 '"$PB" rejudge $D/droptable.db --out n.db; ls'
c N27 '"$PB" rejudge $D/onetraj.db --out n.db --json | python3 -m json.tool >/dev/null; echo rc=${PIPESTATUS[0]}; "$PB" show n.db | head -4'
# --- merge
c M01 '"$PB" merge --out m.db'
c M02 '"$PB" merge r.db --out r.db; sha256sum r.db | cut -c1-16'
c M03 'cp r.db r2.db; "$PB" merge r.db r2.db --out m.db; ls'
c M04 '"$PB" merge r.db $D/schema2.db --out m.db; ls'
c M05 'touch m.db; "$PB" merge r.db --out m.db; wc -c < m.db'
c M06 '"$PB" merge $(for i in $(seq 1 300); do echo r.db; done) --out m.db; ls'
c M07 '"$PB" merge r.db $D/running.db --out m.db; ls'
c M08 '"$PB" merge r.db $D/running.db --out m.db --allow-partial; "$PB" show m.db | head -3'
c M09 '"$PB" merge r.db --out m.db & "$PB" merge r.db --out m.db & wait; ls; "$PB" show m.db | head -2'
c M10 '"$PB" merge $D/notraj.db --out m.db; ls'
c M11 '"$PB" merge r.db $D/tworuns.db --out m.db; ls'
c M12 '"$PB" merge r.db --out m.db --out n.db; ls'
c M13 '"$PB" merge $D/onetraj.db $D/dupmodel.db --out m.db --allow-partial; ls'
c M14 '"$PB" merge r.db --out ""'
# --- sft fixit / kernelgen / coverage / mine
c F01 '"$PB" sft fixit r.db --out o --categories ""'
c F02 '"$PB" sft fixit r.db --out o --categories bogus'
c F03 '"$PB" sft fixit r.db --out o --categories passed; ls o'
c F04 '"$PB" sft fixit r.db --out o --per-task-cap 0; ls o; cat o/*.jsonl 2>/dev/null | wc -l'
c F05 '"$PB" sft fixit r.db --out o --per-task-cap 1000001'
c F06 '"$PB" sft fixit r.db --out o --seed 18446744073709551615; ls o'
c F07 '"$PB" sft fixit r.db --out o --min-speedup 1000001'
c F08 '"$PB" sft fixit r.db --out o --max-tokens 0; ls o'
c F09 '"$PB" sft fixit r.db --out o --bytes-per-token 0'
c F10 '"$PB" sft fixit r.db --out o --bytes-per-token 1000; ls o'
c F11 '"$PB" sft fixit r.db --out o --pairing none'
c F12 '"$PB" sft fixit r.db --out o --pairing ALL'
c F13 '"$PB" sft fixit r.db --out o --heldout-task $T,$TA; wc -l o/*.jsonl'
c F14 '"$PB" sft fixit r.db --out o --heldout-task bogus'
c F15 '"$PB" sft fixit r.db --out o --allow-flag bogus; ls o'
c F16 '"$PB" sft fixit r.db --out o --no-reasoning && "$PB" sft fixit r.db --out o --no-reasoning --force && "$PB" sft fixit r.db --out o2 --no-reasoning && diff -r o o2 && echo identical'
c F17 'mkdir real; ln -s real o; "$PB" sft fixit r.db --out o; ls real'
c F18 '"$PB" sft fixit r.db --out /dev/null; test -c /dev/null && echo devnull-ok'
c F19 '"$PB" sft fixit --out o'
c F20 '"$PB" sft fixit $D/speedtext.db --out o; ls o'
c F21 '"$PB" sft fixit $D/flagsbad.db --out o; ls o'
c F22 '"$PB" sft fixit r.db --out o; for f in o/*.jsonl; do python3 -c "import json,sys; [json.loads(l) for l in open(sys.argv[1])]" $f || echo BAD $f; done; echo checked'
c F23 '"$PB" sft fixit r.db --out o & "$PB" sft fixit r.db --out o & wait; ls o'
c F24 '"$PB" sft fixit r.db --out o & p=$!; sleep 0.2; kill -TERM $p; wait $p; echo rc=$?; ls -A o 2>&1'
c F25 'mkdir o; echo mine > o/notes.txt; "$PB" sft fixit r.db --out o; cat o/notes.txt'
c F26 'mkdir o; echo mine > o/notes.txt; "$PB" sft fixit r.db --out o --force; cat o/notes.txt; ls o'
c F27 '"$PB" sft fixit r.db $D/onetraj.db --out o; ls o'
c F28 '"$PB" sft fixit $D/gz.db --out o; ls'
c F29 '"$PB" sft fixit r.db --out $W/roots/ro/o'
c F30 '"$PB" sft fixit $D/running.db --out o; ls o'
c K01 '"$PB" sft kernelgen r.db --out o --pairing one'
c K02 '"$PB" sft kernelgen r.db --out o --categories x'
c K03 '"$PB" sft kernelgen r.db --out o; "$PB" sft kernelgen r.db --out o; echo rc=$?'
c K04 '"$PB" sft kernelgen r.db --out o --max-tokens 10000001'
c K05 '"$PB" sft kernelgen r.db --out o --min-speedup -1'
c K06 '"$PB" sft kernelgen r.db --out o --allow-missing-instructions --min-speedup 0; ls o'
c K07 '"$PB" sft kernelgen $D/dupmodel.db --out o; ls o'
c K08 '"$PB" sft kernelgen r.db --out "o/../o2/./"; ls'
c K09 '"$PB" sft kernelgen $D/ansimodel.db --out o; ls o'
c K10 '"$PB" sft kernelgen $D/schemaabc.db --out o; ls'
c K11 '"$PB" sft kernelgen r.db --out o --heldout-task "" --heldout-task $T; ls o'
c K12 '"$PB" sft kernelgen r.db --out o --bytes-per-token 0.0001; ls o'
c O01 '"$PB" sft coverage r.db --json | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c O02 '"$PB" sft coverage r.db --out c.txt; "$PB" sft coverage r.db --out c.txt; echo rc=$?'
c O03 'echo precious > c.txt; "$PB" sft coverage r.db --out c.txt --force; head -c 60 c.txt'
c O04 '"$PB" sft coverage r.db --out r.db --force; "$PB" show r.db | head -2'
c O05 '"$PB" sft coverage r.db --out ""'
c O06 '"$PB" sft coverage'
c O07 '"$PB" sft coverage r.db $D/onetraj.db | tail -3'
c O08 '"$PB" sft coverage r.db --json --out c.json; python3 -m json.tool c.json >/dev/null && echo valid'
c O09 '"$PB" sft coverage $D/notraj.db'
c O10 '"$PB" sft coverage r.db --pairing bogus'
c O11 '"$PB" sft coverage r.db --out $FX/good.cu'
c O12 '"$PB" sft coverage r.db --out sub/none/c.txt'
c O13 'COLUMNS=1 LC_ALL=C "$PB" sft coverage r.db | head -4'
c O14 '"$PB" sft coverage $D/running.db | tail -2'
c I01 '"$PB" sft mine r.db --dry-run --json | python3 -c "import json,sys; [json.loads(l) for l in sys.stdin]; print(\"ok\")"'
c I02 '"$PB" sft mine r.db --dry-run | head -3'
c I03 '"$PB" sft mine r.db --dry-run --limit 0 | wc -l'
c I04 '"$PB" sft mine r.db --dry-run --limit -1'
c I05 '"$PB" sft mine r.db --dry-run --turns 65'
c I06 '"$PB" sft mine r.db --dry-run --temperature 10.1'
c I07 '"$PB" sft mine r.db --dry-run --concurrency 257'
c I08 '"$PB" sft mine r.db --dry-run --attempts 0'
c I09 '"$PB" sft mine r.db --dry-run --request-timeout 0'
c I10 '"$PB" sft mine r.db --dry-run --stall-timeout 0'
c I11 '"$PB" sft mine r.db --dry-run --out r.db; sha256sum r.db | cut -c1-16'
c I12 '"$PB" sft mine r.db --out r.db --model m --base-url http://127.0.0.1:1/v1 --attempts 1 --retry-max-s 0 --limit 1; "$PB" show r.db | head -3'
c I13 '"$PB" sft mine r.db --json'
c I14 '"$PB" sft mine r.db --dry-run --categories passed | wc -l'
c I15 '"$PB" sft mine $D/notraj.db --dry-run'
c I16 '"$PB" sft mine r.db --model m --dry-run --out mine.db; ls'
c I17 '"$PB" sft mine r.db --dry-run --per-task-cap 0 | wc -l'
c I18 '"$PB" sft mine r.db --dry-run --json --limit 1 | python3 -m json.tool >/dev/null; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c I19 '"$PB" sft mine r.db --model m --base-url http://127.0.0.1:1/v1 --out $FX/good.cu --limit 1'
c I20 '"$PB" sft mine r.db --dry-run --speedup-target 1001'
# --- slurm
c L01 '"$PB" slurm script --shards 1 | bash -n; exit ${PIPESTATUS[0]}${PIPESTATUS[1]}'
c L02 '"$PB" slurm script --shards 100000 | wc -c'
c L03 '"$PB" slurm script --shards -1'
c L04 '"$PB" slurm script --shards 2 --gpus-per-shard 0 | grep -i -m2 gpu'
c L05 '"$PB" slurm script --shards 2 --cpus-per-shard 4097'
c L06 '"$PB" slurm script --shards 2 --job-name ""'
c L07 '"$PB" slurm script --shards 2 --job-name "a b" | grep -m2 job-name'
c L08 '"$PB" slurm script --shards 2 --job-name "$(printf "a\n#SBATCH --wrap=id")" | grep -n -m3 "wrap\|^a"'
c L09 '"$PB" slurm script --shards 2 --partition "p;touch PWNED" > s.sh; grep -m2 partition s.sh; bash -n s.sh'
c L10 '"$PB" slurm script --shards 2 --time 25:00:00 | grep -m1 time'
c L11 '"$PB" slurm script --shards 2 --dir "a b" > s.sh; bash -n s.sh && grep -c "a b" s.sh'
c L12 '"$PB" slurm script --shards 2 --dir "it'"'"'s" > s.sh; bash -n s.sh; echo syn=$?'
c L13 '"$PB" slurm script --shards 2 -- --tasks bogus'
c L14 '"$PB" slurm script --shards 2 -- --out x.db'
c L15 '"$PB" slurm script --shards 2 -- --resume x.db'
c L16 '"$PB" slurm script --shards 2 -- --shard-count 3'
c L17 '"$PB" slurm script --shards 2 --sbatch-arg "" | grep -c "#SBATCH"'
c L18 '"$PB" slurm submit --shards 2 -- --tasks $T; echo; ls'
c L19 'mkdir bin; printf "#!/bin/sh\necho sbatch: error: invalid partition >&2\nexit 1\n" > bin/sbatch; chmod +x bin/sbatch; PATH=$PWD/bin:$PATH "$PB" slurm submit --shards 2; ls'
c L20 'mkdir bin; printf "#!/bin/sh\nexit 0\n" > bin/sbatch; chmod +x bin/sbatch; PATH=$PWD/bin:$PATH "$PB" slurm submit --shards 2; ls'
c L21 '"$PB" slurm script --shards 2 --dir $FX/good.cu'
c L22 '"$PB" slurm script --shards 2 -- --model m'
c L23 '"$PB" slurm script --shards 2 -- --samples 0'
c L24 '"$PB" slurm script --shards 2 --time ""'
c L25 '"$PB" slurm script --shards 2 --account "a\"b" > s.sh; bash -n s.sh; echo syn=$?'
c L26 '"$PB" slurm script --shards 2 --dir "$(printf "x\ny")" > s.sh; bash -n s.sh; echo syn=$?; grep -c "^y" s.sh'
c L27 '"$PB" slurm script --shards 2 --gpus-per-shard 4294967296'
c L28 '"$PB" slurm script --shards 2 --dir "*" > s.sh; bash -n s.sh; grep -m2 -n "\*" s.sh'
c L29 '"$PB" slurm script --shards 3 -- --shard 1/3'
c L30 '"$PB" slurm script --shards 2 -- --tasks $T --arch sm_90a --turns 99999 | grep -m1 turns'
c L31 '"$PB" slurm script'
c L32 'mkdir bin; printf "#!/bin/sh\necho Submitted batch job 7\n" > bin/sbatch; chmod +x bin/sbatch; PATH=$PWD/bin:$PATH "$PB" slurm submit --shards 2 --dir d1; PATH=$PWD/bin:$PATH "$PB" slurm submit --shards 2 --dir d1; echo rc=$?; ls'
# --- signals / stdin / misc
c X01 '"$PB" tasks & p=$!; kill -TERM $p; wait $p; echo rc=$?'
c X02 '"$PB" show r.db --turns | { sleep 0.5; head -c 100 >/dev/null; }; exit ${PIPESTATUS[0]}'
c X03 '"$PB" merge r.db --out m.db & p=$!; sleep 0.1; kill -INT $p; wait $p; echo rc=$?; ls'
c X04 '"$PB" sft coverage r.db --out c.txt & p=$!; sleep 0.05; kill -QUIT $p; wait $p; echo rc=$?; ls'
c X05 '"$PB" show r.db & p=$!; sleep 0.05; kill -USR1 $p; wait $p; echo rc=$?'
c X06 'yes | "$PB" tasks | head -1'
c X07 'TMPDIR=$W/roots/ro $NB "$PB" tasks | head -1'
c X08 'TMPDIR="" "$PB" prompt $T | head -1'
c X09 'ulimit -n 8; "$PB" show r.db | head -2'
c X10 'ulimit -v 200000; "$PB" show r.db | head -2'
c X11 'ulimit -f 1; "$PB" report r.db --html o.html; echo rc=$?; ls -l o.html 2>&1 | cut -c1-60'
c X12 '"$PB" report r.db --csv o.csv & p=$!; sleep 0.1; kill -STOP $p; sleep 0.5; kill -CONT $p; wait $p; echo rc=$?'
c X13 'chmod 000 r.db; $NB "$PB" show r.db'
c X14 'cp r.db "$(printf "we\x01ird\tname.db")"; "$PB" show we*name.db | head -2'
c X15 'cp r.db ./-r.db; "$PB" show -- -r.db | head -2'
c X16 'cp r.db --json; "$PB" show ./--json | head -2'
# --- outputs that alias inputs or fixtures through links (added second)
c Z01 '"$PB" report r.db --html r.db --force; "$PB" show r.db | head -2'
c Z02 'ln -s r.db c.txt; "$PB" sft coverage r.db --out c.txt --force; "$PB" show r.db | head -2'
c Z03 'ln -s $FX/newfile.db dl.db; "$PB" merge r.db --out dl.db; ls -l dl.db | cut -c1-10; ls $FX/newfile.db 2>&1'
c Z04 'ln -s $FX/new2.db dl.db; "$PB" rejudge $D/onetraj.db --out dl.db; ls $FX/new2.db 2>&1'
c Z05 '"$PB" sft fixit r.db --out o; rm o/train.jsonl; ln -s $FX/good.cu o/train.jsonl; "$PB" sft fixit r.db --out o --force; ls -l o/train.jsonl | cut -c1-10'
c Z06 'ln $FX/good.cu hl.csv 2>/dev/null || cp $FX/good.cu hl.csv; "$PB" report r.db --csv hl.csv --force; head -c 30 $FX/good.cu'
c Z07 'ln -s r.db o.html; "$PB" report r.db --html o.html --force; "$PB" show r.db | head -2'
c Z08 '"$PB" report r.db --junit r.db --csv o.csv --force; "$PB" show r.db | head -1'
c Z09 'ln -s $FX/good.cu j.xml; "$PB" gate $FX/tiny.cu --task $T --max-source-bytes 2 --junit j.xml --json j.xml --force'
c Z10 'ln -s . loop; "$PB" show loop/loop/loop/loop/r.db | head -1'
c Z11 '"$PB" sft kernelgen r.db --out o; "$PB" sft kernelgen r.db --out o/ --force; "$PB" sft kernelgen r.db --out ./o//. --force; ls o | wc -l'
c Z12 '"$PB" sft coverage r.db r.db'
c Z13 'cp r.db x.db; "$PB" sft coverage r.db x.db | tail -2'
c Z14 'printf "%s\n" r.db | xargs "$PB" report --csv o.csv; head -1 o.csv | cut -c1-40'
c Z15 '"$PB" show r.db --json | python3 -c "import json,sys; json.load(sys.stdin); print(\"ok\")"; "$PB" show r.db --compare $D/onetraj.db --turns --json | python3 -c "import json,sys; json.load(sys.stdin); print(\"ok\")"'
c Z16 'mkfifo f.db; "$PB" show f.db'
