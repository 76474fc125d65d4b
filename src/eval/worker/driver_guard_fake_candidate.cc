// A host-only stand-in for a hostile candidate (driver_lookup_guard_test): it fetches driver
// functions through the CUDA runtime's lookup (bound like a real candidate's, through
// libcudart.so) and through cuGetProcAddress_v2 (left undefined here: no -lcuda), under
// names it assembles at run time, as ../shared/cases/judge/l2_persist_runtime_name.cu does.
#include <cuda.h>
#include <cuda_runtime_api.h>

extern "C" {
cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char*, void**, unsigned int,
                                                  unsigned long long,
                                                  cudaDriverEntryPointQueryResult*);
}

namespace {

// prefix + suffix in `out`, so no literal holds the whole name.
void join_name(char* out, const char* prefix, const char* suffix) {
  while (*prefix) *out++ = *prefix++;
  while (*suffix) *out++ = *suffix++;
  *out = 0;
}

}  // namespace

// How the fake fetches: 0 cudaGetDriverEntryPointByVersion, 1 its _ptsz twin,
// 2 cuGetProcAddress_v2. Returns the lookup's status (cudaError_t or CUresult as int).
extern "C" int fake_fetch(int how, const char* prefix, const char* suffix, void** fn) {
  char name[512];
  join_name(name, prefix, suffix);
  cudaDriverEntryPointQueryResult q;
  CUdriverProcAddressQueryResult s;
  switch (how) {
    case 0:
      return static_cast<int>(
          cudaGetDriverEntryPointByVersion(name, fn, 12000, cudaEnableDefault, &q));
    case 1:
      return static_cast<int>(
          cudaGetDriverEntryPointByVersion_ptsz(name, fn, 12000, cudaEnableDefault, &q));
    default:
      return static_cast<int>(
          cuGetProcAddress_v2(name, fn, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &s));
  }
}
