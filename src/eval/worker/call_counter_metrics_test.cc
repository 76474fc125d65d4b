// The broker's counter set fits one pass on GH100 (call_counter_metrics.h), asked of CUPTI's
// profiler host API, which configures a chip by name without a GPU. Adding a metric that needs a
// second pass fails here, on the CPU, instead of leaving every call uncounted on the GPU.
#include "eval/worker/call_counter_metrics.h"

#include <cupti.h>
#include <cupti_profiler_host.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ptxbench::eval::worker {
namespace {

std::string why(CUptiResult r) {
  const char* text = nullptr;
  cuptiGetResultString(r, &text);
  return text ? text : "unknown CUPTI error";
}

TEST(CallCounterMetrics, FitOnePassOnGH100) {
  CUpti_Profiler_Host_Initialize_Params hp{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  hp.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  hp.pChipName = kCallCounterChip;
  CUptiResult r = cuptiProfilerHostInitialize(&hp);
  ASSERT_EQ(r, CUPTI_SUCCESS) << why(r);
  CUpti_Profiler_Host_ConfigAddMetrics_Params mp{
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  mp.pHostObject = hp.pHostObject;
  mp.ppMetricNames = const_cast<const char**>(kCallCounterMetrics);
  mp.numMetrics = kNumCallCounterMetrics;
  r = cuptiProfilerHostConfigAddMetrics(&mp);
  ASSERT_EQ(r, CUPTI_SUCCESS) << "a metric name GH100 does not know? " << why(r);
  CUpti_Profiler_Host_GetConfigImageSize_Params sp{
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  sp.pHostObject = hp.pHostObject;
  ASSERT_EQ(cuptiProfilerHostGetConfigImageSize(&sp), CUPTI_SUCCESS);
  std::vector<std::uint8_t> image(sp.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params gp{
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  gp.pHostObject = hp.pHostObject;
  gp.configImageSize = image.size();
  gp.pConfigImage = image.data();
  ASSERT_EQ(cuptiProfilerHostGetConfigImage(&gp), CUPTI_SUCCESS);
  CUpti_Profiler_Host_GetNumOfPasses_Params pp{
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  pp.configImageSize = image.size();
  pp.pConfigImage = image.data();
  ASSERT_EQ(cuptiProfilerHostGetNumOfPasses(&pp), CUPTI_SUCCESS);
  EXPECT_EQ(pp.numOfPasses, 1u);
  CUpti_Profiler_Host_Deinitialize_Params dp{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
  dp.pHostObject = hp.pHostObject;
  cuptiProfilerHostDeinitialize(&dp);
}

}  // namespace
}  // namespace ptxbench::eval::worker
