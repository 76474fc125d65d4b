"""Prints a tcgen05.ld.sync.aligned.32x32b.x32.b32 helper (32 output registers) for
kernels/reference/sm_100a/gemm_n7168_k5120.cu. Usage: python3 gen_tmem_ld.py"""
n = 32
print(f"__device__ __forceinline__ void tmem_ld_32x32b_x{n}(uint32_t taddr, uint32_t (&r)[{n}]) {{")
print("  asm volatile(")
print(f'      "tcgen05.ld.sync.aligned.32x32b.x{n}.b32 {{"')
for i in range(0, n, 16):
    regs = ", ".join(f"%{j}" for j in range(i, i + 16))
    print(f'      "{regs}{"," if i + 16 < n else ""}"')
print(f'      "}}, [%{n}];"')
for i in range(0, n, 8):
    ops = ", ".join(f'"=r"(r[{j}])' for j in range(i, i + 8))
    lead = "      : " if i == 0 else "        "
    print(f"{lead}{ops}{',' if i + 8 < n else ''}")
print('      : "r"(taddr));')
print("}")
