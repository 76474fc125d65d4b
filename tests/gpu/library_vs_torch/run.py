#!/usr/bin/env python3
"""GPU check (issue 14): ptxbench's library baseline is never more than 1% slower than the same
library through PyTorch, on the same shape, in the same process.

    tests/gpu/library_vs_torch/run.py [--lib libptxbench_library_capi.so] [--rounds 40]
                                  [--tolerance 0.01] [--out RESULT.json] [--task NAME ...]
    tests/gpu/library_vs_torch/run.py --check-errors [--lib ...]     (no GPU needed)

For every task of the core suite (tasks/*/*.toml), at its timed workload: PyTorch's own way
(`A @ B.T`; `F.scaled_dot_product_attention`, PyTorch's choice of back end; its backward through
autograd) and ptxbench's baseline through its C ABI (src/eval/gpu/library_capi.h: cuBLASLt's
fastest of its heuristic algorithms, cuDNN SDPA through cudnn-frontend), on one CUDA stream,
alternating which goes first, L2 flushed before each call, CUDA events around each; medians
over --rounds rounds after 5 warm-up rounds. PyTorch is imported first, so both sides run the
vendor libraries PyTorch loaded (their versions are printed): the check compares how each side
uses the library, not two library versions. ptxbench's attention forward also writes the LSE.

Exit 0: every task within the tolerance; 1: one is slower (listed); 2: bad use; 77: no GPU or no
PyTorch (skipped, with the reason). --check-errors: the C ABI's refusals of bad shapes (a CPU
test: no GPU is touched before the shapes are checked).
"""
import argparse
import ctypes
import glob
import json
import os
import statistics
import sys

try:
    import tomllib
except ImportError:  # Python < 3.11
    tomllib = None

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DEFAULT_LIB = os.path.join(ROOT, "build", "src", "eval", "libptxbench_library_capi.so")


def load_library(path):
    lib = ctypes.CDLL(path)
    i64, vp = ctypes.c_int64, ctypes.c_void_p
    lib.ptxb_library_open_gemm.restype = vp
    lib.ptxb_library_open_gemm.argtypes = [i64, i64, i64, ctypes.c_int, ctypes.c_uint64, vp]
    lib.ptxb_library_open_attention.restype = vp
    lib.ptxb_library_open_attention.argtypes = [ctypes.c_int, i64, i64, i64, i64, ctypes.c_int,
                                                ctypes.c_uint64, vp]
    lib.ptxb_library_run.restype = ctypes.c_int
    lib.ptxb_library_run.argtypes = [vp, vp]
    lib.ptxb_library_describe.restype = ctypes.c_char_p
    lib.ptxb_library_describe.argtypes = [vp]
    lib.ptxb_library_close.argtypes = [vp]
    lib.ptxb_library_error.restype = ctypes.c_char_p
    return lib


def check_errors(lib):
    """The C ABI refuses bad shapes with a message, before touching a GPU."""
    failures = []
    cases = [("gemm M=0", lambda: lib.ptxb_library_open_gemm(0, 8, 8, 0, 1, None), "M, N and K"),
             ("attention S=-1",
              lambda: lib.ptxb_library_open_attention(0, 1, 1, -1, 64, 0, 1, None), "B, H, S and D"),
             ("run without a handle", lambda: lib.ptxb_library_run(None, None), "no handle")]
    for name, call, want in cases:
        got = call()
        err = lib.ptxb_library_error().decode()
        ok = got in (None, 0, -1) and want in err
        print(f"{'ok  ' if ok else 'FAIL'} {name}: returned {got!r}, error {err!r}")
        if not ok:
            failures.append(name)
    if lib.ptxb_library_describe(None) != b"":
        failures.append("describe(NULL)")
    return 1 if failures else 0


