// GPU test (ctest label gpu): the sampled checks of fresh inputs (sample_check.h) against the
// full references (reference.h) of every family, causal and not, under each distribution:
//   - the full reference, written as the candidate's outputs, passes the sampled check with a
//     margin (worst rule ratio < 0.5: the fp64 samples and the fp32 references agree far inside
//     the rule, so a sampled check never fails a right kernel);
//   - the reference of other inputs (a memo of the wrong set) fails every output;
//   - one element left unwritten, outside any sample, fails (the whole output is scanned).
// Then prints (no assertion) what a fresh call costs the verifier at the H200 timed workloads:
// new inputs (for the backward, with the forward that makes O and LSE) and the sampled check.
// Exit 0: all as expected; 1: a failure (printed); 77: no GPU (skip).
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "eval/gpu/cuda_check.h"
#include "eval/gpu/fill.h"
#include "eval/gpu/gpu_test_stream.h"
#include "eval/gpu/reference.h"
#include "eval/gpu/sample_check.h"
#include "eval/gpu/tensors.h"

using namespace ptxbench::gpu;

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  std::printf("%-70s %s\n", what.c_str(), ok ? "ok" : "FAILED");
  if (!ok) ++failures;
}

// A rule about as strict as the tasks' (task/tolerance.h): bf16 outputs, the backward's term.
void set_rule(Problem& p) {
  p.tolerance.atol = 1e-3;
  p.tolerance.rtol = 2e-2;
  p.tolerance.max_rel_l2 = 1e-2;
  p.tolerance.term_factor = p.kind == Kind::attention_bwd ? 0.026 : 0.0;
}

// Writes the references `ref` into the outputs of `t`, as a candidate would (bf16 or fp32).
void write_outputs(TensorSet& t, const ReferenceOutputs& ref, cudaStream_t s) {
  const Problem& p = t.problem();
  for (std::size_t k = 0; k < p.outputs.size(); ++k) {
    const std::int64_t n = p.outputs[k].numel();
    if (p.outputs[k].type == ElemType::bf16)
      convert_f32_to_bf16(ref.values[k].as<float>(), t.output(k).get(), n, s);
    else
      PTXB_CUDA(cudaMemcpyAsync(t.output(k).get(), ref.values[k].get(),
                                static_cast<std::size_t>(n) * sizeof(float),
                                cudaMemcpyDeviceToDevice, s));
  }
  PTXB_CUDA(cudaStreamSynchronize(s));
}

std::string describe(const Problem& p, Distribution dist) {
  return to_string(p.kind) + " " + p.workload + " " + std::string(to_string(dist));
}

void test_family(Problem p, Distribution dist, cudaStream_t s) {
  set_rule(p);
  TensorSet t(p);
  SecretStream secret;
  const std::uint64_t seed = 0xF1E5C0DEull, other = 0x0BADBA5Eull;
  generate_inputs(t, other, dist, s);
  const ReferenceOutputs wrong = run_reference(t, s);
  generate_inputs(t, seed, dist, s);
  const ReferenceOutputs right = run_reference(t, s);
  const std::string name = describe(p, dist);

  write_outputs(t, right, s);
  bool all = true;
  for (const CompareStats& c : compare_sampled_outputs(t, seed, dist, Poison{}, secret, s)) {
    all = all && c.passed && c.failed == 0 && c.worst_rule_ratio < 0.5 && c.sampled_from > 0;
    if (!(c.passed && c.worst_rule_ratio < 0.5))
      std::printf("  %s: failed %lld of %lld, worst rule ratio %.3f, rel L2 %.2e\n",
                  c.tensor.c_str(), static_cast<long long>(c.failed),
                  static_cast<long long>(c.numel), c.worst_rule_ratio, c.rel_l2);
  }
  expect(all, name + ": the reference passes, with margin");

  write_outputs(t, wrong, s);
  bool none = true;
  for (const CompareStats& c : compare_sampled_outputs(t, seed, dist, Poison{}, secret, s))
    none = none && !c.passed && c.failed > 0;
  expect(none, name + ": another input set's reference fails every output");

  write_outputs(t, right, s);
  const TensorDesc& last = p.outputs.back();
  fill_poison(t.output(p.outputs.size() - 1).get(), 1, last.type, s, Poison{});  // element 0
  const auto stats = compare_sampled_outputs(t, seed, dist, Poison{}, secret, s);
  expect(!stats.back().passed && stats.back().unwritten == 1,
         name + ": one unwritten element fails");
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// What one fresh call costs the verifier at a timed workload (no assertion).
void time_fresh(const Problem& p, cudaStream_t s) {
  TensorSet t(p);
  SecretStream secret;
  poison_outputs(t, s);
  for (int round = 0; round < 2; ++round) {  // the first round loads the kernels
    auto t0 = std::chrono::steady_clock::now();
    generate_inputs(t, 11 + round, Distribution::normal, s);
    PTXB_CUDA(cudaStreamSynchronize(s));
    const double gen = ms_since(t0);
    t0 = std::chrono::steady_clock::now();
    compare_sampled_outputs(t, 11 + round, Distribution::normal, Poison{}, secret, s);
    if (round == 1)
      std::printf("fresh call, %-48s new inputs %8.1f ms, sampled check %8.1f ms\n",
                  describe(p, Distribution::normal).c_str(), gen, ms_since(t0));
  }
}

}  // namespace

int main() {
  const auto stream = gpu_test_stream();
  if (!stream) return kSkippedExit;
  const cudaStream_t s = *stream;
  // Each family on the distributions its sessions draw (eval/plan.cc input_distributions): an
  // attention task never sees wide_range or near_cancel, whose scores overflow its rule.
  for (Distribution dist :
       {Distribution::normal, Distribution::wide_range, Distribution::near_cancel}) {
    test_family(gemm_problem(300, 200, 64), dist, s);
    // near_cancel pairs elements within rows whose length is a multiple of 32 (gpu/rng.h)
    test_family(gemm_problem(1, 4096, dist == Distribution::near_cancel ? 160 : 130), dist, s);
  }
  for (Distribution dist : {Distribution::normal, Distribution::spiky, Distribution::large_scores})
    for (bool causal : {false, true}) {
      test_family(attention_problem(Kind::attention_fwd, 2, 3, 256, 64, causal), dist, s);
      test_family(attention_problem(Kind::attention_bwd, 2, 3, 256, 64, causal), dist, s);
      test_family(attention_problem(Kind::attention_bwd, 1, 2, 384, 128, causal), dist, s);
    }
  test_family(attention_problem(Kind::attention_bwd, 1, 1, 8192, 128, true), Distribution::normal,
              s);
  time_fresh(gemm_problem(8192, 7168, 5120), s);
  for (bool causal : {false, true}) {
    time_fresh(attention_problem(Kind::attention_fwd, 4, 48, 4096, 128, causal), s);
    time_fresh(attention_problem(Kind::attention_bwd, 4, 48, 4096, 128, causal), s);
  }
  std::printf(failures ? "FAILED: %d checks\n" : "all sampled checks as expected\n", failures);
  return failures ? 1 : 0;
}
