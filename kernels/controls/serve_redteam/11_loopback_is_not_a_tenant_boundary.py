#!/usr/bin/env python3
"""T11. "Loopback, no token" trusts every process on the host: any local user, and the judged
candidate's own process when the audit falls back to Nsight Compute.

cmd_serve.cc:70-77 lets a token-less service start whenever --host is loopback (the default),
and then http_api.cc:77 authorises everything. On a shared GPU host any uid can submit, read
every result, cancel queued jobs (T8) or fill the store (T4). The candidate too: the judge's
`auto` audit reruns a session under ncu when CUPTI missed a kernel (judge.cc:108, auditor.cc:
132-141; a candidate shares the CUPTI collector's address space, sandbox.h:51-57); in that
session the broker that loads the candidate is started WITHOUT an empty network namespace
(judge_session_peers.cc:166-168) and with socket calls allowed (broker_sandbox.cc:50,
seccomp_filter.cc:214-226); only Landlock ABI >= 4 (Linux >= 6.7) refuses TCP connect
(sandbox.h:20). On an older kernel (Ubuntu 22.04's 5.15/6.5, common on H100 hosts) the
candidate's constructor can connect to 127.0.0.1:8765 and cancel/read other jobs while
being judged: socket/connect as raw system calls from host code pass the static rules (this
script's SNIPPET, with naive_correct.cu appended, gives `ptxbench compile` outcome passed).
Shown: a process running as `nobody` (another local user) cancels root's queued job on a
token-less service. The candidate path is argued from the code (no GPU here)."""
import sys; sys.dont_write_bytecode = True
import os, subprocess, time
from _serve import Serve, GEMM, variant, BINARY, NAIVE

SNIPPET = r"""
static long raw3(long n, long a, long b, long c) { long r; asm volatile("sysc" "all" : "=a"(r)
  : "a"(n), "D"(a), "S"(b), "d"(c) : "rcx", "r11", "memory"); return r; }
long probe_net() { return raw3(41 /* socket */, 2 /* AF_INET */, 1 /* STREAM */, 0); }
"""

s = Serve(args=["--workers", "1", "--cpu-slots", "1"])
s.post({"task": GEMM, "source": variant(500)})
_, victim = s.post({"task": GEMM, "source": variant(501)})
cmd = ["curl", "-s", "-X", "DELETE", f"{s.url}/v1/jobs/{victim['id']}"]
if os.geteuid() == 0:
    cmd = ["runuser", "-u", "nobody", "--"] + cmd
r = subprocess.run(cmd, capture_output=True, text=True)
print("as", "nobody" if os.geteuid() == 0 else "this user", "->", r.stdout.strip())
st, j = s.get(victim["id"])
print("victim job state:", j["state"])
cu = os.path.join(s.dir, "raw_socket.cu")
open(cu, "w").write(SNIPPET + NAIVE)
out = subprocess.run([BINARY, "compile", cu, "--task", GEMM, "--json"], capture_output=True, text=True,
                     env=dict(os.environ, PTXBENCH_NO_GPU="1", PTXBENCH_CACHE="/tmp/rt-cache")).stdout
import json as _j
print("a candidate with raw socket syscalls, `ptxbench compile`:", _j.loads(out).get("outcome"))
print("WORKS" if j["state"] == "cancelled" else "does not reproduce")
s.stop()
