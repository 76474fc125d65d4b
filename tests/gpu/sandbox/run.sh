#!/usr/bin/env bash
# The GPU sandbox test: sandbox_cuda_probe (see its header) as nobody, three ways.
#   1. learning mode: the worker's CUDA work must need no call outside the allow-list
#   2. enforced: every step works, the candidate's kernel runs, and its host function on a
#      CUDA driver thread cannot open /etc/hostname (EACCES, -13)
#   3. enforced, the candidate's constructor makes a forbidden call: exit 87, named
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
grep -q "candidate open on callback thread: -13$" <<<"$out" ||
  fail "a CUDA driver thread could open /etc/hostname"
grep -q '"complete":true' <<<"$out" || [ ${#as[@]} -eq 0 ] || fail "the sandbox is incomplete"

echo "=== 3. a forbidden call at load time"
out=$(PTXB_PROBE_SYSCALL=41 "$probe" "$candidate" "${as[@]}" 2>&1); rc=$?
echo "$out" | tail -n 3
[ $rc -eq 87 ] || fail "expected exit 87, got $rc"
grep -q "ptxbench-sandbox: refused system call 41 socket" <<<"$out" || fail "socket not named"

[ $status -eq 0 ] && echo "PASS"
exit $status
