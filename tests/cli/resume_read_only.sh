#!/usr/bin/env bash
# resume_read_only.sh PTXBENCH
# Resuming a run file this user may not write (chmod 444) is refused before anything is
# written: exit 2, naming the file as read-only and what to do, never SQLite's "attempt to
# write a readonly database" (issue 38, RO22); the file and its folder are left as they were.
# A finished read-only run has nothing to resume and says so (exit 0). Root ignores a file's
# mode, so as root the resumes run as the nobody user through setpriv; without setpriv the
# test is skipped (exit 77), saying so.
set -u
ptxbench=$1
recorded="$PTXBENCH_ROOT/tests/report/recorded/h200-2026-11-30-main.db"
as_user=()
if [ "$(id -u)" -eq 0 ]; then
  if ! command -v setpriv >/dev/null; then
    echo "skipped: running as root, which may write a read-only file, and setpriv (util-linux)" \
      "is not here to run ptxbench as the nobody user"
    exit 77
  fi
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-read-only-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
mkdir -m 777 "$tmp/cache" "$tmp/runs"
fail() { echo "FAIL: $*" >&2; exit 1; }
state() { find "$tmp/runs" -printf '%y %m %p\n' | sort; sha256sum "$tmp"/runs/*; }
resume() {  # resume FILE (in runs/, as the other user when root): its output in $out, code in $got
  out=$(cd "$tmp/runs" && PTXBENCH_CACHE="$tmp/cache" "${as_user[@]}" "$ptxbench" run --resume "$1" \
    --no-progress 2>&1)
  got=$?
  echo "$out"
}

# A run with a trajectory to redo (failed), then read-only.
cp "$recorded" "$tmp/runs/r.db" && chmod 644 "$tmp/runs/r.db"
sqlite3 "$tmp/runs/r.db" "UPDATE trajectories SET status = 'failed' WHERE id = 5" || fail "sqlite3"
chmod 444 "$tmp/runs/r.db"
before=$(state)
resume r.db
[ "$got" -eq 2 ] || fail "exit code $got, expected 2"
grep -q "^ptxbench run: r.db is read-only (this user may not write it); resuming writes to it" \
  <<<"$out" || fail "the refusal does not say r.db is read-only"
grep -q "chmod u+w r.db" <<<"$out" || fail "the refusal does not say what to do"
grep -qi "attempt to write a readonly database" <<<"$out" && fail "SQLite's own message is shown"
[ "$(state)" = "$before" ] || fail "the refused resume changed the folder: $(diff <(echo "$before") <(state))"

# A finished run, read-only: nothing to resume, nothing written.
cp "$recorded" "$tmp/runs/f.db" && chmod 444 "$tmp/runs/f.db"
before=$(state)
resume f.db
[ "$got" -eq 0 ] || fail "a finished read-only run: exit code $got, expected 0"
grep -q "f.db is finished (5 trajectories done): nothing to resume" <<<"$out" ||
  fail "a finished read-only run does not say there is nothing to resume"
[ "$(state)" = "$before" ] || fail "resuming the finished run changed the folder"

# A run file this user may not read at all (chmod 000) is named as unreadable, not as damaged
# (second campaign of 2026-12-05, X13: "not an SQLite database (wrong header)").
cp "$recorded" "$tmp/runs/u.db" && chmod 000 "$tmp/runs/u.db"
out=$(cd "$tmp/runs" && "${as_user[@]}" "$ptxbench" show u.db 2>&1)
got=$?
[ "$got" -eq 2 ] || fail "an unreadable run file: exit code $got, expected 2"
grep -q "cannot read u.db: Permission denied" <<<"$out" ||
  fail "an unreadable run file is not named so: $out"
echo "ok"
