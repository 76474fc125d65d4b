#!/usr/bin/env python3
"""The tvm-ffi contract's examples (kernels/examples/tvm_ffi/, shown in docs/kernel-contract.md)
build: `ptxbench compile --json` detects their contract from the source and passes each for its
task; `--contract native` on the same file does not build (the native contract has no TVM-FFI
headers), and `--contract tvm-ffi` on a native kernel is refused (no exported run). Exit 0 when all hold, 1 otherwise, 77
(skip) when nvcc is missing.

    tests/compile/tvm_ffi_examples.py --ptxbench BUILD/ptxbench
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
EXAMPLES = [("gemm.cu", "gemm_n7168_k5120"), ("mha_fwd.cu", "mha_with_lse_d128"),
            ("mha_bwd.cu", "mha_bwd_d128")]
NATIVE_GEMM = os.path.join(ROOT, "kernels", "controls", "gemm", "naive_correct.cu")


def compile_json(ptxbench, path, task, *extra):
    p = subprocess.run([ptxbench, "compile", path, "--task", task, "--json", *extra],
                       capture_output=True, text=True, timeout=900)
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"outcome": f"no JSON (exit {p.returncode}): {p.stderr.strip()[-300:]}"}


def expect(failures, name, out, outcome, contract, text=None):
    problems = []
    if out.get("outcome") != outcome:
        problems.append(f"outcome {out.get('outcome')}, want {outcome}")
    if out.get("contract") != contract:
        problems.append(f"contract {out.get('contract')}, want {contract}")
    if text and text not in out.get("summary", ""):
        problems.append(f"summary lacks {text!r}")
    if problems:
        failures.append(f"FAIL {name}: " + "; ".join(problems) + ": " + out.get("summary", "")[:400])
    else:
        print(f"ok   {name}: {outcome}, contract {contract}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ptxbench", required=True)
    a = ap.parse_args()
    if not (shutil.which("nvcc") or os.path.exists("/usr/local/cuda/bin/nvcc")):
        print("SKIPPED: nvcc not found")
        return 77
    failures = []
    for file, task in EXAMPLES:
        path = os.path.join(ROOT, "kernels", "examples", "tvm_ffi", file)
        out = compile_json(a.ptxbench, path, task)
        expect(failures, file, out, "passed", "tvm-ffi")
        if out.get("outcome") == "passed" and "-ltvm_ffi" not in out.get("command", []):
            failures.append(f"FAIL {file}: not linked with -ltvm_ffi: {out.get('command')}")
    gemm = os.path.join(ROOT, "kernels", "examples", "tvm_ffi", "gemm.cu")
    expect(failures, "gemm.cu --contract native", compile_json(
        a.ptxbench, gemm, "gemm_n7168_k5120", "--contract", "native"), "compile_error", "native",
        "tvm/ffi/container/tensor.h")
    expect(failures, "native naive_correct.cu --contract tvm-ffi", compile_json(
        a.ptxbench, NATIVE_GEMM, "gemm_n7168_k5120", "--contract", "tvm-ffi"), "compile_error",
        "tvm-ffi", "TVM_FFI_DLL_EXPORT_TYPED_FUNC(run")
    expect(failures, "native naive_correct.cu (auto)", compile_json(
        a.ptxbench, NATIVE_GEMM, "gemm_n7168_k5120"), "passed", "native")
    for f in failures:
        print(f)
    print(f"{len(EXAMPLES) + 3 - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
