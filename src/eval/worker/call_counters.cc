#include "eval/worker/call_counters.h"

#include <cuda.h>
#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <chrono>
#include <cstring>
#include <utility>

#include "core/elapsed.h"
#include "eval/worker/call_counter_metrics.h"

namespace ptxbench::eval::worker {
namespace {

std::string failed(CUptiResult r, const char* what) {
  const char* text = nullptr;
  cuptiGetResultString(r, &text);
  return std::string(what) + " failed: " + (text ? text : "unknown CUPTI error") + " (" +
         std::to_string(static_cast<int>(r)) + ")";
}

}  // namespace

struct CallCounters::State {
  CUpti_RangeProfiler_Object* profiler = nullptr;
  CUpti_Profiler_Host_Object* host = nullptr;
  std::vector<std::uint8_t> config, data;
  std::vector<std::uint64_t> calls;  // call numbers in range order
  std::size_t max_calls = 0;
  bool started = false, in_range = false;
  std::string error;  // the first failure

  bool ok(CUptiResult r, const char* what) {
    if (r == CUPTI_SUCCESS) return true;
    if (error.empty()) error = failed(r, what);
    return false;
  }
  bool host_config(const char* chip, std::vector<std::uint8_t>& avail);
  bool data_image();
  bool set_config();
  void pop() {
    if (!in_range) return;
    CUpti_RangeProfiler_PopRange_Params p{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = profiler;
    in_range = false;
    ok(cuptiRangeProfilerPopRange(&p), "cuptiRangeProfilerPopRange");
  }
  void stop() {
    pop();
    if (started) {
      CUpti_RangeProfiler_Stop_Params p{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
      p.pRangeProfilerObject = profiler;
      ok(cuptiRangeProfilerStop(&p), "cuptiRangeProfilerStop");
      started = false;
    }
  }
  void release() {
    stop();
    if (profiler) {
      CUpti_RangeProfiler_Disable_Params p{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
      p.pRangeProfilerObject = profiler;
      (void)cuptiRangeProfilerDisable(&p);
      profiler = nullptr;
    }
    if (host) {
      CUpti_Profiler_Host_Deinitialize_Params p{
          CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
      p.pHostObject = host;
      (void)cuptiProfilerHostDeinitialize(&p);
      host = nullptr;
    }
  }
};

bool CallCounters::State::host_config(const char* chip, std::vector<std::uint8_t>& avail) {
  CUpti_Profiler_Host_Initialize_Params hp{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  hp.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  hp.pChipName = chip;
  hp.pCounterAvailabilityImage = avail.data();
  if (!ok(cuptiProfilerHostInitialize(&hp), "cuptiProfilerHostInitialize")) return false;
  host = hp.pHostObject;
  CUpti_Profiler_Host_ConfigAddMetrics_Params mp{
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  mp.pHostObject = host;
  mp.ppMetricNames = const_cast<const char**>(kCallCounterMetrics);
  mp.numMetrics = kNumCallCounterMetrics;
  if (!ok(cuptiProfilerHostConfigAddMetrics(&mp), "cuptiProfilerHostConfigAddMetrics"))
    return false;
  CUpti_Profiler_Host_GetConfigImageSize_Params sp{
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  sp.pHostObject = host;
  if (!ok(cuptiProfilerHostGetConfigImageSize(&sp), "cuptiProfilerHostGetConfigImageSize"))
    return false;
  config.resize(sp.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params gp{
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  gp.pHostObject = host;
  gp.configImageSize = config.size();
  gp.pConfigImage = config.data();
  if (!ok(cuptiProfilerHostGetConfigImage(&gp), "cuptiProfilerHostGetConfigImage")) return false;
  CUpti_Profiler_Host_GetNumOfPasses_Params pp{
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  pp.configImageSize = config.size();
  pp.pConfigImage = config.data();
  if (!ok(cuptiProfilerHostGetNumOfPasses(&pp), "cuptiProfilerHostGetNumOfPasses")) return false;
  if (pp.numOfPasses != 1) {
    error = "the call counters need " + std::to_string(pp.numOfPasses) + " passes, not one";
    return false;
  }
  return true;
}

bool CallCounters::State::data_image() {
  CUpti_RangeProfiler_GetCounterDataSize_Params dp{
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  dp.pRangeProfilerObject = profiler;
  dp.pMetricNames = const_cast<const char**>(kCallCounterMetrics);
  dp.numMetrics = kNumCallCounterMetrics;
  dp.maxNumOfRanges = max_calls;
  dp.maxNumRangeTreeNodes = static_cast<std::uint32_t>(max_calls);
  if (!ok(cuptiRangeProfilerGetCounterDataSize(&dp), "cuptiRangeProfilerGetCounterDataSize"))
    return false;
  data.resize(dp.counterDataSize);
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  ci.pRangeProfilerObject = profiler;
  ci.counterDataSize = data.size();
  ci.pCounterData = data.data();
  return ok(cuptiRangeProfilerCounterDataImageInitialize(&ci),
            "cuptiRangeProfilerCounterDataImageInitialize");
}

bool CallCounters::State::set_config() {
  CUpti_RangeProfiler_SetConfig_Params sc{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  sc.pRangeProfilerObject = profiler;
  sc.configSize = config.size();
  sc.pConfig = config.data();
  sc.counterDataImageSize = data.size();
  sc.pCounterDataImage = data.data();
  sc.range = CUPTI_UserRange;
  sc.replayMode = CUPTI_UserReplay;
  sc.maxRangesPerPass = max_calls;
  sc.numNestingLevels = 1;
  sc.minNestingLevel = 1;
  sc.passIndex = 0;
  sc.targetNestingLevel = 1;
  if (!ok(cuptiRangeProfilerSetConfig(&sc), "cuptiRangeProfilerSetConfig")) return false;
  CUpti_RangeProfiler_Start_Params p{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
  p.pRangeProfilerObject = profiler;
  started = ok(cuptiRangeProfilerStart(&p), "cuptiRangeProfilerStart");
  return started;
}

std::unique_ptr<CallCounters> CallCounters::start(std::size_t max_calls, std::string& error,
                                                  bool& unsupported) {
  auto s = std::make_unique<State>();
  s->max_calls = max_calls;
  CUcontext ctx = nullptr;
  if (cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || !ctx) {
    error = "no CUDA context to count in";
    return nullptr;
  }
  CUpti_Profiler_Initialize_Params ip{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  CUpti_Device_GetChipName_Params cp{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  cp.deviceIndex = 0;
  if (!s->ok(cuptiProfilerInitialize(&ip), "cuptiProfilerInitialize") ||
      !s->ok(cuptiDeviceGetChipName(&cp), "cuptiDeviceGetChipName")) {
    error = s->error;
    return nullptr;
  }
  if (std::strcmp(cp.pChipName, kCallCounterChip) != 0) {
    error = std::string("no call counters are known for the chip ") + cp.pChipName;
    unsupported = true;
    return nullptr;
  }
  CUpti_RangeProfiler_Enable_Params ep{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  ep.ctx = ctx;
  if (!s->ok(cuptiRangeProfilerEnable(&ep), "cuptiRangeProfilerEnable")) {
    error = s->error;
    return nullptr;
  }
  s->profiler = ep.pRangeProfilerObject;
  CUpti_Profiler_GetCounterAvailability_Params ap{
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  ap.ctx = ctx;
  std::vector<std::uint8_t> avail;
  bool good =
      s->ok(cuptiProfilerGetCounterAvailability(&ap), "cuptiProfilerGetCounterAvailability");
  if (good) {
    avail.resize(ap.counterAvailabilityImageSize);
    ap.pCounterAvailabilityImage = avail.data();
    good = s->ok(cuptiProfilerGetCounterAvailability(&ap), "cuptiProfilerGetCounterAvailability");
  }
  good = good && s->host_config(cp.pChipName, avail) && s->data_image() && s->set_config();
  if (!good) {
    error = s->error;
    s->release();
    return nullptr;
  }
  return std::unique_ptr<CallCounters>(new CallCounters(std::move(s)));
}

Json counted_calls_json(const std::vector<CountedCall>& rows, const std::string& error,
                        bool unsupported) {
  Json counted = Json::array();
  for (const CountedCall& c : rows)
    counted.push_back(Json{{"call", c.call},
                           {"tensor_flops", c.tensor_flops},
                           {"sparse_tensor_flops", c.sparse_tensor_flops},
                           {"tma_load_bytes", c.tma_load_bytes},
                           {"thread_instructions", c.thread_instructions},
                           {"hmma_instructions", c.hmma_instructions},
                           {"dmma_instructions", c.dmma_instructions},
                           {"imma_instructions", c.imma_instructions},
                           {"l2_read_sectors", c.l2_read_sectors}});
  return Json{{"counted", std::move(counted)}, {"error", error}, {"unsupported", unsupported}};
}

CallCounters::CallCounters(std::unique_ptr<State> s) : s_(std::move(s)) {}
CallCounters::~CallCounters() {
  s_->release();
}

double CallCounters::begin(std::uint64_t call) {
  const auto t0 = std::chrono::steady_clock::now();
  push(call);
  return ms_since(t0);
}

double CallCounters::end() {
  const auto t0 = std::chrono::steady_clock::now();
  s_->pop();
  return ms_since(t0);
}

void CallCounters::push(std::uint64_t call) {
  if (!s_->started || s_->in_range || s_->calls.size() >= s_->max_calls) return;
  const std::string name = std::to_string(call);
  CUpti_RangeProfiler_PushRange_Params p{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
  p.pRangeProfilerObject = s_->profiler;
  p.pRangeName = name.c_str();
  if (!s_->ok(cuptiRangeProfilerPushRange(&p), "cuptiRangeProfilerPushRange")) return;
  s_->in_range = true;
  s_->calls.push_back(call);
}

std::vector<CountedCall> CallCounters::finish(std::string& error) {
  std::vector<CountedCall> out;
  const bool was_started = s_->started;
  s_->stop();
  CUpti_RangeProfiler_DecodeData_Params d{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  d.pRangeProfilerObject = s_->profiler;
  if (!was_started || !s_->ok(cuptiRangeProfilerDecodeData(&d), "cuptiRangeProfilerDecodeData")) {
    error = s_->error.empty() ? "the call counters were not running" : s_->error;
    return out;
  }
  CUpti_RangeProfiler_GetCounterDataInfo_Params ci{
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  ci.pCounterDataImage = s_->data.data();
  ci.counterDataImageSize = s_->data.size();
  if (!s_->ok(cuptiRangeProfilerGetCounterDataInfo(&ci), "cuptiRangeProfilerGetCounterDataInfo")) {
    error = s_->error;
    return out;
  }
  for (std::size_t r = 0; r < ci.numTotalRanges; ++r) {
    CUpti_RangeProfiler_CounterData_GetRangeInfo_Params ri{
        CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE};
    ri.pCounterDataImage = s_->data.data();
    ri.counterDataImageSize = s_->data.size();
    ri.rangeIndex = r;
    ri.rangeDelimiter = "/";
    double v[kNumCallCounterMetrics] = {};
    CUpti_Profiler_Host_EvaluateToGpuValues_Params ev{
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    ev.pHostObject = s_->host;
    ev.pCounterDataImage = s_->data.data();
    ev.counterDataImageSize = s_->data.size();
    ev.rangeIndex = r;
    ev.ppMetricNames = const_cast<const char**>(kCallCounterMetrics);
    ev.numMetrics = kNumCallCounterMetrics;
    ev.pMetricValues = v;
    if (!s_->ok(cuptiRangeProfilerCounterDataGetRangeInfo(&ri),
                "cuptiRangeProfilerCounterDataGetRangeInfo") ||
        !s_->ok(cuptiProfilerHostEvaluateToGpuValues(&ev),
                "cuptiProfilerHostEvaluateToGpuValues")) {
      error = s_->error;
      return out;
    }
    // The range's name is the call number the broker gave it (begin()).
    CountedCall c;
    c.call = ri.rangeName ? std::strtoull(ri.rangeName, nullptr, 10) : 0;
    c.tensor_flops = v[0];
    c.sparse_tensor_flops = v[1];
    c.tma_load_bytes = v[2];
    c.thread_instructions = v[3];
    c.hmma_instructions = v[4];
    c.dmma_instructions = v[5];
    c.imma_instructions = v[6];
    c.l2_read_sectors = v[7];
    out.push_back(c);
  }
  return out;
}

}  // namespace ptxbench::eval::worker
