// A stand-in tvm-ffi candidate for candidate_test (host-only, no CUDA), linked against
// libtvm_ffi.so without a run path, as ptxbench links a tvm-ffi candidate.
//   run   exported with TVM_FFI_DLL_EXPORT_TYPED_FUNC like a candidate's entry point: records
//         each TensorView's data pointer and first extent, and what TVMFFIEnvGetStream returns
//         for the first tensor's device; raises a ValueError (TVM_FFI_THROW) for a tensor of
//         rank 0, as a candidate's shape check would.
//   run9  the same with nine tensors (attention backward: six inputs, three outputs).
//   raw   a hand-written safe-call function: records the arguments exactly as they arrive.
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/error.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>

#include <cstdint>

using tvm::ffi::TensorView;

extern "C" {
void* ptxbench_tvm_data[16];
int64_t ptxbench_tvm_extent[16];
void* ptxbench_tvm_stream = nullptr;
int ptxbench_tvm_calls = 0;
int ptxbench_tvm_raw_count = -1;
int32_t ptxbench_tvm_raw_type[16];
void* ptxbench_tvm_raw_ptr[16];
}

namespace {

void record(std::initializer_list<const TensorView*> tensors) {
  int i = 0;
  for (const TensorView* t : tensors) {
    if (t->ndim() == 0) TVM_FFI_THROW(ValueError) << "tensor " << i << " has rank 0";
    ptxbench_tvm_data[i] = t->data_ptr();
    ptxbench_tvm_extent[i] = t->size(0);
    ++i;
  }
  const DLDevice d = (*tensors.begin())->device();
  ptxbench_tvm_stream = TVMFFIEnvGetStream(d.device_type, d.device_id);
  ++ptxbench_tvm_calls;
}

void run3(TensorView a, TensorView b, TensorView c) {
  record({&a, &b, &c});
}

void run9(TensorView a, TensorView b, TensorView c, TensorView d, TensorView e, TensorView f,
          TensorView g, TensorView h, TensorView i) {
  record({&a, &b, &c, &d, &e, &f, &g, &h, &i});
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(run, run3);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(run9, run9);

extern "C" TVM_FFI_DLL_EXPORT int __tvm_ffi_raw(void*, const TVMFFIAny* args, int32_t num_args,
                                                TVMFFIAny* result) {
  ptxbench_tvm_raw_count = num_args;
  for (int32_t i = 0; i < num_args && i < 16; ++i) {
    ptxbench_tvm_raw_type[i] = args[i].type_index;
    ptxbench_tvm_raw_ptr[i] = args[i].v_ptr;
  }
  result->type_index = kTVMFFIInt;  // a value that owns nothing
  result->v_int64 = 7;
  return 0;
}
