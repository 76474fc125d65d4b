#include "audit/gpu/cupti_trace.h"

#include <cuda.h>
#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <cstring>
#include <fstream>
#include <map>
#include <mutex>

#include "audit/gpu/launch_capture.h"

namespace ptxbench::audit::worker {
namespace {

constexpr const char* kMetricWarp = "smsp__sass_inst_executed";
constexpr const char* kMetricThreadPredOn = "smsp__sass_thread_inst_executed_pred_on";

struct State {
  std::recursive_mutex mu;
  TraceOptions options;
  TraceReport report;
  CUpti_SubscriberHandle subscriber = nullptr;
  int runtime_launch_depth = 0;
  bool candidate_phase = false;
  bool sass_ready = false;       // profiler initialised, metric ids known
  bool sass_configured = false;  // SetConfig done
  std::uint64_t metric_warp = 0;
  std::uint64_t metric_thread = 0;
  CUcontext ctx = nullptr;
  CapturedLaunch captured;
  bool capture_tried = false;
  bool replaying = false;  // the replay's own module load is not the candidate's
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

// Records the first CUPTI failure in the report; returns whether `r` succeeded.
bool ok(CUptiResult r, const char* what) {
  if (r == CUPTI_SUCCESS) return true;
  State& s = state();
  if (s.report.error.empty()) {
    s.report.error = cupti_message(r, what);
    s.report.error_kind = kind_of(r);
  }
  return false;
}

void save_module(const CUpti_ModuleResourceData* m) {
  State& s = state();
  ModuleDump d;
  d.id = m->moduleId;
  d.bytes = m->cubinSize;
  d.file = "module_" + std::to_string(m->moduleId) + ".cubin";
  std::ofstream f(s.options.out_dir + "/" + d.file, std::ios::binary);
  f.write(m->pCubin, static_cast<std::streamsize>(m->cubinSize));
  if (f) s.report.modules.push_back(d);
}

// SetConfig for the two metrics on device 0.
bool configure_sass() {
  State& s = state();
  CUpti_SassMetrics_Config cfg[2] = {{s.metric_warp, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU},
                                     {s.metric_thread, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU}};
  CUpti_SassMetricsSetConfig_Params sp{CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
  sp.numOfMetricConfig = 2;
  sp.pConfigs = cfg;
  sp.deviceIndex = 0;
  s.sass_configured = ok(cuptiSassMetricsSetConfig(&sp), "cuptiSassMetricsSetConfig");
  return s.sass_configured;
}

bool enable_sass(CUcontext ctx) {
  State& s = state();
  if (!s.sass_configured && !(s.sass_ready && s.options.late_config && configure_sass()))
    return false;
  CUpti_SassMetricsEnable_Params p{CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
  p.ctx = ctx;
  p.enableLazyPatching = s.options.lazy_patching ? 1 : 0;
  if (!ok(cuptiSassMetricsEnable(&p), "cuptiSassMetricsEnable")) return false;
  s.ctx = ctx;
  s.report.sass_enabled = true;
  return true;
}

void on_launch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const CUpti_CallbackData* cb) {
  const bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
  State& s = state();
  // Replay captures at the driver level, also under a runtime launch: the CUfunction there is
  // the one the candidate's runtime resolved (the worker's runtime does not know its kernels).
  if (!runtime && cb->callbackSite == CUPTI_API_ENTER && s.options.sass && s.options.replay &&
      !s.capture_tried && cb->symbolName &&
      (s.options.target.empty() || s.options.target == cb->symbolName)) {
    s.capture_tried = true;
    capture_launch(cbid, cb, s.captured);
  }
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
  s.report.launches.push_back({name, cb->functionName ? cb->functionName : ""});
  const bool wanted = s.options.target.empty() || s.options.target == name;
  if (s.options.sass && s.options.enable_at_launch && !s.options.replay && s.sass_ready &&
      !s.report.sass_enabled && wanted) {
    if (enable_sass(cb->context)) s.report.enabled_for = name;
  }
}

bool is_launch(const CUpti_CallbackData* cb) {
  if (cb->symbolName == nullptr || cb->functionName == nullptr) return false;
  return std::strncmp(cb->functionName, "cudaLaunch", 10) == 0 ||
         std::strncmp(cb->functionName, "cuLaunch", 8) == 0;
}

void CUPTIAPI callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                       const void* data) {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  if (domain == CUPTI_CB_DOMAIN_RESOURCE && cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED) {
    const auto* r = static_cast<const CUpti_ResourceData*>(data);
    if (!s.replaying)
      save_module(static_cast<const CUpti_ModuleResourceData*>(r->resourceDescriptor));
    return;
  }
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    const auto* cb = static_cast<const CUpti_CallbackData*>(data);
    if (s.candidate_phase && is_launch(cb)) on_launch(domain, cbid, cb);
  }
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
    SassRecord r;
    r.function = data[i].functionName ? data[i].functionName : "";
    r.pc_offset = data[i].pcOffset;
    r.cubin_crc = data[i].cubinCrc;
    for (std::size_t k = 0; k < per; ++k) {
      const auto& v = data[i].pInstanceValues[k];
      if (v.metricId == s.metric_warp) r.inst_executed += v.value;
      if (v.metricId == s.metric_thread) r.thread_inst_pred_on += v.value;
    }
    s.report.records.push_back(r);
  }
}

}  // namespace

