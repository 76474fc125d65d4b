#include "core/paths.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace ptxbench {
namespace {

TEST(Paths, RootFromEnvironment) {
  ::setenv("PTXBENCH_ROOT", "/some/root", 1);
  auto p = Paths::discover();
  EXPECT_EQ(p.root, "/some/root");
  EXPECT_EQ(p.tasks(), "/some/root/tasks");
  ::unsetenv("PTXBENCH_ROOT");
}

TEST(Paths, ToolOverrideMustBeExecutable) {
  ::setenv("PTXBENCH_CUOBJDUMP", "/etc/passwd", 1);
  auto r = Paths::discover().tool("cuobjdump");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("PTXBENCH_CUOBJDUMP"), std::string::npos);
  ::setenv("PTXBENCH_CUOBJDUMP", "/bin/sh", 1);
  EXPECT_EQ(*Paths::discover().tool("cuobjdump"), "/bin/sh");
  ::unsetenv("PTXBENCH_CUOBJDUMP");
}

// A variable naming a path that is not there is refused, naming the variable and the path,
// instead of being passed over for another tool or header.
TEST(Paths, PathVariablesMustNameWhatIsThere) {
  EXPECT_TRUE(check_path_variables().ok());
  ::setenv("PTXBENCH_CUOBJDUMP", "/nonexistent/cuobjdump", 1);
  auto missing = check_path_variables();
  ::unsetenv("PTXBENCH_CUOBJDUMP");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            "PTXBENCH_CUOBJDUMP points to /nonexistent/cuobjdump, which does not exist");
  EXPECT_NE(missing.error().hint.find("unset it"), std::string::npos);

  ::setenv("PTXBENCH_COMPUTE_SANITIZER", "/etc/passwd", 1);
  auto not_a_program = check_path_variables();
  ::unsetenv("PTXBENCH_COMPUTE_SANITIZER");
  ASSERT_FALSE(not_a_program.ok());
  EXPECT_NE(not_a_program.error().message.find("PTXBENCH_COMPUTE_SANITIZER points to /etc/passwd"),
            std::string::npos);

  ::setenv("PTXBENCH_DLPACK_INCLUDE", "/nonexistent/include", 1);
  auto no_folder = check_path_variables();
  ::setenv("PTXBENCH_DLPACK_INCLUDE", "/etc", 1);
  auto no_header = check_path_variables();
  ::unsetenv("PTXBENCH_DLPACK_INCLUDE");
  ASSERT_FALSE(no_folder.ok());
  EXPECT_EQ(no_folder.error().message,
            "PTXBENCH_DLPACK_INCLUDE points to /nonexistent/include, which does not exist");
  ASSERT_FALSE(no_header.ok());
  EXPECT_EQ(no_header.error().message,
            "PTXBENCH_DLPACK_INCLUDE points to /etc, which holds no dlpack/dlpack.h");

  ::setenv("PTXBENCH_TVM_FFI_ROOT", "/etc", 1);
  auto no_tvm = check_path_variables();
  ::unsetenv("PTXBENCH_TVM_FFI_ROOT");
  ASSERT_FALSE(no_tvm.ok());
  EXPECT_EQ(no_tvm.error().message,
            "PTXBENCH_TVM_FFI_ROOT points to /etc, which holds no include/tvm/ffi/c_api.h");

  ::setenv("PTXBENCH_BIN_DIR", "/etc/passwd", 1);
  auto bin = check_path_variables();
  ::unsetenv("PTXBENCH_BIN_DIR");
  ASSERT_FALSE(bin.ok());
  EXPECT_NE(bin.error().message.find("which is not a folder"), std::string::npos);

  // A compile cache that is a file, or under one: bad input (campaign 4, G14, G38).
  const char* was = std::getenv("PTXBENCH_CACHE");
  const std::string saved = was ? was : "";
  ::setenv("PTXBENCH_CACHE", "/etc/passwd", 1);
  auto cache_file = check_path_variables();
  ::setenv("PTXBENCH_CACHE", "/etc/passwd/c", 1);
  auto under_file = check_path_variables();
  ::unsetenv("PTXBENCH_CACHE");
  ::setenv("XDG_CACHE_HOME", "/etc/passwd", 1);
  auto xdg_file = check_path_variables();
  ::unsetenv("XDG_CACHE_HOME");
  if (was) ::setenv("PTXBENCH_CACHE", saved.c_str(), 1);
  ASSERT_FALSE(cache_file.ok());
  EXPECT_EQ(cache_file.error().message,
            "the compile cache /etc/passwd (from PTXBENCH_CACHE) cannot be made: /etc/passwd is "
            "a file, not a folder");
  ASSERT_FALSE(under_file.ok());
  EXPECT_NE(under_file.error().message.find("/etc/passwd is a file"), std::string::npos);
  ASSERT_FALSE(xdg_file.ok());
  EXPECT_NE(xdg_file.error().message.find("/etc/passwd/ptxbench (from XDG_CACHE_HOME)"),
            std::string::npos)
      << xdg_file.error().message;

  ::setenv("PTXBENCH_NVDISASM", "/bin/sh", 1);  // an executable: fine
  EXPECT_TRUE(check_path_variables().ok());
  ::unsetenv("PTXBENCH_NVDISASM");
  EXPECT_EQ(tool_variable("compute-sanitizer"), "PTXBENCH_COMPUTE_SANITIZER");
}

TEST(Paths, MissingToolSaysWhatToDo) {
  auto r = Paths::discover().tool("ptxbench-no-such-tool");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().hint.find("setup.sh"), std::string::npos);
}

TEST(Paths, ExpandHomeAndAbsoluteCache) {
  EXPECT_EQ(expand_home("~/c", "/h"), "/h/c");
  EXPECT_EQ(expand_home("~", "/h"), "/h");
  EXPECT_EQ(expand_home("a/~/c", "/h"), "a/~/c");
  EXPECT_EQ(expand_home("~user/c", "/h"), "~user/c");
  const char* was = std::getenv("PTXBENCH_CACHE");
  const std::string saved = was ? was : "";
  ::setenv("PTXBENCH_CACHE", "rel/cache", 1);
  const auto dir = Paths::discover().cache_dir;
  if (was)
    ::setenv("PTXBENCH_CACHE", saved.c_str(), 1);
  else
    ::unsetenv("PTXBENCH_CACHE");
  EXPECT_TRUE(dir.is_absolute());
  EXPECT_EQ(dir, std::filesystem::current_path() / "rel" / "cache");
}

}  // namespace
}  // namespace ptxbench