def core_tasks(names):
    """(name, family, causal, axes of the timed workload) of the core suite's tasks."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tasks", "*", "*.toml"))):
        with open(path, "rb") as f:
            t = tomllib.load(f)
        if "core" not in t.get("suites", []) or (names and t["name"] not in names):
            continue
        timed = [w for w in t.get("workloads", []) if w.get("role") == "timed"]
        if timed:
            out.append((t["name"], t["family"], bool(t.get("causal", False)), timed[0]["axes"]))
    return out


class Pair:
    """PyTorch's call and ptxbench's for one task, on the same stream."""

    def __init__(self, torch, lib, family, causal, axes, seed):
        F = torch.nn.functional
        self.torch, self.lib = torch, lib
        stream = torch.cuda.current_stream().cuda_stream
        self.stream = ctypes.c_void_p(stream)
        dev, bf16 = "cuda", torch.bfloat16
        if family == "gemm":
            M, N, K = axes["M"], axes["N"], axes["K"]
            a = torch.randn(M, K, device=dev, dtype=bf16)
            b = torch.randn(N, K, device=dev, dtype=bf16)
            self.theirs = lambda: a @ b.T
            self.flops = 2.0 * M * N * K
            self.handle = lib.ptxb_library_open_gemm(M, N, K, 0, seed, self.stream)
        else:
            B, H, S, D = axes["B"], axes["H"], axes["S"], axes["D"]
            q, k, v = (torch.randn(B, H, S, D, device=dev, dtype=bf16) for _ in range(3))
            backward = family == "attention_bwd"
            self.flops = (10.0 if backward else 4.0) * B * H * S * S * D / (2 if causal else 1)
            if backward:
                for x in (q, k, v):
                    x.requires_grad_(True)
                o = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                do = torch.randn_like(o)
                self.theirs = lambda: torch.autograd.grad(o, (q, k, v), do, retain_graph=True)
            else:
                def forward():
                    with torch.no_grad():
                        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                self.theirs = forward
            self.handle = lib.ptxb_library_open_attention(int(backward), B, H, S, D, int(causal),
                                                          seed, self.stream)
        if not self.handle:
            raise RuntimeError("ptxbench's library: " + lib.ptxb_library_error().decode())
        self.describe = lib.ptxb_library_describe(self.handle).decode()

    def ours(self):
        if self.lib.ptxb_library_run(self.handle, self.stream) != 0:
            raise RuntimeError("ptxbench's library: " + self.lib.ptxb_library_error().decode())

    def close(self):
        self.lib.ptxb_library_close(self.handle)


def time_pair(torch, pair, rounds, flush):
    """Median ms of each side, interleaved, L2 flushed before every call."""
    def timed(fn):
        flush.zero_()
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        return start, stop

    for _ in range(5):
        pair.theirs()
        pair.ours()
    events = {"torch": [], "ptxbench": []}
    for r in range(rounds):
        order = [("torch", pair.theirs), ("ptxbench", pair.ours)]
        for side, fn in (order if r % 2 == 0 else order[::-1]):
            events[side].append(timed(fn))
    torch.cuda.synchronize()
    return {side: statistics.median(a.elapsed_time(b) for a, b in ev) for side, ev in events.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lib", default=os.environ.get("PTXBENCH_LIBRARY_CAPI", DEFAULT_LIB))
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--tolerance", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--task", action="append", default=[])
    ap.add_argument("--out", default="")
    ap.add_argument("--check-errors", action="store_true")
    a = ap.parse_args()
    if a.rounds < 1 or a.tolerance < 0:
        print("library_vs_torch: --rounds must be >= 1 and --tolerance >= 0", file=sys.stderr)
        return 2
    if a.check_errors:
        if not os.path.exists(a.lib):
            print(f"library_vs_torch: {a.lib} does not exist (build ptxbench_library_capi)",
                  file=sys.stderr)
            return 2
        return check_errors(load_library(a.lib))
    try:
        import torch  # first: its vendor libraries are the process's
    except ImportError:
        print("SKIPPED: PyTorch is not installed here (the check runs on the GPU machine)")
        return 77
    if not torch.cuda.is_available():
        print("SKIPPED: PyTorch sees no GPU here")
        return 77
    if tomllib is None:
        print("library_vs_torch: needs Python 3.11+ (tomllib)", file=sys.stderr)
        return 2
    if not os.path.exists(a.lib):
        print(f"library_vs_torch: {a.lib} does not exist (build ptxbench_library_capi)",
              file=sys.stderr)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.cuda.init()
    lib = load_library(a.lib)
    flush = torch.empty(512 << 20, dtype=torch.uint8, device="cuda")
    result = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
              "cudnn": torch.backends.cudnn.version(), "rounds": a.rounds,
              "tolerance": a.tolerance, "tasks": []}
    print(f"{result['gpu']}, torch {result['torch']}, cuDNN {result['cudnn']}")
    slower = []
    for name, family, causal, axes in core_tasks(set(a.task)):
        pair = Pair(torch, lib, family, causal, axes, a.seed)
        ms = time_pair(torch, pair, a.rounds, flush)
        pair.close()
        ratio = ms["ptxbench"] / ms["torch"]
        ok = ratio <= 1 + a.tolerance
        row = {"task": name, "torch_ms": ms["torch"], "ptxbench_ms": ms["ptxbench"],
               "ptxbench_over_torch": ratio, "ok": ok, "ptxbench_plan": pair.describe,
               "torch_tflops": pair.flops / ms["torch"] / 1e9,
               "ptxbench_tflops": pair.flops / ms["ptxbench"] / 1e9}
        result["tasks"].append(row)
        print(f"{'ok  ' if ok else 'SLOW'} {name:<28} torch {ms['torch']:.4f} ms  ptxbench "
              f"{ms['ptxbench']:.4f} ms  ratio {ratio:.4f}  ({pair.describe})", flush=True)
        if not ok:
            slower.append(name)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(result, f, indent=1)
    if slower:
        print(f"ptxbench's library is more than {100 * a.tolerance:g}% slower than PyTorch's on: "
              + ", ".join(slower))
        return 1
    print(f"every task within {100 * a.tolerance:g}% of PyTorch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
