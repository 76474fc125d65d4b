#!/usr/bin/env python3
"""A verdict must not depend on the host compiler that nvcc uses (issue 16). Builds every entry
of kernels/controls/compat.toml (and ../shared/cases/compat/manifest.toml when present) with
nvcc -ccbin g++ and nvcc -ccbin clang++ (tests/compile/nvcc_host*.sh, through PTXBENCH_NVCC),
each into its own compile cache, and asserts that both give the same compile outcome and that
it is the entry's expected one (for entries expected to run, `passed`). Exit 0 when all agree,
1 otherwise, 77 (skip) when clang++ or nvcc is missing.

    tests/compile/host_compilers.py --ptxbench BUILD/ptxbench
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "controls"))
from manifests import load_manifest  # noqa: E402

WRAPPERS = {"g++": "nvcc_host.sh", "clang++": "nvcc_host_clang++.sh"}


def outcome(ptxbench, entry, wrapper, cache):
    env = dict(os.environ, PTXBENCH_NVCC=os.path.join(HERE, wrapper), PTXBENCH_CACHE=cache)
    p = subprocess.run([ptxbench, "compile", entry["_src"], "--task", entry["task"], "--arch",
                        entry.get("arch", "sm_90a"), "--json"],
                       capture_output=True, text=True, timeout=600, env=env)
    try:
        out = json.loads(p.stdout)
    except json.JSONDecodeError:
        return f"no JSON (exit {p.returncode}): {p.stderr.strip()[-200:]}", ""
    return out.get("outcome"), out.get("summary", "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxbench", required=True)
    a = ap.parse_args()
    nvcc = "/usr/local/cuda/bin/nvcc"
    if not (shutil.which("clang++") and (os.access(nvcc, os.X_OK) or shutil.which("nvcc"))):
        print("skip: needs clang++ and nvcc")
        return 77
    manifests = [os.path.join(ROOT, "kernels", "controls", "compat.toml")]
    cases = os.path.join(ROOT, "..", "shared", "cases", "compat", "manifest.toml")
    if os.path.exists(cases):
        manifests.append(cases)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="ptxbench-host-cxx-") as tmp:
        for m in manifests:
            for e in load_manifest(m):
                want = e.get("expect_outcome")
                want = want if want in ("policy_violation", "compile_error") else "passed"
                got = {cxx: outcome(a.ptxbench, e, w, os.path.join(tmp, cxx))
                       for cxx, w in WRAPPERS.items()}
                verdicts = {cxx: g[0] for cxx, g in got.items()}
                ok = len(set(verdicts.values())) == 1 and verdicts["g++"] == want
                failures += not ok
                print(f"{'ok  ' if ok else 'FAIL'} {os.path.basename(e['_src'])}: "
                      + ", ".join(f"{c} {v}" for c, v in verdicts.items()) + f" (want {want})")
                if not ok:
                    for cxx, (_, summary) in got.items():
                        print(f"     {cxx}: {summary[:300]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
