#!/usr/bin/env bash
# bad_input.sh CODE REGEX [--setup FIXTURE]... [--creates PATH]... [--grep REGEX]...
#              [--lacks REGEX]... [--file-grep PATH REGEX]... [--json] [--max-s N] -- COMMAND...
# One row of a bad-input table (bad_inputs.cmake, compile_bad_inputs.cmake). Runs COMMAND in
# a fresh scratch folder, after making each FIXTURE there, with a fresh PTXBENCH_CACHE.
# Fixtures:
#   foreign.db  another program's SQLite file (rollback journal)
#   wal.db      another program's SQLite file in WAL mode
#   killed.db   ditto, of a program killed while it had it open: its -wal (holding every
#               commit) and -shm stay beside it
#   empty.db    an empty file
#   huge_axis/  a ptxbench root (for PTXBENCH_ROOT) whose one task has an axis value of 2^63-1
#   hidden_listed/  a ptxbench root whose one task lists a hidden workload (refused: they are drawn)
#   huge.cu     a 4 GiB kernel file (sparse: it takes no disk; compared by size, not hashed)
#   long_comment.cu, long_blank.cu, base64_comment.cu, max_size.cu
#               tests/kernels/sm90_plain.cu after a comment line of 40,000 blanks, a line of
#               40,000 blanks, a 40 KB base64 blob in a comment, or a comment line that makes the
#               file exactly 1 MiB (each crashed ptxbench through std::regex, issue 38)
#   finished.db the recorded H200 run (tests/report/recorded: scripted, finished, schema 1)
#   finished_wal.db  ditto, with a -wal of garbage beside it
#   no_trajectories.db, no_llm_column.db  ditto, without its trajectories table, or without
#               the turns table's llm_json column
#   settings_null.db, settings_empty.db, compile_missing.db, speedup_negative.db,
#   speedup_text.db, trajectories_deleted.db, orphan_turns.db  ditto, edited as the bad-input
#               campaign 3 did (issue 38): runs.config_json 'null' or ''; every turn's
#               compile_json, eval_json and audit_json NULL; every speedup -1 or 'fast'; every
#               trajectory row deleted; every turn's trajectory_id + 1000
#   turns_text.db, budgets_beyond.db, stages_typed.db, turn_huge.db, zeroed_pages.db,
#   hot_journal.db  ditto, as the bad-input campaign 3b did: a configuration's turns "eight" or
#               turn_budgets [0,100]; stages of JSON that is no object; turn numbers near 2^63;
#               two pages zeroed; a writer killed mid-transaction (its hot -journal beside it)
#   flags_deep.db, eval_deep.db  ditto, every turn's flags_json or eval_json a list nested
#               200,000 deep (campaign 5: D04, D60)
#   bad_trajectory/, missing_kernel/  a ptxbench root (tasks/, context/, kernels/ linked to
#               PTXBENCH_ROOT's) whose scripted trajectory for gemm_n7168_k5120 on sm_90a is
#               not valid TOML, or names a kernel file that does not exist
#   absolute_kernel/  the same root, whose trajectory names the kernel /etc/passwd (campaign 5, O30)
#   fifo_fragment/  a root whose context/common/role.md is a FIFO nobody writes (campaign 5, O14)
#   NAME/       a folder
#   NAME        any other name: a small text file
# It passes when
#   - it exits with CODE,
#   - the first non-empty line it prints (stderr and stdout together) matches REGEX (grep -E),
#   - the scratch folder is exactly as before: no file created, half-made or changed
#     (every fixture hashed before and after, side files such as X.db-wal included),
#     (but for each PATH of --creates: a file the command is meant to make, e.g. a run file
#     whose every trajectory failed on a dead endpoint),
#   - nothing is left half-made in the compile cache: no build folder (.build-*) or
#     temporary file (*.tmp.*),
#   - some line of the output matches each --grep REGEX and none matches a --lacks REGEX,
#   - some line of the file PATH (one the command made) matches each --file-grep REGEX,
#   - with --json, stdout alone is one valid UTF-8 JSON document,
#   - and, with --max-s, it took at most N seconds.
set -u
want=$1 regex=$2
shift 2
setups=() max_s="" creates=() greps=() lacks=() file_greps=() json=0
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case $1 in
    --setup) setups+=("$2"); shift 2 ;;
    --max-s) max_s=$2; shift 2 ;;
    --creates) creates+=("$2"); shift 2 ;;
    --grep) greps+=("$2"); shift 2 ;;
    --lacks) lacks+=("$2"); shift 2 ;;
    --file-grep) file_greps+=("$2" "$3"); shift 3 ;;
    --json) json=1; shift ;;
    *) echo "bad_input.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ "${1:-}" = "--" ] && shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-bad-input-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
