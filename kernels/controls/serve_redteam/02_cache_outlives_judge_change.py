#!/usr/bin/env python3
"""T2. A cached verdict outlives a change of the judge: the cache key omits most of the judge.

cache_key (job.cc:138-144) hashes the code, the task (its whole spec since f2c7d6c), arch,
contract and Judger::describe() = {"ptxbench": PTXBENCH_VERSION, "gpus": N, "stages": {gpu,
gpu_arch, eval_trials, memcheck, inputs, audit_route}} (cmd_serve.cc:101-102,
stage_pipeline.cc:248-260). Not in it: ptxbench's commit (PTXBENCH_VERSION is "0.1.0" at every
commit, so a judge FIX that closes an exploit leaves the key unchanged), --call-timeout,
--sample-budget, --library-plan, --allow-weaker-sandbox, the GPU model (H100 and H200 are both
sm_90a), driver and toolkit. docs/serve.md says the key holds "the judging options". The store
is kept by default (./ptxbench-serve.db) across upgrades, so an exploit kernel's exact text
keeps its old passing verdict and reward after the judge is fixed; a store filled under a
weaker sandbox or the slower `heuristic` baseline plan (bigger speedups) serves those verdicts
to a stricter instance.
Shown: judge with default options; restart on the same store with --call-timeout 600
--sample-budget 0.1 --library-plan heuristic --allow-weaker-sandbox: the same code is answered
`cached: true` from the first verdict (and the judge description both report is identical).
Also shown: an edited task file is now a miss (fixed in f2c7d6c; at e228a02 it was a hit)."""
import sys; sys.dont_write_bytecode = True
import os, shutil, tempfile
from _serve import Serve, GEMM, REPO, variant, verdict

root = tempfile.mkdtemp(prefix="rt-root-", dir="/tmp")
for name in os.listdir(REPO):
    if name != "tasks":
        os.symlink(REPO / name, os.path.join(root, name))
shutil.copytree(REPO / "tasks", os.path.join(root, "tasks"))
toml = os.path.join(root, "tasks", "gemm", GEMM + ".toml")
env = {"PTXBENCH_ROOT": root}
store = os.path.join(root, "jobs.db")
src = variant(2)

s = Serve(store=store, env=env)
d1 = s.call("GET", "/v1/health")[1]["judge"]
_, a = s.post({"task": GEMM, "source": src})
old = s.wait_done(a["id"])
s.stop()
s = Serve(store=store, env=env, args=["--call-timeout", "600", "--sample-budget", "0.1",
                                      "--library-plan", "heuristic", "--allow-weaker-sandbox"])
d2 = s.call("GET", "/v1/health")[1]["judge"]
_, b = s.post({"task": GEMM, "source": src})
other_options = s.wait_done(b["id"])
s.stop()
with open(toml) as f:
    text = f.read()
with open(toml, "w") as f:
    f.write(text.replace('families = ["wgmma", "tma"]', 'families = ["mma_sync"]'))
s = Serve(store=store, env=env)
_, c = s.post({"task": GEMM, "source": src})
edited = s.wait_done(c["id"])
s.stop()

print("default options        :", verdict(old))
print("other judging options  :", verdict(other_options), "| describe() equal:", d1 == d2)
print("task file edited       :", verdict(edited), "(a miss since f2c7d6c)")
print("WORKS: other judging options got the old verdict" if other_options["cached"] else "does not reproduce")
shutil.rmtree(root, ignore_errors=True)
