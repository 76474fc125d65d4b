#!/usr/bin/env python3
"""T9. Idempotency keys are one namespace for all tenants and bind nothing of the body: whoever
uses a key first decides the verdict and reward every later holder of that key gets.

Service::submit (service.cc:130-138) answers a known key with the earlier job "whatever else its
body says" (docs/serve.md): another task, another source, another preset. Keys are not scoped
by tenant/token, are shown to everyone in job_json (service.cc:315), and the Python client
drops the answer's `duplicate` flag (client.py submit: returns only ["id"]). A trainer that
gives its own keys (serve.md invites it: "give a key of your own"; e.g. f"{run}-{step}-{i}" so
that a restarted trainer does not re-submit) can be pre-empted: a tenant that has seen the
pattern via GET /v1/jobs/ID claims the next step's keys with jobs of ITS choice (a known
passing kernel -> reward for work the policy did not do; or garbage -> 0), and the trainer
credits those verdicts to its own completions without any sign.
Shown: B claims key "runA-step8-0" with an attention job; A submits a GEMM candidate under that
key through the project's Client and gets B's job (another task and source) as its own."""
import sys; sys.dont_write_bytecode = True
from _serve import Serve, GEMM, REPO, variant, verdict
sys.path.insert(0, str(REPO / "clients" / "python"))
from ptxbench_client import Client

s = Serve()
st, b = s.post({"task": "mha_with_lse_d128", "source": variant(7), "idempotency_key": "runA-step8-0"})
s.wait_done(b["id"])
a_client = Client(s.url)
job = a_client.judge(task=GEMM, reply="```cuda\n// A's own, different kernel\n" + variant(8) + "```",
                     idempotency_key="runA-step8-0", timeout=60)
print("B's job:", b)
print(f"A asked for {GEMM}; its Client returned job {job.id} for task {job.raw['task']}:",
      verdict(job.raw), "- A's code was never judged")
print("WORKS" if job.id == b["id"] and job.raw["task"] != GEMM else "does not reproduce")
s.stop()
