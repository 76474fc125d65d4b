#!/usr/bin/env python3
"""A minimal client of `ptxbench serve` for tests/cli/serve.sh (standard library only).
    serve_client.py PORT submit-and-wait FILE      one job of FILE; prints the finished job
    serve_client.py PORT submit-variants FILE N    N jobs of FILE, each with a comment of its own; prints the ids
    serve_client.py PORT wait ID                   long-polls job ID until it ends; prints it
    serve_client.py PORT metrics                   prints /v1/metrics"""
import json
import sys
import urllib.request

TASK = "gemm_n7168_k5120"


def call(port, method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        text = r.read().decode()
        return json.loads(text) if path != "/v1/metrics" else text


def wait(port, job_id):
    for _ in range(20):
        job = call(port, "GET", f"/v1/jobs/{job_id}?wait=30")
        if job["state"] not in ("queued", "running"):
            return job
    sys.exit(f"job {job_id} did not end in 10 minutes")


def main():
    port, what = sys.argv[1], sys.argv[2]
    if what == "submit-and-wait":
        src = open(sys.argv[3]).read()
        job = call(port, "POST", "/v1/jobs", {"task": TASK, "source": src})
        print(json.dumps(wait(port, job["id"]), indent=1))
    elif what == "submit-variants":
        src = open(sys.argv[3]).read()
        ids = [call(port, "POST", "/v1/jobs", {"task": TASK, "source": f"// variant {i}\n{src}"})["id"]
               for i in range(int(sys.argv[4]))]
        print(" ".join(str(i) for i in ids))
    elif what == "wait":
        print(json.dumps(wait(port, sys.argv[3]), indent=1))
    elif what == "metrics":
        print(call(port, "GET", "/v1/metrics"))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