scratch=$tmp/scratch cache=$tmp/cache
mkdir "$scratch" "$cache"
cd "$scratch" || exit 1
make_fixture() {
  case $1 in
    foreign.db) sqlite3 foreign.db "CREATE TABLE t (x); INSERT INTO t VALUES (1);" ;;
    wal.db) sqlite3 wal.db "PRAGMA journal_mode=WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1);" \
              >/dev/null ;;
    killed.db)
      python3 -c 'import os, sqlite3
c = sqlite3.connect("killed.db")
c.execute("PRAGMA journal_mode=WAL")
c.execute("CREATE TABLE t (x)")
c.execute("INSERT INTO t VALUES (1)")
c.commit()
os._exit(0)' && [ -e killed.db-wal ] && [ -e killed.db-shm ] ;;
    empty.db) : >empty.db ;;
    huge.cu) echo '__global__ void k() {}' >huge.cu && truncate -s 4G huge.cu ;;
    long_comment.cu|long_blank.cu|base64_comment.cu|max_size.cu)
      python3 - "$1" "$PTXBENCH_ROOT/tests/kernels/sm90_plain.cu" <<'PY' ;;
import sys
name, kernel = sys.argv[1], open(sys.argv[2], "rb").read().decode("latin-1")
alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
head = {"long_comment.cu": "//" + " " * 40000 + "x\n",
        "long_blank.cu": " " * 40000 + "\n",
        "base64_comment.cu": "/* " + "".join(alphabet[(i * 7) % 64] for i in range(40960)) + " */\n",
        "max_size.cu": "//" + " " * ((1 << 20) - len(kernel) - 3) + "\n"}[name]
open(name, "wb").write((head + kernel).encode("latin-1"))
PY
    huge_axis/)
      mkdir -p huge_axis/tasks/gemm
      sed 's/^M = \[8192\]/M = [9223372036854775807, 8192]/' \
        "$PTXBENCH_ROOT/tasks/gemm/gemm_n7168_k5120.toml" >huge_axis/tasks/gemm/gemm_n7168_k5120.toml ;;
    hidden_listed/)
      mkdir -p hidden_listed/tasks/gemm
      { cat "$PTXBENCH_ROOT/tasks/gemm/gemm_n7168_k5120.toml"
        printf '\n[[workloads]]\nname = "m1000"\nrole = "hidden"\naxes = { M = 1000, N = 7168, K = 5120 }\n'
      } >hidden_listed/tasks/gemm/gemm_n7168_k5120.toml ;;
    finished.db|finished_wal.db|no_trajectories.db|no_llm_column.db|settings_null.db|\
    settings_empty.db|compile_missing.db|speedup_negative.db|speedup_text.db|\
    trajectories_deleted.db|orphan_turns.db|turns_text.db|budgets_beyond.db|stages_typed.db|\
    turn_huge.db|zeroed_pages.db|hot_journal.db|flags_deep.db|eval_deep.db)
      cp "$PTXBENCH_ROOT/tests/report/recorded/h200-2026-11-30-main.db" "$1" && chmod u+w "$1" &&
      case $1 in
        finished_wal.db) head -c 8192 /dev/urandom >finished_wal.db-wal ;;
        no_trajectories.db) sqlite3 "$1" "DROP TABLE trajectories" ;;
        no_llm_column.db) sqlite3 "$1" "ALTER TABLE turns DROP COLUMN llm_json" ;;
        settings_null.db) sqlite3 "$1" "UPDATE runs SET config_json = 'null'" ;;
        settings_empty.db) sqlite3 "$1" "UPDATE runs SET config_json = ''" ;;
        compile_missing.db)
          sqlite3 "$1" "UPDATE turns SET compile_json = NULL, eval_json = NULL, audit_json = NULL" ;;
        speedup_negative.db) sqlite3 "$1" "UPDATE turns SET speedup = -1" ;;
        speedup_text.db) sqlite3 "$1" "UPDATE turns SET speedup = 'fast'" ;;
        trajectories_deleted.db) sqlite3 "$1" "DELETE FROM trajectories" ;;
        orphan_turns.db) sqlite3 "$1" "UPDATE turns SET trajectory_id = trajectory_id + 1000" ;;
        turns_text.db) sqlite3 "$1" "UPDATE runs SET config_json = json_set(config_json, '\$.turns', 'eight')" ;;
        budgets_beyond.db)
          sqlite3 "$1" "UPDATE runs SET config_json = json_set(config_json, '\$.turn_budgets', json('[0,100]'))" ;;
        stages_typed.db) sqlite3 "$1" "UPDATE turns SET eval_json = '[1,2]', audit_json = '\"str\"', compile_json = '3'" ;;
        turn_huge.db) sqlite3 "$1" "UPDATE turns SET turn = turn + 9223372036854775000" ;;
        flags_deep.db|eval_deep.db)  # JSON nested 200,000 deep (past SQLite's JSON depth limit)
          python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE turns SET %s = ?" % sys.argv[2], ("[" * 200000 + "]" * 200000,))
