// Every ```cuda block in the context fragments (context/**.md) and in the kernel contract
// (docs/kernel-contract.md) compiles with nvcc for the
// fragment's architecture (common/ fragments: sm_90a), so the examples the model sees are
// valid code. Snippets get a prelude of <cstdint> and <cuda_runtime.h>. Unused inline device
// functions would never reach ptxas, so "__device__ inline" becomes "__device__" and the
// file is built with -rdc=true: every helper is emitted and its inline PTX assembled.
// A block of the tvm-ffi contract (it includes <tvm/ffi/...>) is built against apache-tvm-ffi's
// headers (scripts/setup.sh installs them). Skipped where nvcc is missing.
#include <gtest/gtest.h>

#include <filesystem>

#include "compile/compiler.h"
#include "compile/tvm_ffi_install.h"
#include "core/fs.h"
#include "core/paths.h"
#include "core/subprocess.h"
#include "llm/extract.h"

namespace ptxbench::compile {
namespace {

namespace fs = std::filesystem;

TEST(ContextSnippets, CudaBlocksCompile) {
  Paths paths = Paths::discover();
  auto nvcc = paths.tool("nvcc");
  if (!nvcc.ok()) GTEST_SKIP() << "nvcc not found";
  auto tmp = TempDir::create("ctx-snippets");
  ASSERT_TRUE(tmp.ok());
  SystemProcessRunner runner;
  int compiled = 0;
  std::vector<fs::path> files{paths.root / "docs" / "kernel-contract.md"};
  for (const auto& entry : fs::recursive_directory_iterator(paths.context()))
    if (entry.path().extension() == ".md") files.push_back(entry.path());
  for (const fs::path& file : files) {
    std::string dir = file.parent_path().filename().string();
    std::string arch = dir == "sm_100a" ? "sm_100a" : "sm_90a";
    auto text = read_file(file);
    ASSERT_TRUE(text.ok());
    auto gencode = gencode_flag(arch);
    ASSERT_TRUE(gencode.ok()) << arch;
    int index = 0;
    for (const auto& block : llm::find_code_blocks(*text)) {
      if (block.tag != "cuda") continue;
      fs::path src =
          tmp->path() / (dir + "_" + file.stem().string() + "_" + std::to_string(index++) + ".cu");
      std::string code = block.code;
      for (auto pos = code.find("__device__ inline"); pos != std::string::npos;
           pos = code.find("__device__ inline", pos))
        code.replace(pos, 17, "__device__");
      ASSERT_TRUE(
          write_file_atomic(src, "#include <cstdint>\n#include <cuda_runtime.h>\n" + code).ok());
      ProcessSpec spec;
      spec.argv = {nvcc->string(), "-std=c++17", "-c", "-rdc=true",
                   *gencode,       src.string(), "-o", (tmp->path() / "x.o").string()};
      if (code.find("tvm/ffi/") != std::string::npos) {
        auto tvm = find_tvm_ffi(paths);
        ASSERT_TRUE(tvm.ok()) << file << ": " << tvm.error().to_string();
        spec.argv.push_back("-I" + tvm->include_dir.string());
      }
      spec.limits.wall = std::chrono::minutes(3);
      auto r = runner.run(spec);
      ASSERT_TRUE(r.ok()) << r.error().to_string();
      EXPECT_TRUE(r->succeeded()) << file << " block at line " << block.first_line << " (" << arch
                                  << "): " << r->describe_end() << "\n"
                                  << r->stderr_text;
      ++compiled;
    }
  }
  EXPECT_GE(compiled, 3);  // the contract example and the sm_90a TMA/mbarrier helpers at least
}

}  // namespace
}  // namespace ptxbench::compile