bool trace_start(const TraceOptions& options, std::string& error) {
  State& s = state();
  s.options = options;
  CUptiResult r =
      cuptiSubscribe(&s.subscriber, reinterpret_cast<CUpti_CallbackFunc>(callback), nullptr);
  if (r == CUPTI_SUCCESS)
    r = cuptiEnableCallback(1, s.subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                            CUPTI_CBID_RESOURCE_MODULE_LOADED);
  if (r == CUPTI_SUCCESS) r = cuptiEnableDomain(1, s.subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
  if (r == CUPTI_SUCCESS) r = cuptiEnableDomain(1, s.subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
  if (r != CUPTI_SUCCESS) {
    error = cupti_message(r, "cuptiSubscribe/cuptiEnableCallback");
    s.report.error = error;
    s.report.error_kind = kind_of(r);
    return false;
  }
  return true;
}

bool trace_prepare_sass(std::string& error) {
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
  if (good && !s.options.late_config) good = configure_sass();
  if (good && !s.options.enable_at_launch && !s.options.replay) {
    CUcontext ctx = nullptr;
    cuCtxGetCurrent(&ctx);
    good = enable_sass(ctx);
    if (good) s.report.enabled_for = "(start)";
  }
  if (!good) error = s.report.error;
  return good;
}

void trace_candidate_phase(bool on) {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  s.candidate_phase = on;
}

bool trace_replay() {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  if (!s.captured.have) {
    s.report.replay_error =
        s.captured.error.empty() ? "the target kernel was not launched" : s.captured.error;
    return false;
  }
  CUcontext ctx = nullptr;
  cuCtxGetCurrent(&ctx);
  if (!s.sass_ready || !enable_sass(ctx)) return false;
  s.report.enabled_for = "(replay) " + s.options.target;
  std::vector<std::string> cubins;
  for (const auto& m : s.report.modules) cubins.push_back(s.options.out_dir + "/" + m.file);
  s.replaying = true;
  s.report.replay_error = replay_launch(s.captured, cubins);
  s.replaying = false;
  return s.report.replay_error.empty();
}

TraceReport trace_finish() {
  State& s = state();
  std::lock_guard<std::recursive_mutex> lock(s.mu);
  if (s.report.sass_enabled) {
    flush_records();
    CUpti_SassMetricsDisable_Params dp{CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
    dp.ctx = s.ctx;
    if (ok(cuptiSassMetricsDisable(&dp), "cuptiSassMetricsDisable"))
      s.report.dropped_records = dp.numOfDroppedRecords;
  }
  if (s.sass_configured) {
    CUpti_SassMetricsUnsetConfig_Params up{CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
    up.deviceIndex = 0;
    ok(cuptiSassMetricsUnsetConfig(&up), "cuptiSassMetricsUnsetConfig");
  }
  if (s.subscriber) cuptiUnsubscribe(s.subscriber);
  s.subscriber = nullptr;
  return s.report;
}

}  // namespace ptxbench::audit::worker
