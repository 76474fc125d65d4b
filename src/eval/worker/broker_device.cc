#include "eval/worker/broker_device.h"

#include <cuda.h>

#include <algorithm>
#include <cstring>

#include "eval/gpu/cuda_check.h"
#include "eval/session_protocol.h"
#include "eval/worker/device_sync.h"

namespace ptxbench::eval::worker {
namespace {

std::string driver_error(CUresult r) {
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  return name ? name : "CUDA_ERROR_UNKNOWN";
}

void cu(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS)
    throw DeviceFailure(std::string(what) + ": " + driver_error(r),
                        r == CUDA_ERROR_ILLEGAL_ADDRESS);
}

void rt(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw DeviceFailure(std::string(what) + ": " + gpu::describe_cuda_error(e),
                        e == cudaErrorIllegalAddress);
}

CUdeviceptr ptr(std::uint64_t v) {
  return static_cast<CUdeviceptr>(v);
}

// cudaFuncSetAttribute's answer for a driver result (the runtime's own mapping for the
// attributes a candidate may set).
std::int32_t runtime_status(CUresult r) {
  if (r == CUDA_SUCCESS) return cudaSuccess;
  if (r == CUDA_ERROR_INVALID_HANDLE) return cudaErrorInvalidDeviceFunction;
  return cudaErrorInvalidValue;
}

std::vector<CUlaunchAttribute> attributes_of(const std::vector<host::LaunchAttribute>& in) {
  std::vector<CUlaunchAttribute> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    std::memset(&out[i], 0, sizeof out[i]);
    out[i].id = static_cast<CUlaunchAttributeID>(in[i].id);
    std::memcpy(&out[i].value, in[i].value.data(),
                std::min(sizeof out[i].value, in[i].value.size()));
  }
  return out;
}

CUlaunchConfig config_of(const host::Dim3& grid, const host::Dim3& block, std::uint64_t smem,
                         cudaStream_t stream, std::vector<CUlaunchAttribute>& attrs) {
  CUlaunchConfig c{};
  c.gridDimX = grid.x, c.gridDimY = grid.y, c.gridDimZ = grid.z;
  c.blockDimX = block.x, c.blockDimY = block.y, c.blockDimZ = block.z;
  c.sharedMemBytes = static_cast<unsigned>(smem);
  c.hStream = stream;
  c.attrs = attrs.data();
  c.numAttrs = static_cast<unsigned>(attrs.size());
  return c;
}

}  // namespace

CudaBrokerDevice::CudaBrokerDevice(cudaStream_t stream, gpu::L2Flush& flush,
                                   const CandidateModule& module)
    : stream_(stream), flush_(flush), module_(module) {}

CudaBrokerDevice::~CudaBrokerDevice() {
  for (cudaEvent_t e : events_) cudaEventDestroy(e);
  for (cudaEvent_t e : launch_events_) cudaEventDestroy(e);
}

void CudaBrokerDevice::select_call(std::size_t i) {
  while (events_.size() < 2 * (i + 1)) {
    cudaEvent_t e = nullptr;
    rt(cudaEventCreate(&e), "cudaEventCreate");
    events_.push_back(e);
  }
  if (i == 0) {
    recorded_.assign(1, false);
    timed_.clear();
    timed_in_call_.clear();
    untimed_in_call_.clear();
  }
  if (recorded_.size() < i + 1) recorded_.resize(i + 1, false);
  if (timed_in_call_.size() < i + 1) timed_in_call_.resize(i + 1, 0);
  if (untimed_in_call_.size() < i + 1) untimed_in_call_.resize(i + 1, 0);
  call_ = i;
}

bool CudaBrokerDevice::launch_timed() {
  if (!time_launches_) return false;
  if (timed_in_call_[call_] >= kMaxTimedLaunchesPerCall) {
    ++untimed_in_call_[call_];
    return false;
  }
  const std::size_t k = timed_.size();
  while (launch_events_.size() < 2 * (k + 1)) {
    cudaEvent_t e = nullptr;
    rt(cudaEventCreate(&e), "cudaEventCreate");
    launch_events_.push_back(e);
  }
  rt(cudaEventRecord(launch_events_[2 * k], stream_), "cudaEventRecord");
  return true;
}

