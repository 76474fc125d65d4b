#include "serve/job_id.h"

#include <gtest/gtest.h>

namespace ptxbench::serve {
namespace {

TEST(InstanceName, FollowsTheRule) {
  EXPECT_TRUE(valid_instance_name("n1"));
  EXPECT_TRUE(valid_instance_name("gpu-node_3"));
  EXPECT_TRUE(valid_instance_name(std::string(40, 'a')));
  EXPECT_FALSE(valid_instance_name(std::string(41, 'a')));
  EXPECT_FALSE(valid_instance_name(""));
  EXPECT_FALSE(valid_instance_name("1node"));  // a digit first: "1.5" would read as a number
  EXPECT_FALSE(valid_instance_name("a.b"));    // a dot would move the owner's end
  EXPECT_FALSE(valid_instance_name("a b"));
  EXPECT_FALSE(valid_instance_name("n\xc3\xa9"));
}

TEST(InstanceName, DefaultsToTheHostsFirstLabel) {
  EXPECT_EQ(default_instance_name("gpu-node-3.cluster.example"), "gpu-node-3");
  EXPECT_EQ(default_instance_name("GPU_node"), "GPU_node");
  EXPECT_EQ(default_instance_name("we ird+host"), "we-ird-host");
  EXPECT_EQ(default_instance_name("10-0-0-7.cluster"), "serve");
  EXPECT_EQ(default_instance_name(""), "serve");
  EXPECT_EQ(default_instance_name(std::string(60, 'h')), std::string(40, 'h'));
}

TEST(JobIdText, RoundTrips) {
  EXPECT_EQ(job_id_text("n1", 17), "n1.17");
  auto r = parse_job_id("gpu-node-3.1742");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->instance, "gpu-node-3");
  EXPECT_EQ(r->n, 1742);
}

TEST(JobIdText, ABareNumberIsTheReadersOwn) {
  auto r = parse_job_id("42");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->instance, "");
  EXPECT_EQ(r->n, 42);
}

TEST(JobIdText, RefusesWhatIsNoId) {
  for (const char* bad : {"", ".", "n1.", ".5", "n1.0", "0", "n1.x", "n1.5.6", "1n.5", "n1.-5",
                          "n1.1234567890123456789", "a b.5", "n1.5 "})
    EXPECT_FALSE(parse_job_id(bad)) << bad;
}

}  // namespace
}  // namespace ptxbench::serve
