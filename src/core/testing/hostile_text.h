// The texts that crashed ptxbench (issue 38): std::regex recursed once per character of a long
// line, so a comment or blank line of 30,000+ characters, a 40 KB base64 blob in a comment or a
// source of exactly the 1 MiB maximum exhausted the stack. Tests of every reader of untrusted
// text (sources, replies, streams, stored JSON) feed it these.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ptxbench::testing {

inline constexpr std::size_t kMaxSourceBytes = 1 << 20;  // the compile stage's default maximum

// A kernel of the native contract for a GEMM task (A, B -> C), with `extra` before it.
inline std::string gemm_kernel(const std::string& extra = "") {
  return extra +
         "#include <dlpack/dlpack.h>\n#include <cuda_runtime.h>\n"
         "__global__ void k(float* c) { c[threadIdx.x] = 0.0f; }\n"
         "extern \"C\" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C,\n"
         "                                cudaStream_t stream) {\n"
         "  k<<<1, 32, 0, stream>>>(static_cast<float*>(C->data));\n}\n";
}

// A base64-looking blob of `n` characters.
inline std::string base64_blob(std::size_t n) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string s;
  s.reserve(n);
  for (std::size_t i = 0; i < n; ++i) s += kAlphabet[(i * 7 + i / 64) % 64];
  return s;
}

struct HostileText {
  std::string name;
  std::string text;
};

// Each crash of the issue as a whole kernel source: the line before the kernel is
//   a 40,000-character line comment, a 40,000-blank line, a 40 KB base64 blob in a block
//   comment, and one comment line that fills the source to exactly 1 MiB.
inline std::vector<HostileText> hostile_sources() {
  std::vector<HostileText> out;
  out.push_back({"long_comment_line", gemm_kernel("//" + std::string(40000, ' ') + "x\n")});
  out.push_back({"long_blank_line", gemm_kernel(std::string(40000, ' ') + "\n")});
  out.push_back({"base64_in_comment", gemm_kernel("/* " + base64_blob(40 * 1024) + " */\n")});
  const std::string kernel = gemm_kernel();
  out.push_back({"exactly_1_MiB",
                 gemm_kernel("//" + std::string(kMaxSourceBytes - kernel.size() - 3, ' ') + "\n")});
  return out;
}

}  // namespace ptxbench::testing
