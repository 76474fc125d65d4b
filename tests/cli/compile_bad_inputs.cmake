# The bad-input table of `compile` and `eval` (issue 15): one row per input a new user or a
# model may give, with the exit code (README "Exit codes") and the first line of the output,
# rows of ptxbench_bad_input (CMakeLists.txt; Ctrl-C during compile: interrupt.sh there).
set(_cli ${CMAKE_CURRENT_SOURCE_DIR})
set(_plain ${CMAKE_CURRENT_SOURCE_DIR}/../kernels/sm90_plain.cu)
set(_attn mha_with_lse_d128)

set(_c $<TARGET_FILE:ptxbench> compile)
set(_e $<TARGET_FILE:ptxbench> eval)

# The kernel file itself.
ptxbench_bad_input(compile_missing_file 2 "^ptxbench compile: cannot read .*does_not_exist.cu"
  ARGS ${_c} ${_cli}/does_not_exist.cu --task ${_t})
ptxbench_bad_input(compile_folder 2 "^ptxbench compile: cannot read .*: not a regular file \\(a folder\\)"
  ARGS ${_c} ${_cli} --task ${_t})
ptxbench_bad_input(compile_device 2 "^ptxbench compile: cannot read /dev/zero: not a regular file \\(a device or pipe\\)"
  ARGS ${_c} /dev/zero --task ${_t})
ptxbench_bad_input(compile_empty_file 11 "^compile: compile_error"
  OPTIONS --grep "no entry point: the source does not define ptxbench_launch"
  ARGS ${_c} ${_cli}/empty.cu --task ${_t})
# A multi-GiB file is sized before it is read: refused at once, within a memory limit that
# reading it whole would break.
ptxbench_bad_input(compile_huge_file 12 "^compile: policy_violation"
  SETUP huge.cu OPTIONS --max-s 10
    --grep "the source is 4294967296 bytes. a candidate may have at most 1048576 bytes"
  ARGS sh -c "ulimit -v 2000000 && exec $<TARGET_FILE:ptxbench> compile huge.cu --task ${_t}")
ptxbench_bad_input(eval_huge_file 12 "^compile: policy_violation"
  SETUP huge.cu OPTIONS --max-s 10 --grep "verdict: POLICY VIOLATION" --grep "4294967296 bytes"
  ARGS sh -c "ulimit -v 2000000 && exec $<TARGET_FILE:ptxbench> eval huge.cu --task ${_t}")
ptxbench_bad_input(compile_too_large 12 "^compile: policy_violation"
  OPTIONS --grep "source_size" --grep "at most 100 bytes"
  ARGS ${_c} ${_plain} --task ${_t} --max-source-bytes 100)

# nvcc's host compiler missing or broken is the machine's problem (exit 1, saying which), never
# the kernel's compile_error, and it leaves nothing in the cache: the same kernel compiles with a
# working one afterwards (the campaign of 2026-12-05 found compile_error cached, served to every
# later compile of that kernel).
ptxbench_bad_input(compile_no_host_compiler 1 "nvcc's host compiler `gcc` is not on PATH"
  OPTIONS --lacks "compile_error"
  ARGS sh -c "PATH=/nonexistent PTXBENCH_CACHE=$PWD/c exec $<TARGET_FILE:ptxbench> compile ${_plain} --task ${_t}")
ptxbench_bad_input(compile_broken_host_compiler_poisons_nothing 0 "host compiler .*/bin/gcc does not work"
  OPTIONS --grep "^compile: passed" --lacks "cache hit"
  ARGS sh -c "d=$(mktemp -d) && mkdir $d/bin && printf '#!/bin/sh\\nexit 1\\n' > $d/bin/gcc && chmod +x $d/bin/gcc && { PATH=$d/bin:$PATH PTXBENCH_CACHE=$d/c $<TARGET_FILE:ptxbench> compile ${_plain} --task ${_t} 2>&1; test $? = 1; } && PTXBENCH_CACHE=$d/c $<TARGET_FILE:ptxbench> compile ${_plain} --task ${_t}; c=$?; rm -rf $d; exit $c")

# The contract's entry point against the task.
ptxbench_bad_input(compile_no_entry_point 11 "^compile: compile_error"
  OPTIONS --grep "no entry point" --lacks "passed"
  ARGS ${_c} ${_cli}/no_entry_point.cu --task ${_t})
