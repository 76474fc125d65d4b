# The tests of src/eval/host (included by its CMakeLists.txt). No GPU: the host process needs
# none. Fixtures are real candidates, built by nvcc the way src/compile/compiler.cc builds one.

# Candidate loading and calling, with host-only stand-ins.
add_library(ptxbench_fake_candidate SHARED fake_candidate.cc)
# A tvm-ffi stand-in linked like a tvm-ffi candidate: -ltvm_ffi, no run path.
add_library(ptxbench_fake_tvm_ffi_candidate SHARED fake_tvm_ffi_candidate.cc)
target_include_directories(ptxbench_fake_tvm_ffi_candidate SYSTEM PRIVATE ${PTXBENCH_TVM_FFI_INCLUDE})
target_link_libraries(ptxbench_fake_tvm_ffi_candidate PRIVATE ${PTXBENCH_TVM_FFI_LIBRARY})
set_target_properties(ptxbench_fake_tvm_ffi_candidate PROPERTIES SKIP_BUILD_RPATH TRUE)
ptxbench_test(host_call_test SOURCES candidate_test.cc tvm_ffi_call_test.cc
              DEPS ptxbench_host_call)
target_compile_definitions(host_call_test PRIVATE
  PTXBENCH_FAKE_CANDIDATE="$<TARGET_FILE:ptxbench_fake_candidate>"
  PTXBENCH_FAKE_TVM_FFI_CANDIDATE="$<TARGET_FILE:ptxbench_fake_tvm_ffi_candidate>"
  PTXBENCH_TVM_FFI_LIBRARY="${PTXBENCH_TVM_FFI_LIBRARY}")
add_dependencies(host_call_test ptxbench_fake_candidate ptxbench_fake_tvm_ffi_candidate)


# The shim's pure parts.
ptxbench_test(host_unit_test SOURCES launch_check_test.cc launch_check.cc shim_registry.cc
              DEPS ptxbench_eval_proto)
target_include_directories(host_unit_test SYSTEM PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
