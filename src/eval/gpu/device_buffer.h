// DeviceBuffer: owned device memory (cudaMalloc, 256-byte aligned or better), freed
// when it dies. Move-only.
//
// A buffer shared with another process through CUDA IPC (the verifier's slots, mapped by the
// candidate's runner) is made with exported(): cudaMalloc sub-allocates small buffers from larger
// blocks, and IPC maps the whole underlying block, so a small exported buffer would show the
// importer its neighbours (base inputs, references). The CUDA programming guide's advice is to
// share only allocations of a 2 MiB-aligned size; exported() rounds the allocation up to that
// (capacity()) while bytes() stays the tensor's size.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "eval/gpu/cuda_check.h"

namespace ptxbench::gpu {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  static constexpr std::size_t kIpcGranularity = std::size_t{2} << 20;

  explicit DeviceBuffer(std::size_t bytes) : DeviceBuffer(bytes, bytes) {}
  // A buffer for CUDA IPC: its allocation a whole number of kIpcGranularity (at least one).
  static DeviceBuffer exported(std::size_t bytes) {
    return DeviceBuffer(bytes, exported_capacity(bytes));
  }
  static constexpr std::size_t exported_capacity(std::size_t bytes) {
    return (bytes == 0 ? 1 : (bytes + kIpcGranularity - 1) / kIpcGranularity) * kIpcGranularity;
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)),
        bytes_(std::exchange(o.bytes_, 0)),
        capacity_(std::exchange(o.capacity_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
      capacity_ = std::exchange(o.capacity_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { release(); }

  void* get() const { return ptr_; }
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  std::size_t bytes() const { return bytes_; }
  std::size_t capacity() const { return capacity_; }  // allocated: bytes() or more

 private:
  DeviceBuffer(std::size_t bytes, std::size_t capacity) : bytes_(bytes), capacity_(capacity) {
    if (capacity > 0) PTXB_CUDA(cudaMalloc(&ptr_, capacity));
  }
  void release() {
    if (ptr_) cudaFree(ptr_);  // errors ignored: a sticky context error must not throw here
    ptr_ = nullptr;
  }
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0, capacity_ = 0;
};

}  // namespace ptxbench::gpu