std::vector<std::vector<std::pair<std::string, double>>> CudaBrokerDevice::function_ms(
    std::size_t calls) const {
  std::vector<std::vector<std::pair<std::string, double>>> out(calls);
  for (std::size_t k = 0; k < timed_.size(); ++k) {
    const TimedLaunch& t = timed_[k];
    if (t.call >= calls) continue;
    float ms = 0;
    PTXB_CUDA(cudaEventElapsedTime(&ms, launch_events_[2 * k], launch_events_[2 * k + 1]));
    auto& v = out[t.call];
    auto it =
        std::find_if(v.begin(), v.end(), [&](const auto& e) { return e.first == t.function; });
    if (it == v.end())
      v.emplace_back(t.function, ms);
    else
      it->second += ms;
  }
  return out;
}

std::vector<int> CudaBrokerDevice::untimed_launches(std::size_t calls) const {
  std::vector<int> out(calls, 0);
  for (std::size_t i = 0; i < calls && i < untimed_in_call_.size(); ++i)
    out[i] = untimed_in_call_[i];
  return out;
}

std::vector<double> CudaBrokerDevice::elapsed_ms(std::size_t calls) const {
  std::vector<double> out(calls, 0.0);
  for (std::size_t i = 0; i < calls && i < recorded_.size(); ++i) {
    if (!recorded_[i]) continue;
    float ms = 0;
    PTXB_CUDA(cudaEventElapsedTime(&ms, events_[2 * i], events_[2 * i + 1]));
    out[i] = ms;
  }
  return out;
}

void CudaBrokerDevice::begin_call_timing() {
  flush_.flush(stream_);
  rt(cudaEventRecord(events_[2 * call_], stream_), "cudaEventRecord");
}

void CudaBrokerDevice::end_call_timing() {
  rt(cudaEventRecord(events_[2 * call_ + 1], stream_), "cudaEventRecord");
  recorded_[call_] = true;
}

void CudaBrokerDevice::launch(const host::Launch& l, const KernelInfo& k) {
  CUfunction f = module_.function(l.function);
  if (!f) throw DeviceFailure("no kernel " + l.function);
  std::vector<void*> args(k.params.size());
  for (std::size_t i = 0; i < k.params.size(); ++i)
    args[i] = const_cast<char*>(l.params.data()) + k.params[i].offset;
  std::vector<CUlaunchAttribute> attrs = attributes_of(l.attributes);
  CUlaunchConfig c = config_of(l.grid, l.block, l.shared_mem, stream_, attrs);
  const bool timed = launch_timed();
  const CUresult r = cuLaunchKernelEx(&c, f, args.empty() ? nullptr : args.data(), nullptr);
  if (r != CUDA_SUCCESS)
    throw DeviceFailure("the launch of " + l.function + " failed: " + driver_error(r));
  if (!timed) return;
  rt(cudaEventRecord(launch_events_[2 * timed_.size() + 1], stream_), "cudaEventRecord");
  timed_.push_back({call_, l.function});
  ++timed_in_call_[call_];
}

void CudaBrokerDevice::memset(std::uint64_t dst, std::int32_t value, std::uint64_t count) {
  cu(cuMemsetD8Async(ptr(dst), static_cast<unsigned char>(value), count, stream_),
     "cudaMemsetAsync");
}

void CudaBrokerDevice::copy_h2d(std::uint64_t dst, const std::string& bytes) {
  keep_.push_back(bytes);
  cu(cuMemcpyHtoDAsync(ptr(dst), keep_.back().data(), bytes.size(), stream_), "cudaMemcpyAsync");
}

void CudaBrokerDevice::copy_d2d(std::uint64_t dst, std::uint64_t src, std::uint64_t count) {
  cu(cuMemcpyDtoDAsync(ptr(dst), ptr(src), count, stream_), "cudaMemcpyAsync");
}

std::string CudaBrokerDevice::copy_d2h(std::uint64_t src, std::uint64_t count, double seconds) {
  std::string out(count, '\0');
  cu(cuMemcpyDtoHAsync(out.data(), ptr(src), count, stream_), "cudaMemcpyAsync");
  wait(seconds);
  return out;
}

