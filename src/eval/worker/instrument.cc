#include "eval/worker/instrument.h"

#include <cuda.h>
#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <nvtx3/nvToolsExt.h>

#include <cstring>
#include <mutex>

namespace ptxbench::eval::worker::instrument {
namespace {

constexpr const char* kMetricWarp = "smsp__sass_inst_executed";
constexpr const char* kMetricThreadPredOn = "smsp__sass_thread_inst_executed_pred_on";
constexpr const char* kAuditRange = "ptxbench_audit";

struct State {
  std::recursive_mutex mu;
  Collected report;
  CUpti_SubscriberHandle subscriber = nullptr;
  int runtime_launch_depth = 0;
  bool in_call = false;
  std::vector<std::pair<std::string, int>> call_launches;
  bool sass_ready = false;  // profiler initialised, metric ids known
  bool configured = false;  // SetConfig done
  bool enabled = false;     // Enable done (once per process)
  bool used = false;        // armed once already
  std::string target;       // armed for this function
  std::uint64_t metric_warp = 0, metric_thread = 0;
  CUcontext ctx = nullptr;
};

State& state() {
  static State s;
  return s;
}

std::string cupti_message(CUptiResult r, const char* what) {
  const char* text = nullptr;
  cuptiGetResultString(r, &text);
  return std::string(what) + " failed: " + (text ? text : "unknown CUPTI error") + " (" +
         std::to_string(static_cast<int>(r)) + ")";
}

std::string kind_of(CUptiResult r) {
  if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) return "permission";
  if (r == CUPTI_ERROR_NOT_SUPPORTED || r == CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED)
    return "unsupported";
  return "cupti";
}

// Records the first CUPTI failure; returns whether `r` succeeded.
bool ok(CUptiResult r, const char* what) {
  if (r == CUPTI_SUCCESS) return true;
  State& s = state();
  if (s.report.error.empty()) {
    s.report.error = cupti_message(r, what);
    s.report.error_kind = kind_of(r);
  }
  return false;
}

// SetConfig for the two metrics on device 0, then Enable on `ctx` (lazy patching).
void configure_and_enable(CUcontext ctx, const std::string& name) {
  State& s = state();
  CUpti_SassMetrics_Config cfg[2] = {{s.metric_warp, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU},
                                     {s.metric_thread, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU}};
  CUpti_SassMetricsSetConfig_Params sp{CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
  sp.numOfMetricConfig = 2;
  sp.pConfigs = cfg;
  sp.deviceIndex = 0;
  s.configured = ok(cuptiSassMetricsSetConfig(&sp), "cuptiSassMetricsSetConfig");
  if (!s.configured) return;
  CUpti_SassMetricsEnable_Params p{CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
  p.ctx = ctx;
  p.enableLazyPatching = 1;
  if (!ok(cuptiSassMetricsEnable(&p), "cuptiSassMetricsEnable")) return;
  s.ctx = ctx;
  s.enabled = true;
  s.report.enabled_for = name;
}

void note_launch(const std::string& name) {
  auto& v = state().call_launches;
  for (auto& [fn, n] : v)
    if (fn == name) return void(++n);
  v.emplace_back(name, 1);
}

void on_launch(bool runtime, const CUpti_CallbackData* cb) {
  State& s = state();
  if (runtime) {
    if (cb->callbackSite == CUPTI_API_EXIT) {
      --s.runtime_launch_depth;
      return;
    }
    ++s.runtime_launch_depth;
  } else if (cb->callbackSite == CUPTI_API_EXIT || s.runtime_launch_depth > 0) {
    return;  // the driver call under a runtime launch was already counted
  }
  const std::string name = cb->symbolName ? cb->symbolName : "";
  note_launch(name);
  if (!s.target.empty() && !s.enabled && s.sass_ready && name == s.target)
    configure_and_enable(cb->context, name);
}

bool is_launch(const CUpti_CallbackData* cb) {
  if (cb->symbolName == nullptr || cb->functionName == nullptr) return false;
  return std::strncmp(cb->functionName, "cudaLaunch", 10) == 0 ||
         std::strncmp(cb->functionName, "cuLaunch", 8) == 0;
}

void CUPTIAPI callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId, const void* data) {
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  const auto* cb = static_cast<const CUpti_CallbackData*>(data);
  if (s.in_call && is_launch(cb)) on_launch(domain == CUPTI_CB_DOMAIN_RUNTIME_API, cb);
}

std::uint64_t metric_id(const char* chip, const char* name) {
  CUpti_SassMetrics_GetProperties_Params p{CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
  p.pChipName = chip;
  p.pMetricName = name;
  if (!ok(cuptiSassMetricsGetProperties(&p), "cuptiSassMetricsGetProperties")) return 0;
  return p.metric.metricId;
}

void flush_records() {
  State& s = state();
  CUpti_SassMetricsGetDataProperties_Params dp{
      CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
  dp.ctx = s.ctx;
  if (!ok(cuptiSassMetricsGetDataProperties(&dp), "cuptiSassMetricsGetDataProperties")) return;
  if (dp.numOfPatchedInstructionRecords == 0) return;
  const std::size_t n = dp.numOfPatchedInstructionRecords;
  const std::size_t per = dp.numOfInstances * 2;  // two metrics
  std::vector<CUpti_SassMetrics_InstanceValue> values(n * per, {~0ull, 0});
  std::vector<CUpti_SassMetrics_Data> data(n);
  for (std::size_t i = 0; i < n; ++i) {
    data[i] = {};
    data[i].structSize = sizeof(CUpti_SassMetrics_Data);
    data[i].pInstanceValues = &values[i * per];
  }
  CUpti_SassMetricsFlushData_Params fp{CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
  fp.ctx = s.ctx;
  fp.numOfPatchedInstructionRecords = n;
  fp.numOfInstances = dp.numOfInstances;
  fp.pMetricsData = data.data();
  if (!ok(cuptiSassMetricsFlushData(&fp), "cuptiSassMetricsFlushData")) return;
  for (std::size_t i = 0; i < n; ++i) {
    PcRecord r;
    r.function = data[i].functionName ? data[i].functionName : "";
    r.pc_offset = data[i].pcOffset;
    for (std::size_t k = 0; k < per; ++k) {
      const auto& v = data[i].pInstanceValues[k];
      if (v.metricId == s.metric_warp) r.warp_executed += v.value;
      if (v.metricId == s.metric_thread) r.thread_pred_on += v.value;
    }
    s.report.records.push_back(std::move(r));
  }
}

}  // namespace

bool cupti_start(std::string& error) {
  State& s = state();
  CUptiResult r =
      cuptiSubscribe(&s.subscriber, reinterpret_cast<CUpti_CallbackFunc>(callback), nullptr);
  if (r == CUPTI_SUCCESS) r = cuptiEnableDomain(1, s.subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
  if (r == CUPTI_SUCCESS) r = cuptiEnableDomain(1, s.subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
  if (r != CUPTI_SUCCESS) {
    ok(r, "cuptiSubscribe/cuptiEnableDomain");
    error = s.report.error;
    return false;
  }
  return true;
}

bool cupti_prepare(std::string& error) {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  CUpti_Profiler_Initialize_Params ip{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  CUpti_Device_GetChipName_Params cp{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  cp.deviceIndex = 0;
  bool good = ok(cuptiProfilerInitialize(&ip), "cuptiProfilerInitialize") &&
              ok(cuptiDeviceGetChipName(&cp), "cuptiDeviceGetChipName");
  if (good) {
    s.report.chip = cp.pChipName;
    s.metric_warp = metric_id(cp.pChipName, kMetricWarp);
    s.metric_thread = metric_id(cp.pChipName, kMetricThreadPredOn);
    good = s.report.error.empty();
  }
  s.sass_ready = good;
  if (!good) error = s.report.error;
  return good;
}

void call_begin() {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  s.call_launches.clear();
  s.runtime_launch_depth = 0;
  s.in_call = true;
}

std::vector<std::pair<std::string, int>> call_end() {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  s.in_call = false;
  return std::move(s.call_launches);
}

bool cupti_arm(const std::string& function, std::string& error) {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  if (s.used || !s.sass_ready || function.empty()) {
    error = s.used          ? "this process has audited a kernel function already"
            : !s.sass_ready ? "CUPTI is not ready: " + s.report.error
                            : "no kernel function named";
    return false;
  }
  s.used = true;
  s.target = function;
  return true;
}

Collected cupti_collect() {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  if (s.enabled) {
    flush_records();
    CUpti_SassMetricsDisable_Params dp{CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
    dp.ctx = s.ctx;
    if (ok(cuptiSassMetricsDisable(&dp), "cuptiSassMetricsDisable"))
      s.report.dropped_records = dp.numOfDroppedRecords;
    s.enabled = false;
  }
  if (s.configured) {
    CUpti_SassMetricsUnsetConfig_Params up{CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
    up.deviceIndex = 0;
    ok(cuptiSassMetricsUnsetConfig(&up), "cuptiSassMetricsUnsetConfig");
    s.configured = false;
  }
  s.target.clear();
  return s.report;
}

void nvtx_push() {
  nvtxRangePushA(kAuditRange);
}
void nvtx_pop() {
  nvtxRangePop();
}

}  // namespace ptxbench::eval::worker::instrument
