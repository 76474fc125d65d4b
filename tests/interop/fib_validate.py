#!/usr/bin/env python3
"""Checks FlashInfer-Trace data written by ptxbench with the flashinfer-bench package's own
loader and validators (its pydantic models and TraceSet.from_path).

  fib_validate.py dataset DIR [--definitions N --solutions N --traces N]
      DIR loads as a TraceSet; every trace names a loaded definition and solution.
  fib_validate.py envelope FILE...
      each FILE is a ptxbench.eval.v1 result: each of its traces validates as a Trace.
  fib_validate.py definition FILE...
      each FILE validates as a Definition.

flashinfer-bench's package imports torch and flashinfer at its top; only its data layer
(flashinfer_bench/data) is used here, so the package's folder is registered without running
its __init__, and where torch or safetensors.torch is not installed, an empty stand-in is
registered (the data layer names them at import but uses them only to store tensors).
Exits 77 (skipped) when the package or pydantic cannot be imported: scripts/setup.sh installs
them into .deps/wheels.
"""
import argparse
import importlib.util
import json
import sys
import types
from pathlib import Path


def load_data_layer():
    spec = importlib.util.find_spec("flashinfer_bench")
    if spec is None or not spec.submodule_search_locations:
        return None, "flashinfer_bench is not importable"
    try:
        import pydantic  # noqa: F401
    except ImportError as e:
        return None, f"pydantic is not importable: {e}"
    package = types.ModuleType("flashinfer_bench")
    package.__path__ = list(spec.submodule_search_locations)
    sys.modules["flashinfer_bench"] = package
    if importlib.util.find_spec("torch") is None:
        sys.modules["torch"] = types.ModuleType("torch")
    try:
        import safetensors.torch  # noqa: F401
    except ImportError:
        safetensors = types.ModuleType("safetensors")
        safetensors.torch = types.ModuleType("safetensors.torch")
        sys.modules["safetensors"] = safetensors
        sys.modules["safetensors.torch"] = safetensors.torch
    import flashinfer_bench.data as data

    return data, ""


def fail(message):
    print(f"FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def check_dataset(data, args):
    root = Path(args.paths[0])
    trace_set = data.TraceSet.from_path(str(root))
    solutions = [s for ss in trace_set.solutions.values() for s in ss]
    traces = [t for ts in trace_set.traces.values() for t in ts]
    workloads = [w for ws in trace_set.workloads.values() for w in ws]
    for t in traces:
        if t.definition not in trace_set.definitions:
            fail(f"a trace names the definition {t.definition}, which is not in {root}")
        if trace_set.get_solution(t.solution) is None:
            fail(f"a trace names the solution {t.solution}, which is not in {root}")
    for w in workloads:
        if w.definition not in trace_set.definitions:
            fail(f"a workload names the definition {w.definition}, which is not in {root}")
    counts = {"definitions": len(trace_set.definitions), "solutions": len(solutions),
              "traces": len(traces)}
    for key, got in counts.items():
        want = getattr(args, key)
        if want is not None and got != want:
            fail(f"{root}: {got} {key}, expected {want}")
    if not traces:
        fail(f"{root}: no traces")
    summary = trace_set.summary()
    print(f"ok: {root} loads with flashinfer-bench: {counts}, {len(workloads)} workloads, "
          f"{summary['passed']} traces PASSED")


def check_envelopes(data, args):
    for path in args.paths:
        result = json.loads(Path(path).read_text())
        if result.get("schema") != "ptxbench.eval.v1":
            fail(f"{path}: schema is {result.get('schema')!r}")
        for trace in result["traces"]:
            data.Trace.model_validate(trace)
        print(f"ok: {path}: {len(result['traces'])} traces validate")


def check_definitions(data, args):
    for path in args.paths:
        data.Definition.model_validate_json(Path(path).read_text())
        print(f"ok: {path} validates as a Definition")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kind", choices=["dataset", "envelope", "definition"])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--definitions", type=int)
    parser.add_argument("--solutions", type=int)
    parser.add_argument("--traces", type=int)
    args = parser.parse_args()
    data, why = load_data_layer()
    if data is None:
        print(f"SKIPPED: {why} (scripts/setup.sh unpacks flashinfer-bench and pydantic into "
              ".deps/wheels)")
        sys.exit(77)
    {"dataset": check_dataset, "envelope": check_envelopes,
     "definition": check_definitions}[args.kind](data, args)


if __name__ == "__main__":
    main()
