#!/usr/bin/env python3
"""compare_runs.py A.json B.json: whether two `ptxbench show --json` outputs give the same
results. Left out: what differs between any two runs of one plan (the file's path, its
creation time, the provenance: host, start time, shards; each group's measured cost: nvcc's
CPU-seconds are 0 on a compile-cache hit, request and GPU seconds are clocks) and the
configuration's settings of how one machine ran them (concurrency, cpu_jobs, gpus). Exit 0
when equal, else 1 with a diff."""
import difflib
import json
import sys


def drop_cost(node):
    if isinstance(node, dict):
        node.pop("cost", None)
        for v in node.values():
            drop_cost(v)
    elif isinstance(node, list):
        for v in node:
            drop_cost(v)


def results(path):
    with open(path, encoding="utf-8") as f:
        j = json.load(f)
    for k in ("run", "created_at", "provenance"):
        j.pop(k, None)
    for k in ("concurrency", "cpu_jobs", "gpus"):
        j.get("config", {}).pop(k, None)
    drop_cost(j)
    return json.dumps(j, indent=1, sort_keys=True).splitlines()


a, b = results(sys.argv[1]), results(sys.argv[2])
if a == b:
    print(f"same results: {sys.argv[1]} and {sys.argv[2]} ({len(a)} lines)")
    sys.exit(0)
print("\n".join(difflib.unified_diff(a, b, sys.argv[1], sys.argv[2], lineterm="")))
sys.exit(1)
