"""Prints the inline-asm body of a wgmma.mma_async m64nNk16 bf16 call with N/2 fp32 accumulators.

Used once to write the wgmma helper into kernels/reference/sm_90a/gemm_n7168_k5120.cu (an
operand list of 128 registers is too error-prone to type by hand). Usage: python3 gen_wgmma.py 256
"""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 256
nreg = n // 2
print(f"__device__ __forceinline__ void wgmma_m64n{n}k16(float (&d)[{nreg}], uint64_t da, uint64_t db, int scale_d) {{")
print("  asm volatile(")
print('      "{\\n.reg .pred p;\\n"')
print(f'      "setp.ne.b32 p, %{nreg + 2}, 0;\\n"')
print(f'      "wgmma.mma_async.sync.aligned.m64n{n}k16.f32.bf16.bf16 {{"')
for i in range(0, nreg, 16):
    regs = ", ".join(f"%{j}" for j in range(i, i + 16))
    sep = "," if i + 16 < nreg else ""
    print(f'      "{regs}{sep}"')
print(f'      "}}, %{nreg}, %{nreg + 1}, p, 1, 1, 0, 0;\\n}}\\n"')
for i in range(0, nreg, 8):
    ops = ", ".join(f'"+f"(d[{j}])' for j in range(i, i + 8))
    lead = "      : " if i == 0 else "        "
    print(f"{lead}{ops}{',' if i + 8 < nreg else ''}")
print('      : "l"(da), "l"(db), "r"(scale_d));')
print("}")