ptxbench_bad_input(compile_wrong_arity 11 "^compile: compile_error"
  OPTIONS --grep "wrong signature of ptxbench_launch \\(line 5\\): it takes 3 parameter\\(s\\)"
  ARGS ${_c} ${_cli}/wrong_arity.cu --task ${_t})
ptxbench_bad_input(compile_gemm_for_attention 11 "^compile: compile_error"
  OPTIONS --grep "5 tensors \\(Q, K, V, O, LSE\\)"
  ARGS ${_c} ${_plain} --task ${_attn})
ptxbench_bad_input(eval_gemm_for_attention 11 "^compile: compile_error"
  OPTIONS --grep "verdict: COMPILE ERROR \\(compile_error, exit 11\\)"
  ARGS ${_e} ${_plain} --task ${_attn})
ptxbench_bad_input(eval_empty_file 11 "^compile: compile_error"
  OPTIONS --grep "verdict: COMPILE ERROR" --grep "no entry point"
  ARGS ${_e} ${_cli}/empty.cu --task ${_t})

# The entry point is reported as checked only where it was: a policy violation stops first.
ptxbench_bad_input(compile_policy_entry_point_not_checked 12 "^\\{"
  OPTIONS --json --grep "\"entry_point\": \"not_checked\"" --lacks "\"entry_point\": \"ok\""
  ARGS ${_c} ${_cli}/banned_cute.cu --task ${_t} --json)

# Files of the judging machine: refused before nvcc, and their lines never shown.
ptxbench_bad_input(compile_include_passwd 12 "^compile: policy_violation"
  OPTIONS --grep "include_path" --lacks "root:"
  ARGS ${_c} ${_cli}/include_passwd.cu --task ${_t})
ptxbench_bad_input(compile_include_environ 12 "^compile: policy_violation"
  OPTIONS --grep "include_path" --lacks "PATH="
  ARGS ${_c} ${_cli}/include_environ.cu --task ${_t})
ptxbench_bad_input(eval_include_passwd 12 "^compile: policy_violation"
  OPTIONS --grep "verdict: POLICY VIOLATION" --lacks "root:"
  ARGS ${_e} ${_cli}/include_passwd.cu --task ${_t})

# Bytes that are not UTF-8 in nvcc's output: carried to the console and JSON, never an abort.
ptxbench_bad_input(compile_latin1_byte 11 "^compile: compile_error"
  OPTIONS --grep "nvcc failed"
  ARGS ${_c} ${_cli}/latin1_byte.cu --task ${_t})
ptxbench_bad_input(compile_latin1_byte_json 11 "^\\{"
  OPTIONS --json --grep "\"outcome\": \"compile_error\""
  ARGS ${_c} ${_cli}/latin1_byte.cu --task ${_t} --json)
ptxbench_bad_input(eval_latin1_byte_json 11 "^\\{"
  OPTIONS --json --grep "\"disposition\": \"compile_error\""
  ARGS ${_e} ${_cli}/latin1_byte.cu --task ${_t} --json)

# Environment variables that name a path that is not there: refused before any work, never
# passed over for another tool or header (another cuobjdump on PATH, another dlpack.h).
ptxbench_bad_input(compile_cuobjdump_missing 2
  "^ptxbench compile: PTXBENCH_CUOBJDUMP points to /nonexistent/cuobjdump, which does not exist"
  ARGS env PTXBENCH_CUOBJDUMP=/nonexistent/cuobjdump ${_c} ${_plain} --task ${_t})
ptxbench_bad_input(compile_dlpack_include_missing 2
  "^ptxbench compile: PTXBENCH_DLPACK_INCLUDE points to /nonexistent/include, which does not exist"
  ARGS env PTXBENCH_DLPACK_INCLUDE=/nonexistent/include ${_c} ${_plain} --task ${_t})
ptxbench_bad_input(eval_dlpack_include_without_header 2
  "^ptxbench eval: PTXBENCH_DLPACK_INCLUDE points to /etc, which holds no dlpack/dlpack.h"
  ARGS env PTXBENCH_DLPACK_INCLUDE=/etc ${_e} ${_plain} --task ${_t})
ptxbench_bad_input(audit_nvdisasm_missing 2 "^ptxbench audit: PTXBENCH_NVDISASM points to /nonexistent"
  ARGS env PTXBENCH_NVDISASM=/nonexistent/nvdisasm $<TARGET_FILE:ptxbench> audit ${_plain} --task ${_t})

