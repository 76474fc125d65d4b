#!/usr/bin/env python3
"""T13. A queued job whose task is gone at the next start aborted the whole service, at every
start: the store replayed a job the new process could not judge. FIXED in f2c7d6c (committed
during this review): Service::start now ends such a job harness_error (service.cc:71-76).

At e228a02: submit() checked the task, but a restart re-queued every unfinished row without
checking it against the tasks then loaded, and run_job asserted it (service.cc:223-224 there:
PTXB_CHECK(task != nullptr, "run_job: submit() checked the task") -> SIGABRT, exit -6 at both
of two restarts, seen here). A task renamed or dropped between versions of the suite (or a tasks/ checkout that
failed to load one file) while jobs wait, and every restart dies within a second; jobs of
every tenant wait behind it (a supervisor restarts it in a loop). Flooding the queue with
every task's jobs (T10) makes sure some are waiting at any upgrade.
Shown: 4 jobs queued behind one worker, SIGTERM, the task's file removed, two restarts; prints
"does not reproduce" on a fixed build (the jobs then end harness_error, reward 0)."""
import sys; sys.dont_write_bytecode = True
import os, shutil, tempfile, time
from _serve import Serve, GEMM, REPO, variant

root = tempfile.mkdtemp(prefix="rt-root-", dir="/tmp")
for name in os.listdir(REPO):
    if name != "tasks":
        os.symlink(REPO / name, os.path.join(root, name))
shutil.copytree(REPO / "tasks", os.path.join(root, "tasks"))
env = {"PTXBENCH_ROOT": root}
store = os.path.join(root, "jobs.db")
s = Serve(store=store, env=env, args=["--workers", "1", "--cpu-slots", "1"])
for i in range(4):
    s.post({"task": GEMM, "source": variant(600 + i)})
time.sleep(0.5)
s.stop()
os.remove(os.path.join(root, "tasks", "gemm", GEMM + ".toml"))
codes = []
for attempt in range(2):
    r = Serve(store=store, env=env, wait_up=False)
    try:
        r.proc.wait(15)
    except Exception:
        pass
    codes.append(r.proc.returncode)
    print(f"start {attempt + 1}: exit {r.proc.returncode};",
          " | ".join(l for l in r.log_text().splitlines() if "queued again" in l or "check" in l.lower())[:300])
    if r.proc.poll() is None:
        print("  the first job now:", r.wait_done(1, timeout=10).get("result", {}).get("disposition"))
    r.stop()
print("WORKS" if all(c not in (None, 0) for c in codes) else "does not reproduce")
shutil.rmtree(root, ignore_errors=True)