std::optional<std::uint64_t> CudaBrokerDevice::allocate(std::uint64_t bytes) {
  CUdeviceptr p = 0;
  const CUresult r = cuMemAllocAsync(&p, bytes, stream_);
  if (r == CUDA_ERROR_OUT_OF_MEMORY) return std::nullopt;
  cu(r, "cudaMallocAsync");
  cu(cuMemsetD8Async(p, 0, bytes, stream_), "zeroing the candidate's workspace");
  return static_cast<std::uint64_t>(p);
}

void CudaBrokerDevice::free(std::uint64_t p) {
  cu(cuMemFreeAsync(ptr(p), stream_), "cudaFreeAsync");
}

std::optional<DeviceRegion> CudaBrokerDevice::symbol(const std::string& name) {
  return module_.global(name);
}

std::int32_t CudaBrokerDevice::set_attribute(const std::string& function, std::int32_t attribute,
                                             std::int32_t value) {
  // Only the attributes cudaFuncSetAttribute may set (the same numbers in both APIs).
  if (attribute < CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES ||
      attribute >= CU_FUNC_ATTRIBUTE_MAX)
    return cudaErrorInvalidValue;
  return runtime_status(cuFuncSetAttribute(module_.function(function),
                                           static_cast<CUfunction_attribute>(attribute), value));
}

std::pair<std::int32_t, std::int64_t> CudaBrokerDevice::occupancy(const host::Occupancy& q) {
  CUfunction f = module_.function(q.function);
  int n = 0;
  std::size_t bytes = 0;
  std::vector<CUlaunchAttribute> attrs = attributes_of(q.attributes);
  CUlaunchConfig c = config_of(q.grid, q.block, q.dynamic_smem, stream_, attrs);
  CUresult r = CUDA_ERROR_INVALID_VALUE;
  switch (q.query) {
    case host::OccupancyQuery::max_active_blocks:
      r = cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, f, q.block_size, q.dynamic_smem,
                                                               q.flags);
      return {runtime_status(r), n};
    case host::OccupancyQuery::available_dynamic_smem:
      r = cuOccupancyAvailableDynamicSMemPerBlock(&bytes, f, q.num_blocks, q.block_size);
      return {runtime_status(r), static_cast<std::int64_t>(bytes)};
    case host::OccupancyQuery::max_potential_cluster_size:
      r = cuOccupancyMaxPotentialClusterSize(&n, f, &c);
      return {runtime_status(r), n};
    case host::OccupancyQuery::max_active_clusters:
      r = cuOccupancyMaxActiveClusters(&n, f, &c);
      return {runtime_status(r), n};
  }
  return {cudaErrorInvalidValue, 0};
}

std::pair<std::int32_t, std::string> CudaBrokerDevice::encode(const host::EncodeTensorMap& m) {
  const std::size_t rank = m.rank;
  if (m.global_dim.size() != rank || m.global_strides.size() + 1 != rank ||
      m.element_strides.size() != rank)
    return {CUDA_ERROR_INVALID_VALUE, {}};
  CUtensorMap map;
  std::memset(&map, 0, sizeof map);
  void* address = reinterpret_cast<void*>(static_cast<std::uintptr_t>(m.global_address));
  const auto type = static_cast<CUtensorMapDataType>(m.data_type);
  const auto interleave = static_cast<CUtensorMapInterleave>(m.interleave);
  const auto swizzle = static_cast<CUtensorMapSwizzle>(m.swizzle);
  const auto promotion = static_cast<CUtensorMapL2promotion>(m.l2_promotion);
  const auto fill = static_cast<CUtensorMapFloatOOBfill>(m.oob_fill);
  CUresult r = CUDA_ERROR_INVALID_VALUE;
  switch (m.kind) {
    case host::TensorMapKind::tiled:
      if (m.box_dim.size() != rank) return {CUDA_ERROR_INVALID_VALUE, {}};
      r = cuTensorMapEncodeTiled(&map, type, m.rank, address, m.global_dim.data(),
                                 m.global_strides.data(), m.box_dim.data(),
                                 m.element_strides.data(), interleave, swizzle, promotion, fill);
      break;
    case host::TensorMapKind::im2col:
      if (rank < 3 || m.lower_corner.size() != rank - 2 || m.upper_corner.size() != rank - 2)
        return {CUDA_ERROR_INVALID_VALUE, {}};
      r = cuTensorMapEncodeIm2col(&map, type, m.rank, address, m.global_dim.data(),
                                  m.global_strides.data(), m.lower_corner.data(),
                                  m.upper_corner.data(), m.channels_per_pixel, m.pixels_per_column,
                                  m.element_strides.data(), interleave, swizzle, promotion, fill);
      break;
    case host::TensorMapKind::im2col_wide:
      r = cuTensorMapEncodeIm2colWide(
          &map, type, m.rank, address, m.global_dim.data(), m.global_strides.data(),
          m.lower_corner_w, m.upper_corner_w, m.channels_per_pixel, m.pixels_per_column,
          m.element_strides.data(), interleave, static_cast<CUtensorMapIm2ColWideMode>(m.mode),
          swizzle, promotion, fill);
      break;
  }
  if (r != CUDA_SUCCESS) return {r, {}};
  return {r, std::string(reinterpret_cast<const char*>(&map), sizeof map)};
}