# Options.
ptxbench_bad_input(compile_zero_source_limit 2 "--max-source-bytes"
  ARGS ${_c} ${_plain} --task ${_t} --max-source-bytes 0)
ptxbench_bad_input(compile_zero_timeout 2 "--timeout"
  ARGS ${_c} ${_plain} --task ${_t} --timeout 0)
# Campaign 7, V00h and V01h: a no-break space after the number is named, not "Value 3 not in
# range 1 to 3600".
ptxbench_bad_input(compile_timeout_no_break_space 2 "--timeout: '3.+' is not a whole number in \\[1, 3600\\]: it holds the byte 0xC2 \\(position 2\\), not a digit"
  ARGS sh -c "$<TARGET_FILE:ptxbench> compile ${_plain} --task ${_t} --timeout \"$(printf '3\\302\\240')\"")
ptxbench_bad_input(compile_max_source_bytes_no_break_space 2 "--max-source-bytes: '3.+' is not a whole number in \\[1, 1073741824\\]: it holds the byte 0xC2"
  ARGS sh -c "$<TARGET_FILE:ptxbench> compile ${_plain} --task ${_t} --max-source-bytes \"$(printf '3\\302\\240')\"")
ptxbench_bad_input(compile_no_task 2 "--task is required"
  ARGS ${_c} ${_plain})
ptxbench_bad_input(compile_unknown_task 2 "^ptxbench compile: .*no_such_task"
  ARGS ${_c} ${_plain} --task no_such_task)

# The kernel contract (docs/kernel-contract.md).
ptxbench_bad_input(compile_unknown_contract 2 "--contract: bogus not in \\{native,tvm-ffi,auto\\}"
  ARGS ${_c} ${_plain} --task ${_t} --contract bogus)

# Issue 38: one long line (a comment of 40,000 blanks, a line of blanks, a 40 KB base64 blob) or
# a source of exactly the 1 MiB maximum crashed every command that compiles (std::regex). Each
# now passes through compile, eval, audit and gate (JUnit written), and through a run whose
# model replies with it (then rejudge and show read that run).
foreach(_f long_comment long_blank base64_comment max_size)
  ptxbench_bad_input(compile_${_f} 0 "^compile: passed \\(${_t}"
    SETUP ${_f}.cu OPTIONS --max-s 240 ARGS ${_c} ${_f}.cu --task ${_t})
endforeach()
ptxbench_bad_input(eval_long_comment 0 "" SETUP long_comment.cu
  OPTIONS --max-s 240 --grep "verdict: COMPILED \\(GPU stages skipped\\)"
  ARGS ${_e} long_comment.cu --task ${_t})
ptxbench_bad_input(audit_max_size 0 "" SETUP max_size.cu
  OPTIONS --max-s 240 --grep "run-time audit not run \\(no GPU\\)"
  ARGS $<TARGET_FILE:ptxbench> audit max_size.cu --task ${_t})
ptxbench_bad_input(gate_base64_comment 17 "" SETUP base64_comment.cu
  OPTIONS --max-s 240 --creates j.xml --file-grep j.xml "<testcase"
  ARGS $<TARGET_FILE:ptxbench> gate base64_comment.cu --task ${_t} --junit j.xml)
foreach(_stream "" --stream)
  ptxbench_bad_input(run_hostile_reply${_stream} 0 "ptxbench run -> r.db"
    OPTIONS --creates r.db --creates n.db --max-s 300 --grep "rejudge -> n.db|n.db"
    ARGS ${CMAKE_CURRENT_SOURCE_DIR}/fake_endpoint.py hostile -- sh -c
      "$<TARGET_FILE:ptxbench> run --model m --base-url {URL} --tasks ${_t} --turns 1 --samples 1 --no-progress --out r.db ${_stream} && $<TARGET_FILE:ptxbench> rejudge r.db --out n.db && $<TARGET_FILE:ptxbench> show n.db")
endforeach()
# compile --timeout covers the `nvcc --version` probe: a toolkit that never answers is an error
# of the tool (exit 1) within the limit, not 30 s and a timeout blamed on the kernel.
ptxbench_bad_input(compile_version_probe_hangs 1 "nvcc_version_hang.sh --version did not answer"
  OPTIONS --max-s 10
  ARGS env PTXBENCH_NVCC=${_cli}/fake_nvcc_version_hang.sh ${_c} ${_plain} --task ${_t} --timeout 3)
