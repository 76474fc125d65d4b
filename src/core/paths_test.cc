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

TEST(Paths, MissingToolSaysWhatToDo) {
  auto r = Paths::discover().tool("ptxbench-no-such-tool");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().hint.find("setup.sh"), std::string::npos);
}

}  // namespace
}  // namespace ptxbench
