#include "eval/worker/library_cache.h"

#include <gtest/gtest.h>

#include "eval/gpu/device_buffer.h"

namespace ptxbench::eval::worker {
namespace {

// A built baseline that runs plan `index` (no GPU: never run here).
class FakeBaseline : public gpu::Baseline {
 public:
  explicit FakeBaseline(int index) : index_(index) {}
  std::string name() const override { return "fake"; }
  std::string describe() const override { return "plan " + std::to_string(index_); }
  void run(gpu::TensorSet&, cudaStream_t) override {}
  int plan_index() const override { return index_; }
  bool plan_timed() const override { return true; }

 private:
  int index_;
};

gpu::Problem gemm(int m, const char* workload = "timed") {
  gpu::Problem p = gpu::gemm_problem(m, 128, 64);
  p.workload = workload;
  return p;
}

// Builds `e` as a session would, ready, running plan `index`.
void build(LibraryEntry& e, int index) {
  e.baseline = std::make_unique<FakeBaseline>(index);
  e.ready = true;
}

TEST(LibraryCache, ABuiltBaselineServesTheSameProblemAndPlanOnly) {
  LibraryCache cache;
  bool reused = true;
  auto first = cache.find_or_add(gemm(256), gpu::LibraryPlan::fastest, -1, reused);
  EXPECT_FALSE(reused);
  build(*first, 5);
  first.reset();
  auto again = cache.find_or_add(gemm(256), gpu::LibraryPlan::fastest, -1, reused);
  EXPECT_TRUE(reused);
  EXPECT_EQ(again->baseline->plan_index(), 5);
  // The run chose plan 5: the same baseline; another plan: a new entry, not this one.
  EXPECT_TRUE(cache.find_or_add(gemm(256), gpu::LibraryPlan::fastest, 5, reused)->baseline);
  EXPECT_TRUE(reused);
  auto other_plan = cache.find_or_add(gemm(256), gpu::LibraryPlan::fastest, 3, reused);
  EXPECT_FALSE(reused);
  EXPECT_FALSE(other_plan->baseline);
  EXPECT_EQ(other_plan->requested, 3);
  // Another shape, workload name or plan mode is another key.
  EXPECT_FALSE(cache.find_or_add(gemm(255), gpu::LibraryPlan::fastest, -1, reused)->baseline);
  EXPECT_FALSE(
      cache.find_or_add(gemm(256, "m256"), gpu::LibraryPlan::fastest, -1, reused)->baseline);
  EXPECT_FALSE(cache.find_or_add(gemm(256), gpu::LibraryPlan::heuristic, -1, reused)->baseline);
  EXPECT_FALSE(reused);
}

TEST(LibraryCache, UnbuiltEntriesAreDroppedAndTheOldestGoFirst) {
  LibraryCache cache;
  bool reused = false;
  (void)cache.find_or_add(gemm(1), gpu::LibraryPlan::fastest, -1, reused);  // never built
  cache.drop_unbuilt();
  EXPECT_EQ(cache.size(), 0u);
  auto held = cache.find_or_add(gemm(1), gpu::LibraryPlan::fastest, -1, reused);  // in use
  build(*held, 0);
  for (int m = 2; m < 2 + static_cast<int>(LibraryCache::kMaxEntries) + 3; ++m)
    build(*cache.find_or_add(gemm(m), gpu::LibraryPlan::fastest, -1, reused), 0);
  EXPECT_EQ(cache.size(), LibraryCache::kMaxEntries);
  // The held entry survived; the oldest others went.
  EXPECT_TRUE(cache.find_or_add(gemm(1), gpu::LibraryPlan::fastest, -1, reused)->baseline);
  EXPECT_TRUE(reused);
  EXPECT_FALSE(cache.find_or_add(gemm(2), gpu::LibraryPlan::fastest, -1, reused)->baseline);
}

// Exported buffers take whole 2 MiB blocks (CUDA IPC maps a sub-allocation's whole block).
TEST(DeviceBuffer, ExportedBuffersTakeWholeIpcBlocks) {
  constexpr std::size_t g = gpu::DeviceBuffer::kIpcGranularity;
  EXPECT_EQ(g, std::size_t{2} << 20);
  EXPECT_EQ(gpu::DeviceBuffer::exported_capacity(0), g);
  EXPECT_EQ(gpu::DeviceBuffer::exported_capacity(1), g);
  EXPECT_EQ(gpu::DeviceBuffer::exported_capacity(10240), g);
  EXPECT_EQ(gpu::DeviceBuffer::exported_capacity(g), g);
  EXPECT_EQ(gpu::DeviceBuffer::exported_capacity(g + 1), 2 * g);
  EXPECT_EQ(gpu::DeviceBuffer::exported_capacity(35 * g), 35 * g);
  // The tensor sits at the allocation's end, 256-aligned: a read past its end leaves it.
  EXPECT_EQ(gpu::DeviceBuffer::exported_offset(10240), g - 10240);
  EXPECT_EQ(gpu::DeviceBuffer::exported_offset(35 * g), 0u);
  EXPECT_EQ(gpu::DeviceBuffer::exported_offset(1000), (g - 1000) / 256 * 256);
  EXPECT_EQ(gpu::DeviceBuffer::exported_offset(1000) % 256, 0u);
  EXPECT_LT(g - gpu::DeviceBuffer::exported_offset(1000) - 1000, 256u);
}

}  // namespace
}  // namespace ptxbench::eval::worker
