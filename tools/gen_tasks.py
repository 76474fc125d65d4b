#!/usr/bin/env python3
"""Writes the task specs under tasks/ (one TOML file per task).

The specs are data and are committed; this script is how they were made, so that a
change to the suite is a change here plus a re-run: python3 tools/gen_tasks.py
"""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent / "tasks"

# (N, K) of LLM linear layers: name -> (N, K, where it comes from).
GEMM_LAYERS = [
    (6144, 4096, "Llama-3.1-8B fused QKV projection"),
    (4096, 4096, "Llama-3.1-8B attention output projection"),
    (28672, 4096, "Llama-3.1-8B fused gate/up projection"),
    (4096, 14336, "Llama-3.1-8B down projection"),
    (10240, 8192, "Llama-3.1-70B fused QKV projection"),
    (8192, 8192, "Llama-3.1-70B attention output projection"),
    (57344, 8192, "Llama-3.1-70B fused gate/up projection"),
    (8192, 28672, "Llama-3.1-70B down projection"),
    (1536, 7168, "DeepSeek-V3 query down-projection (q_a)"),
    (24576, 1536, "DeepSeek-V3 query up-projection (q_b)"),
    (576, 7168, "DeepSeek-V3 compressed KV projection (kv_a)"),
    (7168, 16384, "DeepSeek-V3 attention output projection"),
    (4096, 7168, "DeepSeek-V3 shared-expert fused gate/up projection"),
    (7168, 2048, "DeepSeek-V3 shared-expert down projection"),
    (5120, 5120, "Qwen2.5-14B attention output projection"),
    (27648, 5120, "Qwen2.5-14B fused gate/up projection"),
    (5120, 13824, "Qwen2.5-14B down projection"),
]

ARCH = """
[arch.sm_90a]
families = ["wgmma", "tma"]
rule = "any"

[arch.sm_100a]
families = ["tcgen05"]
rule = "any"
"""

TOLERANCE = """
[tolerance]
# atol is a floor: for GEMM the evaluator raises it with K (docs/task-spec.md, "The element rule")
atol = 1e-2
rtol = 1e-2
matched_ratio = 1.0
max_rel_l2 = 1e-2
"""


# The GEMM promise: any M from 1 to GEMM_MAX_M (twice the timed M = 8192). Each session draws
# its hidden M values from it (src/task/hidden_draw.h): one below 64, one ragged below 1024, one
# large ragged one and the audit's; the task file lists none.
GEMM_MAX_M = 16384


def gemm(name, n, k, suites, origin, timed_m=8192):
    wl = f"""
[[workloads]]
name = "timed"
role = "timed"
axes = {{ M = {timed_m}, N = {n}, K = {k} }}
"""
    return f'''name = "{name}"
family = "gemm"
suites = {suites}
description = """C = A * B^T with bf16 inputs, fp32 accumulation and a bf16 result. \\
N = {n}, K = {k} ({origin}). M varies with the number of tokens: the kernel must be \\
correct for any M from 1 to {GEMM_MAX_M}."""
baseline = "cublaslt"
flops = "2*M*N*K"

[axes]
M = [{timed_m}]
N = [{n}]
K = [{k}]

[constraints]
M = {{ min = 1, max = {GEMM_MAX_M} }}
{wl}
[[inputs]]
name = "A"
shape = ["M", "K"]
dtype = "bfloat16"
description = "activations, row-major"

[[inputs]]
name = "B"
shape = ["N", "K"]
dtype = "bfloat16"
description = "weights, row-major (each row is one output column)"

[[outputs]]
name = "C"
shape = ["M", "N"]
dtype = "bfloat16"
description = "C[m][n] = sum_k A[m][k] * B[n][k]"
{TOLERANCE}{ARCH}'''


# The attention promise: B from 1 to 8, H from 1 to 64, S a multiple of 128 from 128 to 8192
# (the timed workload is B = 4, H = 48, S = 4096). Each session draws its hidden (B, H, S) from
# it (src/task/hidden_draw.h); the task file lists none.
ATTN_TIMED = (4, 48, 4096)
ATTN_CONSTRAINTS = """
[constraints]
B = { min = 1, max = 8 }
H = { min = 1, max = 64 }
S = { min = 128, max = 8192, multiple_of = 128 }
"""
ATTN_PROMISE = "B from 1 to 8, H from 1 to 64, S a multiple of 128 from 128 to 8192"


def attn_axes(d):
    b, h, s = ATTN_TIMED
    return f"""
[axes]
B = [{b}]
H = [{h}]
S = [{s}]
D = [{d}]
{ATTN_CONSTRAINTS}
[[workloads]]
name = "timed"
role = "timed"
axes = {{ B = {b}, H = {h}, S = {s}, D = {d} }}
"""


