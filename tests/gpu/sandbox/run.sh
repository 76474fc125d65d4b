#!/usr/bin/env bash
# The GPU sandbox test: sandbox_cuda_probe (see its header) as nobody, five ways.
#   1. learning mode: the worker's CUDA work must need no call outside the allow-list and no
#      file outside the policy (file accesses Landlock refuses are listed too)
#   2. enforced, file access reporting on: every step works, the candidate's kernel runs
#      (nothing the driver opens after initialisation is refused)
#   3. enforced, the candidate's constructor makes a forbidden call: exit 87, named
#   4. reporting off: the candidate's host function on a CUDA driver thread cannot open
#      /etc/hostname (Landlock: EACCES, -13) and the run goes on
#   5. reporting on: the same open ends the run, exit 87, openat and the path named
# usage: run.sh PROBE CANDIDATE.so
set -uo pipefail
# Copies of both where nobody can read them (the checkout may sit in root's home).
tmp=$(mktemp -d /tmp/ptxb-gpu-sandbox-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cp "$1" "$2" "$tmp"/ && chmod 755 "$tmp" "$tmp"/*
probe=$tmp/$(basename "$1") candidate=$tmp/$(basename "$2")
status=0
fail() { echo "FAIL: $*"; status=1; }
as=(--as-nobody)
[ "$(id -u)" -eq 0 ] || as=()

echo "=== 1. learning mode"
out=$("$probe" "$candidate" --learn --cupti --libs "${as[@]}" 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "learning run exited $rc"
grep -q "ptxbench-sandbox: would refuse" <<<"$out" && fail "calls outside the allow-list (above)"

echo "=== 2. enforced"
out=$("$probe" "$candidate" --cupti --libs "${as[@]}" 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "enforced run exited $rc"
grep -q "done, 0 failed steps" <<<"$out" || fail "not every step worked"
grep -q "value after candidate: 7 " <<<"$out" || fail "the candidate's kernel did not run"
grep -q '"file_access_reported":true' <<<"$out" || fail "file access reporting is not active"
grep -q '"complete":true' <<<"$out" || [ ${#as[@]} -eq 0 ] || fail "the sandbox is incomplete"

echo "=== 3. a forbidden call at load time"
out=$(PTXB_PROBE_SYSCALL=41 "$probe" "$candidate" "${as[@]}" 2>&1); rc=$?
echo "$out" | tail -n 3
[ $rc -eq 87 ] || fail "expected exit 87, got $rc"
grep -q "ptxbench-sandbox: refused system call 41 socket" <<<"$out" || fail "socket not named"

echo "=== 4. a driver thread opens a file outside the policy, reporting off"
out=$("$probe" "$candidate" --open-on-callback --no-file-report "${as[@]}" 2>&1); rc=$?
echo "$out" | tail -n 3
[ $rc -eq 0 ] || fail "run exited $rc"
grep -q "candidate open on callback thread: -13$" <<<"$out" ||
  fail "a CUDA driver thread could open /etc/hostname"

echo "=== 5. the same, reporting on"
out=$("$probe" "$candidate" --open-on-callback "${as[@]}" 2>&1); rc=$?
echo "$out" | tail -n 3
[ $rc -eq 87 ] || fail "expected exit 87, got $rc"
grep -q "ptxbench-sandbox: refused system call 257 openat /etc/hostname" <<<"$out" ||
  fail "the open on the driver thread was not named"
grep -q "candidate open on callback thread" <<<"$out" && fail "the open returned to the candidate"

[ $status -eq 0 ] && echo "PASS"
exit $status
