#include "run/shard.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "run/config.h"

namespace ptxbench::run {
namespace {

EnvFn env(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const char* name) -> const char* {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  };
}

std::vector<store::TrajectoryKey> plan_of(int n) {
  std::vector<store::TrajectoryKey> out;
  for (int i = 0; i < n; ++i) out.push_back({"m", "task" + std::to_string(i % 5), "sm_90a", i / 5});
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Shard, ParsesIOverN) {
  auto s = parse_shard("2/5");
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_EQ(s->index, 2);
  EXPECT_EQ(s->count, 5);
  EXPECT_EQ(s->label(), "2/5");
  for (const char* bad : {"", "3", "5/5", "-1/4", "1/0", "a/b", "1/4x", "1//4"})
    EXPECT_FALSE(parse_shard(bad).ok()) << bad;
  EXPECT_NE(parse_shard("4/4").error().message.find("they are 0 to 3"), std::string::npos);
}

TEST(Shard, EveryPlanSplitsIntoDisjointCompleteShards) {
  for (int size : {0, 1, 4, 13, 40}) {
    const auto plan = plan_of(size);
    for (int n = 1; n <= 7; ++n) {
      std::multiset<store::TrajectoryKey> seen;
      std::size_t smallest = plan.size(), largest = 0;
      for (int i = 0; i < n; ++i) {
        auto part = select_shard(plan, Shard{i, n});
        smallest = std::min(smallest, part.size());
        largest = std::max(largest, part.size());
        seen.insert(part.begin(), part.end());
        EXPECT_EQ(part, select_shard(plan, Shard{i, n})) << "deterministic";
      }
      EXPECT_EQ(std::vector<store::TrajectoryKey>(seen.begin(), seen.end()), plan)
          << size << " in " << n << " shards: each trajectory exactly once";
      EXPECT_LE(largest - smallest, 1u) << "balanced";
    }
  }
}

TEST(Shard, TheSplitDoesNotDependOnThePlansOrder) {
  auto plan = plan_of(13);
  auto reversed = std::vector<store::TrajectoryKey>(plan.rbegin(), plan.rend());
  EXPECT_EQ(select_shard(plan, Shard{1, 3}), select_shard(reversed, Shard{1, 3}));
}

TEST(Shard, ComesFromASlurmJobArray) {
  auto s = shard_from_environment(
      env({{"SLURM_ARRAY_TASK_ID", "1"}, {"SLURM_ARRAY_TASK_COUNT", "2"}}), std::nullopt);
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  ASSERT_TRUE(s->has_value());
  EXPECT_EQ(**s, (Shard{1, 2}));
  EXPECT_EQ((*s)->source, ShardSource::slurm);
  // An array numbered from 1 (--array=1-4): shard = ID - MIN.
  s = shard_from_environment(env({{"SLURM_ARRAY_TASK_ID", "4"},
                                  {"SLURM_ARRAY_TASK_MIN", "1"},
                                  {"SLURM_ARRAY_TASK_COUNT", "4"}}),
                             std::nullopt);
  ASSERT_TRUE(s.ok() && s->has_value());
  EXPECT_EQ(**s, (Shard{3, 4}));
}

TEST(Shard, RefusesASlurmArrayThatIsNotOneShardPerTask) {
  auto gap = shard_from_environment(
      env({{"SLURM_ARRAY_TASK_ID", "6"}, {"SLURM_ARRAY_TASK_COUNT", "4"}}), std::nullopt);
  ASSERT_FALSE(gap.ok());
  EXPECT_NE(gap.error().message.find("is not shard 0..3"), std::string::npos);
  EXPECT_FALSE(shard_from_environment(env({{"SLURM_ARRAY_TASK_ID", "1"}}), std::nullopt).ok());
  EXPECT_FALSE(
      shard_from_environment(env({{"SLURM_ARRAY_TASK_ID", "x"}, {"SLURM_ARRAY_TASK_COUNT", "2"}}),
                             std::nullopt)
          .ok());
  auto count = shard_from_environment(
      env({{"SLURM_ARRAY_TASK_ID", "0"}, {"SLURM_ARRAY_TASK_COUNT", "2"}}), 3);
  ASSERT_FALSE(count.ok());
  EXPECT_NE(count.error().message.find("--shard-count 3 but the Slurm job array has 2"),
            std::string::npos);
}

TEST(Shard, ComesFromAKubernetesIndexedJobWithItsCount) {
  auto s = shard_from_environment(env({{"JOB_COMPLETION_INDEX", "2"}}), 3);
  ASSERT_TRUE(s.ok() && s->has_value());
  EXPECT_EQ(**s, (Shard{2, 3}));
  EXPECT_EQ((*s)->source, ShardSource::kubernetes);
  // Without --shard-count the index alone does not shard: the whole plan.
  s = shard_from_environment(env({{"JOB_COMPLETION_INDEX", "2"}}), std::nullopt);
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->has_value());
  EXPECT_FALSE(shard_from_environment(env({{"JOB_COMPLETION_INDEX", "3"}}), 3).ok());
  auto none = shard_from_environment(env({}), 3);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("--shard-count needs"), std::string::npos);
  s = shard_from_environment(env({}), std::nullopt);
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->has_value());
}

