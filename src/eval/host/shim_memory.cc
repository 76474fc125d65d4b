// Stream-ordered memory operations: cudaMemsetAsync, cudaMemcpyAsync (every direction),
// cudaMemcpyToSymbolAsync, cudaMallocAsync, cudaFreeAsync, with their _ptsz twins.
//   - Host-to-device bytes travel in the frame (in pieces of kCopyPiece bytes); device-to-host
//     is a synchronous request whose Reply carries the bytes; host-to-host is a plain memcpy
//     (the stream's earlier work that could write host memory, a device-to-host copy, has
//     completed already, as it is synchronous here).
//   - cudaMemcpyDefault tells device from host pointers by the device memory the candidate
//     may name (this call's tensors, its live allocations); anything else is host memory.
//   - cudaFreeAsync of anything but a live allocation's address is refused here
//     (cudaErrorInvalidValue) and never sent.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>

#include "eval/host/shim_state.h"

namespace ptxbench::eval::host::shim {
namespace {

constexpr std::uint64_t kCopyPiece = 16ull << 20;

std::uint64_t addr(const void* p) {
  return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(p));
}

// cudaMemcpyDefault resolved by where each pointer lies.
cudaMemcpyKind resolve(cudaMemcpyKind kind, const void* dst, const void* src) {
  if (kind != cudaMemcpyDefault) return kind;
  const State& s = State::get();
  const bool d = s.is_device(addr(dst)), from = s.is_device(addr(src));
  if (from) return d ? cudaMemcpyDeviceToDevice : cudaMemcpyDeviceToHost;
  return d ? cudaMemcpyHostToDevice : cudaMemcpyHostToHost;
}

cudaError_t copy(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind,
                 cudaStream_t stream, bool per_thread) {
  State& s = State::get();
  if (count == 0) return cudaSuccess;
  if (!dst || !src) return s.record(cudaErrorInvalidValue);
  kind = resolve(kind, dst, src);
  if (kind == cudaMemcpyHostToHost) {
    std::memmove(dst, src, count);
    return cudaSuccess;
  }
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDeviceToHost)
    return s.record(cudaErrorInvalidMemcpyDirection);
  if (const cudaError_t e = s.may_send()) return s.record(e);
  const std::uint64_t sv = stream_value(stream, per_thread);
  if (kind == cudaMemcpyDeviceToDevice) {
    s.send_work(MsgType::memcpy_d2d, encode(MemcpyD2D{addr(dst), addr(src), count, sv}));
    return cudaSuccess;
  }
  for (std::uint64_t done = 0; done < count; done += kCopyPiece) {
    const std::uint64_t n = std::min<std::uint64_t>(kCopyPiece, count - done);
    if (kind == cudaMemcpyHostToDevice) {
      const std::string bytes(static_cast<const char*>(src) + done, n);
      s.send_work(MsgType::memcpy_h2d, encode(MemcpyH2D{addr(dst) + done, bytes, sv}));
      continue;
    }
    const ReplyMsg r = s.request(MsgType::memcpy_d2h, encode(MemcpyD2H{addr(src) + done, n, sv}));
    if (r.status != cudaSuccess) return s.record(static_cast<cudaError_t>(r.status));
    if (r.bytes.size() != n)
      State::protocol_failure("a device-to-host reply of " + std::to_string(r.bytes.size()) +
                              " bytes for " + std::to_string(n));
    std::memcpy(static_cast<char*>(dst) + done, r.bytes.data(), n);
  }
  return cudaSuccess;
}

cudaError_t set_bytes(void* dst, int value, std::size_t count, cudaStream_t stream,
                      bool per_thread) {
  State& s = State::get();
  if (count == 0) return cudaSuccess;
  if (const cudaError_t e = s.may_send()) return s.record(e);
  s.send_work(MsgType::memset,
              encode(Memset{addr(dst), value, count, stream_value(stream, per_thread)}));
  return cudaSuccess;
}

