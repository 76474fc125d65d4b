#!/usr/bin/env python3
"""CPU emulation behind docs/task-spec.md, "near_cancel (GEMM), in detail".

Draws normal(0, 1) and near_cancel GEMM inputs (bf16, the pairing of src/eval/gpu/rng.h with
numpy's generator instead of the counter hash: the same distribution, not the same values) and
prints the fp32 accumulator's error, in sigma and worst absolute value over M x N outputs, for
  tc       a tensor-core-like accumulator: each group of 16 products and the running sum
           truncated toward zero to 24 bits below the group's largest exponent;
  split16  the control kernels/controls/oracle/split_partials_gemm.cu: each 16-k partial sum in
           fp32, passed on as two bf16 halves (16 significant bits).
Needs numpy (python3 -m venv V && V/bin/pip install numpy).
Usage: gemm_cancel_emulation.py [--scale 16] [--k 4096 13824] [--m 16] [--n 128]
"""
import argparse

import numpy as np


def bf16(x):
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return (((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16).astype(np.uint32).view(np.float32)


def inputs(rng, m, n, k, dist, scale):
    if dist == "normal":
        return bf16(rng.standard_normal((m, k))), bf16(rng.standard_normal((n, k)))
    x, u = rng.standard_normal((m, k)), rng.standard_normal((m, k))
    y = rng.standard_normal((n, k))
    idx = np.arange(k)
    first, partner = (idx & 16) == 0, idx ^ 16
    a = np.where(first, scale * x, scale * x[:, partner] + u)
    b = np.where(first, y, -y[:, partner])
    return bf16(a), bf16(b)


def products(a, b):
    m, k = a.shape
    return (a[:, None, :].astype(np.float64) * b[None, :, :]).reshape(m, b.shape[0], k // 16, 16)


def tensor_core(a, b):
    p = products(a, b)
    acc = np.zeros(p.shape[:2])
    for g in range(p.shape[2]):
        top = np.maximum(np.abs(acc), np.abs(p[:, :, g]).max(-1))
        q = 2.0 ** (np.floor(np.log2(np.maximum(top, 1e-30))) - 23)
        s = acc + (np.trunc(p[:, :, g] / q[..., None]) * q[..., None]).sum(-1)
        acc = (np.trunc(s / q) * q).astype(np.float32).astype(np.float64)
    return acc


def split16(a, b):
    part = products(a, b).astype(np.float32).sum(-1, dtype=np.float32)
    hi = bf16(part)
    part = hi + bf16(part - hi)
    acc = np.zeros(part.shape[:2], np.float32)
    for g in range(part.shape[2]):
        acc = acc + part[:, :, g]
    return acc.astype(np.float64)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=16.0, help="near_cancel's L (rng.h kCancelScale)")
    ap.add_argument("--k", type=int, nargs="+", default=[4096, 13824], help="depths (multiples of 32)")
    ap.add_argument("--m", type=int, default=16)
    ap.add_argument("--n", type=int, default=128)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    for k in args.k:
        for dist in ("normal", "near_cancel"):
            a, b = inputs(rng, args.m, args.n, k, dist, args.scale)
            ref = a.astype(np.float64) @ b.astype(np.float64).T
            for name, f in (("tc", tensor_core), ("split16", split16)):
                d = f(a, b) - ref
                print(f"K={k:6d} {dist:11s} {name:7s} sigma={d.std():.2e} worst={np.abs(d).max():.2e}"
                      f" |C| rms={np.sqrt((ref ** 2).mean()):.1f}")


if __name__ == "__main__":
    main()
