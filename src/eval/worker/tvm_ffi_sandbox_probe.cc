// tvm_ffi_sandbox_probe: a tvm-ffi candidate loaded and called inside the runner's sandbox
// (runner_sandbox.h), without a GPU: the host-only stand-in candidate of the eval tests
// (gpu/fake_tvm_ffi_candidate.cc). libtvm_ffi.so loads from its folder after the sandbox is in
// place, the entry point runs with the environment stream set, and an error it raises (TVM-FFI
// records a backtrace, reading the files of the loaded objects) comes back as the candidate's
// error. Anything the sandbox refuses on the way ends the process with exit 87 and names the
// call or file, as in the worker.
//
//   tvm_ffi_sandbox_probe LIBTVM_FFI CANDIDATE
//
// Prints "sandbox: <report>", one line per step, then "tvm-ffi sandbox probe: ok"; exit 0, or 1
// when a step fails.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/fs.h"
#include "eval/gpu/candidate.h"
#include "eval/worker/runner_sandbox.h"

namespace {

using ptxbench::Contract;
namespace gpu = ptxbench::gpu;

int fail(const std::string& what) {
  std::printf("FAIL: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return fail("usage: tvm_ffi_sandbox_probe LIBTVM_FFI CANDIDATE");
  const std::filesystem::path library = argv[1], candidate = argv[2];
  auto dir = ptxbench::TempDir::create("tvm-ffi-sandbox-");
  if (!dir.ok()) return fail(dir.error().to_string());
  auto confined = ptxbench::eval::worker::confine_candidate_process(
      dir->path().string(), {library.parent_path().string(), candidate.parent_path().string()});
  if (!confined.ok()) return fail("sandbox: " + confined.error().to_string());
  std::printf("sandbox: %s\n", confined->dump().c_str());
  auto lib =
      gpu::CandidateLibrary::open(candidate, gpu::CandidateCall{Contract::tvm_ffi, library, {}});
  if (!lib.ok()) return fail("load: " + lib.error().to_string());
  std::printf("loaded\n");
  std::vector<std::int64_t> shape = {8, 4};
  std::vector<DLTensor> tensors(3);
  std::vector<DLTensor*> args;
  for (auto& t : tensors) {
    t.data = &t;
    t.device = DLDevice{kDLCUDA, 0};
    t.ndim = 2;
    t.dtype = DLDataType{kDLBfloat, 16, 1};
    t.shape = shape.data();
    args.push_back(&t);
  }
  try {
    lib->launch(args, reinterpret_cast<cudaStream_t>(0x42));
  } catch (const std::exception& e) {
    return fail(std::string("call: ") + e.what());
  }
  std::printf("called\n");
  tensors[2].ndim = 0;  // the stand-in raises a ValueError
  try {
    lib->launch(args, reinterpret_cast<cudaStream_t>(0x42));
    return fail("the raising call returned");
  } catch (const gpu::CandidateCallFailed& e) {
    const std::string what = e.what();
    if (what.find("ValueError: tensor 2 has rank 0") == std::string::npos)
      return fail("unexpected error: " + what);
    std::printf("raised: %s\n", what.substr(0, what.find('\n')).c_str());
  }
  std::printf("tvm-ffi sandbox probe: ok\n");
  return 0;
}
