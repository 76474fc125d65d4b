"""Dev check for the attention reference kernels and controls (runs on the GPU machine).

    python3 check.py correct --kind fwd|bwd --so X.so [--causal] [--trials 2] [--workloads all|timed|hidden]
    python3 check.py time    --kind fwd|bwd --so X.so [--causal] [--iters 20]

`correct` draws fresh random inputs for every trial (normal; for bwd also a spiky distribution),
poisons the outputs with NaN, calls the kernel through kernels/tools/dlcall.py and compares with
an fp32 torch reference using the task rule (element fails iff abs > 1e-2 AND rel > 1e-2; no
NaN/Inf; relative L2 < 1e-2). On the timed workload the fp32 reference covers a sample of
(batch, head) pairs (first, last and random ones); hidden workloads are checked in full.
It prints one JSON line per trial and exits 0 (all passed), 1 (incorrect) or 2 (CUDA error).
`time` prints the kernel's and cuDNN SDPA's (torch, cuDNN backend) median time and TFLOP/s on the
timed workload, L2 flushed before every sample.
"""
import argparse
import json
import math
import os
import random
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import dlcall  # noqa: E402

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
D = 128
SCALE = 1.0 / math.sqrt(D)
TIMED = (4, 48, 4096)
HIDDEN = [(2, 8, 1024), (1, 4, 2048)]


def randn(shape, gen, spiky=False):
    x = torch.randn(shape, generator=gen, device="cuda", dtype=torch.float32)
    if spiky:  # like ptxbench's harness: ~1 element in 1024 scaled by 8, 16, 24 or 32
        u = torch.rand(shape, generator=gen, device="cuda")
        f = 8.0 * (1.0 + torch.floor(torch.rand(shape, generator=gen, device="cuda") * 4.0))
        x = torch.where(u < 1.0 / 1024, x * f, x)
    return x.to(torch.bfloat16)