cudaError_t to_symbol(const void* symbol, const void* src, std::size_t count, std::size_t offset,
                      cudaMemcpyKind kind, cudaStream_t stream, bool per_thread) {
  State& s = State::get();
  const Variable* v = s.registry().variable(symbol);
  if (!v) return s.record(cudaErrorInvalidSymbol);
  if (offset > v->size || count > v->size - offset) return s.record(cudaErrorInvalidValue);
  if (count == 0) return cudaSuccess;
  if (!src) return s.record(cudaErrorInvalidValue);
  if (kind == cudaMemcpyDefault)
    kind = s.is_device(addr(src)) ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice;
  if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice)
    return s.record(cudaErrorInvalidMemcpyDirection);
  if (const cudaError_t e = s.may_send()) return s.record(e);
  MemcpyToSymbol m;
  m.symbol = v->name;
  m.offset = offset;
  m.stream = stream_value(stream, per_thread);
  if (kind == cudaMemcpyHostToDevice) {
    m.data.assign(static_cast<const char*>(src), count);
  } else {
    m.src = addr(src);
    m.count = count;
  }
  s.send_work(MsgType::memcpy_to_symbol, encode(m));
  return cudaSuccess;
}

cudaError_t malloc_async(void** ptr, std::size_t size, cudaStream_t stream, bool per_thread) {
  State& s = State::get();
  if (!ptr) return s.record(cudaErrorInvalidValue);
  if (const cudaError_t e = s.may_send()) return s.record(e);
  const ReplyMsg r =
      s.request(MsgType::malloc_async, encode(MallocAsync{size, stream_value(stream, per_thread)}));
  if (r.status != cudaSuccess) return s.record(static_cast<cudaError_t>(r.status));
  s.add_allocation(r.value, size);
  *ptr = reinterpret_cast<void*>(static_cast<std::uintptr_t>(r.value));
  return cudaSuccess;
}

cudaError_t free_async(void* ptr, cudaStream_t stream, bool per_thread) {
  State& s = State::get();
  if (const cudaError_t e = s.may_send()) return s.record(e);
  if (!s.remove_allocation(addr(ptr))) return s.record(cudaErrorInvalidValue);
  s.send_work(MsgType::free_async, encode(FreeAsync{addr(ptr), stream_value(stream, per_thread)}));
  return cudaSuccess;
}

}  // namespace
}  // namespace ptxbench::eval::host::shim

namespace shim = ptxbench::eval::host::shim;

extern "C" {

cudaError_t cudaMemsetAsync_ptsz(void* devPtr, int value, size_t count, cudaStream_t stream);
cudaError_t cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                                 cudaStream_t stream);
cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void* symbol, const void* src, size_t count,
                                         size_t offset, cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMallocAsync_ptsz(void** devPtr, size_t size, cudaStream_t hStream);
cudaError_t cudaFreeAsync_ptsz(void* devPtr, cudaStream_t hStream);

cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  return shim::set_bytes(devPtr, value, count, stream, false);
}
cudaError_t cudaMemsetAsync_ptsz(void* devPtr, int value, size_t count, cudaStream_t stream) {
  return shim::set_bytes(devPtr, value, count, stream, true);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  return shim::copy(dst, src, count, kind, stream, false);
}
cudaError_t cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                                 cudaStream_t stream) {
  return shim::copy(dst, src, count, kind, stream, true);
}

cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count,
                                    size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  return shim::to_symbol(symbol, src, count, offset, kind, stream, false);
}
cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void* symbol, const void* src, size_t count,
                                         size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  return shim::to_symbol(symbol, src, count, offset, kind, stream, true);
}

cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t hStream) {
  return shim::malloc_async(devPtr, size, hStream, false);
}
cudaError_t cudaMallocAsync_ptsz(void** devPtr, size_t size, cudaStream_t hStream) {
  return shim::malloc_async(devPtr, size, hStream, true);
}

cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t hStream) {
  return shim::free_async(devPtr, hStream, false);
}
cudaError_t cudaFreeAsync_ptsz(void* devPtr, cudaStream_t hStream) {
  return shim::free_async(devPtr, hStream, true);
}

}  // extern "C"
