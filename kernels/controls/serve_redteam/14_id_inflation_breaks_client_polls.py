#!/usr/bin/env python3
"""T14. Push job ids past 1,000,000 and every trainer's 1024-job judge_batch fails with 414.

Client.wait_many (client.py) long-polls up to 1024 ids in one URL
(/v1/jobs?ids=...&wait=S); serve (http_api.cc:20 kMaxBatch = 1024, 154-155) promises 1024 ids, but
cpp-httplib 0.11.4 refuses a request-target over CPPHTTPLIB_REQUEST_URI_MAX_LENGTH = 8192
(/usr/include/httplib.h:62) with 414 before routing. Ids are SQLite rowids
(job_store.cc:10-11), one per accepted submission, including the instant no-code ones that skip
the queue limit (T4); with 7-digit ids 1024 of them take 8,213+ characters. The client does not
retry a 4xx (client.py _call) and judge_batch / the TRL adapter raise: the reward step dies for
every tenant. An attacker inflates ids with batches of 1024 one-byte no-code replies (rate
measured below); an honest fleet gets there too (1 job/s/GPU on 8 GPUs: ~35 h).
Shown: the rate of id inflation from one client; the project's Client.wait_many on 1024 ids
>= 1,000,000 (ids that exist or not: the 414 comes before any lookup)."""
import sys; sys.dont_write_bytecode = True
import time
from _serve import Serve, GEMM, REPO
sys.path.insert(0, str(REPO / "clients" / "python"))
from ptxbench_client import Client, ServeError

s = Serve()
t = time.time()
for _ in range(3):
    st, ans = s.post({"jobs": [{"task": GEMM, "reply": "x"}] * 1024})
rate = 3 * 1024 / (time.time() - t)
last = ans["jobs"][-1]["id"]
print(f"one client: {rate:.0f} ids/s (last id {last}) -> 1,000,000 in ~{1e6/rate/60:.0f} min")
try:
    Client(s.url, retries=0).wait_many(list(range(1_000_000, 1_000_000 + 1024)), timeout=5)
    err = None
except ServeError as e:
    err = e
print("Client.wait_many(1024 ids >= 1e6):", err)
print("WORKS" if err is not None and err.status == 414 else "does not reproduce")
s.stop()
