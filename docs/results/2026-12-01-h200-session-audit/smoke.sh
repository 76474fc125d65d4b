# Smoke of the audit-in-session judge (run by scripts/device-run.sh, env set there).
B=/work/main/.devbin/ptxbench
O=${OUT:-/tmp/out}
t0=$SECONDS
j() { local name=$1; shift; local s=$SECONDS; "$@" > "$O/$name.json" 2> "$O/$name.err"; echo "$name: exit $? in $((SECONDS-s)) s";
      python3 - "$O/$name.json" <<'PY'
import json,sys
try: r=json.load(open(sys.argv[1]))
except Exception as e: print("  no json:", e); sys.exit()
e=r.get("eval") or {}; a=r.get("audit") or {}; t=(e.get("timing") or {})
print("  disposition", r.get("disposition"), "|", (r.get("message") or "")[:300])
print("  eval", e.get("outcome"), e.get("phase"), "flags", e.get("flags"), "speedup", t.get("speedup"), "verified", t.get("verified_calls"), "secs", e.get("seconds"))
print("  trace", json.dumps(e.get("audit_trace"))[:700])
print("  audit route", a.get("route"), "runtime", a.get("runtime_run"), "workload", a.get("workload"), "cov", (a.get("coverage") or {}).get("ratio"), "metric", a.get("instruction_metric_passed"), "secs", a.get("seconds"))
for f in a.get("families", []):
    if f.get("target") or f.get("verdict")=="executed": print("   fam", f.get("name"), f.get("verdict"), f.get("thread_pred_on"))
for k in a.get("kernels", []): print("   kernel", k.get("function","")[:60], "launches", k.get("launches"), "recorded", k.get("recorded"), k.get("note","")[:150])
for m in a.get("messages", []): print("   msg", m[:300])
PY
}
R=kernels/reference/sm_90a
j gemm_eval $B eval $R/gemm_n7168_k5120.cu --task gemm_n7168_k5120 --json
j gemm_ncu $B audit $R/gemm_n7168_k5120.cu --task gemm_n7168_k5120 --route ncu --json
j gemm_cupti_audit $B audit $R/gemm_n7168_k5120.cu --task gemm_n7168_k5120 --route cupti --json
j two_kernels $B audit tests/kernels/audit/two_kernels_gemm.cu --task gemm_n7168_k5120 --route cupti --json
j two_kernels_ncu $B audit tests/kernels/audit/two_kernels_gemm.cu --task gemm_n7168_k5120 --route ncu --json
j fwd_eval $B eval $R/mha_with_lse_d128.cu --task mha_with_lse_d128 --json
j gated_timing $B eval kernels/controls/gemm/audit_gated_timing.cu --task gemm_n7168_k5120 --json
echo "total $((SECONDS-t0)) s"
