#include "eval/worker/shared_inputs.h"

#include <cuda.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "eval/gpu/cuda_check.h"

namespace ptxbench::eval::worker {
namespace {

CUmemAllocationProp exportable_prop(int device) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  return prop;
}

int current_device() {
  int device = 0;
  PTXB_CUDA(cudaGetDevice(&device));
  return device;
}

// Reserves an address range for `h` (capacity bytes), maps it and sets the current device's
// access; the mapping keeps the memory alive, so `h` may be released after.
CUdeviceptr map_with(CUmemGenericAllocationHandle h, std::size_t capacity, int device,
                     CUmemAccess_flags access) {
  CUdeviceptr va = 0;
  PTXB_CU(cuMemAddressReserve(&va, capacity, 0, 0, 0));
  if (CUresult r = cuMemMap(va, capacity, 0, h, 0); r != CUDA_SUCCESS) {
    cuMemAddressFree(va, capacity);
    PTXB_CU(r);
  }
  CUmemAccessDesc d{};
  d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  d.location.id = device;
  d.flags = access;
  if (CUresult r = cuMemSetAccess(va, capacity, &d, 1); r != CUDA_SUCCESS) {
    cuMemUnmap(va, capacity);
    cuMemAddressFree(va, capacity);
    PTXB_CU(r);
  }
  return va;
}

}  // namespace

gpu::DeviceBuffer shareable_input(std::size_t bytes) {
  const int device = current_device();
  const CUmemAllocationProp prop = exportable_prop(device);
  std::size_t granule = 0;
  PTXB_CU(cuMemGetAllocationGranularity(&granule, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  const std::size_t capacity = gpu::DeviceBuffer::exported_capacity(bytes);
  if (granule == 0 || capacity % granule != 0)
    throw std::runtime_error("the GPU's allocation granularity (" + std::to_string(granule) +
                             " bytes) does not divide 2 MiB");
  CUmemGenericAllocationHandle h;
  PTXB_CU(cuMemCreate(&h, capacity, &prop, 0));
  CUdeviceptr va = 0;
  try {
    va = map_with(h, capacity, device, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  } catch (...) {
    cuMemRelease(h);
    throw;
  }
  cuMemRelease(h);
  return gpu::DeviceBuffer::adopt(reinterpret_cast<void*>(va), bytes, [capacity](void* p) {
    const auto a = reinterpret_cast<CUdeviceptr>(p);
    cuMemUnmap(a, capacity);
    cuMemAddressFree(a, capacity);
  });
}

OwnedFd export_input(const gpu::DeviceBuffer& b) {
  CUmemGenericAllocationHandle h;
  PTXB_CU(cuMemRetainAllocationHandle(&h, b.base()));
  int fd = -1;
  const CUresult r =
      cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
  cuMemRelease(h);
  PTXB_CU(r);
  return OwnedFd(fd);
}

std::uint64_t map_input(int fd, std::size_t capacity, InputAccess access) {
  CUmemGenericAllocationHandle h;
  PTXB_CU(cuMemImportFromShareableHandle(&h,
                                         reinterpret_cast<void*>(static_cast<std::intptr_t>(fd)),
                                         CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  CUdeviceptr va = 0;
  try {
    va = map_with(h, capacity, current_device(),
                  access == InputAccess::writable ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE
                                                  : CU_MEM_ACCESS_FLAGS_PROT_READ);
  } catch (...) {
    cuMemRelease(h);
    throw;
  }
  cuMemRelease(h);
  return static_cast<std::uint64_t>(va);
}

}  // namespace ptxbench::eval::worker
