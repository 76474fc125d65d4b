#include "prompt/prompt.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "core/fs.h"
#include "core/sha256.h"
#include "prompt/tokens.h"
#include "task/loader.h"

namespace ptxbench::prompt {
namespace {

task::TaskSpec core_gemm() {
  auto t = task::load_task_by_name(Paths::discover(), "gemm_n7168_k5120");
  EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().to_string());
  return std::move(t).value();
}

std::string render(const PromptBundle& b) {
  return "=== system ===\n" + b.system + "=== user ===\n" + b.user;
}

TEST(Prompt, BundleFieldsAreConsistent) {
  Paths paths = Paths::discover();
  auto b = build_messages(core_gemm(), "sm_90a", "full", paths);
  ASSERT_TRUE(b.ok()) << b.error().to_string();
  EXPECT_EQ(b->level, "full");
  EXPECT_FALSE(b->version.empty());
  EXPECT_EQ(b->context_sha256, sha256_hex(b->system));
  EXPECT_EQ(b->system_tokens, estimate_tokens(b->system));
  EXPECT_EQ(b->user_tokens, estimate_tokens(b->user));
  EXPECT_EQ(b->token_estimate, b->system_tokens + b->user_tokens);
  EXPECT_FALSE(b->fragments.empty());
  EXPECT_NE(std::find(b->fragments.begin(), b->fragments.end(), "sm_90a/instructions.md"),
            b->fragments.end());
}

TEST(Prompt, TheContractChoosesTheContractFragment) {
  Paths paths = Paths::discover();
  PromptOptions o;
  o.contract = Contract::tvm_ffi;
  for (const char* level : {"none", "reference", "full"}) {
    auto tvm = build_messages(core_gemm(), "sm_90a", level, paths, o);
    auto native = build_messages(core_gemm(), "sm_90a", level, paths);
    ASSERT_TRUE(tvm.ok()) << tvm.error().to_string();
    ASSERT_TRUE(native.ok()) << native.error().to_string();
    auto has = [](const PromptBundle& b, const std::string& f) {
      return std::find(b.fragments.begin(), b.fragments.end(), f) != b.fragments.end();
    };
    EXPECT_TRUE(has(*tvm, "common/contract-tvm-ffi.md")) << level;
    EXPECT_FALSE(has(*tvm, "common/contract.md")) << level;
    EXPECT_TRUE(has(*native, "common/contract.md")) << level;
    EXPECT_NE(tvm->system.find("TVMFFIEnvGetStream"), std::string::npos);
    EXPECT_EQ(native->system.find("TVMFFIEnvGetStream"), std::string::npos);
    EXPECT_NE(tvm->user.find("TVM_FFI_DLL_EXPORT_TYPED_FUNC"), std::string::npos);
  }
}

TEST(Prompt, LevelsChangeOnlyTheSystemPrompt) {
  Paths paths = Paths::discover();
  task::TaskSpec t = core_gemm();
  auto none = build_messages(t, "sm_90a", "none", paths);
  auto ref = build_messages(t, "sm_90a", "reference", paths);
  auto full = build_messages(t, "sm_90a", "full", paths);
  ASSERT_TRUE(none.ok() && ref.ok() && full.ok());
  EXPECT_EQ(none->user, ref->user);
  EXPECT_EQ(ref->user, full->user);
  EXPECT_LT(none->system_tokens, ref->system_tokens);
  EXPECT_LT(ref->system_tokens, full->system_tokens);
  EXPECT_NE(none->context_sha256, ref->context_sha256);
  auto blackwell = build_messages(t, "sm_100a", "full", paths);
  ASSERT_TRUE(blackwell.ok());
  EXPECT_NE(blackwell->system, full->system);
  EXPECT_NE(blackwell->user, full->user);  // the target families and build flags differ
  EXPECT_NE(blackwell->user.find("tcgen05"), std::string::npos);
}

TEST(Prompt, ErrorsAreClear) {
  Paths paths = Paths::discover();
  auto bad_level = build_messages(core_gemm(), "sm_90a", "everything", paths);
  ASSERT_FALSE(bad_level.ok());
  EXPECT_NE(bad_level.error().hint.find("full"), std::string::npos);
  EXPECT_FALSE(build_messages(core_gemm(), "sm_75", "full", paths).ok());
  Paths nowhere = paths;
  nowhere.root = "/nonexistent-ptxbench-root";
  auto no_ctx = build_messages(core_gemm(), "sm_90a", "full", nowhere);
  ASSERT_FALSE(no_ctx.ok());
  EXPECT_NE(no_ctx.error().message.find("levels.toml"), std::string::npos);
}

// The complete first turn for one task, byte for byte. Regenerate after an intended change
// with PTXB_UPDATE_GOLDEN=1 (and bump the context version if context/ changed).
TEST(Prompt, GoldenCompletePrompt) {
  Paths paths = Paths::discover();
  auto b = build_messages(core_gemm(), "sm_90a", "none", paths);
  ASSERT_TRUE(b.ok()) << b.error().to_string();
  auto golden = paths.root / "src/prompt/testdata/gemm_n7168_k5120.sm_90a.none.golden.txt";
  std::string got = render(*b);
  if (const char* u = std::getenv("PTXB_UPDATE_GOLDEN"); u && std::string(u) == "1") {
    ASSERT_TRUE(write_file_atomic(golden, got).ok());
  }
  auto want = read_file(golden);
  ASSERT_TRUE(want.ok()) << golden << " missing; run with PTXB_UPDATE_GOLDEN=1";
  EXPECT_EQ(got, *want) << "the prompt changed; if intended, regenerate " << golden
                        << " with PTXB_UPDATE_GOLDEN=1";
}

}  // namespace
}  // namespace ptxbench::prompt
