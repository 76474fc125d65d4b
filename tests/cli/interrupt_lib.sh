# Sourced by interrupt.sh and interrupt_mine.sh: signal_and_expect SIGNAL PID WAIT_PID
# sends SIGNAL (INT or TERM) to PID, waits for WAIT_PID (PID or a wrapper that returns its exit
# code), prints out.txt, and fails unless it ended within 10 s with 128 + the signal's number
# and said it was interrupted. Sets $got to the exit code.
signal_and_expect() {
  local sig=$1 pid=$2 wait_pid=$3 start want
  kill -"$sig" "$pid"
  start=$(date +%s)
  wait "$wait_pid"
  got=$?
  cat out.txt
  want=$((128 + $(kill -l "$sig")))
  [ "$got" -eq "$want" ] || { echo "FAIL: exit code $got, expected $want" >&2; exit 1; }
  [ $(($(date +%s) - start)) -le 10 ] || { echo "FAIL: took more than 10 s to stop" >&2; exit 1; }
  grep -q "interrupted (SIG$sig)" out.txt || { echo "FAIL: no interruption message" >&2; exit 1; }
}
