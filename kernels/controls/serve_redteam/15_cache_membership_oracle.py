#!/usr/bin/env python3
"""T15. The shared cache is a cross-tenant oracle: "did anyone submit exactly this code for this
task, and what did it get?", answered instantly and for free, plus source fragments of other
tenants' jobs through GET.

cache_key (job.cc:138-144) has no tenant in it and the answer says `cached: true` at once
(service.cc:161-172): tenant B learns whether A's policy ever produced a candidate B guesses
(a public kernel, a leaked one, a known exploit), and receives A's full verdict and report
without GPU time. Separately, GET /v1/jobs/ID (T8) returns report.compile of any job: the
violation lines quote the source text (stage_pipeline.cc:68-69 `v.text`), nvcc's log quotes
lines around errors, and the census names every kernel function and its opcode counts.
Shown: A submits a kernel; B submits the same text and gets `cached: true` instantly; B reads
a source line of A's policy-violating job by id."""
import sys; sys.dont_write_bytecode = True
import time
from _serve import Serve, GEMM, variant

s = Serve()
secret = variant(77)
_, a = s.post({"task": GEMM, "source": secret})
s.wait_done(a["id"])
_, a2 = s.post({"task": GEMM, "source": "// A's secret trick\nint x = fopen(\"a-private-idea\");\n" + secret})
s.wait_done(a2["id"])
t = time.time()
st, b = s.post({"task": GEMM, "source": secret})               # tenant B's guess
print(f"B's guess answered in {time.time()-t:.3f}s: {b}")
_, other = s.get(a2["id"])
print("B reads A's job", a2["id"], "violations:", other["result"]["report"]["compile"]["violations"][:1])
print("WORKS" if b["cached"] else "does not reproduce")
s.stop()
