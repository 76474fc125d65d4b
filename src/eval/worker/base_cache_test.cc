#include "eval/worker/base_cache.h"

#include <gtest/gtest.h>

namespace ptxbench::eval::worker {
namespace {

gpu::Problem gemm(int m) {
  return gpu::gemm_problem(m, 128, 64);
}

// An entry as a session makes it, without a GPU: no buffers, only its size.
std::shared_ptr<BaseEntry> entry(std::size_t bytes) {
  auto e = std::make_shared<BaseEntry>();
  e->bytes = bytes;
  return e;
}

TEST(BaseCache, AKeptBaseServesTheSameProblemSeedAndDistributionOnly) {
  BaseCache cache(1000);
  EXPECT_EQ(cache.find(gemm(256), 7, gpu::Distribution::normal), nullptr);
  auto made = entry(10);
  cache.add(gemm(256), 7, gpu::Distribution::normal, made);
  EXPECT_EQ(cache.find(gemm(256), 7, gpu::Distribution::normal), made);
  EXPECT_EQ(cache.find(gemm(256), 8, gpu::Distribution::normal), nullptr);
  EXPECT_EQ(cache.find(gemm(256), 7, gpu::Distribution::spiky), nullptr);
  EXPECT_EQ(cache.find(gemm(255), 7, gpu::Distribution::normal), nullptr);
  gpu::Problem renamed = gemm(256);
  renamed.workload = "m256";
  EXPECT_EQ(cache.find(renamed, 7, gpu::Distribution::normal), nullptr);
  EXPECT_EQ(cache.bytes(), 10u);
}

TEST(BaseCache, TheLeastRecentlyUsedUnheldEntriesGoPastTheByteBound) {
  BaseCache cache(100);
  auto held = entry(40);  // an open session holds it
  cache.add(gemm(1), 1, gpu::Distribution::normal, held);
  cache.add(gemm(2), 1, gpu::Distribution::normal, entry(40));
  cache.add(gemm(3), 1, gpu::Distribution::normal, entry(40));
  // 120 > 100: gemm(2), the oldest nobody holds, went; the held one stayed.
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(cache.bytes(), 80u);
  EXPECT_EQ(cache.find(gemm(1), 1, gpu::Distribution::normal), held);
  EXPECT_EQ(cache.find(gemm(2), 1, gpu::Distribution::normal), nullptr);
  // A find makes an entry recent: gemm(1), found after gemm(3), outlives it.
  (void)cache.find(gemm(3), 1, gpu::Distribution::normal);
  held.reset();
  (void)cache.find(gemm(1), 1, gpu::Distribution::normal);
  cache.add(gemm(4), 1, gpu::Distribution::normal, entry(40));
  EXPECT_EQ(cache.find(gemm(3), 1, gpu::Distribution::normal), nullptr);
  EXPECT_NE(cache.find(gemm(1), 1, gpu::Distribution::normal), nullptr);
  EXPECT_NE(cache.find(gemm(4), 1, gpu::Distribution::normal), nullptr);
}

TEST(BaseCache, EveryEntryHeldLeavesTheBoundExceededUntilTheyAreFreed) {
  BaseCache cache(50);
  auto a = entry(40), b = entry(40);
  cache.add(gemm(1), 1, gpu::Distribution::normal, a);
  cache.add(gemm(2), 1, gpu::Distribution::normal, b);
  EXPECT_EQ(cache.size(), 2u);  // both held by a session: nothing can go yet
  a.reset();
  cache.trim();  // as the verifier does at a session's close
  EXPECT_EQ(cache.find(gemm(1), 1, gpu::Distribution::normal), nullptr);
  EXPECT_EQ(cache.bytes(), 40u);
  a = entry(40);
  cache.add(gemm(1), 1, gpu::Distribution::normal, a);
  a.reset();
  cache.add(gemm(3), 1, gpu::Distribution::normal, entry(5));
  EXPECT_EQ(cache.find(gemm(1), 1, gpu::Distribution::normal), nullptr);
  EXPECT_EQ(cache.bytes(), 45u);
}

}  // namespace
}  // namespace ptxbench::eval::worker
