#!/usr/bin/env python3
"""Load on `ptxbench serve` (issue 35, item 8): a stream of distinct, never-compiled candidates
at a chosen rate, as an RL trainer sends them. Each candidate is a control or reference kernel
of the set bench/judging_cost.py judges (every sm_90a entry of kernels/controls/*.toml and the
handed judge cases) with a comment of its own prepended, so that neither the compile cache nor
serve's result cache has seen it. Reports throughput (candidates judged per second), latency
from submission to result (p50, p90, p99), the GPU's busy share (serve's
ptxbench_gpu_busy_seconds_total over the run's wall time, per GPU), the verdicts, and with
--agree how many verdicts equal their manifest's expect_outcome (the judge's own controls say
what a sound judge answers). A program, not a test: it asserts nothing.

    bench/serve_load.py [--url URL | --ptxbench BIN [--gpus N]] [--rate R] [--count N]
                        [--manifest M.toml ...] [--only SUBSTR] [--out FILE.jsonl] [--agree]
                        [--max-seconds S] [--shuffle SEED]

--url: a running service; else --ptxbench starts one (port 0, a fresh store and compile cache
in a temporary folder) and stops it at the end. --rate: submissions per second (default 1);
--count: how many (default: the whole set once). --max-seconds: stop submitting and waiting after
S seconds and report what was judged by then (the rest as `unfinished`): a run inside a time
limit still reports. --shuffle: the set in an order drawn from SEED (else manifest order, where
the attention controls, the heaviest, come first): a run cut short then measures the mix."""
import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
sys.path.insert(0, os.path.join(root, "tests", "controls"))
sys.path.insert(0, os.path.join(root, "clients", "python"))
sys.path.insert(0, here)
from manifests import load_entries  # noqa: E402
from ptxbench_client import Client, ServeError  # noqa: E402
from judging_cost import default_manifests  # noqa: E402


def start_service(ptxbench, gpus, folder):
    env = dict(os.environ, PTXBENCH_CACHE=os.path.join(folder, "cache"))
    cmd = [ptxbench, "serve", "--port", "0", "--store", os.path.join(folder, "jobs.db")]
    if gpus is not None:
        cmd += ["--gpus", str(gpus)]
    log = open(os.path.join(folder, "serve.log"), "w+")
    proc = subprocess.Popen(cmd, env=env, stderr=log)
    for _ in range(300):
        log.seek(0)
        m = re.search(r"listening on (http://[^ ]+)/v1", log.read())
        if m:
            return proc, m.group(1)
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    log.seek(0)
    sys.exit("serve_load: ptxbench serve did not start:\n" + log.read())


