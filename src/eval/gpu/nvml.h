// NVML, loaded at run time with dlopen("libnvidia-ml.so.1") and a handful of
// prototypes of our own (no nvml.h is needed to build). Everything is optional: when
// the library or a query is missing, the field stays empty and `error` says why.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/json.h"

namespace ptxbench::gpu {

struct ClockSample {
  std::optional<unsigned> sm_clock_mhz;
  std::optional<unsigned> sm_clock_max_mhz;
  std::optional<unsigned> power_mw;
  std::optional<unsigned> temperature_c;
  std::optional<unsigned long long> throttle_reasons;  // NVML bitmask
  std::string error;
  Json to_json() const;
};

// Names of the set bits of an NVML throttle ("clocks event") reason mask; the idle
// bit (0x1) and "none" are left out. Pure function, unit-tested.
std::string describe_throttle_reasons(unsigned long long mask);

class Nvml {
 public:
  // Loads NVML and finds the device whose PCI bus id is `pci_bus_id`
  // (cudaDeviceGetPCIBusId). Never fails: check available().
  explicit Nvml(const std::string& pci_bus_id);
  ~Nvml();
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  bool available() const { return device_ != nullptr; }
  const std::string& error() const { return error_; }
  std::string driver_version() const;
  ClockSample sample() const;

 private:
  void* lib_ = nullptr;
  void* device_ = nullptr;
  std::string error_;
};

}  // namespace ptxbench::gpu
