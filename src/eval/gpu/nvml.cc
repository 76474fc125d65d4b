#include "eval/gpu/nvml.h"

#include <dlfcn.h>

namespace ptxbench::gpu {
namespace {

// Our own minimal prototypes of the NVML C API (stable since NVML 2.x/10.x).
using nvmlReturn = int;
using nvmlDevice = void*;
constexpr int kClockSm = 1;  // NVML_CLOCK_SM
constexpr int kTempGpu = 0;  // NVML_TEMPERATURE_GPU

template <class Fn>
Fn sym(void* lib, const char* name) {
  return lib ? reinterpret_cast<Fn>(::dlsym(lib, name)) : nullptr;
}

}  // namespace

Nvml::Nvml(const std::string& pci_bus_id) {
  lib_ = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib_) {
    error_ = "libnvidia-ml.so.1 not found: clocks and throttle reasons are not recorded";
    return;
  }
  auto init = sym<nvmlReturn (*)()>(lib_, "nvmlInit_v2");
  auto by_pci =
      sym<nvmlReturn (*)(const char*, nvmlDevice*)>(lib_, "nvmlDeviceGetHandleByPciBusId_v2");
  if (!init || !by_pci) {
    error_ = "NVML lacks nvmlInit_v2 / nvmlDeviceGetHandleByPciBusId_v2";
    return;
  }
  if (int rc = init(); rc != 0) {
    error_ = "nvmlInit_v2 failed with NVML error " + std::to_string(rc);
    return;
  }
  nvmlDevice dev = nullptr;
  if (int rc = by_pci(pci_bus_id.c_str(), &dev); rc != 0) {
    error_ = "NVML cannot find the device at PCI bus id " + pci_bus_id + " (NVML error " +
             std::to_string(rc) + ")";
    return;
  }
  device_ = dev;
}

Nvml::~Nvml() {
  if (!lib_) return;
  if (device_) {
    if (auto shutdown = sym<nvmlReturn (*)()>(lib_, "nvmlShutdown")) shutdown();
  }
  // The library stays loaded (harmless; the worker exits soon).
}

std::string Nvml::driver_version() const {
  auto fn = sym<nvmlReturn (*)(char*, unsigned)>(lib_, "nvmlSystemGetDriverVersion");
  char buf[96] = {};
  if (!device_ || !fn || fn(buf, sizeof buf) != 0) return {};
  return buf;
}

ClockSample Nvml::sample() const {
  ClockSample s;
  if (!device_) {
    s.error = error_;
    return s;
  }
  unsigned v = 0;
  unsigned long long mask = 0;
  if (auto f = sym<nvmlReturn (*)(nvmlDevice, int, unsigned*)>(lib_, "nvmlDeviceGetClockInfo");
      f && f(device_, kClockSm, &v) == 0)
    s.sm_clock_mhz = v;
  if (auto f = sym<nvmlReturn (*)(nvmlDevice, int, unsigned*)>(lib_, "nvmlDeviceGetMaxClockInfo");
      f && f(device_, kClockSm, &v) == 0)
    s.sm_clock_max_mhz = v;
  if (auto f = sym<nvmlReturn (*)(nvmlDevice, unsigned*)>(lib_, "nvmlDeviceGetPowerUsage");
      f && f(device_, &v) == 0)
    s.power_mw = v;
  if (auto f = sym<nvmlReturn (*)(nvmlDevice, int, unsigned*)>(lib_, "nvmlDeviceGetTemperature");
      f && f(device_, kTempGpu, &v) == 0)
    s.temperature_c = v;
  auto reasons = sym<nvmlReturn (*)(nvmlDevice, unsigned long long*)>(
      lib_, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!reasons)
    reasons = sym<nvmlReturn (*)(nvmlDevice, unsigned long long*)>(
        lib_, "nvmlDeviceGetCurrentClocksThrottleReasons");
  if (reasons && reasons(device_, &mask) == 0) s.throttle_reasons = mask;
  return s;
}

}  // namespace ptxbench::gpu
