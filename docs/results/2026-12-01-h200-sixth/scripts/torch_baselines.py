#!/usr/bin/env python3
"""Sixth session probe: the core suite's timed workloads through PyTorch on this GPU, timed like
ptxbench times a call (L2 flushed before each call, CUDA events around it, median of N), to set
beside `ptxbench-bench-baselines` (cuBLASLt / cuDNN through ptxbench) in the same device call."""
import json, statistics, sys
import torch
import torch.nn.functional as F
from torch.nn.attention import sdpa_kernel, SDPBackend

torch.backends.cuda.matmul.allow_tf32 = False
dev = "cuda"
flush = torch.empty(512 << 20, dtype=torch.uint8, device=dev)

def timed(fn, n=60, warm=10):
    for _ in range(warm):
        fn()
    ts = []
    for _ in range(n):
        flush.zero_()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); fn(); b.record(); b.synchronize()
        ts.append(a.elapsed_time(b))
    return statistics.median(ts)

out = {"torch": torch.__version__, "gpu": torch.cuda.get_device_name(), "cudnn": torch.backends.cudnn.version()}
M, N, K = 8192, 7168, 5120
A = torch.randn(M, K, device=dev, dtype=torch.bfloat16)
B = torch.randn(N, K, device=dev, dtype=torch.bfloat16)
ms = timed(lambda: A @ B.T)
out["gemm_n7168_k5120"] = {"ms": ms, "tflops": 2 * M * N * K / ms / 1e9}
Bt, H, S, D = 4, 48, 4096, 128
q, k, v = (torch.randn(Bt, H, S, D, device=dev, dtype=torch.bfloat16, requires_grad=True) for _ in range(3))
for causal in (False, True):
    name = "mha_with_lse_d128" + ("_causal" if causal else "")
    fl = 4 * Bt * H * S * S * D / (2 if causal else 1)
    for backend in ("default", "cudnn", "flash"):
        ctx = {"default": None, "cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION}[backend]
        def fwd():
            with torch.no_grad():
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        try:
            if ctx is None:
                ms = timed(fwd)
            else:
                with sdpa_kernel(ctx):
                    ms = timed(fwd)
            out.setdefault(name, {})[backend] = {"ms": ms, "tflops": fl / ms / 1e9}
        except Exception as e:  # a backend not available for this shape
            out.setdefault(name, {})[backend] = {"error": str(e)[:200]}
    bname = "mha_bwd_d128" + ("_causal" if causal else "")
    flb = 10 * Bt * H * S * S * D / (2 if causal else 1) / 4 * 1.0
    for backend in ("default", "cudnn", "flash"):
        ctx = {"default": None, "cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION}[backend]
        try:
            def run():
                o = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                do = torch.randn_like(o)
                return lambda: torch.autograd.grad(o, (q, k, v), do, retain_graph=True)
            if ctx is None:
                ms = timed(run())
            else:
                with sdpa_kernel(ctx):
                    ms = timed(run())
            out.setdefault(bname, {})[backend] = {"ms": ms, "tflops": 10 * Bt * H * S * S * D / (2 if causal else 1) / ms / 1e9 / 1.0}
        except Exception as e:
            out.setdefault(bname, {})[backend] = {"error": str(e)[:200]}
print(json.dumps(out, indent=1))