TEST(Shard, RoundTripsThroughProvenance) {
  Json prov{{"host", "h"}, {"shard", Shard{1, 4, ShardSource::slurm}.to_json(40, 10)}};
  auto s = Shard::from_provenance(prov);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, (Shard{1, 4}));
  EXPECT_EQ(s->source, ShardSource::slurm);
  EXPECT_EQ(prov["shard"]["planned"], 40);
  auto whole = Shard::from_provenance(Json{{"host", "h"}});
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(*whole, (Shard{0, 1}));
  EXPECT_FALSE(Shard::from_provenance(Json{{"shard", {{"index", 4}, {"count", 4}}}}).ok());
  EXPECT_FALSE(Shard::from_provenance(Json{{"shard", "1/4"}}).ok());
}

struct ShardSetTest : ::testing::Test {
  ShardFile file(int index, int count, const RunConfig& c, bool finished = true) {
    return ShardFile{"s" + std::to_string(index) + ".db", c.to_json(), Shard{index, count},
                     finished};
  }
  RunConfig config() {
    RunConfig c;
    c.tasks = {"a", "b"};
    return c;
  }
};

TEST_F(ShardSetTest, AcceptsEveryShardOfOneRun) {
  RunConfig c = config(), other_machine = config();
  other_machine.gpus = 2;  // how one machine runs its shard is not the run's configuration
  other_machine.concurrency = 16;
  EXPECT_TRUE(check_shard_set({file(1, 2, other_machine), file(0, 2, c)}, false).ok());
  EXPECT_TRUE(check_shard_set({file(0, 1, c)}, false).ok());
}

TEST_F(ShardSetTest, RefusesDifferentConfigurationsNamingTheSettings) {
  RunConfig c = config(), d = config();
  d.turns = 4;
  d.model.temperature = 0.2;
  auto st = check_shard_set({file(0, 2, c), file(1, 2, d)}, true);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("different configurations (model.temperature, turns"),
            std::string::npos)
      << st.error().message;
  EXPECT_NE(config_hash(c), config_hash(d));
}

TEST_F(ShardSetTest, RefusesOverlappingShards) {
  RunConfig c = config();
  auto st = check_shard_set({file(0, 2, c), file(1, 2, c), file(1, 2, c)}, true);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("are both shard 1/2: they overlap"), std::string::npos);
  st = check_shard_set({file(0, 2, c), file(1, 3, c)}, true);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("different shard counts"), std::string::npos);
  // Two whole runs of one plan overlap too.
  EXPECT_FALSE(check_shard_set({file(0, 1, c), file(0, 1, c)}, true).ok());
}

TEST_F(ShardSetTest, RefusesAnIncompleteSetNamingWhatIsMissing) {
  RunConfig c = config();
  std::vector<ShardFile> files{file(0, 4, c), file(2, 4, c, /*finished=*/false)};
  auto st = check_shard_set(files, false);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("shard 1/4 is missing; shard 3/4 is missing; s2.db (shard "
                                    "2/4) did not finish"),
            std::string::npos)
      << st.error().message;
  EXPECT_NE(st.error().hint.find("--allow-partial"), std::string::npos);
  EXPECT_EQ(missing_shards(files), (std::vector<int>{1, 3}));
  EXPECT_TRUE(check_shard_set(files, true).ok());
}

}  // namespace
}  // namespace ptxbench::run
