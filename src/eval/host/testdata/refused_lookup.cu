// A host fixture that fetches a driver function off the allow-list, its name assembled at run
// time (no string literal names it).
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

extern "C" void ptxbench_launch(const DLTensor* A, DLTensor*, cudaStream_t) {
  char name[] = {'c', 'u', 'M', 'e', 'm', 'A', 'l', 'l', 'o', 'c', '\0'};
  name[0] += (char)(A->ndim - 2);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found;
  cudaGetDriverEntryPoint(name, &fn, cudaEnableDefault, &found);
}