def tensor(kind, name, shape, dtype, desc):
    shp = ", ".join(f'"{a}"' for a in shape)
    return f'''
[[{kind}]]
name = "{name}"
shape = [{shp}]
dtype = "{dtype}"
description = "{desc}"
'''


def mha_fwd(d, causal, suites):
    name = f"mha_with_lse_d{d}" + ("_causal" if causal else "")
    mask = " Causal: key j is masked out for query i when j > i." if causal else ""
    flops = "2*B*H*S*S*D" if causal else "4*B*H*S*S*D"
    body = f'''name = "{name}"
family = "attention_fwd"
suites = {suites}
causal = {"true" if causal else "false"}
description = """Multi-head attention forward with log-sum-exp. For each batch b and head h: \\
P = softmax(scale * Q K^T) row-wise with scale = 1/sqrt(D), O = P V. LSE[b,h,i] is the \\
natural log of sum_j exp(scale * q_i . k_j), over the unmasked keys.{mask} \\
The kernel must be correct for {ATTN_PROMISE}."""
baseline = "cudnn_sdpa"
flops = "{flops}"
{attn_axes(d)}'''
    for t in "QKV":
        body += tensor("inputs", t, ["B", "H", "S", "D"], "bfloat16", f"{t}, [B, H, S, D] row-major")
    body += tensor("outputs", "O", ["B", "H", "S", "D"], "bfloat16", "attention output")
    body += tensor("outputs", "LSE", ["B", "H", "S"], "float32", "log-sum-exp of the scaled logits per query")
    return name, body + TOLERANCE + ARCH


def mha_bwd(d, causal, suites):
    name = f"mha_bwd_d{d}" + ("_causal" if causal else "")
    mask = " Causal: key j is masked out for query i when j > i." if causal else ""
    flops = "5*B*H*S*S*D" if causal else "10*B*H*S*S*D"
    body = f'''name = "{name}"
family = "attention_bwd"
suites = {suites}
causal = {"true" if causal else "false"}
description = """Multi-head attention backward. Given Q, K, V, the forward output O, its \\
log-sum-exp LSE (natural log, scaled logits, scale = 1/sqrt(D)) and the output gradient dO, \\
compute dQ, dK, dV, the gradients of sum(O * dO): P = exp(scale * Q K^T - LSE), \\
dV = P^T dO, dP = dO V^T, Delta_i = sum_d dO[i,d] * O[i,d], dS = P * (dP - Delta), \\
dQ = scale * dS K, dK = scale * dS^T Q.{mask} The kernel must be correct for \\
{ATTN_PROMISE}."""
baseline = "cudnn_sdpa"
flops = "{flops}"
{attn_axes(d)}'''
    for t in "QKV":
        body += tensor("inputs", t, ["B", "H", "S", "D"], "bfloat16", f"{t}, [B, H, S, D] row-major")
    body += tensor("inputs", "O", ["B", "H", "S", "D"], "bfloat16", "forward output")
    body += tensor("inputs", "dO", ["B", "H", "S", "D"], "bfloat16", "gradient of the output")
    body += tensor("inputs", "LSE", ["B", "H", "S"], "float32", "forward log-sum-exp")
    for t in ("dQ", "dK", "dV"):
        body += tensor("outputs", t, ["B", "H", "S", "D"], "bfloat16", f"gradient w.r.t. {t[1]}")
    return name, body + TOLERANCE + ARCH


def main():
    files = {}
    files["gemm/gemm_n7168_k5120.toml"] = gemm(
        "gemm_n7168_k5120", 7168, 5120, '["core"]', "the PTXBench core GEMM")
    for n, k, origin in GEMM_LAYERS:
        name = f"gemm_n{n}_k{k}"
        files[f"gemm/{name}.toml"] = gemm(name, n, k, '["extended"]', origin)
    for d in (64, 96, 128, 256):
        for causal in (False, True):
            suites = '["core", "extended"]' if d == 128 else '["extended"]'
            name, body = mha_fwd(d, causal, suites)
            files[f"attention_fwd/{name}.toml"] = body
    for d in (64, 96, 128):
        for causal in (False, True):
            suites = '["core", "extended"]' if d == 128 else '["extended"]'
            name, body = mha_bwd(d, causal, suites)
            files[f"attention_bwd/{name}.toml"] = body
    for rel, text in files.items():
        path = ROOT / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("# Generated by tools/gen_tasks.py; edit that script, then re-run it.\n" + text)
    print(f"wrote {len(files)} task specs under {ROOT}")


if __name__ == "__main__":
    main()