# Exit 15 is produced: a model's reply judged as run judges it (eval/audit --reply) that has no
# code block is the verdict no_code (issue 38: every documented exit code can be produced).
ptxbench_bad_input(eval_reply_without_code 15 "verdict: NO CODE BLOCK" SETUP reply.md
  ARGS ${_e} reply.md --task ${_t} --reply)
ptxbench_bad_input(audit_reply_without_code_json 15 "" SETUP reply.md
  OPTIONS --json --grep "\"disposition\": \"no_code\""
  ARGS $<TARGET_FILE:ptxbench> audit reply.md --task ${_t} --reply --json)
# Campaign 5, E33: a reply whose code block is larger than --max-source-bytes is that block's
# policy violation, as in run and compile; it was cut at the limit and judged as another kernel.
ptxbench_bad_input(eval_reply_code_block_over_the_limit 12 ""
  OPTIONS --grep "source_size" --grep "at most 1000 bytes"
  ARGS sh -c "{ printf 'Here it is:\\n```cuda\\n'; cat ${_plain}; printf '```\\nDone.\\n'; } > r.md && $<TARGET_FILE:ptxbench> eval r.md --task ${_t} --reply --max-source-bytes 1000; c=$?; rm r.md; exit $c")
ptxbench_bad_input(audit_reply_code_block_over_the_limit 12 ""
  OPTIONS --grep "source_size"
  ARGS sh -c "{ printf 'Here it is:\\n```cuda\\n'; cat ${_plain}; printf '```\\nDone.\\n'; } > r.md && $<TARGET_FILE:ptxbench> audit r.md --task ${_t} --reply --max-source-bytes 1000; c=$?; rm r.md; exit $c")
# Issue 38 (N19): PTXBENCH_ASSUME_GPU=1 where no GPU can be used (none visible here, or no
# driver: the verifier cannot open a CUDA device, which names no workload) is named as the
# cause, with what to do; never "the verifier could not prepare the session's inputs".
ptxbench_bad_input(eval_assumed_gpu_unusable 1 ""
  OPTIONS --grep "^ptxbench eval: PTXBENCH_ASSUME_GPU=1 is set, but no GPU could be used \\(the verifier could not open a CUDA device: .+\\): unset PTXBENCH_ASSUME_GPU"
          --grep "^compile: passed" --lacks "could not prepare the session"
  ARGS env -u PTXBENCH_NO_GPU PTXBENCH_ASSUME_GPU=1 CUDA_VISIBLE_DEVICES=-1
       ${_e} ${_plain} --task ${_t} --no-timing)
# The compile cache is made absolute when ptxbench starts (a relative one named another folder
# from nvcc's build folder: every kernel a cached compile_error, the campaign of 2026-12-05,
# A03-A05), a leading "~/" expanded from HOME, and nvcc failing to write its own files is an
# error of the machine (exit 1), never cached as the kernel's verdict.
set(_fake_out "env PTXBENCH_NVCC=${_cli}/fake_nvcc_output.sh")
# Campaign 6, G46: a blank path variable made a cache folder named " " in the working folder.
ptxbench_bad_input(compile_blank_cache 2 "^ptxbench compile: PTXBENCH_CACHE is set to blanks only"
  ARGS env "PTXBENCH_CACHE= " ${_c} ${_plain} --task ${_t})
ptxbench_bad_input(compile_relative_cache 11 "^compile: compile_error"
  OPTIONS --grep "fake error" --lacks "Could not open"
  ARGS sh -c "${_fake_out} PTXBENCH_CACHE=rel/cache $<TARGET_FILE:ptxbench> compile ${_plain} --task ${_t}; c=$?; rm -r rel; exit $c")
ptxbench_bad_input(compile_relative_xdg_cache 11 "^compile: compile_error"
  OPTIONS --grep "fake error" --lacks "Could not open"
  ARGS sh -c "unset PTXBENCH_CACHE; ${_fake_out} XDG_CACHE_HOME=relxdg $<TARGET_FILE:ptxbench> compile ${_plain} --task ${_t}; c=$?; rm -r relxdg; exit $c")