def gpu_busy_seconds(client):
    m = re.search(r"^ptxbench_gpu_busy_seconds_total ([0-9.e+-]+)$", client.metrics(), re.M)
    return float(m.group(1)) if m else 0.0


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def agrees(row):
    """Whether a job's disposition is what its manifest expects. Manifests name eval's outcomes: a
    disposition spells policy_violation "policy", and names a pass where the manifest expects a
    target instruction family not executed (absent, or present and never run)
    `passed_missing_instructions`. Any outcome of the manifest's `also_acceptable` agrees too (the
    H100's run of 2026-12-08 counted isolation/ldso_rdebug_cublaslt's accepted pass as a
    disagreement)."""
    for outcome in [row["expect"]] + list(row.get("also_acceptable") or []):
        want = {"policy_violation": "policy"}.get(outcome, outcome)
        if row["disposition"] == want:
            return True
        if row["disposition"] == "passed_missing_instructions" and want == "passed" and row["expect_missing"]:
            return True
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url")
    ap.add_argument("--ptxbench", default=os.path.join(root, "build", "ptxbench"))
    ap.add_argument("--gpus", type=int)
    ap.add_argument("--rate", type=float, default=1.0)
    ap.add_argument("--count", type=int)
    ap.add_argument("--manifest", action="append", default=[])
    ap.add_argument("--only", default="")
    ap.add_argument("--out")
    ap.add_argument("--agree", action="store_true")
    ap.add_argument("--max-seconds", type=float)
    ap.add_argument("--shuffle", type=int, metavar="SEED")
    a = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # a run stopped from outside keeps what it printed
    entries = [e for e in load_entries(root, a.manifest or default_manifests())
               if e.get("arch", "sm_90a") == "sm_90a" and not e.get("memcheck") and a.only in e["_src"]]
    if not entries:
        sys.exit("serve_load: no candidates (check --manifest / --only)")
    if a.shuffle is not None:
        random.Random(a.shuffle).shuffle(entries)
    count = a.count or len(entries)
    folder = tempfile.mkdtemp(prefix="serve_load_")
    proc = None
    url = a.url
    if not url:
        proc, url = start_service(a.ptxbench, a.gpus, folder)
    client = Client(url, timeout=120)
    gpus = int(client.health().get("gpus", 0))
    busy0 = gpu_busy_seconds(client)
    submitted, lock = [], threading.Lock()
    refused = 0  # submissions still refused (429, queue full) after the client's own retries
    t0 = time.time()
    stop = None if a.max_seconds is None else t0 + a.max_seconds
    for i in range(count):
        if stop is not None and max(time.time(), t0 + i / a.rate) >= stop:
            break  # --max-seconds: no more submissions (a submission held back by 429 counts)
        e = entries[i % len(entries)]
        src = f"// serve_load {uuid.uuid4().hex}\n" + open(e["_src"]).read()
        due = t0 + i / a.rate
        time.sleep(max(0.0, due - time.time()))
        job_id = None
        while job_id is None and (stop is None or time.time() < stop):
            try:  # the client waits out a 429's Retry-After itself, `retries` times
                job_id = client.submit(e["task"], source=src)
            except ServeError as err:
                if err.status != 429:
                    raise
                refused += 1
        if job_id is None:
            break
        with lock:
            submitted.append((job_id, e, time.time()))
    jobs = client.wait_many([s[0] for s in submitted],
                            None if stop is None else max(0.0, stop - time.time()))
    wall = time.time() - t0
    busy = gpu_busy_seconds(client) - busy0
    rows = []
    for (job_id, e, at), job in zip(submitted, jobs):
        latency = (job.raw.get("finished") or time.time()) - job.raw["submitted"]
        rows.append({"file": os.path.relpath(e["_src"], root), "task": e["task"], "id": job_id,
                     "disposition": job.disposition if job.final else "unfinished",
                     "expect": e.get("expect_outcome"),
                     "also_acceptable": e.get("also_acceptable") or [],
                     "expect_missing": any(v != "executed" for v in (e.get("expect_families") or {}).values()),
                     "latency_s": round(latency, 3), "costs": (job.result or {}).get("costs")})
    if a.out:
        with open(a.out, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    done = [r for r in rows if r["disposition"] != "unfinished"]
    lat = [r["latency_s"] for r in done] or [0.0]
    counts = {}
    for r in rows:
        counts[r["disposition"]] = counts.get(r["disposition"], 0) + 1
    print(f"serve_load: {len(rows)} new candidates submitted at {a.rate:g}/s to {url}, {len(done)} judged "
          f"in {wall:.1f} s: {len(done) / wall:.2f} per second")
    print(f"latency s: p50 {percentile(lat, 0.5):.2f}  p90 {percentile(lat, 0.9):.2f}  "
          f"p99 {percentile(lat, 0.99):.2f}  mean {statistics.mean(lat):.2f}")
    print(f"GPU busy: {busy:.1f} GPU-s over {wall:.1f} s on {gpus} GPU(s) = {100 * busy / (wall * gpus):.0f}%"
          if gpus else "no GPU: compile and static audit only (every correct verdict is not_evaluated)")
    if refused:
        print(f"backpressure: {refused} times a submission stayed refused (429, queue full) past "
              f"the client's retries, and was tried again")
    print("verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=str)))
    if a.agree:
        bad = [r for r in done if not agrees(r)]
        print(f"agree with their manifests: {len(done) - len(bad)}/{len(done)}" +
              "".join(f"\n  {r['file']}: {r['disposition']} (manifest: {r['expect']})" for r in bad[:40]))
    if proc:
        proc.terminate()
        proc.wait(120)


if __name__ == "__main__":
    main()
