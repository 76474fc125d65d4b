// Streams and events. The candidate has one stream, the harness's (kHarnessStream); events
// are the shim's own handles and record nothing (everything the candidate enqueues runs in
// order on the broker's stream), so cudaEventRecord and cudaStreamWaitEvent only check the
// handle. cudaStreamSynchronize is a StreamSync request: the broker enqueues the call's work
// so far and waits for it; its status (an asynchronous error of the work) is the answer.
// cudaStreamGet* answer for the harness's stream, the legacy and the per-thread default
// stream; any other handle is cudaErrorInvalidResourceHandle.
#include <cuda_runtime_api.h>

#include <cstring>

#include "eval/host/shim_state.h"

namespace ptxbench::eval::host::shim {
namespace {

bool known_stream(cudaStream_t s) {
  return stream_value(s) == kHarnessStream || s == nullptr || s == cudaStreamLegacy ||
         s == cudaStreamPerThread;
}

cudaError_t synchronize(cudaStream_t stream, bool per_thread) {
  State& s = State::get();
  if (const cudaError_t e = s.may_send()) return s.record(e);
  const ReplyMsg r =
      s.request(MsgType::stream_sync, encode(StreamSync{stream_value(stream, per_thread)}));
  return s.record(static_cast<cudaError_t>(r.status));
}

// A query of stream `s`: the answer `harness` for the harness's stream, `other` for the
// default streams.
template <class T>
cudaError_t stream_query(cudaStream_t s, T* out, T harness, T other) {
  if (!out) return State::get().record(cudaErrorInvalidValue);
  if (!known_stream(s)) return State::get().record(cudaErrorInvalidResourceHandle);
  *out = stream_value(s) == kHarnessStream ? harness : other;
  return cudaSuccess;
}

}  // namespace
}  // namespace ptxbench::eval::host::shim

namespace shim = ptxbench::eval::host::shim;
using shim::State;

extern "C" {

cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags);
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream);
cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int* priority);
cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int* flags);
cudaError_t cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long* streamId);
cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t hStream, int* device);
cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr,
                                        cudaStreamAttrValue* value_out);
cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                          enum cudaStreamCaptureStatus* captureStatus_out,
                                          unsigned long long* id_out, cudaGraph_t* graph_out,
                                          const cudaGraphNode_t** dependencies_out,
                                          const cudaGraphEdgeData** edgeData_out,
                                          size_t* numDependencies_out);

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (!event) return State::get().record(cudaErrorInvalidValue);
  *event = State::get().new_event();
  return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int) {
  return cudaEventCreate(event);
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  return State::get().remove_event(event) ? cudaSuccess
                                          : State::get().record(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  return State::get().has_event(event) ? cudaSuccess
                                       : State::get().record(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream) {
  return cudaEventRecord(event, stream);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t event, unsigned int) {
  return State::get().has_event(event) ? cudaSuccess
                                       : State::get().record(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  return cudaStreamWaitEvent(stream, event, flags);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  return shim::synchronize(stream, false);
}
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream) {
  return shim::synchronize(stream, true);
}

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int* priority) {
  return shim::stream_query(hStream, priority, 0, 0);
}
cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t hStream, int* priority) {
  return cudaStreamGetPriority(hStream, priority);
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int* flags) {
  return shim::stream_query(hStream, flags, static_cast<unsigned>(cudaStreamNonBlocking), 0u);
}
cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t hStream, unsigned int* flags) {
  return cudaStreamGetFlags(hStream, flags);
}

cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long* streamId) {
  return shim::stream_query(hStream, streamId, 1ull, 0ull);
}
cudaError_t cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long* streamId) {
  return cudaStreamGetId(hStream, streamId);
}

cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int* device) {
  return shim::stream_query(hStream, device, 0, 0);
}
cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t hStream, int* device) {
  return cudaStreamGetDevice(hStream, device);
}

cudaError_t cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID,
                                   cudaStreamAttrValue* value_out) {
  if (!value_out) return State::get().record(cudaErrorInvalidValue);
  if (!shim::known_stream(hStream)) return State::get().record(cudaErrorInvalidResourceHandle);
  std::memset(static_cast<void*>(value_out), 0, sizeof *value_out);
  return cudaSuccess;
}
cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t hStream, cudaStreamAttrID attr,
                                        cudaStreamAttrValue* value_out) {
  return cudaStreamGetAttribute(hStream, attr, value_out);
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                     enum cudaStreamCaptureStatus* captureStatus_out,
                                     unsigned long long* id_out, cudaGraph_t* graph_out,
                                     const cudaGraphNode_t** dependencies_out,
                                     const cudaGraphEdgeData** edgeData_out,
                                     size_t* numDependencies_out) {
  const cudaStreamCaptureStatus none = cudaStreamCaptureStatusNone;
  if (const cudaError_t e = shim::stream_query(stream, captureStatus_out, none, none)) return e;
  if (id_out) *id_out = 0;
  if (graph_out) *graph_out = nullptr;
  if (dependencies_out) *dependencies_out = nullptr;
  if (edgeData_out) *edgeData_out = nullptr;
  if (numDependencies_out) *numDependencies_out = 0;
  return cudaSuccess;
}
cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
                                          enum cudaStreamCaptureStatus* captureStatus_out,
                                          unsigned long long* id_out, cudaGraph_t* graph_out,
                                          const cudaGraphNode_t** dependencies_out,
                                          const cudaGraphEdgeData** edgeData_out,
                                          size_t* numDependencies_out) {
  return cudaStreamGetCaptureInfo(stream, captureStatus_out, id_out, graph_out, dependencies_out,
                                  edgeData_out, numDependencies_out);
}

}  // extern "C"
