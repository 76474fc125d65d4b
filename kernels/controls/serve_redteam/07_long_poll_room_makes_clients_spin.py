#!/usr/bin/env python3
"""T7. Long polls: before f2c7d6c, 8 of them (GET ...?wait=60) held all 8 HTTP threads (health
waited 29 s here, e228a02). f2c7d6c lets a poll wait only while 8 threads stay free
(http_api.cc:66-72 PollSlot, poll_room() = max(1, threads - 8)); threads is still 8 (http_api.h:32,
no flag), so ONE poll waits and every other is answered at once, state `running`. The
project's Client.wait (client.py wait: `while True: job = self.get(job_id, wait=left)`) has
no pause between polls, so every waiting trainer thread now spins: thousands of GETs a second,
each taking the service's mutex and parsing the job's row from SQLite (the whole 30 MB result
for T3's jobs), competing with submissions and the workers' next_job/set_done. AsyncClient
runs 32 such waits at once (judge_many) per trainer.
Shown: N (argv[1], default 16) Client.wait calls on a queued job (a 1 MB source) for 8 s: GETs
made, serve's CPU, a /v1/health's latency meanwhile, and jobs judged meanwhile (of 5 ahead)."""
import sys; sys.dont_write_bytecode = True
import threading, time
from _serve import Serve, GEMM, REPO, variant
sys.path.insert(0, str(REPO / "clients" / "python"))
import ptxbench_client.client as cm

n = int(sys.argv[1]) if len(sys.argv) > 1 else 16
s = Serve(args=["--workers", "1", "--cpu-slots", "1"])
ids = [s.post({"task": GEMM, "source": variant(i) + "//" + "x" * 1_000_000 + "\n"})[1]["id"]
       for i in range(6)]        # 1 MB sources: each poll reads and parses 1 MB under mu_
count = [0]
orig = cm.Client._call
def counting(self, *a, **k):
    count[0] += 1
    return orig(self, *a, **k)
cm.Client._call = counting
cpu = lambda: sum(map(int, open(f"/proc/{s.proc.pid}/stat").read().split()[13:15])) / 100
c0, t0 = cpu(), time.time()
threads = [threading.Thread(target=lambda: cm.Client(s.url).wait(ids[-1], timeout=8)) for _ in range(n)]
for t in threads:
    t.start()
time.sleep(4)
h0 = time.time(); s.call("GET", "/v1/health"); health = time.time() - h0
for t in threads:
    t.join()
el = time.time() - t0
judged = sum(s.get(i)[1]["state"] == "done" for i in ids)
print(f"{n} Client.wait for 8 s: {count[0]} GETs ({count[0]/el:.0f}/s), serve CPU {(cpu()-c0)/el:.2f} "
      f"cores, /v1/health meanwhile {health*1000:.0f} ms, jobs done {judged}")
print("WORKS (each wait should cost one GET a minute)" if n and count[0] / el > n else "does not reproduce")
s.stop()