ptxbench_bad_input(compile_tilde_cache 11 "^compile: compile_error"
  OPTIONS --grep "fake error"
  ARGS sh -c "mkdir home; HOME=$PWD/home PTXBENCH_CACHE='~/c' ${_fake_out} $<TARGET_FILE:ptxbench> compile ${_plain} --task ${_t}; c=$?; test -d home/c && ! test -e '~' || exit 9; rm -r home; exit $c")
# A compile cache that is a file (PTXBENCH_CACHE, XDG_CACHE_HOME): a file where a folder should
# be is bad input, told before nvcc runs (campaign 4, G14, G38).
ptxbench_bad_input(compile_cache_is_a_file 2 "^ptxbench compile: the compile cache .*/empty.cu \\(from PTXBENCH_CACHE\\) cannot be made: .*/empty.cu is a file, not a folder"
  ARGS env PTXBENCH_CACHE=${_cli}/empty.cu ${_c} ${_plain} --task ${_t})
ptxbench_bad_input(compile_xdg_cache_is_a_file 2 "^ptxbench compile: the compile cache .*/empty.cu/ptxbench \\(from XDG_CACHE_HOME\\) cannot be made"
  ARGS env -u PTXBENCH_CACHE XDG_CACHE_HOME=${_cli}/empty.cu ${_c} ${_plain} --task ${_t})
# nvcc out of room for its own files (a file-size limit, a full disk) is the machine's failure
# (exit 1), never cached as the kernel's compile_error: the next compile builds it again
# (campaign 4, C59). Told by a trial write of ptxbench's own, never by nvcc's words: under
# `ulimit -f`, nvcc's host compiler said "File too large" here and "Invalid argument" on CI.
ptxbench_bad_input(compile_nvcc_file_too_large 1 "cannot write nvcc's files under the compile cache .*: the disk is full or a file-size limit was reached \\(a trial write of 64 MiB there failed: File too large\\)"
  OPTIONS --lacks "cache hit|compile_error"
  ARGS sh -c "ulimit -f 400; ${_fake_out} FAKE_NVCC_FULL=1 $<TARGET_FILE:ptxbench> compile ${_plain} --task ${_t} --no-cache; ${_fake_out} FAKE_NVCC_FULL=1 $<TARGET_FILE:ptxbench> compile ${_plain} --task ${_t}")
ptxbench_bad_input(compile_nvcc_sigxfsz 1 "cannot write nvcc's files under the compile cache .*: the disk is full or a file-size limit was reached"
  OPTIONS --lacks "cache hit|compile_error"
  ARGS sh -c "ulimit -f 400; ${_fake_out} FAKE_NVCC_XFSZ=1 $<TARGET_FILE:ptxbench> compile ${_plain} --task ${_t}; ${_fake_out} FAKE_NVCC_XFSZ=1 $<TARGET_FILE:ptxbench> compile ${_plain} --task ${_t}")
# The real nvcc under ulimit -f: exit 1, and the same kernel then compiles (nothing cached).
ptxbench_bad_input(compile_file_size_limit_caches_nothing 0 "the disk is full or a file-size limit was reached"
  OPTIONS --grep "^compile: passed" --lacks "cache hit|compile_error"
  ARGS sh -c "(ulimit -f 50; $<TARGET_FILE:ptxbench> compile ${_plain} --task ${_t} --no-cache 2>&1; test $? = 1) && $<TARGET_FILE:ptxbench> compile ${_plain} --task ${_t}")
# nvcc's log saying the disk is full, or its output cannot be opened, where the machine has room
# and the folder takes files: the words are not believed (a kernel's #error can say them; the
# controls in kernels/controls/blame.toml do): the kernel's compile_error, exit 11.
ptxbench_bad_input(compile_nvcc_claims_no_room 11 "^compile: compile_error"
  OPTIONS --grep "File too large" --lacks "the disk is full"
  ARGS env PTXBENCH_NVCC=${_cli}/fake_nvcc_output.sh FAKE_NVCC_FULL=1 ${_c} ${_plain} --task ${_t} --no-cache)
ptxbench_bad_input(compile_nvcc_claims_unwritable_cache 11 "^compile: compile_error"
  OPTIONS --grep "Could not open output file" --lacks "cannot be written"
  ARGS env PTXBENCH_NVCC=${_cli}/fake_nvcc_output.sh FAKE_NVCC_UNWRITABLE=1 ${_c} ${_plain} --task ${_t} --no-cache)
