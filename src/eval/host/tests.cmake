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

# Real candidates for ptxbench-host, built by nvcc with src/compile/compiler.cc's flags (the
# shared runtime, sm_90a, -shared -fPIC, full RELRO), -lcuda where the driver is called.
set(PTXBENCH_HOST_FIXTURE_DIR ${CMAKE_CURRENT_BINARY_DIR}/fixtures)
set(PTXBENCH_HOST_NVCC_FLAGS -std=c++17 -O2 -shared -Xcompiler -fPIC -cudart shared
    -gencode=arch=compute_90a,code=sm_90a -Xlinker -z,relro -Xlinker -z,now
    -I${PTXBENCH_TVM_FFI_INCLUDE})
set(PTXBENCH_HOST_FIXTURES)
function(ptxbench_host_fixture name)
  cmake_parse_arguments(A "" "" "FLAGS" ${ARGN})
  set(out ${PTXBENCH_HOST_FIXTURE_DIR}/${name}.so)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PTXBENCH_HOST_FIXTURE_DIR}
    COMMAND ${CMAKE_CUDA_COMPILER} ${PTXBENCH_HOST_NVCC_FLAGS} ${A_FLAGS} -o ${out}
            ${CMAKE_CURRENT_SOURCE_DIR}/testdata/${name}.cu
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/testdata/${name}.cu
    COMMENT "nvcc host fixture ${name}.so" VERBATIM)
  list(APPEND PTXBENCH_HOST_FIXTURES ${out})
  set(PTXBENCH_HOST_FIXTURES ${PTXBENCH_HOST_FIXTURES} PARENT_SCOPE)
endfunction()
ptxbench_host_fixture(launches)
ptxbench_host_fixture(memory)
ptxbench_host_fixture(tensor_map FLAGS -lcuda)
ptxbench_host_fixture(driver_queries FLAGS -lcuda)
ptxbench_host_fixture(throws)
ptxbench_host_fixture(refused_lookup)
ptxbench_host_fixture(per_thread FLAGS --default-stream per-thread)
ptxbench_host_fixture(tvm_ffi FLAGS -L${PTXBENCH_TVM_FFI_ROOT}/lib -ltvm_ffi -lcuda)
add_custom_target(ptxbench_host_fixtures DEPENDS ${PTXBENCH_HOST_FIXTURES})

# A hostile candidate (plain C++): one system call or file access the host's sandbox refuses.
add_library(ptxbench_host_hostile SHARED testdata/hostile.cc)
target_link_options(ptxbench_host_hostile PRIVATE -Wl,-z,relro -Wl,-z,now)
target_link_libraries(ptxbench_host_hostile PRIVATE ptxbench_warnings)

add_library(ptxbench_host_broker STATIC fake_broker.cc broker_fixture.cc)
target_include_directories(ptxbench_host_broker SYSTEM PUBLIC ${CUDAToolkit_INCLUDE_DIRS})
target_link_libraries(ptxbench_host_broker PUBLIC ptxbench_host_channel GTest::gtest
                      PRIVATE ptxbench_warnings)
target_compile_definitions(ptxbench_host_broker PUBLIC
  PTXBENCH_HOST="$<TARGET_FILE:ptxbench-host>"
  PTXBENCH_HOST_SHIM_DIR="${PTXBENCH_HOST_SHIM_DIR}"
  PTXBENCH_HOST_FIXTURE_DIR="${PTXBENCH_HOST_FIXTURE_DIR}"
  PTXBENCH_HOST_HOSTILE="$<TARGET_FILE:ptxbench_host_hostile>"
  PTXBENCH_TVM_FFI_LIBRARY="${PTXBENCH_TVM_FFI_LIBRARY}")

# ptxbench-host end to end against a fake broker: the frames of real candidates, and its sandbox.
ptxbench_test(host_broker_test SOURCES host_launch_test.cc host_memory_test.cc
              host_session_test.cc host_driver_test.cc DEPS ptxbench_host_broker ptxbench_compile)
ptxbench_test(host_sandbox_test SOURCES host_sandbox_test.cc DEPS ptxbench_host_broker)
foreach(t host_broker_test host_sandbox_test)
  add_dependencies(${t} ptxbench-host ptxbench_host_fixtures ptxbench_host_hostile)
endforeach()

# The shim's and the host's pure parts, and the built shims' exports.
ptxbench_test(host_unit_test SOURCES launch_check_test.cc needed_libraries_test.cc
              shim_exports_test.cc launch_check.cc shim_registry.cc needed_libraries.cc
              DEPS ptxbench_eval_proto ptxbench_compile)
target_include_directories(host_unit_test SYSTEM PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
target_compile_definitions(host_unit_test PRIVATE
  PTXBENCH_HOST_FIXTURE_DIR="${PTXBENCH_HOST_FIXTURE_DIR}"
  PTXBENCH_HOST_SHIM_DIR="${PTXBENCH_HOST_SHIM_DIR}")
add_dependencies(host_unit_test ptxbench_host_fixtures ptxbench_cudart_shim ptxbench_cuda_shim)
