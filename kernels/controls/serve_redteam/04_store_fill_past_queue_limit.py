#!/usr/bin/env python3
"""T4. Fill the store's disk at ~900x the bytes sent, past --max-queued, without any judging.

Service::submit checks max_queued only for a job that will be queued (service.cc:153): a cache
hit and a no-code reply skip it and are written at once, each as a NEW row holding the request
and a full copy of the earlier result (cached_result copies report and feedback:
service.cc:161-172, 182-189). Nothing deletes rows (job_store.cc has no DELETE), there is no
rate limit, and result size is not bounded: a 3.4 KB candidate that instantiates 3000 kernels
(KERNELS below; it compiles and passes the policy) has a 3 MB result (ptxas resources and
the SASS census per kernel, and a 220 KB feedback). Every further copy of those 3.4 KB costs
the store 3 MB: a 3.5 MB batch of 1024 copies writes ~3 GB, each row fsynced under the one
mutex. A 64 GB disk (an H100 host here) fills in ~25 requests; then every write fails (T12).
A reply without a code block is also stored whole past the limit (up to 1 MiB each).
Shown: the candidate judged once (nvcc ~45 s on 2 cores), the queue filled so that a new
candidate gets 429, then batches of 64 copies and 7 no-code replies accepted anyway."""
import sys; sys.dont_write_bytecode = True
import json, os, time
from _serve import Serve, GEMM, NAIVE, variant

KERNELS = r"""#include <utility>
template <int N> __global__ void k(float* p) { p[N] = N; }
template <int... I> void* inst(std::integer_sequence<int, I...>) {
  static void* a[] = {(void*)&k<I>...};
  return a;
}
void* keep() { return inst(std::make_integer_sequence<int, 3000>{}); }
""" + NAIVE

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2
s = Serve(args=["--max-queued", "1", "--workers", "1", "--cpu-slots", "1"])
size = lambda: sum(os.path.getsize(s.store + x) for x in ("", "-wal") if os.path.exists(s.store + x))
_, a = s.post({"task": GEMM, "source": KERNELS})
first = s.wait_done(a["id"], timeout=600)
_, one = s.call("GET", f"/v1/jobs/{a['id']}", raw=True)
print(f"judged once: {first['result']['disposition']}, source {len(KERNELS)} B, job JSON {len(one):,} B")
s.post({"task": GEMM, "source": variant(1)}); time.sleep(0.3)     # running
s.post({"task": GEMM, "source": variant(2)})                      # queued: the queue is full
st, refused = s.post({"task": GEMM, "source": variant(3)})
print("a new candidate now gets", st, refused.get("error", ""))
base, sent, t = size(), 0, time.time()
for _ in range(rounds):
    body = {"jobs": [{"task": GEMM, "source": KERNELS}] * 64}
    sent += len(json.dumps(body))
    st, ans = s.post(body)
    assert all(j.get("cached") for j in ans["jobs"]), str(ans)[:300]
copies = size() - base
print(f"{rounds} x 64 cached copies: sent {sent/1e6:.2f} MB -> store grew {copies/1e6:.0f} MB "
      f"({copies/sent:.0f}x) in {time.time()-t:.1f}s")
body = {"jobs": [{"task": GEMM, "reply": "no code here " + "x" * 1_000_000}] * 7}
sent += len(json.dumps(body))
st, ans = s.post(body)
print("7 no-code replies past the limit:", {j.get("state") for j in ans["jobs"]})
grown = size() - base
print(f"in all: sent {sent/1e6:.1f} MB -> store grew {grown/1e6:.0f} MB, queue limit 1, nothing judged")
print("WORKS" if copies > 100 * 64 * rounds * len(KERNELS) else "does not reproduce")
s.stop()