def ref_fwd(q, k, v, causal):
    """fp32 reference for one group of heads: q,k,v [n,S,D] bf16 -> O fp32, LSE fp32."""
    s = torch.matmul(q.float(), k.float().transpose(-1, -2)) * SCALE
    if causal:
        n = s.shape[-1]
        s.masked_fill_(torch.ones(n, n, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
    lse = torch.logsumexp(s, dim=-1)
    p = torch.exp(s - lse[..., None])
    return torch.matmul(p, v.float()), lse


def ref_bwd(q, k, v, o, do, lse, causal):
    s = torch.matmul(q.float(), k.float().transpose(-1, -2)) * SCALE
    if causal:
        n = s.shape[-1]
        s.masked_fill_(torch.ones(n, n, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
    p = torch.exp(s - lse[..., None])
    del s
    dv = torch.matmul(p.transpose(-1, -2), do.float())
    dp = torch.matmul(do.float(), v.float().transpose(-1, -2))
    delta = (do.float() * o.float()).sum(-1, keepdim=True)
    ds = p * (dp - delta)
    del p, dp
    dq = torch.matmul(ds, k.float()) * SCALE
    dk = torch.matmul(ds.transpose(-1, -2), q.float()) * SCALE
    return dq, dk, dv


def compare(name, out, ref):
    out = out.float()
    if not torch.isfinite(out).all():
        bad = (~torch.isfinite(out)).nonzero()[:3].tolist()
        return {"tensor": name, "ok": False, "why": "NaN/Inf (unwritten or bad)", "count":
                int((~torch.isfinite(out)).sum()), "first": bad}
    diff = (out - ref).abs()
    rel = diff / (ref.abs() + 1e-8)
    fail = (diff > 1e-2) & (rel > 1e-2)
    l2 = float(torch.linalg.vector_norm(out - ref) / max(float(torch.linalg.vector_norm(ref)), 1e-30))
    nfail = int(fail.sum())
    r = {"tensor": name, "ok": nfail == 0 and l2 < 1e-2, "max_abs": float(diff.max()),
         "mismatch": nfail / fail.numel(), "rel_l2": l2}
    if nfail:
        r["first"] = fail.nonzero()[:3].tolist()
    return r


def sample_heads(b, h, gen, full):
    if full:
        return [(i, j) for i in range(b) for j in range(h)]
    rnd = random.Random(int(torch.randint(1 << 30, (1,), generator=gen, device="cuda")))
    pairs = {(0, 0), (b - 1, h - 1)}
    while len(pairs) < 6:
        pairs.add((rnd.randrange(b), rnd.randrange(h)))
    return sorted(pairs)


def forward_inputs(b, h, s, gen, spiky=False):
    return [randn((b, h, s, D), gen, spiky) for _ in range(3)]


def run_fwd(lib, q, k, v):
    b, h, s, _ = q.shape
    o = torch.full((b, h, s, D), float("nan"), device="cuda", dtype=torch.bfloat16)
    lse = torch.full((b, h, s), float("nan"), device="cuda", dtype=torch.float32)
    dlcall.launch(lib, [q, k, v], [o, lse])
    return o, lse


def reference_fwd_full(q, k, v, causal):
    """O (bf16-rounded) and LSE for every head: the backward's inputs. TF32 matmuls here (speed);
    the backward reference uses these same O and LSE tensors, so they need not be exact."""
    torch.backends.cuda.matmul.allow_tf32 = True
    b, h, s, _ = q.shape
    o = torch.empty((b, h, s, D), device="cuda", dtype=torch.bfloat16)
    lse = torch.empty((b, h, s), device="cuda", dtype=torch.float32)
    for i in range(b):
        for j0 in range(0, h, 16):
            oo, ll = ref_fwd(q[i, j0:j0 + 16], k[i, j0:j0 + 16], v[i, j0:j0 + 16], causal)
            o[i, j0:j0 + 16] = oo.to(torch.bfloat16)
            lse[i, j0:j0 + 16] = ll
    torch.backends.cuda.matmul.allow_tf32 = False
    return o, lse


def check_trial(lib, kind, causal, shape, gen, spiky):
    b, h, s = shape
    full = shape != TIMED
    heads = sample_heads(b, h, gen, full)
    q, k, v = forward_inputs(b, h, s, gen, spiky)
    results = []
    if kind == "fwd":
        o, lse = run_fwd(lib, q, k, v)
        torch.cuda.synchronize()
        for name in ("O", "LSE"):
            outs, refs = [], []
            for (i, j) in heads:
                ro, rl = ref_fwd(q[i, j], k[i, j], v[i, j], causal)
                outs.append((o if name == "O" else lse)[i, j])
                refs.append(ro if name == "O" else rl)
            results.append(compare(name, torch.stack(outs), torch.stack(refs)))
    else:
        do = randn((b, h, s, D), gen, spiky)
        o, lse = reference_fwd_full(q, k, v, causal)
        if lib == "cudnn":  # library comparison: cuDNN SDPA backward (its own forward's O and LSE)
            from torch.nn.attention import SDPBackend, sdpa_kernel
            import torch.nn.functional as F
            qq, kk, vv = (t.clone().requires_grad_(True) for t in (q, k, v))
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                out = F.scaled_dot_product_attention(qq, kk, vv, is_causal=causal)
                grads = list(torch.autograd.grad(out, (qq, kk, vv), do))
        else:
            grads = [torch.full((b, h, s, D), float("nan"), device="cuda", dtype=torch.bfloat16) for _ in range(3)]
            dlcall.launch(lib, [q, k, v, o, do, lse], grads)
        torch.cuda.synchronize()
        refs = {"dQ": [], "dK": [], "dV": []}
        outs = {"dQ": [], "dK": [], "dV": []}
        for (i, j) in heads:
            dq, dk, dv = ref_bwd(q[i, j], k[i, j], v[i, j], o[i, j], do[i, j], lse[i, j], causal)
            for n, r, g in (("dQ", dq, grads[0]), ("dK", dk, grads[1]), ("dV", dv, grads[2])):
                refs[n].append(r)
                outs[n].append(g[i, j])
        for n in ("dQ", "dK", "dV"):
            results.append(compare(n, torch.stack(outs[n]), torch.stack(refs[n])))
    return results


def cmd_correct(a):
    if "," in a.so:  # several builds (a variant sweep): one verdict line each, in this process
        ok = True
        for so in a.so.split(","):
            try:
                cmd_correct(argparse.Namespace(**{**vars(a), "so": so}))
            except SystemExit as e:
                ok &= e.code == 0
            print("SO", so, flush=True)
        sys.exit(0 if ok else 1)
    lib = "cudnn" if a.so == "cudnn" else dlcall.load(a.so)
    gen = torch.Generator(device="cuda")
    gen.manual_seed(a.seed)
    shapes = {"all": HIDDEN + [TIMED], "timed": [TIMED], "hidden": HIDDEN}[a.workloads]
    all_ok = True
    for shape in shapes:
        for t in range(a.trials):
            spiky = a.kind == "bwd" and t % 2 == 1
            try:
                res = check_trial(lib, a.kind, a.causal, shape, gen, spiky)
            except RuntimeError as e:  # CUDA error surfaced by torch
                print(json.dumps({"shape": shape, "trial": t, "error": str(e)[:400]}))
                sys.exit(2)
            ok = all(r["ok"] for r in res)
            all_ok &= ok
            print(json.dumps({"shape": shape, "trial": t, "spiky": spiky, "ok": ok, "results": res}), flush=True)
    print("VERDICT", "passed" if all_ok else "incorrect")
    sys.exit(0 if all_ok else 1)


def time_fn(fn, iters, raw=False):
    flush = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    for _ in range(3):
        fn()
    times = []
    for _ in range(iters):
        flush.zero_()
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        fn()
        e1.record()
        e1.synchronize()
        times.append(e0.elapsed_time(e1))
    if raw:
        return times
    times.sort()
    return times[len(times) // 2], times[0], times[-1]


def cmd_time(a):
    from torch.nn.attention import SDPBackend, sdpa_kernel
    import torch.nn.functional as F
    sos = [x for x in a.so.split(",") if x]
    libs = {so: dlcall.load(so) for so in sos}
    b, h, s = TIMED
    gen = torch.Generator(device="cuda")
    gen.manual_seed(a.seed)
    q, k, v = forward_inputs(b, h, s, gen)
    flops = 4.0 * b * h * s * s * D * (0.5 if a.causal else 1.0) * (2.5 if a.kind == "bwd" else 1.0)
    rows = {}
    if a.kind == "fwd":
        # Rounds: cuDNN, then every kernel, again and again, so that clock drift (the H200 under its
        # power cap) touches all of them alike; each row is the median over all its rounds' samples.
        o = torch.empty((b, h, s, D), device="cuda", dtype=torch.bfloat16)
        lse = torch.empty((b, h, s), device="cuda", dtype=torch.float32)
        samples = {}
        for _ in range(a.rounds):
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                samples.setdefault("cudnn", []).extend(time_fn(
                    lambda: F.scaled_dot_product_attention(q, k, v, is_causal=a.causal), a.iters, raw=True))
            for so, lib in libs.items():
                samples.setdefault("kernel" if len(libs) == 1 else so, []).extend(time_fn(
                    lambda: dlcall.launch(lib, [q, k, v], [o, lse]), a.iters, raw=True))
        for n, t in samples.items():
            t.sort()
            rows[n] = (t[len(t) // 2], t[0], t[-1])
    else:
        do = randn((b, h, s, D), gen)
        lib = next(iter(libs.values()), None)
        if lib is not None:
            o, lse = reference_fwd_full(q, k, v, a.causal)
            grads = [torch.empty((b, h, s, D), device="cuda", dtype=torch.bfloat16) for _ in range(3)]
            rows["kernel"] = time_fn(lambda: dlcall.launch(lib, [q, k, v, o, do, lse], grads), a.iters)
        qq, kk, vv = (t.clone().requires_grad_(True) for t in (q, k, v))
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            out = F.scaled_dot_product_attention(qq, kk, vv, is_causal=a.causal)
            rows["cudnn"] = time_fn(lambda: torch.autograd.grad(out, (qq, kk, vv), do, retain_graph=True), a.iters)
    res = {"kind": a.kind, "causal": a.causal, "shape": TIMED}
    for n, (med, lo, hi) in rows.items():
        res[n] = {"median_ms": round(med, 4), "min_ms": round(lo, 4), "max_ms": round(hi, 4),
                  "tflops": round(flops / (med * 1e-3) / 1e12, 1)}
    for n in rows:
        if n != "cudnn":
            res[n]["ratio_vs_cudnn"] = round(res["cudnn"]["median_ms"] / res[n]["median_ms"], 3)
    if "kernel" in res:
        res["ratio_vs_cudnn"] = res["kernel"]["ratio_vs_cudnn"]
    print(json.dumps(res), flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("cmd", choices=["correct", "time"])
    p.add_argument("--kind", choices=["fwd", "bwd"], required=True)
    p.add_argument("--so", default="", help="kernel .so (comma-separated: several, one process)")
    p.add_argument("--causal", action="store_true")
    p.add_argument("--trials", type=int, default=2)
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--rounds", type=int, default=1, help="fwd time: rounds of cuDNN + every kernel")
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--workloads", choices=["all", "timed", "hidden"], default="all")
    a = p.parse_args()
    cmd_correct(a) if a.cmd == "correct" else cmd_time(a)


if __name__ == "__main__":
    main()
