#include "sandbox/identity.h"

#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fs.h"

namespace ptxbench {
namespace {

TEST(Identity, NobodyWhenRootElseNone) {
  auto id = unprivileged_identity();
  if (::geteuid() != 0) {
    EXPECT_FALSE(id.has_value());
    return;
  }
  ASSERT_TRUE(id.has_value());
  EXPECT_NE(id->first, 0u);
  EXPECT_NE(id->second, 0u);
  if (const passwd* pw = ::getpwnam("nobody")) {
    EXPECT_EQ(id->first, pw->pw_uid);
  }
}

TEST(Identity, ChownTreeGivesEverythingButLinkTargets) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give files away";
  auto dir = TempDir::create("ptxb-chown");
  ASSERT_TRUE(dir.ok());
  auto root = dir->path();
  std::filesystem::create_directories(root / "a" / "b");
  ASSERT_TRUE(write_file_atomic(root / "a" / "b" / "f", "x").ok());
  auto target = TempDir::create("ptxb-chown-target");
  ASSERT_TRUE(target.ok());
  ASSERT_TRUE(write_file_atomic(target->path() / "t", "t").ok());
  std::filesystem::create_symlink(target->path() / "t", root / "a" / "link");

  ASSERT_TRUE(chown_tree(root, 65534, 65534).ok());
  for (auto p : {root, root / "a", root / "a" / "b", root / "a" / "b" / "f", root / "a" / "link"}) {
    struct stat st {};
    ASSERT_EQ(::lstat(p.c_str(), &st), 0) << p;
    EXPECT_EQ(st.st_uid, 65534u) << p;
    EXPECT_EQ(st.st_gid, 65534u) << p;
  }
  struct stat st {};
  ASSERT_EQ(::stat((target->path() / "t").c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 0u);  // the link's target stays its owner's
}

TEST(Identity, ChownTreeReportsAMissingRoot) {
  auto st = chown_tree("/no/such/ptxbench/dir", 65534, 65534);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("/no/such/ptxbench/dir"), std::string::npos);
}

TEST(Identity, RootCanSwitchToNobody) {
  auto id = unprivileged_identity();
  if (!id) GTEST_SKIP() << "not root";
  std::string why;
  EXPECT_TRUE(can_switch_identity(id->first, id->second, &why)) << why;
}

}  // namespace
}  // namespace ptxbench
