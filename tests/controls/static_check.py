#!/usr/bin/env python3
"""CPU check of kernels/controls/*.toml and the reference kernels, no GPU needed:

    tests/controls/static_check.py --ptxbench BUILD/ptxbench [--jobs N]

For every manifest entry, `ptxbench compile --json` must give what the compile stage can know:
policy_violation / compile_error entries end there, except those with expect_refused (refused
by the run-time sandbox, so they must get through every static stage); every other entry
compiles, and its static SASS census agrees with expect_families (a family expected executed
or present_not_executed is in the SASS; one expected absent is not). The sm_100a references compile and their census
shows the tcgen05 family (they are never run here). Exit 0 when all agree, 1 otherwise.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import subprocess
import sys

from manifests import load_entries, refused_at_run_time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def entries(manifests):
    yield from load_entries(ROOT, manifests)
    if manifests:
        return
    for f in sorted(glob.glob(os.path.join(ROOT, "kernels", "reference", "sm_100a", "*.cu"))):
        yield {"file": os.path.relpath(f, ROOT), "_src": f, "task": os.path.basename(f)[:-3], "arch": "sm_100a",
               "expect_outcome": "passed", "expect_families": {"tcgen05": "executed"}}


def check(ptxbench, e, runtime_may_refuse=False):
    cmd = [ptxbench, "compile", e["_src"], "--task", e["task"], "--arch", e.get("arch", "sm_90a"), "--json"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    name = e["file"]
    try:
        out = json.loads(p.stdout)
    except json.JSONDecodeError:
        return f"FAIL {name}: no JSON from ptxbench compile (exit {p.returncode}): {p.stderr.strip()[-300:]}"
    want = e.get("expect_outcome")
    got = out.get("outcome")
    if want == "policy_violation" and runtime_may_refuse and got == "passed":
        return None  # a manifest without expect_refused: the run-time sandbox may be what refuses it
    if want in ("policy_violation", "compile_error") and not refused_at_run_time(e):
        return None if got == want else f"FAIL {name}: compile outcome {got}, want {want}"
    if got != "passed":
        why = " (refused only at run time: the static stages must let it through)" if refused_at_run_time(e) else ""
        return f"FAIL {name}: compile outcome {got}, want it to compile{why}: {out.get('summary', '')[:300]}"
    totals = (out.get("census") or {}).get("family_totals", {})
    problems = []
    for fam, verdict in e.get("expect_families", {}).items():
        present = totals.get(fam, 0) > 0
        if verdict in ("executed", "present_not_executed") and not present:
            problems.append(f"{fam} expected {verdict} but absent from the SASS")
        if verdict == "absent" and present:
            problems.append(f"{fam} expected absent but {totals[fam]} instructions in the SASS")
    return f"FAIL {name}: " + "; ".join(problems) if problems else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxbench", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--manifest", action="append", default=[],
                    help="check these manifest files instead of kernels/controls/*.toml (repeatable)")
    ap.add_argument("--runtime-may-refuse", action="store_true",
                    help="for manifests without expect_refused (the handed cases): a policy_violation "
                         "entry that compiles is left to the run-time sandbox instead of failing here")
    a = ap.parse_args()
    todo = list(entries(a.manifest))
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        results = list(pool.map(lambda e: check(a.ptxbench, e, a.runtime_may_refuse), todo))
    failures = [r for r in results if r]
    for e, r in zip(todo, results):
        print(r or f"ok   {e['file']} ({e['task']}, {e.get('arch', 'sm_90a')})")
    print(f"{len(todo) - len(failures)}/{len(todo)} entries agree with the compile stage")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
