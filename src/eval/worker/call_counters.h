// CallCounters: unpatched hardware counters around every candidate call of a judging session,
// read by the broker (trusted) with CUPTI's range profiler: one user range per call, one pass, no
// replay and no instrumentation, so the kernels run unchanged and a counted call looks like any
// other (every call of the session is counted, checked, timed or loaded alike).
//
// What is counted, per call (GH100, the H100 and H200: metric names of that chip):
//   tensor_flops        sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32.sum: math operations of
//                       wgmma with bf16 sources and fp32 accumulators (2 per multiply-add:
//                       cuBLASLt's 8192x7168x5120 GEMM counted exactly 2MNK on an H100,
//                       docs/results/2026-12-06-h100-counters.md)
//   sparse_tensor_flops the same path with sparsity on (..._sparsity_on.sum), for the record
//   tma_load_bytes      l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum: bytes global TMA
//                       loads brought from L2 (tile reuse counts every time: 45x the inputs for
//                       cuBLASLt's GEMM above)
//   thread_instructions smsp__thread_inst_executed.sum: every instruction of every thread
//   hmma_instructions   sm__inst_executed_pipe_tensor_op_hmma.sum (mma.sync, warp instructions)
//   dmma_instructions   sm__inst_executed_pipe_tensor_op_dmma.sum (fp64 mma, warp instructions)
//   imma_instructions   sm__inst_executed_pipe_tensor_op_imma.sum (integer mma, warp instructions)
//   l2_read_sectors     lts__t_sectors_srcunit_tex_op_read.sum: 32-byte sectors the SMs' L1TEX
//                       units read from L2 (loads, cp.async, textures; TMA's too or not: either
//                       way TMA must bring most of them, eval/timed_counts.h)
// thread..imma bound the math any other unit could have done (eval/timed_counts.h): wgmma that
// ran beside work done elsewhere earns nothing; l2_read_sectors bounds the bytes that moved
// another way than TMA (red team leak6/tma_sliver). The eight fit one pass (CUPTI's host API for
// GH100 says 1; the gmma and TMA instruction counts of 2026-12-06, or the LSU's own byte count,
// would make it 2).
// The counters are the context's: the broker's own L2 flush and SM load run inside a call's range
// too (neither uses the tensor pipe or TMA; their thread instructions are few beside a task's
// math, but the SM load's spinning is not: a loaded call's are left out, timed_counts.h).
//
// Method and caveats: the ranges are opened before a call's work and closed after the broker's
// wait, outside the call's events; on the H100 the profiled GEMM's events read 1.4% longer in one
// measurement (0.699 ms vs 0.689/0.683 ms without). A chip other than GH100, a profiler that
// cannot start (no profiling permission), or more calls than `max_calls` leave calls uncounted;
// the parent decides what an uncounted call earns (eval/timed_counts.h: nothing).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/json.h"

namespace ptxbench::eval::worker {

struct CountedCall {
  std::uint64_t call = 0;  // the broker's call number (host::RunCall::call)
  double tensor_flops = 0;
  double sparse_tensor_flops = 0;
  double tma_load_bytes = 0;
  double thread_instructions = 0;
  double hmma_instructions = 0;
  double dmma_instructions = 0;
  double imma_instructions = 0;
  double l2_read_sectors = 0;
};

// The broker's reply to "counters": {"counted": [{"call": n, and each field of CountedCall by
// its name}, ...], "error": why none or not all were counted, or "", "unsupported": the chip has
// no known counters} (read by eval/timed_counts.h).
Json counted_calls_json(const std::vector<CountedCall>& rows, const std::string& error,
                        bool unsupported);

class CallCounters {
 public:
  // After the CUDA context exists, before the sandbox (the profiler loads its libraries). nullptr
  // with `error` set when the profiler cannot start, and `unsupported` too when the chip has no
  // known metrics.
  static std::unique_ptr<CallCounters> start(std::size_t max_calls, std::string& error,
                                             bool& unsupported);
  ~CallCounters();  // stops and disables the profiler
  CallCounters(const CallCounters&) = delete;
  CallCounters& operator=(const CallCounters&) = delete;

  // Around one call's work (begin before its first enqueue, end after the broker's wait, which
  // synchronises the whole device: no work of the candidate's is left for the pop to absorb).
  // Each returns the wall time it took (ms; CUPTI's push or pop, ~2 ms a range on an H100), which
  // the broker reports as "counter_ms" so the parent can take it out of the call's wall time.
  double begin(std::uint64_t call);
  double end();
  // Ends counting for good and reads every counted call. `error` on a profiler failure.
  std::vector<CountedCall> finish(std::string& error);

  struct State;

 private:
  explicit CallCounters(std::unique_ptr<State> s);
  void push(std::uint64_t call);
  std::unique_ptr<State> s_;
};

}  // namespace ptxbench::eval::worker
