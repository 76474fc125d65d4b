#!/usr/bin/env python3
"""The client side of tests/cli/serve_haproxy.sh (standard library only): talks to the balancer.
    serve_lb_client.py URL submit FILE N TAG      N jobs of FILE (each with a comment of its own,
                                                 TAG in it), one request each; prints the ids
    serve_lb_client.py URL submit-keyed FILE KEY  one job of FILE with the header Idempotency-Key:
                                                 KEY; prints "ID DUPLICATE"
    serve_lb_client.py URL poll ID...             long-polls each job until it ends, one by one
                                                 and as one batch per instance; checks that the
                                                 instance its id names answered; prints
                                                 "ID STATE DISPOSITION" per job
    serve_lb_client.py URL expect-421 PATH OWNER  PATH answers 421 naming OWNER
    serve_lb_client.py STATS_URL status SERVER    HAProxy's status of SERVER (UP, DOWN, ...)"""
import json
import sys
import urllib.error
import urllib.request

TASK = "gemm_n7168_k5120"


def call(url, method="GET", body=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read().decode()
    except urllib.error.HTTPError as e:  # header names in lower case: HAProxy sends them so
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read().decode()


def owner(job_id):
    return job_id.split(".")[0]


def poll(url, ids):
    ended = {}
    for job_id in ids:  # one by one: GET /v1/jobs/ID routed by its path
        for _ in range(40):
            status, headers, text = call(f"{url}/v1/jobs/{job_id}?wait=30")
            if status != 200:
                sys.exit(f"GET /v1/jobs/{job_id}: {status} {text}")
            if headers.get("x-ptxbench-instance") != owner(job_id):
                sys.exit(f"job {job_id} was answered by {headers.get('x-ptxbench-instance')}")
            job = json.loads(text)
            if job["state"] not in ("queued", "running"):
                ended[job_id] = job
                break
        else:
            sys.exit(f"job {job_id} did not end in 20 minutes")
    by_owner = {}
    for job_id in ids:
        by_owner.setdefault(owner(job_id), []).append(job_id)
    for name, group in by_owner.items():  # as one batch per instance: routed by ?ids=
        status, headers, text = call(f"{url}/v1/jobs?ids={','.join(group)}&wait=5")
        if status != 200 or headers.get("x-ptxbench-instance") != name:
            sys.exit(f"the batch of {name}: {status} from {headers.get('x-ptxbench-instance')}: {text}")
        states = [j["state"] for j in json.loads(text)["jobs"]]
        if states != [ended[i]["state"] for i in group]:
            sys.exit(f"the batch of {name} says {states}")
    for job_id in ids:
        job = ended[job_id]
        print(job_id, job["state"], (job.get("result") or {}).get("disposition"))


def main():
    url, what = sys.argv[1].rstrip("/"), sys.argv[2]
    if what == "submit":
        src = open(sys.argv[3]).read()
        ids = []
        for i in range(int(sys.argv[4])):
            status, _, text = call(f"{url}/v1/jobs", "POST",
                                   {"task": TASK, "source": f"// {sys.argv[5]} {i}\n{src}"})
            if status != 202:
                sys.exit(f"POST /v1/jobs: {status} {text}")
            ids.append(json.loads(text)["id"])
        print(" ".join(ids))
    elif what == "submit-keyed":
        src = open(sys.argv[3]).read()
        status, _, text = call(f"{url}/v1/jobs", "POST", {"task": TASK, "source": src},
                               {"Idempotency-Key": sys.argv[4]})
        if status != 202:
            sys.exit(f"POST /v1/jobs (key {sys.argv[4]}): {status} {text}")
        answer = json.loads(text)
        print(answer["id"], "duplicate" if answer["duplicate"] else "new")
    elif what == "poll":
        poll(url, sys.argv[3:])
    elif what == "expect-421":
        status, _, text = call(url + sys.argv[3])
        body = json.loads(text)
        if status != 421 or body.get("owner") != sys.argv[4]:
            sys.exit(f"{sys.argv[3]}: {status} {text}, not 421 naming {sys.argv[4]}")
        print(body["error"])
    elif what == "status":
        _, _, text = call(url + "/stats;csv")
        for line in text.splitlines():
            f = line.split(",")
            if len(f) > 17 and f[1] == sys.argv[3] and f[0] != "stats":
                print(f[17])
                return
        sys.exit(f"no server {sys.argv[3]} in HAProxy's stats")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
