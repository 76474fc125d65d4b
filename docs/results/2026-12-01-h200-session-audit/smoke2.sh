# The ncu route with the runner sandboxed (sockets allowed), then sandbox controls under it.
B=/work/main/.devbin/ptxbench
O=${OUT:-/tmp/out}
for k in kernels/reference/sm_90a/gemm_n7168_k5120.cu:gemm_n7168_k5120 tests/kernels/audit/two_kernels_gemm.cu:gemm_n7168_k5120 \
         kernels/controls/sandbox/raw_read_hostname.cu:gemm_n7168_k5120 kernels/controls/sandbox/raw_socket.cu:gemm_n7168_k5120 kernels/controls/sandbox/raw_tmp_file.cu:gemm_n7168_k5120 \
         kernels/controls/sandbox/entry_point_l2_reset.cu:gemm_n7168_k5120; do
  f=${k%%:*}; t=${k##*:}; n=$(basename $f .cu)
  s=$SECONDS; $B audit $f --task $t --route ncu --json > $O/ncu_$n.json 2> $O/ncu_$n.err; rc=$?
  python3 -c '
import json,sys
r=json.load(open(sys.argv[1])); e=r.get("eval") or {}; a=r.get("audit") or {}
print(sys.argv[2], "rc", sys.argv[3], r.get("disposition"), "|", (r.get("message") or "")[:400])
print("  sandbox", json.dumps((e.get("sandbox") or {}).get("missing")), "cov", (a.get("coverage") or {}).get("ratio"), [ (f["name"],f["verdict"]) for f in a.get("families",[]) if f.get("target")])
print("  stderr", (e.get("worker_stderr_tail") or "")[-600:])
' $O/ncu_$n.json $n $rc 2>&1 | head -12
  echo "  ($((SECONDS-s)) s)"
done
