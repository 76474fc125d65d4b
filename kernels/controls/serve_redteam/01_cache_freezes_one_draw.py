#!/usr/bin/env python3
"""T1. The result cache turns ONE judging session into every later verdict of the same text.

docs/judging.md:175-177: every session draws its own hidden sizes (std::random_device), and a
flaky kernel (a race, a small-M path that is right only for some draws, a lucky timing) is
caught because each judgement is a fresh draw. serve's cache (service.cc:149-172 and 182-189,
job_store.cc:146-158) answers any later submission of the same code (cache_key = sha256(code), task,
arch, contract, judge description: job.cc:138-144) with the stored verdict of the first
judged one: same seed, same hidden draw, same speedup, `cached: true`, zero cost. An RL policy
re-emits byte-identical completions constantly (GRPO groups, a converged mode), so a kernel
that passed once by luck (1 in 20 draws) keeps reward ~0.33-1.0 on every later sample, and one
that failed once by bad luck keeps 0. Another tenant can also seed the cache for everyone.
Shown here on a CPU machine: the second submission gets the first one's report verbatim
(compile seconds, cache_key...), costs 0, without any judging. On a GPU the same path copies
report.eval (seed, hidden labels, speedup) and reward."""
import sys; sys.dont_write_bytecode = True
import json
from _serve import Serve, GEMM, variant, verdict

s = Serve(args=["--workers", "1", "--cpu-slots", "1"])
src = variant(1)
_, a = s.post({"task": GEMM, "source": src})
first = s.wait_done(a["id"])
# another tenant / a later GRPO step, same completion text wrapped differently as a reply
_, b = s.post({"task": GEMM, "reply": "Here is my kernel:\n```cuda\n" + src + "```\n", "reward": "kernelgym"})
second = s.wait_done(b["id"])
print("first :", verdict(first), "costs", first["result"]["costs"])
print("second:", verdict(second), "costs", second["result"]["costs"], "answer", b)
same = first["result"]["report"] == second["result"]["report"]
print("second's report identical to first's (same session reused, not re-judged):", same)
print("compile.seconds both:", first["result"]["report"]["compile"]["seconds"],
      second["result"]["report"]["compile"]["seconds"])
print("WORKS" if same and second["cached"] else "does not reproduce")
s.stop()