std::pair<std::int32_t, std::string> CudaBrokerDevice::replace_address(const std::string& bytes,
                                                                       std::uint64_t address) {
  CUtensorMap map;
  if (bytes.size() != sizeof map) return {CUDA_ERROR_INVALID_VALUE, {}};
  std::memcpy(&map, bytes.data(), sizeof map);
  const CUresult r = cuTensorMapReplaceAddress(
      &map, reinterpret_cast<void*>(static_cast<std::uintptr_t>(address)));
  if (r != CUDA_SUCCESS) return {r, {}};
  return {r, std::string(reinterpret_cast<const char*>(&map), sizeof map)};
}

void CudaBrokerDevice::wait(double seconds) {
  try {
    sync_with_deadline(stream_, seconds);
  } catch (const CallTimeout& e) {
    throw DeviceTimeout(e.what());
  } catch (const gpu::CudaError& e) {
    throw DeviceFailure(e.what(), e.code() == cudaErrorIllegalAddress);
  }
}

host::Hello make_hello(const CandidateModule& module, std::uint64_t workspace_quota) {
  host::Hello h;
  PTXB_CUDA(cudaDriverGetVersion(&h.driver_version));
  PTXB_CUDA(cudaRuntimeGetVersion(&h.runtime_version));
  cudaDeviceProp prop;
  PTXB_CUDA(cudaGetDeviceProperties(&prop, 0));
  h.device_properties.assign(reinterpret_cast<const char*>(&prop), sizeof prop);
  for (int a = 1; a < cudaDevAttrMax; ++a) {
    int v = 0;
    if (cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(a), 0) == cudaSuccess)
      h.runtime_attributes.emplace_back(a, v);
  }
  (void)cudaGetLastError();  // attributes this device lacks
  CUdevice dev = 0;
  cu(cuDeviceGet(&dev, 0), "cuDeviceGet");
  for (int a = 1; a < CU_DEVICE_ATTRIBUTE_MAX; ++a) {
    int v = 0;
    if (cuDeviceGetAttribute(&v, static_cast<CUdevice_attribute>(a), dev) == CUDA_SUCCESS)
      h.driver_attributes.emplace_back(a, v);
  }
  for (int code = 0; code < 1100; ++code) {
    const char* name = cudaGetErrorName(static_cast<cudaError_t>(code));
    if (name && std::strcmp(name, "unrecognized error code") != 0)
      h.runtime_errors.push_back({code, name, cudaGetErrorString(static_cast<cudaError_t>(code))});
    const char* dname = nullptr;
    const char* dtext = nullptr;
    if (cuGetErrorName(static_cast<CUresult>(code), &dname) == CUDA_SUCCESS && dname) {
      cuGetErrorString(static_cast<CUresult>(code), &dtext);
      h.driver_errors.push_back({code, dname, dtext ? dtext : ""});
    }
  }
  h.functions = module.function_infos();
  h.workspace_quota = workspace_quota;
  return h;
}

}  // namespace ptxbench::eval::worker
