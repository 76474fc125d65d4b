# The bad-input table of `compile` and `eval` (issue 15): one row per input a new user or a
# model may give, with the exit code (README "Exit codes") and the first line of the output;
# bad_input.sh also checks that nothing is left half-made (no build folder or temporary file
# in the compile cache, no file in the working folder). Included by CMakeLists.txt.
set(_bad ${CMAKE_CURRENT_SOURCE_DIR}/bad_input.sh)
set(_cli ${CMAKE_CURRENT_SOURCE_DIR})
set(_plain ${CMAKE_CURRENT_SOURCE_DIR}/../kernels/sm90_plain.cu)
set(_attn mha_with_lse_d128)

# bad_input_case(NAME CODE FIRST_LINE [OPTIONS... --] COMMAND...): see bad_input.sh.
function(bad_input_case name code first)
  add_test(NAME bad_input_${name} COMMAND ${_bad} ${code} ${first} ${ARGN}
           WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/../..)
  set_tests_properties(bad_input_${name} PROPERTIES LABELS "cpu;cli"
    ENVIRONMENT "PTXBENCH_ROOT=${CMAKE_CURRENT_SOURCE_DIR}/../..;PTXBENCH_NO_GPU=1")
endfunction()

set(_c $<TARGET_FILE:ptxbench> compile)
set(_e $<TARGET_FILE:ptxbench> eval)

# The kernel file itself.
bad_input_case(compile_missing_file 2 "^ptxbench compile: cannot read .*does_not_exist.cu" --
  ${_c} ${_cli}/does_not_exist.cu --task ${_t})
bad_input_case(compile_folder 2 "^ptxbench compile: cannot read .*: not a regular file \\(a folder\\)" --
  ${_c} ${_cli} --task ${_t})
bad_input_case(compile_device 2 "^ptxbench compile: cannot read /dev/zero: not a regular file \\(a device or pipe\\)" --
  ${_c} /dev/zero --task ${_t})
bad_input_case(compile_empty_file 11 "^compile: compile_error" --has "no entry point: the source does not define ptxbench_launch" --
  ${_c} ${_cli}/empty.cu --task ${_t})
bad_input_case(compile_too_large 12 "^compile: policy_violation" --has "source_size" --has "at most 100 bytes" --
  ${_c} ${_plain} --task ${_t} --max-source-bytes 100)

# The contract's entry point against the task.
bad_input_case(compile_no_entry_point 11 "^compile: compile_error" --has "no entry point" --lacks "passed" --
  ${_c} ${_cli}/no_entry_point.cu --task ${_t})
bad_input_case(compile_wrong_arity 11 "^compile: compile_error" --has "wrong signature of ptxbench_launch \\(line 5\\): it takes 3 parameter\\(s\\)" --
  ${_c} ${_cli}/wrong_arity.cu --task ${_t})
bad_input_case(compile_gemm_for_attention 11 "^compile: compile_error" --has "5 tensors \\(Q, K, V, O, LSE\\)" --
  ${_c} ${_plain} --task ${_attn})
bad_input_case(eval_gemm_for_attention 11 "^compile: compile_error" --has "verdict: COMPILE ERROR \\(compile_error, exit 11\\)" --
  ${_e} ${_plain} --task ${_attn})
bad_input_case(eval_empty_file 11 "^compile: compile_error" --has "verdict: COMPILE ERROR" --has "no entry point" --
  ${_e} ${_cli}/empty.cu --task ${_t})

# Files of the judging machine: refused before nvcc, and their lines never shown.
bad_input_case(compile_include_passwd 12 "^compile: policy_violation" --has "include_path" --lacks "root:" --
  ${_c} ${_cli}/include_passwd.cu --task ${_t})
bad_input_case(compile_include_environ 12 "^compile: policy_violation" --has "include_path" --lacks "PATH=" --
  ${_c} ${_cli}/include_environ.cu --task ${_t})
bad_input_case(eval_include_passwd 12 "^compile: policy_violation" --has "verdict: POLICY VIOLATION" --lacks "root:" --
  ${_e} ${_cli}/include_passwd.cu --task ${_t})

# Bytes that are not UTF-8 in nvcc's output: carried to the console and JSON, never an abort.
bad_input_case(compile_latin1_byte 11 "^compile: compile_error" --has "nvcc failed" --
  ${_c} ${_cli}/latin1_byte.cu --task ${_t})
bad_input_case(compile_latin1_byte_json 11 "^\\{" --json --has "\"outcome\": \"compile_error\"" --
  ${_c} ${_cli}/latin1_byte.cu --task ${_t} --json)
bad_input_case(eval_latin1_byte_json 11 "^\\{" --json --has "\"disposition\": \"compile_error\"" --
  ${_e} ${_cli}/latin1_byte.cu --task ${_t} --json)

# Options.
bad_input_case(compile_zero_source_limit 2 "--max-source-bytes" --
  ${_c} ${_plain} --task ${_t} --max-source-bytes 0)
bad_input_case(compile_zero_timeout 2 "--timeout" --
  ${_c} ${_plain} --task ${_t} --timeout 0)
bad_input_case(compile_no_task 2 "--task is required" --
  ${_c} ${_plain})
bad_input_case(compile_unknown_task 2 "^ptxbench compile: .*no_such_task" --
  ${_c} ${_plain} --task no_such_task)

# Ctrl-C and SIGTERM while nvcc runs: nvcc stopped, nothing cached, 128 + the signal.
foreach(sig INT TERM)
  add_test(NAME bad_input_compile_interrupted_${sig}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/interrupt_compile.sh ${sig} $<TARGET_FILE:ptxbench>
                   ${_plain} ${_t})
  set_tests_properties(bad_input_compile_interrupted_${sig} PROPERTIES LABELS "cpu;cli" TIMEOUT 60
    ENVIRONMENT "PTXBENCH_ROOT=${CMAKE_CURRENT_SOURCE_DIR}/../..")
endforeach()
