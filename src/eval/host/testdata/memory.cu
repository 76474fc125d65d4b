// A host fixture: the stream-ordered memory operations, events and the queries the Hello
// answers. Everything it observed goes back in one host-to-device copy into C (Report).
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

#include <cstring>

__device__ int table[16];

// Host memory copied to the device in more than one frame (16 MiB pieces).
static char big[20 << 20];

struct Report {
  int codes[16];
  char back[8];
  int sm_count;
  int max_threads;
  char error_text[32];
};

extern "C" void ptxbench_launch(const DLTensor* A, DLTensor* C, cudaStream_t stream) {
  Report r = {};
  void* ws = nullptr;
  r.codes[0] = cudaMallocAsync(&ws, 1 << 20, stream);
  r.codes[1] = cudaMemsetAsync(ws, 0x5a, 4096, stream);
  r.codes[2] = cudaMemcpyAsync(ws, A->data, 256, cudaMemcpyDefault, stream);  // a tensor: D2D
  const char fresh[16] = "fresh inputs";
  r.codes[3] = cudaMemcpyAsync(C->data, fresh, sizeof fresh, cudaMemcpyDefault, stream);  // H2D
  r.codes[4] = cudaMemcpyAsync(r.back, (char*)ws + 8, 8, cudaMemcpyDeviceToHost, stream);
  r.codes[5] = cudaStreamSynchronize(stream);
  r.codes[6] = cudaFreeAsync(ws, stream);
  r.codes[7] = cudaFreeAsync((char*)ws + 64, stream);  // not an allocation's address
  cudaEvent_t e = nullptr;
  r.codes[8] = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  r.codes[9] = cudaEventRecord(e, stream) | cudaStreamWaitEvent(stream, e, 0) | cudaEventDestroy(e);
  r.codes[10] = cudaEventRecord(e, stream);  // destroyed
  int device = -1;
  r.codes[11] = cudaGetDevice(&device) | device;
  r.codes[12] = cudaMemcpyToSymbolAsync(table, A->data, 32, 16, cudaMemcpyDefault, stream);
  r.codes[13] = cudaMemcpyToSymbolAsync(table, A->data, 32, 48, cudaMemcpyDefault, stream);
  r.codes[14] = cudaMemcpyToSymbolAsync(&r, A->data, 4, 0, cudaMemcpyDefault, stream);
  big[0] = 'b', big[sizeof big - 1] = 'e';
  r.codes[15] = cudaMemcpyAsync(A->data, big, sizeof big, cudaMemcpyHostToDevice, stream);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  r.sm_count = prop.multiProcessorCount;
  cudaDeviceGetAttribute(&r.max_threads, cudaDevAttrMaxThreadsPerBlock, 0);
  std::strncpy(r.error_text, cudaGetErrorString(cudaErrorInvalidValue), sizeof r.error_text - 1);
  cudaGetLastError();
  cudaMemcpyAsync(C->data, &r, sizeof r, cudaMemcpyHostToDevice, stream);
}
