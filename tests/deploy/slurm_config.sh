#!/usr/bin/env bash
# slurm_config.sh PTXBENCH: deploy/slurm/ptxbench-serve.sbatch --print-config without Slurm:
# one backend per node, named by the node's first label; a node name that cannot be an instance
# name is refused (exit 2), saying why. The script's Slurm part is not run here (no cluster).
set -u
ptxbench=$1
script=$(cd "$(dirname "$0")/../../deploy/slurm" && pwd)/ptxbench-serve.sbatch
fail() { echo "FAIL: $*" >&2; exit 1; }
out=$(PTXBENCH=$ptxbench PTXBENCH_SERVE_NODES="gpu-01.cluster gpu-02.cluster" PTXBENCH_LB_PORT=9000 \
  "$script" --print-config) || fail "--print-config: $out"
grep -qx "    server gpu-01 gpu-01.cluster:8765 check" <<<"$out" || fail "no gpu-01 server: $out"
grep -qx "    server gpu-02 gpu-02.cluster:8765 check" <<<"$out" || fail "no gpu-02 server: $out"
grep -qx "    bind 0.0.0.0:9000" <<<"$out" || fail "not bound to 9000: $out"
grep -qx "    use-server gpu-02 if { path_beg /v1/jobs/gpu-02. }" <<<"$out" || fail "no routing: $out"
err=$(PTXBENCH=$ptxbench PTXBENCH_SERVE_NODES="7node" "$script" --print-config 2>&1); rc=$?
[ "$rc" = 2 ] || fail "a node name starting with a digit: exit $rc"
grep -q 'the node name "7node" cannot be an instance name' <<<"$err" || fail "no reason given: $err"
err=$(env -u SLURM_JOB_NODELIST -u PTXBENCH_SERVE_NODES "$script" --print-config 2>&1) && fail "ran without nodes"
grep -q "not in a Slurm job: set PTXBENCH_SERVE_NODES" <<<"$err" || fail "no reason without nodes: $err"
echo "ok: one backend per node, routed by its name; a bad node name and no nodes refused"
