#!/usr/bin/env python3
"""T3. 1 MiB in, ~30 MiB result; GET /v1/jobs?ids=X,X,...,X (1024 allowed) multiplies it in the
service's memory: one 6 KB request can get the service OOM-killed.

A source of 100k lines `fopen(a);` is a policy verdict whose compile report AND feedback list
every violation (report.compile.violations, feedback "- line N: file access is not allowed...":
stage_pipeline.cc:68-69, feedback.cc:171, no cap): ~30 MB of job JSON from a 1 MB body (the 10 MB feedback is
also what a multi-turn trainer would put in the next prompt). get_jobs (http_api.cc:142-170)
accepts the same id 1024 times; each Service::wait (service.cc:324-345) re-reads the row, parses
the 30 MB result and builds job_json (under mu_, ~0.5 s a copy), then the handler holds all of
them as one Json plus one string: ~30 GB of response (x3-7 in RSS) for one 6 KB request, and 8
such requests may run at once on the 8 HTTP threads. No cap on a response's size exists.
Shown with N ids (argv[1], default 16): response bytes, peak RSS of serve, and how long a
/v1/health sent meanwhile waited."""
import sys; sys.dont_write_bytecode = True
import threading, time
from _serve import Serve, GEMM, verdict

n = int(sys.argv[1]) if len(sys.argv) > 1 else 16
s = Serve()
_, a = s.post({"task": GEMM, "source": "fopen(a);\n" * 100000})
job = s.wait_done(a["id"])
st, one = s.call("GET", f"/v1/jobs/{a['id']}", raw=True)
print(verdict(job), "| one job's JSON:", len(one), "bytes from a 1,000,000-byte source")

peak = [0]; done = [False]
def watch():
    while not done[0]:
        peak[0] = max(peak[0], s.rss_kib()); time.sleep(0.05)
threading.Thread(target=watch, daemon=True).start()
health = {}
def probe():
    time.sleep(1.0); t = time.time(); s.call("GET", "/v1/health"); health["s"] = time.time() - t
threading.Thread(target=probe, daemon=True).start()
t = time.time()
st, body = s.call("GET", "/v1/jobs?ids=" + ",".join([str(a["id"])] * n), raw=True, timeout=600)
done[0] = True
print(f"GET ids x{n}: status {st}, {len(body):,} bytes in {time.time()-t:.1f}s; serve peak RSS "
      f"{peak[0]/1024/1024:.2f} GiB; a /v1/health sent meanwhile took {health.get('s', float('nan')):.1f}s")
print(f"x1024 (allowed) would be ~{len(one)*1024/2**30:.0f} GiB of response from one request")
print("WORKS" if len(body) > 20 * len(one) * n // 30 else "does not reproduce")
s.stop()
