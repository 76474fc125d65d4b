// DeviceBuffer: owned device memory (cudaMalloc, 256-byte aligned or better), freed
// when it dies. Move-only.
//
// A buffer shared with another process through CUDA IPC (the verifier's slots, mapped by the
// candidate's runner) is made with exported(): cudaMalloc sub-allocates small buffers from larger
// blocks, and IPC maps the whole underlying block, so a small exported buffer would show the
// importer its neighbours (base inputs, references). The CUDA programming guide's advice is to
// share only allocations of a 2 MiB-aligned size; exported() rounds the allocation up to that
// (capacity(), from base()) and places the tensor at its end (get() = base() + offset(), offset
// a multiple of 256), so a read past the tensor's end leaves the allocation (it faults unless
// another mapping follows it in the importer's address space, which the driver places); what lies
// before the tensor is the allocation's own slack, which the verifier zeroes (and zeroes again
// before each further runner of a session). bytes() stays the tensor's size.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <utility>

#include "eval/gpu/cuda_check.h"

namespace ptxbench::gpu {

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  static constexpr std::size_t kIpcGranularity = std::size_t{2} << 20;

  explicit DeviceBuffer(std::size_t bytes) : DeviceBuffer(bytes, bytes, 0) {}
  // A buffer for CUDA IPC: its allocation a whole number of kIpcGranularity (at least one), the
  // tensor at its end.
  static DeviceBuffer exported(std::size_t bytes) {
    return DeviceBuffer(bytes, exported_capacity(bytes), exported_offset(bytes));
  }
  static constexpr std::size_t exported_capacity(std::size_t bytes) {
    return (bytes == 0 ? 1 : (bytes + kIpcGranularity - 1) / kIpcGranularity) * kIpcGranularity;
  }
  static constexpr std::size_t exported_offset(std::size_t bytes) {
    return (exported_capacity(bytes) - bytes) / 256 * 256;
  }
  // An allocation of exported_capacity(bytes) made elsewhere (worker/shared_inputs.h: CUDA
  // virtual memory, exported as a descriptor), laid out as exported() lays its own, handed back
  // to `free` when the buffer dies.
  static DeviceBuffer adopt(void* base, std::size_t bytes, std::function<void(void*)> free) {
    DeviceBuffer b;
    b.base_ = base;
    b.ptr_ = static_cast<char*>(base) + exported_offset(bytes);
    b.bytes_ = bytes;
    b.capacity_ = exported_capacity(bytes);
    b.free_ = std::move(free);
    return b;
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : base_(std::exchange(o.base_, nullptr)),
        ptr_(std::exchange(o.ptr_, nullptr)),
        bytes_(std::exchange(o.bytes_, 0)),
        capacity_(std::exchange(o.capacity_, 0)),
        free_(std::exchange(o.free_, nullptr)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      base_ = std::exchange(o.base_, nullptr);
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
      capacity_ = std::exchange(o.capacity_, 0);
      free_ = std::exchange(o.free_, nullptr);
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
  std::size_t capacity() const { return capacity_; }  // allocated, from base(): bytes() or more
  void* base() const { return base_; }                // the allocation (cudaMalloc's pointer)
  std::size_t offset() const {
    return static_cast<std::size_t>(static_cast<char*>(ptr_) - static_cast<char*>(base_));
  }

 private:
  DeviceBuffer(std::size_t bytes, std::size_t capacity, std::size_t offset)
      : bytes_(bytes), capacity_(capacity) {
    if (capacity > 0) PTXB_CUDA(cudaMalloc(&base_, capacity));
    ptr_ = base_ ? static_cast<char*>(base_) + offset : nullptr;
  }
  void release() {
    // Errors ignored: a sticky context error must not throw here.
    if (base_ && free_) free_(base_);
    if (base_ && !free_) cudaFree(base_);
    base_ = ptr_ = nullptr;
    free_ = nullptr;
  }
  void* base_ = nullptr;
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0, capacity_ = 0;
  std::function<void(void*)> free_;  // set by adopt(); else cudaFree
};

}  // namespace ptxbench::gpu
