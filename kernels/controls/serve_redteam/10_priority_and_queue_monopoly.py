#!/usr/bin/env python3
"""T10. Any client may take priority 100 and all of --max-queued: other tenants' jobs wait
forever, expire (client: reward 0.0, no error), or are refused 429 until their client gives up.

priority is the submitter's choice (job.cc:108-111, -100..100, no per-token ceiling); the queue
is one std::set ordered by priority then id (service.h:102-108) shared by every tenant, and the
limit max_queued is global (service.cc:153-155). A job with deadline_s still queued at its
deadline ends `expired` and the client reports reward 0.0 for it (client.py Job.reward); the
client's 429 handling retries `retries` (5) times and then raises (judge_batch: "the queue
stayed full"), which ends a TRL step.
Shown: A submits one job (deadline 8 s); B then submits 6 jobs at priority 100 behind one
worker; A's job expires unjudged. Then B fills the queue (--max-queued 6) and A's client
gets ServeError 429 after its retries."""
import sys; sys.dont_write_bytecode = True
import threading, time
from _serve import Serve, GEMM, REPO, variant
sys.path.insert(0, str(REPO / "clients" / "python"))
from ptxbench_client import Client, ServeError

s = Serve(args=["--workers", "1", "--cpu-slots", "1", "--max-queued", "6"])
s.post({"task": GEMM, "source": variant(100)})                   # the worker is busy
_, a = s.post({"task": GEMM, "source": variant(101), "deadline_s": 8})
for i in range(6):
    s.post({"task": GEMM, "source": variant(200 + i), "priority": 100})
job = Client(s.url).wait(a["id"], timeout=60)
print(f"A's job: state {job.state}, reward {job.reward} (judged: {job.result is not None})")
stop = []
def refill():                                                     # B keeps the queue full
    i = 0
    while not stop:
        i += 1
        s.post({"task": GEMM, "source": variant(300 + i), "priority": 100})
        time.sleep(0.05)
threading.Thread(target=refill, daemon=True).start()
while s.call("GET", "/v1/health")[1]["queued"] < 6:
    time.sleep(0.1)
try:
    Client(s.url, retries=2, backoff=0.1).submit(GEMM, source=variant(400))
    refused = None
except ServeError as e:
    refused = e
stop.append(1)
print("A's next submission:", refused)
print("WORKS" if job.state == "expired" and refused and refused.status == 429 else "does not reproduce")
s.stop()
