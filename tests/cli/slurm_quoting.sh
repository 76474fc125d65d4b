#!/usr/bin/env bash
# slurm_quoting.sh PTXBENCH: the generated Slurm script quotes every value (issue 38). For folder
# names and run options that a shell would run or split ($(...), backquotes, quotes, ;, *, %, a
# space), the script is run with a stand-in sbatch that keeps its arguments and job scripts; then
# each job script is run with a stand-in ptxbench that records its arguments. Nothing may run
# (no PWNED file), and every value must arrive as one argument, unchanged.
set -u
ptxbench=$(readlink -f "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ptxbench-slurm-quote-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$tmp/bin"
cat >"$tmp/bin/sbatch" <<'SH'
#!/usr/bin/env bash
n=$(find "$SBATCH_LOG" -name '*.args' | wc -l)
printf '%s\n' "$@" >"$SBATCH_LOG/call-$n.args"
cat >"$SBATCH_LOG/call-$n.script"
echo "$((100 + n));cluster"
SH
chmod +x "$tmp/bin/sbatch"
cat >"$tmp/fake_ptxbench" <<'SH'
#!/usr/bin/env bash
printf '%s\n' "$@" >>"$PTXBENCH_ARGS_LOG"
SH
chmod +x "$tmp/fake_ptxbench"
i=0
for name in '$(touch PWNED)' '`touch PWNED`' 'a"; touch PWNED; "b' "it's" 'x;touch PWNED' \
    'star *' '%a%j%%' '$HOME'; do
  i=$((i + 1))
  work=$tmp/case$i
  mkdir -p "$work/log"
  cd "$work" || exit 1
  dir="$work/$name"
  "$ptxbench" slurm script --shards 2 --dir "$dir" -- --tasks gemm_n7168_k5120 \
    --model "$name" --base-url http://127.0.0.1:9/v1 >script.sh 2>err.txt ||
    fail "slurm script for '$name': $(cat err.txt)"
  SBATCH_LOG=$work/log PATH="$tmp/bin:$PATH" bash script.sh >out.txt 2>&1 ||
    fail "the script for '$name' failed: $(cat out.txt)"
  grep -qF -- "-> $dir/merged.db" out.txt || fail "'$name': the echo shows $(cat out.txt)"
  grep -qxF -- "--output=$(sed 's/%/%%/g' <<<"$dir")/logs/merge.out" log/call-1.args ||
    fail "'$name': sbatch's merge --output is $(grep output log/call-1.args)"
  for job in log/call-0.script log/call-1.script; do
    sed "s#'${ptxbench//#/\\#}'#'$tmp/fake_ptxbench'#g" "$job" >job.sh
    : >args.log
    SLURM_ARRAY_TASK_ID=1 PTXBENCH_ARGS_LOG=$work/args.log bash job.sh ||
      fail "'$name': $job failed"
    if [ "$job" = log/call-0.script ] && ! grep -qxF -- "$name" args.log; then
      fail "'$name': --model did not arrive whole: $(cat args.log)"
    fi
    grep -qF -- "$dir/" args.log || fail "'$name': the folder did not arrive whole: $(cat args.log)"
  done
  [ -d "$dir/logs" ] || fail "'$name': the script did not make $dir/logs"
  if find "$tmp" -name PWNED | grep -q .; then fail "'$name': a value was run as a command"; fi
done
echo "ok: $i hostile names quoted"
