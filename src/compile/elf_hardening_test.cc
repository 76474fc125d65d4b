// The load-time/hardening check on host-only shared objects built by CMake from
// tests/elf/probe.cc (one planted construct each); nvcc-built kernels are in compiler_test.cc.
#include "compile/elf_hardening.h"

#include <gtest/gtest.h>

#include "compile/elf_file.h"
#include "core/fs.h"

namespace ptxbench::compile {
namespace {

std::vector<std::string> problems(const char* path) {
  auto r = read_hardening(path);
  EXPECT_TRUE(r.ok()) << r.error().to_string();
  return r.ok() ? r->problems : std::vector<std::string>{"unreadable"};
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

bool mentions(const std::vector<std::string>& v, std::string_view what) {
  return joined(v).find(what) != std::string::npos;
}

TEST(ElfHardening, PlainObjectLinkedLikeACandidatePasses) {
  EXPECT_TRUE(problems(PTXBENCH_ELF_PROBE_PLAIN).empty())
      << joined(problems(PTXBENCH_ELF_PROBE_PLAIN));
}

TEST(ElfHardening, CxxStaticInitialisationIsAllowed) {
  auto p = problems(PTXBENCH_ELF_PROBE_STATIC_INIT);
  EXPECT_TRUE(p.empty()) << joined(p);
}

TEST(ElfHardening, ConstructorIsNamedWithWhatToDoInstead) {
  auto p = problems(PTXBENCH_ELF_PROBE_CONSTRUCTOR);
  ASSERT_EQ(p.size(), 1u) << joined(p);
  EXPECT_NE(p[0].find("`at_load()` runs when the library is loaded"), std::string::npos) << p[0];
  EXPECT_NE(p[0].find("inside ptxbench_launch"), std::string::npos) << p[0];
}

TEST(ElfHardening, DestructorIsRefused) {
  auto p = problems(PTXBENCH_ELF_PROBE_DESTRUCTOR);
  ASSERT_EQ(p.size(), 1u) << joined(p);
  EXPECT_NE(p[0].find("`at_unload()` runs when the library is unloaded"), std::string::npos)
      << p[0];
  EXPECT_NE(p[0].find("cudaFreeAsync"), std::string::npos) << p[0];
}

TEST(ElfHardening, CodeAppendedToTheInitStubIsRefused) {
  auto p = problems(PTXBENCH_ELF_PROBE_INIT_SECTION);
  EXPECT_TRUE(mentions(p, "the .init section holds")) << joined(p);
}

TEST(ElfHardening, DefiningGmonStartIsRefused) {
  auto p = problems(PTXBENCH_ELF_PROBE_GMON);
  EXPECT_TRUE(mentions(p, "defines __gmon_start__")) << joined(p);
}

// The red team's ifunc_load_time_output (2026-12-06): a resolver runs inside dlopen.
TEST(ElfHardening, IndirectFunctionsAreLoadTimeCode) {
  for (const char* probe : {PTXBENCH_ELF_PROBE_IFUNC_LOCAL, PTXBENCH_ELF_PROBE_IFUNC_EXPORTED}) {
    auto p = problems(probe);
    ASSERT_EQ(p.size(), 1u) << probe << "\n" << joined(p);
    EXPECT_TRUE(mentions(p, "GNU indirect function")) << joined(p);
    EXPECT_TRUE(mentions(p, "inside ptxbench_launch")) << joined(p);
  }
}

TEST(ElfHardening, LazyBindingAndNoRelroAreRefused) {
  auto p = problems(PTXBENCH_ELF_PROBE_LAZY);
  EXPECT_TRUE(mentions(p, "not linked with RELRO")) << joined(p);
  EXPECT_TRUE(mentions(p, "no BIND_NOW")) << joined(p);
  EXPECT_TRUE(mentions(p, "-z relro -z now")) << joined(p);
}

TEST(ElfHardening, MalformedObjectsAreErrorsNotCrashes) {
  auto bytes = read_file(PTXBENCH_ELF_PROBE_PLAIN);
  ASSERT_TRUE(bytes.ok());
  EXPECT_FALSE(check_hardening("").ok());
  EXPECT_FALSE(check_hardening("not an elf file at all, but long enough to have a header....."
                               "...........")
                   .ok());
  // Every truncation either parses or fails cleanly.
  for (std::size_t n = 0; n < bytes->size(); n += 97) (void)check_hardening(bytes->substr(0, n));
  // Section and program header offsets pointing past the end.
  std::string bad = *bytes;
  for (std::size_t at : {0x20, 0x28}) {
    std::string b = bad;
    b[at + 6] = 0x7f;
    EXPECT_FALSE(check_hardening(b).ok()) << at;
  }
}

TEST(ElfFile, SectionsSegmentsAndDynamicEntriesOfTheProbe) {
  auto bytes = read_file(PTXBENCH_ELF_PROBE_PLAIN);
  ASSERT_TRUE(bytes.ok());
  auto f = elf::File::parse(*bytes);
  ASSERT_TRUE(f.ok()) << f.error().to_string();
  ASSERT_NE(f->section(".init_array"), nullptr);
  ASSERT_NE(f->section(".dynsym"), nullptr);
  EXPECT_EQ(f->section(".no_such_section"), nullptr);
  bool relro = false;
  for (const auto& p : f->segments()) relro |= p.type == elf::kPtGnuRelro;
  EXPECT_TRUE(relro);
  auto dyn = f->dynamic();
  ASSERT_TRUE(dyn.ok());
  EXPECT_FALSE(dyn->empty());
  auto syms = f->symbols(elf::kShtDynsym);
  ASSERT_TRUE(syms.ok());
  bool launch = false;
  for (const auto& s : *syms) launch |= s.name == "probe_launch" && s.shndx != 0;
  EXPECT_TRUE(launch);
}

}  // namespace
}  // namespace ptxbench::compile