c.commit()' "$1" "$([ "$1" = flags_deep.db ] && echo flags_json || echo eval_json)" ;;
        zeroed_pages.db) dd if=/dev/zero of="$1" bs=4096 seek=5 count=2 conv=notrunc 2>/dev/null ;;
        hot_journal.db)  # a writer killed mid-transaction: its rollback journal is left (hot)
          sqlite3 "$1" "PRAGMA journal_mode=DELETE" >/dev/null &&
          python3 -c 'import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1]); c.isolation_level = None; c.execute("PRAGMA cache_size=1")
c.execute("BEGIN"); c.execute("UPDATE messages SET content = content || 1"); os._exit(0)' "$1" &&
          test -s hot_journal.db-journal ;;
      esac ;;
    bad_trajectory/|missing_kernel/|absolute_kernel/)
      mkdir -p "$1trajectories/v1" &&
      for d in tasks context kernels; do ln -s "$PTXBENCH_ROOT/$d" "$1$d" || return 1; done &&
      { printf 'version = "v1"\ntask = "gemm_n7168_k5120"\narch = "sm_90a"\n'
        case "$1" in
          bad_trajectory/) printf '[[turn]\ntext = "x"\n' ;;
          missing_kernel/) printf '[[turn]]\ntext = "x"\nkernel = "kernels/no_such_kernel.cu"\n' ;;
          *) printf '[[turn]]\ntext = "x"\nkernel = "/etc/passwd"\n' ;;
        esac
      } >"$1trajectories/v1/gemm_n7168_k5120.sm_90a.toml" ;;
    fifo_fragment/)  # campaign 5, O14: a context fragment that is a FIFO with no writer
      mkdir -p "$1" &&
      for d in tasks kernels trajectories; do ln -s "$PTXBENCH_ROOT/$d" "$1$d" || return 1; done &&
      cp -r "$PTXBENCH_ROOT/context" "$1context" && rm "$1context/common/role.md" &&
      mkfifo "$1context/common/role.md" ;;
    */) mkdir -p "$1" ;;
    *) echo "a file that is not a run" >"$1" ;;
  esac
}
for f in "${setups[@]}"; do make_fixture "$f" || { echo "FAIL: fixture $f" >&2; exit 1; }; done
state() {  # files over 64 MiB (huge.cu) by size and time: hashing them would take long
  find . -mindepth 1 -printf '%y %p\n' | sort
  find . -type f -size -64M -exec sha256sum {} + | sort
  find . -type f -size +64M -printf '%s %T@ %p\n' | sort
}
before=$(state)
start=$(date +%s%N)
if [ "$json" -eq 1 ]; then  # stdout apart, to parse it; stderr first in the output
  PTXBENCH_CACHE="$cache" "$@" >"$tmp/stdout" 2>"$tmp/stderr" </dev/null
  got=$?
  out=$(cat "$tmp/stderr" "$tmp/stdout")
else
  out=$(PTXBENCH_CACHE="$cache" "$@" 2>&1 </dev/null)
  got=$?
fi
took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "$out"
first=$(grep -m1 -v '^[[:space:]]*$' <<<"$out")
[ "$got" -eq "$want" ] || { echo "FAIL: exit code $got, expected $want" >&2; exit 1; }
if [ -n "$regex" ] && ! grep -Eq -- "$regex" <<<"$first"; then
  echo "FAIL: the first line does not match /$regex/: $first" >&2
  exit 1
fi
for ((i = 0; i < ${#file_greps[@]}; i += 2)); do
  f=${file_greps[i]} g=${file_greps[i + 1]}
  grep -Eq -- "$g" "$f" 2>/dev/null || { echo "FAIL: no line of $f matches /$g/" >&2; exit 1; }
done
for c in "${creates[@]}"; do
  [ -e "$c" ] || { echo "FAIL: $c was not made" >&2; exit 1; }
  rm -f "$c" "$c-wal" "$c-shm" "$c-journal"
done
for g in "${greps[@]}"; do
  grep -Eq -- "$g" <<<"$out" || { echo "FAIL: no line matches /$g/" >&2; exit 1; }
done
for g in "${lacks[@]}"; do
  if grep -Eq -- "$g" <<<"$out"; then echo "FAIL: a line matches /$g/" >&2; exit 1; fi
done
if [ "$json" -eq 1 ]; then
  python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$tmp/stdout" ||
    { echo "FAIL: stdout is not valid UTF-8 JSON" >&2; exit 1; }
fi
after=$(state)
if [ "$before" != "$after" ]; then
  echo "FAIL: the scratch folder changed:" >&2
  diff <(echo "$before") <(echo "$after") >&2
  exit 1
fi
half=$(find "$cache" \( -name '.build-*' -o -name '*.tmp.*' \) -print)
[ -z "$half" ] || { echo "FAIL: half-made files left in the compile cache: $half" >&2; exit 1; }
if [ -n "$max_s" ] && [ "$took_ms" -gt $((max_s * 1000)) ]; then
  echo "FAIL: took $took_ms ms, more than $max_s s" >&2
  exit 1
fi
echo "ok: exit $got in $took_ms ms"
