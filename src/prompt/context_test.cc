#include "prompt/context.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/fs.h"
#include "core/paths.h"
#include "core/text.h"
#include "task/spec.h"

namespace ptxbench::prompt {
namespace {

namespace fs = std::filesystem;

ContextManifest real_manifest() {
  auto m = load_manifest(Paths::discover().context());
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().to_string());
  return std::move(m).value();
}

TEST(Context, ParsesLevelsAndSubstitutesArch) {
  auto m = parse_manifest(R"(
version = "v7"
[levels.a]
description = "first"
fragments = ["common/x.md", "{arch}/y.md"]
[levels.b]
fragments = ["common/x.md"]
)",
                          "/ctx");
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(m->version, "v7");
  EXPECT_EQ(m->level_names(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(m->levels.at("a").description, "first");
  auto f = m->fragments_for("a", "sm_100a");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(*f, (std::vector<std::string>{"common/x.md", "sm_100a/y.md"}));
  auto bad = m->fragments_for("zzz", "sm_90a");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("zzz"), std::string::npos);
  EXPECT_NE(bad.error().hint.find("a, b"), std::string::npos);
}

TEST(Context, RejectsBadManifests) {
  EXPECT_FALSE(parse_manifest("version = ", "/c").ok());                     // TOML syntax
  EXPECT_FALSE(parse_manifest("[levels.a]\nfragments=[\"x\"]", "/c").ok());  // no version
  EXPECT_FALSE(parse_manifest("version=\"1\"", "/c").ok());                  // no levels
  EXPECT_FALSE(parse_manifest("version=\"1\"\n[levels.a]\nfragments=[]", "/c").ok());
  EXPECT_FALSE(
      parse_manifest("version=\"1\"\n[levels.a]\nfragments=[\"../etc/passwd\"]", "/c").ok());
  EXPECT_FALSE(parse_manifest("version=\"1\"\n[levels.a]\nfragments=[\"/abs.md\"]", "/c").ok());
  EXPECT_FALSE(parse_manifest("version=\"1\"\n[levels.a]\nfragments=[3]", "/c").ok());
}

TEST(Context, RealManifestHasTheRequiredLevels) {
  ContextManifest m = real_manifest();
  for (const char* level : {"none", "reference", "full"})
    EXPECT_TRUE(m.levels.count(level)) << level;
  EXPECT_FALSE(m.version.empty());
}

TEST(Context, EveryFragmentOfEveryLevelAndArchExists) {
  ContextManifest m = real_manifest();
  for (const auto& name : m.level_names())
    for (task::Arch a : task::kAllArchs) {
      const std::string_view arch = task::to_string(a);
      auto frags = m.fragments_for(name, arch);
      ASSERT_TRUE(frags.ok());
      for (const auto& f : *frags) {
        EXPECT_TRUE(fs::is_regular_file(m.dir / f)) << name << " " << arch << ": " << f;
        EXPECT_EQ(f.find("{arch}"), std::string::npos);
      }
      auto sys = assemble_system_prompt(m, name, arch);
      EXPECT_TRUE(sys.ok()) << name << " " << arch << ": "
                            << (sys.ok() ? "" : sys.error().to_string());
    }
}

TEST(Context, LevelsNestAndGrow) {
  ContextManifest m = real_manifest();
  for (task::Arch a : task::kAllArchs) {
    const std::string_view arch = task::to_string(a);
    auto none = *m.fragments_for("none", arch);
    auto ref = *m.fragments_for("reference", arch);
    auto full = *m.fragments_for("full", arch);
    for (const auto& f : none) EXPECT_NE(std::find(ref.begin(), ref.end(), f), ref.end()) << f;
    for (const auto& f : ref) EXPECT_NE(std::find(full.begin(), full.end(), f), full.end()) << f;
    auto s_none = *assemble_system_prompt(m, "none", arch);
    auto s_ref = *assemble_system_prompt(m, "reference", arch);
    auto s_full = *assemble_system_prompt(m, "full", arch);
    EXPECT_LT(s_none.size(), s_ref.size());
    EXPECT_LT(s_ref.size(), s_full.size());
    // `none` is the contract only; `reference` adds the instruction reference; `full` the
    // patterns and pitfalls.
    EXPECT_NE(s_none.find("ptxbench_launch"), std::string::npos);
    EXPECT_EQ(s_none.find("mbarrier.try_wait"), std::string::npos);
    EXPECT_NE(s_ref.find("mbarrier.try_wait.parity"), std::string::npos);
    EXPECT_EQ(s_ref.find("optimisation patterns"), std::string::npos);
    EXPECT_NE(s_full.find("optimisation patterns"), std::string::npos);
    EXPECT_NE(s_full.find("pitfalls"), std::string::npos);
  }
}

TEST(Context, ArchFragmentsFollowTheArch) {
  ContextManifest m = real_manifest();
  auto hopper = *assemble_system_prompt(m, "reference", "sm_90a");
  auto blackwell = *assemble_system_prompt(m, "reference", "sm_100a");
  EXPECT_NE(hopper.find("wgmma.mma_async.sync.aligned.m64nNk16"), std::string::npos);
  EXPECT_NE(hopper.find("setmaxnreg.inc.sync.aligned.u32"), std::string::npos);
  EXPECT_NE(hopper.find("stmatrix.sync.aligned.m8n8.x4"), std::string::npos);
  EXPECT_NE(hopper.find("cuTensorMapEncodeTiled"), std::string::npos);
  EXPECT_EQ(hopper.find("tcgen05.mma.cta_group"), std::string::npos);
  EXPECT_NE(blackwell.find("tcgen05.mma.cta_group::1.kind::f16"), std::string::npos);
  EXPECT_NE(blackwell.find("tcgen05.alloc"), std::string::npos);
  EXPECT_NE(blackwell.find("tcgen05.commit"), std::string::npos);
  EXPECT_EQ(blackwell.find("wgmma.mma_async.sync.aligned.m64nNk16"), std::string::npos);
}

TEST(Context, AssemblyJoinsFragmentsInOrder) {
  auto dir = TempDir::create("ctx");
  ASSERT_TRUE(dir.ok());
  fs::create_directories(dir->path() / "sm_90a");
  ASSERT_TRUE(write_file_atomic(dir->path() / "a.md", "alpha\n\n\n").ok());
  ASSERT_TRUE(write_file_atomic(dir->path() / "sm_90a" / "b.md", "beta  \n").ok());
  ASSERT_TRUE(write_file_atomic(dir->path() / "empty.md", " \n").ok());
  auto m = parse_manifest(
      "version=\"t\"\n[levels.x]\nfragments=[\"a.md\",\"{arch}/b.md\"]\n"
      "[levels.missing]\nfragments=[\"a.md\",\"nope.md\"]\n[levels.blank]\nfragments=[\"empty.md\"]"
      "\n",
      dir->path());
  ASSERT_TRUE(m.ok());
  auto s = assemble_system_prompt(*m, "x", "sm_90a");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, "alpha\n\nbeta\n");
  auto missing = assemble_system_prompt(*m, "missing", "sm_90a");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("nope.md"), std::string::npos);
  EXPECT_FALSE(assemble_system_prompt(*m, "blank", "sm_90a").ok());
  EXPECT_FALSE(assemble_system_prompt(*m, "x", "sm_100a").ok());  // sm_100a/b.md absent
}

// context/ text may only change together with its version: testdata/context_versions.txt
// lists "VERSION SHA256" for every released version.
TEST(Context, VersionChangesWhenTheTextChanges) {
  ContextManifest m = real_manifest();
  auto fp = context_fingerprint(m);
  ASSERT_TRUE(fp.ok()) << fp.error().to_string();
  fs::path list = Paths::discover().root / "src/prompt/testdata/context_versions.txt";
  auto text = read_file(list);
  ASSERT_TRUE(text.ok()) << list;
  for (const auto& line : split_lines(*text)) {
    auto parts = split(std::string(trim(line)), ' ');
    if (parts.size() != 2 || parts[0] != m.version) continue;
    EXPECT_EQ(parts[1], *fp)
        << "context/ changed but its version '" << m.version
        << "' did not: bump `version` in context/levels.toml and add the line '"
        << "<new version> " << *fp << "' to " << list;
    return;
  }
  ADD_FAILURE() << "context version '" << m.version << "' is not listed in " << list
                << "; add the line: " << m.version << " " << *fp;
}

}  // namespace
}  // namespace ptxbench::prompt
