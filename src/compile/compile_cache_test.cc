#include "compile/compile_cache.h"

#include <gtest/gtest.h>

#include <fstream>

#include "core/sha256.h"

namespace ptxbench::compile {
namespace {

namespace fs = std::filesystem;

class CompileCacheTest : public ::testing::Test {
 protected:
  // Builds an entry with a fake kernel.so and publishes it under `key`.
  CompileResult publish(const std::string& key, const std::string& so_bytes) {
    auto build = cache_.make_build_dir();
    EXPECT_TRUE(build.ok());
    std::ofstream(build->path() / "kernel.so") << so_bytes;
    std::ofstream(build->path() / "kernel.sass") << "listing";
    CompileResult r;
    r.outcome = Outcome::passed;
    r.cache_key = key;
    r.shared_object = "kernel.so";
    r.sass = "kernel.sass";
    r.shared_object_sha256 = sha256_hex(so_bytes);
    point_into(r, cache_.entry_dir(key));
    EXPECT_TRUE(cache_.publish(*build, key, r).ok());
    EXPECT_FALSE(fs::exists(build->path()));  // renamed into place
    return r;
  }

  TempDir dir_ = TempDir::create("ptxbench-cache-test-").value();
  CompileCache cache_{dir_.path() / "compile"};
};

TEST_F(CompileCacheTest, PublishedEntriesAreFoundWithPathsIntoTheEntry) {
  publish("k1", "ELF bytes");
  auto hit = cache_.lookup("k1");
  ASSERT_TRUE(hit.ok()) << hit.error().message;
  EXPECT_EQ(hit->outcome, Outcome::passed);
  EXPECT_EQ(hit->shared_object, (cache_.entry_dir("k1") / "kernel.so").string());
  EXPECT_FALSE(cache_.lookup("k2").ok());
}

TEST_F(CompileCacheTest, CorruptOrPartialEntriesAreMisses) {
  publish("k1", "ELF bytes");
  std::ofstream(cache_.entry_dir("k1") / "kernel.so", std::ios::trunc) << "ELF bytez";
  EXPECT_FALSE(cache_.lookup("k1").ok());

  publish("k2", "more bytes");
  std::ofstream(cache_.entry_dir("k2") / "result.json", std::ios::trunc) << "{\"outcome\": ";
  EXPECT_FALSE(cache_.lookup("k2").ok());

  publish("k3", "bytes");
  fs::remove(cache_.entry_dir("k3") / "kernel.sass");
  EXPECT_FALSE(cache_.lookup("k3").ok());

  fs::create_directories(cache_.entry_dir("k4"));  // an empty directory
  EXPECT_FALSE(cache_.lookup("k4").ok());
}

TEST_F(CompileCacheTest, RepublishingReplacesTheEntryWhole) {
  publish("k1", "old");
  std::ofstream(cache_.entry_dir("k1") / "stray") << "x";
  publish("k1", "new");
  auto hit = cache_.lookup("k1");
  ASSERT_TRUE(hit.ok());
  EXPECT_EQ(hit->shared_object_sha256, sha256_hex("new"));
  EXPECT_FALSE(fs::exists(cache_.entry_dir("k1") / "stray"));
  int dirs = 0;
  for (const auto& e : fs::directory_iterator(cache_.root())) dirs += e.is_directory() ? 1 : 0;
  EXPECT_EQ(dirs, 1);  // no build or moved-aside directory left
}

TEST_F(CompileCacheTest, StaleBuildDirectoriesAreRemoved) {
  fs::create_directories(cache_.root() / ".build-stale");
  fs::last_write_time(cache_.root() / ".build-stale",
                      fs::file_time_type::clock::now() - std::chrono::hours(48));
  fs::create_directories(cache_.root() / ".build-recent");
  auto build = cache_.make_build_dir();
  ASSERT_TRUE(build.ok());
  EXPECT_FALSE(fs::exists(cache_.root() / ".build-stale"));
  EXPECT_TRUE(fs::exists(cache_.root() / ".build-recent"));
}

TEST(CacheKey, DependsOnEveryInput) {
  const std::vector<std::string> flags = {"-O3"};
  const std::string k = cache_key("src", flags, "sm_90a", "nvcc 13.0");
  EXPECT_EQ(k.size(), 64u);
  EXPECT_EQ(k, cache_key("src", flags, "sm_90a", "nvcc 13.0"));
  EXPECT_NE(k, cache_key("src2", flags, "sm_90a", "nvcc 13.0"));
  EXPECT_NE(k, cache_key("src", {"-O2"}, "sm_90a", "nvcc 13.0"));
  EXPECT_NE(k, cache_key("src", flags, "sm_100a", "nvcc 13.0"));
  EXPECT_NE(k, cache_key("src", flags, "sm_90a", "nvcc 13.1"));
}

}  // namespace
}  // namespace ptxbench::compile
