#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets into tests/fuzz/corpus/ (committed; run again
only to change them). The crash inputs of issue 38 are among them: a 40,000-character comment
line, a 40,000-blank line, a 40 KB base64 blob in a comment, a source of exactly 1 MiB, and each
of them inside a model's reply and a server's event stream."""
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
MIB = 1 << 20


def write(folder, name, data):
    os.makedirs(os.path.join(here, "corpus", folder), exist_ok=True)
    with open(os.path.join(here, "corpus", folder, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("latin-1"))


def base64_blob(n):
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    return "".join(alphabet[(i * 7 + i // 64) % 64] for i in range(n))


# A small kernel of the native contract (strings are Latin-1, so lengths are byte counts).
kernel = ('#include <dlpack/dlpack.h>\n#include <cuda_runtime.h>\n'
          '__global__ void k(float* c) { c[threadIdx.x] = 0.0f; }\n'
          'extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C, '
          'cudaStream_t s) {\n  k<<<1, 32, 0, s>>>(static_cast<float*>(C->data)); }\n')
tvm = ('#include <tvm/ffi/function.h>\n#include <tvm/ffi/container/tensor.h>\n'
       'void run(tvm::ffi::TensorView A, tvm::ffi::TensorView B, tvm::ffi::TensorView C) {}\n'
       'TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run);\n')
sources = {
    "plain.cu": kernel,
    "tvm_ffi.cu": tvm,
    "hostile_mix.cu": ('#include <cublas_v2.h>\n#include "../x.h"\n#if __has_include(</etc/passwd>)\n'
                       '#endif\nasm(".inc" "bin \\"/etc/hostname\\"");\nasm volatile("syscall");\n'
                       'void f() { system("x"); dlopen("libcuda.so.1", 0); }\n'
                       '_Pragma("comment(lib, \\"cublas\\")")\nauto r = R"d(raw)d";\nint n = 1\'000;\n'
                       '#inc\\\nlude <fstream>\n'),
    "long_comment_line.cu": "//" + " " * 40000 + "x\n" + kernel,
    "long_blank_line.cu": " " * 40000 + "\n" + kernel,
    "base64_comment.cu": "/* " + base64_blob(40 * 1024) + " */\n" + kernel,
}
sources["exactly_1MiB.cu"] = "//" + " " * (MIB - len(kernel) - 3) + "\n" + kernel
assert len(sources["exactly_1MiB.cu"]) == MIB
for name, text in sources.items():
    write("sources", name, text)

for name, header in {"cublas": "cublas_v2.h", "dotdot": "../../etc/passwd", "linux": "linux/x.h\n  // c",
                     "cuda": "cuda/barrier", "long": "a/" * 20000 + "b.h"}.items():
    write("includes", name, header)

for name in ("long_comment_line.cu", "base64_comment.cu", "exactly_1MiB.cu"):
    src = sources[name]
    write("replies", name + ".md", "Here is the kernel:\n\n```cuda\n" + src + "```\nIt uses wgmma.\n")
    chunk = {"id": "x", "model": "m", "choices": [{"index": 0, "delta": {"content": "```cuda\n" + src + "```"}}]}
    write("sse", name + ".sse", "data: " + json.dumps(chunk) + "\n\ndata: [DONE]\n\n")
write("replies", "fences.md", "~~~~ cpp\nint x;\n~~~\n~~~~\n```cu {.x}\nk\n``` \n    ```\n```\n")
write("replies", "think.md", "<think>plan</think>\n```c++\nint main() {}\n")
pieces = "".join("data: " + json.dumps({"choices": [{"delta": {"content": c, "reasoning_content": "r"}}]}) + "\r\n\r\n"
                 for c in ("```cu", "da\n", "int x;\n", "```"))
write("sse", "pieces.sse", ": comment\nevent: x\n" + pieces + 'data: {"choices":[],"usage":{"prompt_tokens":3,'
      '"completion_tokens":4,"completion_tokens_details":{"reasoning_tokens":1}}}\n\ndata: [DONE]\n')
write("sse", "whole.json", json.dumps({"id": "a", "choices": [{"message": {"content": "<think>t</think>```cuda\nk\n```"},
                                                               "finish_reason": "stop"}], "usage": {"prompt_tokens": 1}}))
write("sse", "error.json", '{"error": {"message": "overloaded"}}')
write("sse", "deep.sse", "data: {\"choices\":" + "[" * 100000 + "]" * 100000 + "}\n\n")

compile_result = {"schema": "ptxbench-compile-1", "outcome": "passed", "seconds": 1.5,
                  "census": {"targets_present": ["wgmma", "tma"], "targets_met": True},
                  "violations": [], "log": "ptxas info \u00e9 \\xff"}
write("stored_json", "compile.json", json.dumps(compile_result))
flipped = json.dumps(compile_result).replace('"passed"', '"pas\x01ed"').replace("1.5", "1.\x05")
write("stored_json", "flipped.json", flipped)
write("stored_json", "truncated.json", json.dumps(compile_result)[:57])
write("stored_json", "deep.json", "[" * 600 + "]" * 600)
write("stored_json", "strings.json", '["\\"[[[[", "\\u0000\\ud800", "\xff\xfe"]')

# FlashInfer-Trace definitions and workloads (import-fib, eval --task-config: issue 36).
fib_dir = os.path.join(here, "..", "..", "src", "interop", "testdata")
for name in ("reference_gemm_n7168_k5120.json", "reference_mha_bwd_d128.json",
             "reference_mha_with_lse_d128_causal.jsonl", "unsupported_moe.json"):
    with open(os.path.join(fib_dir, name), encoding="utf-8") as f:
        write("fib_definitions", name, f.read())
gemm = {"name": "g", "op_type": "gemm", "axes": {"M": {"type": "var"}, "N": {"type": "const", "value": 8},
        "K": {"type": "const", "value": 4}}, "constraints": ["M % 16 == 0", "M <= 0x10", "M>=99999999999999999"],
        "inputs": {"A": {"shape": ["M", "K"], "dtype": "bfloat16"}, "B": {"shape": ["N", "K"], "dtype": "bfloat16"}},
        "outputs": {"C": {"shape": ["M", "M"], "dtype": "bfloat16"}}, "reference": "def run(A, B): pass"}
write("fib_definitions", "odd_constraints.json", json.dumps(gemm))
write("fib_definitions", "deep_axes.json", '{"name":"x","op_type":"gemm","reference":"r","axes":' + "[" * 600 + "]" * 600 + "}")
