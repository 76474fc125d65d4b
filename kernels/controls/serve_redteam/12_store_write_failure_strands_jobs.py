#!/usr/bin/env python3
"""T12. When the store cannot take a write (disk full: T4 gets it there), a judged job stays
`running` forever, its verdict is thrown away, pollers hang to their timeout, and the next start
judges it again; since dd630d6 (committed during this review) the service also refuses EVERY
tenant's new jobs (500) until an operator restarts it, even once space is free again.

run_job (service.cc:262-269): a failed set_done sets store_error_ and is printed; running_ is
decremented, the row stays 'running', nothing wakes or fails the pollers (they see state
running until their wait ends: Client.wait loops, the adapters raise JobNotEnded after 900 s).
submit (service.cc:119-122) then answers store_failed (500) to all; the client retries 5xx 5
times and raises, ending every tenant's trainer step. next_job (service.cc:232-235): a failed
set_running drops the job from the in-memory queue while its row stays 'queued'. submit
(service.cc:165-166): a cached/no-code job whose set_done fails is left 'queued' in the store and
in no queue. A restart requeues the 'running' row (service.cc:79) and pays for it again. The
disk is simulated by RLIMIT_FSIZE (SIGXFSZ ignored) = 12 MB on serve, and the verdict that does
not fit is T3's 30 MB policy result; on a real host any write fails once the disk is full.
Shown: the job's state after 20 s of polling, the serve log, another tenant's submission and
health, then the restart that judges the job again."""
import sys; sys.dont_write_bytecode = True
import resource, signal, time
from _serve import Serve, GEMM, verdict

def limit():
    resource.setrlimit(resource.RLIMIT_FSIZE, (12 << 20, 12 << 20))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

s = Serve(preexec=limit)
_, a = s.post({"task": GEMM, "source": "fopen(a);\n" * 100000})
t = time.time()
j = s.wait_done(a["id"], timeout=20)
print(f"after {time.time()-t:.0f}s of polling: state {j['state']}; health running={s.call('GET', '/v1/health')[1]['running']}")
print("serve log:", [l for l in s.log_text().splitlines() if "job" in l][-1:])
st, new = s.post({"task": GEMM, "source": "// another tenant's job\n"})
h = s.call("GET", "/v1/health")[1]
print(f"another tenant's new job: {st} {str(new)[:120]}; health status {h['status']}")
store = s.store
s.stop()
s2 = Serve(store=store)
print("restart:", [l for l in s2.log_text().splitlines() if "queued again" in l])
j2 = s2.wait_done(a["id"], timeout=60)
print("judged again after restart:", verdict(j2))
print("WORKS" if j["state"] == "running" and j2["state"] == "done" else "does not reproduce")
s2.stop()
