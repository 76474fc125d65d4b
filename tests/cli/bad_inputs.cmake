# The bad-input table of every command (issue 15, the CLI side; the compile stage's own rows,
# of compile and eval: compile_bad_inputs.cmake), rows of ptxbench_bad_input (CMakeLists.txt).
set(_fake_endpoint ${CMAKE_CURRENT_SOURCE_DIR}/fake_endpoint.py)
set(_kernel ${CMAKE_CURRENT_SOURCE_DIR}/../kernels/sm90_plain.cu)
set(_gemm gemm_n7168_k5120)

set(_p $<TARGET_FILE:ptxbench>)

# The command line itself.
ptxbench_bad_input(unknown_command 2 "unknown command 'frobnicate'" ARGS ${_p} frobnicate)
ptxbench_bad_input(misspelt_command 2 "did you mean `ptxbench tasks`" ARGS ${_p} tsks)
ptxbench_bad_input(unknown_top_level_option 2 "unknown option '--bogus'" ARGS ${_p} --bogus)

# The help states the exit codes and the environment; version prints the toolchain.
ptxbench_bad_input(help_lists_exit_codes_and_environment 0 "^ptxbench: compile, check"
  OPTIONS --grep "2  bad input" --grep "130, 143  interrupted" --grep "PTXBENCH_ROOT"
          --grep "PTXBENCH_CACHE" --grep "PTXBENCH_NVCC" --grep "PTXBENCH_NO_GPU"
  ARGS ${_p} --help)
# Every command's help ends with the same exit codes and environment (a command with a
# footer of its own, such as run's, keeps them).
foreach(_cmd tasks compile eval audit prompt run show sft "sft fixit" "sft mine" version)
  string(REPLACE " " "_" _name "${_cmd}")
  separate_arguments(_words UNIX_COMMAND "${_cmd}")
  ptxbench_bad_input(${_name}_help_lists_exit_codes 0 ""
    OPTIONS --grep "2  bad input" --grep "130, 143  interrupted" --grep "PTXBENCH_NO_GPU"
    ARGS ${_p} ${_words} --help)
endforeach()
ptxbench_bad_input(run_help_keeps_its_own_text 0 "" OPTIONS --grep "embedded scripted agent replays"
  ARGS ${_p} run --help)
ptxbench_bad_input(version_prints_the_toolchain 0 "^ptxbench [0-9]" OPTIONS --grep "^nvcc: "
  --grep "^cuobjdump: " --grep "^nvdisasm: " --grep "^built with: " ARGS ${_p} version)
ptxbench_bad_input(version_unknown_option 2 "not expected: --bogus" ARGS ${_p} version --bogus)

# tasks
ptxbench_bad_input(tasks_axis_too_large 2 "axes.M: value 9223372036854775807 is larger than 2147483647"
  SETUP huge_axis/ ARGS env PTXBENCH_ROOT=huge_axis ${_p} tasks)
ptxbench_bad_input(tasks_unknown_suite 2 "unknown suite 'bogus' \\(core, extended\\)"
  ARGS ${_p} tasks --suite bogus)
ptxbench_bad_input(tasks_unknown_family 2 "unknown family 'bogus'" ARGS ${_p} tasks --family bogus)
ptxbench_bad_input(tasks_unknown_arch 2 "unknown architecture 'sm_80'" ARGS ${_p} tasks --arch sm_80)

# eval and audit (the compile stage's own rows are compile's)
ptxbench_bad_input(eval_negative_seed 2 "--seed: '-1' is not a whole number"
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --seed -1)
ptxbench_bad_input(eval_unknown_task 2 "no_such_task" ARGS ${_p} eval ${_kernel} --task no_such_task)
ptxbench_bad_input(eval_missing_kernel 2 "cannot read" ARGS ${_p} eval missing.cu --task ${_gemm})
ptxbench_bad_input(audit_unknown_workload 2 "task ${_gemm} has no workload 'bogus' \\(hint: one of"
  ARGS ${_p} audit ${_kernel} --task ${_gemm} --workload bogus)
ptxbench_bad_input(audit_negative_seed 2 "--seed: '-5' is not a whole number"
  ARGS ${_p} audit ${_kernel} --task ${_gemm} --seed -5)

# prompt
ptxbench_bad_input(prompt_speedup_nan 2 "--speedup-target nan is not a positive number"
  ARGS ${_p} prompt ${_gemm} --speedup-target nan)
ptxbench_bad_input(prompt_speedup_negative 2 "--speedup-target -1 is not a positive number"
  ARGS ${_p} prompt ${_gemm} --speedup-target -1)
ptxbench_bad_input(prompt_unknown_contract 2 "--contract: bogus not in \\{native,tvm-ffi,auto\\}"
  ARGS ${_p} prompt ${_gemm} --contract bogus)
ptxbench_bad_input(prompt_unknown_context 2 "unknown context level 'bogus'"
  ARGS ${_p} prompt ${_gemm} --context bogus)
ptxbench_bad_input(prompt_unknown_task 2 "no_such_task" ARGS ${_p} prompt no_such_task)

# run: every option is checked before a run file is made (the scratch folder stays empty:
# no runs/ folder, no half-made "running" file whose retry would say "already exists").
set(_run ${_p} run --no-progress)
set(_run1 ${_run} --tasks ${_gemm})
set(_ep --model m --base-url http://127.0.0.1:9/v1)
ptxbench_bad_input(run_unknown_context 2 "unknown context level 'bogus'"
  ARGS ${_run1} --context bogus)
ptxbench_bad_input(run_speedup_nan 2 "--speedup-target must be a positive number"
  ARGS ${_run1} --speedup-target nan)
ptxbench_bad_input(run_unknown_task 2 "unknown task 'no_such_task'" ARGS ${_run} --tasks no_such_task)
ptxbench_bad_input(run_unknown_contract 2 "--contract: bogus not in \\{native,tvm-ffi,auto\\}"
  ARGS ${_run} --contract bogus)
ptxbench_bad_input(run_unknown_arch 2 "unknown architecture 'sm_80'" ARGS ${_run1} --arch sm_80)
ptxbench_bad_input(run_zero_turns 2 "--turns 0 is out of range" ARGS ${_run1} --turns 0)
ptxbench_bad_input(run_bad_fast_p 2 "--fast-p: 'x' is not a number" ARGS ${_run1} --fast-p 0.5,x)
ptxbench_bad_input(run_fast_p_nan 2 "--fast-p thresholds must be positive" ARGS ${_run1} --fast-p nan)
ptxbench_bad_input(run_base_url_without_model 2 "--base-url need.* --model"
  ARGS ${_run1} --base-url http://127.0.0.1:9/v1)
ptxbench_bad_input(run_temperature_without_model 2 "--temperature needs --model"
  ARGS ${_run1} --temperature 0.2)
ptxbench_bad_input(run_stream_without_model 2 "--stream needs --model" ARGS ${_run1} --stream)
ptxbench_bad_input(run_zero_stall_timeout 2 "--stall-timeout must be a number of seconds"
  ARGS ${_run1} ${_ep} --stall-timeout 0)
ptxbench_bad_input(run_model_without_base_url 2 "--model needs --base-url" ARGS ${_run1} --model m)
ptxbench_bad_input(run_url_without_scheme 2 "--base-url '127.0.0.1:8000/v1' does not start with http"
  ARGS ${_run1} --model m --base-url 127.0.0.1:8000/v1)
ptxbench_bad_input(run_url_without_host 2 "--base-url 'http:///v1' names no host"
  ARGS ${_run1} --model m --base-url http:///v1)
ptxbench_bad_input(run_unset_key_variable 2 "environment variable PTXB_NEVER_SET_KEY \\(the API key\\) is not set"
  ARGS ${_run1} ${_ep} --api-key-env PTXB_NEVER_SET_KEY)
ptxbench_bad_input(run_negative_temperature 2 "--temperature must be a number >= 0"
  ARGS ${_run1} ${_ep} --temperature -1)
ptxbench_bad_input(run_nan_temperature 2 "--temperature must be a number >= 0"
  ARGS ${_run1} ${_ep} --temperature nan)
ptxbench_bad_input(run_zero_attempts 2 "--attempts must be at least 1" ARGS ${_run1} ${_ep} --attempts 0)
ptxbench_bad_input(run_scripted_version_with_model 2 "--scripted-version is for the scripted agent"
  ARGS ${_run1} ${_ep} --scripted-version v1)
ptxbench_bad_input(run_unknown_scripted_version 2 "nothing to run.*trajectories/v999/"
  ARGS ${_run1} --scripted-version v999)
ptxbench_bad_input(run_out_is_a_folder 2 "--out d is a folder. it names the run file to create \\(e.g. --out d/run.db\\)"
  SETUP d/ ARGS ${_run1} --out d)
ptxbench_bad_input(run_out_is_another_file 2 "x.db already exists and is not a run file"
  SETUP x.db ARGS ${_run1} --out x.db)
ptxbench_bad_input(run_resume_with_other_options 2 "--resume continues a run with the settings stored in it. --turns would be ignored"
  SETUP foreign.db ARGS ${_p} run --resume foreign.db --turns 2)
ptxbench_bad_input(run_resume_foreign_file 2 "foreign.db is not a ptxbench run database"
  SETUP foreign.db ARGS ${_p} run --resume foreign.db)
ptxbench_bad_input(run_resume_foreign_wal_file 2 "wal.db is not a ptxbench run database"
  SETUP wal.db ARGS ${_p} run --resume wal.db)
ptxbench_bad_input(run_resume_empty_file 2 "empty.db is not an SQLite database \\(it is empty\\)"
  SETUP empty.db ARGS ${_p} run --resume empty.db)
ptxbench_bad_input(run_resume_missing_file 2 "gone.db does not exist" ARGS ${_p} run --resume gone.db)
ptxbench_bad_input(run_ncu_missing 2 "^ptxbench run: PTXBENCH_NCU points to /nonexistent/ncu"
  ARGS env PTXBENCH_NCU=/nonexistent/ncu ${_run1})

# Endpoints (a local stand-in, tests/cli/fake_endpoint.py): a dead one fails in seconds with
# the options that would change that; one that accepts and never answers says so while it
# waits; the summary counts the trajectory as failed, not as a 0 score.
ptxbench_bad_input(run_dead_endpoint 1 "ptxbench run -> r.db"
  OPTIONS --creates r.db --max-s 20 --grep "failed after [0-9]+ attempts in [0-9.]+ s"
          --grep "--attempts and --retry-max-s" --grep "1 of 1 trajectory failed \\(not scored\\)"
          --grep "failed: trajectories that ended without a score"
  ARGS ${_fake_endpoint} dead -- ${_run1} --model m --base-url {URL} --turns 1 --out r.db)
ptxbench_bad_input(run_silent_endpoint 1 "ptxbench run -> r.db"
  OPTIONS --creates r.db --max-s 30 --grep "no reply yet after [0-9]+ s"
          --grep "did not answer in time. raise --request-timeout"
  ARGS ${_fake_endpoint} silent -- ${_run1} --model m --base-url {URL} --turns 1 --out r.db
       --request-timeout 4 --attempts 1)
# A streamed reply that stops arriving ends the attempt after --stall-timeout: an endpoint
# failure recorded in the run, not a hang.
ptxbench_bad_input(run_stalled_stream 1 "ptxbench run -> r.db"
  OPTIONS --creates r.db --max-s 30 --grep "the reply stopped arriving \\(no byte for 2.0 s\\)"
          --grep "1 of 1 trajectory failed \\(not scored\\)"
  ARGS ${_fake_endpoint} stall -- ${_run1} --model m --base-url {URL} --turns 1 --out r.db
       --stream --stall-timeout 2 --attempts 1)
# show tells what happened: a run whose trajectories all failed is finished (done), its
# compile rate unknown (null), not 0.0; a run where no turn compiled (the scripted agent's
# turn 1 is a compile error) did not reach the GPU stages, it did not "run" them.
ptxbench_bad_input(show_run_whose_trajectories_failed 0 "^\\{"
  OPTIONS --creates r.db --json --max-s 30 --grep "\"status\": \"done\""
          --grep "\"compile_rate\": null" --grep "\"failed\": 1" --lacks "\"compile_rate\": 0.0"
  ARGS sh -c "(${_fake_endpoint} dead -- ${_p} run --no-progress --tasks ${_gemm} --model m --base-url {URL} --turns 1 --out r.db >/dev/null 2>&1 || true) && ${_p} show r.db --json")
ptxbench_bad_input(show_run_where_nothing_compiled 0 "^\\{"
  OPTIONS --creates r.db --json --max-s 90 --grep "\"gpu_stages\": \"not_reached\""
          --lacks "\"gpu_stages\": \"run\"" --grep "\"compile_rate\": 0.0"
  ARGS sh -c "${_p} run --no-progress --tasks ${_gemm} --turns 1 --out r.db >/dev/null 2>&1 && ${_p} show r.db --json")
# sft mine with a dead teacher: the seeds come from a one-turn scripted run (its turn 1 is
# a compile error); every teacher trajectory fails, and mine says how many and exits 1.
ptxbench_bad_input(sft_mine_dead_teacher 1 ""
  OPTIONS --creates seed.db --creates mine.db --max-s 90
          --grep "1 seed\\(s\\): 0 run now, 1 failed" --grep "error: 1 of 1 teacher trajectories failed"
  ARGS sh -c "${_p} run --tasks ${_gemm} --turns 1 --out seed.db --no-progress >/dev/null 2>&1 && ${_fake_endpoint} dead -- ${_p} sft mine seed.db --model m --base-url {URL} --out mine.db")

# NaN is not a number of seconds.
ptxbench_bad_input(eval_sample_budget_nan 2 "--sample-budget: 'nan' is not a number in"
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --sample-budget nan)
ptxbench_bad_input(eval_sustained_load_negative 2 "--sustained-load-ms: '-1' is not a number in .0, 10000."
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --sustained-load-ms -1)
ptxbench_bad_input(eval_library_plan_bogus 2 "--library-plan: bogus not in {fastest,heuristic}"
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --library-plan bogus)
ptxbench_bad_input(eval_call_timeout_nan 2 "--call-timeout: 'nan' is not a number in"
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --call-timeout nan)
# A held-out task that does not exist, a context level that does not exist next to --levels.
ptxbench_bad_input(sft_unknown_subcommand 2 "ptxbench sft: unknown subcommand 'bogus' .one of: "
  ARGS ${_p} sft bogus R.db --out x)
ptxbench_bad_input(sft_unknown_heldout_task 2 "error: --heldout-task: unknown task 'bogus'"
  SETUP foreign.db ARGS ${_p} sft fixit foreign.db --out out --heldout-task bogus)
ptxbench_bad_input(prompt_levels_unknown_context 2 "unknown context level 'bogus'"
  ARGS ${_p} prompt --levels --context bogus)
# sft never overwrites an earlier export.
ptxbench_bad_input(sft_fixit_over_an_export 2 "error: --out out already holds an export"
  SETUP out/ OPTIONS --creates seed.db --creates out/manifest.json --max-s 90
  ARGS sh -c "${_p} run --tasks ${_gemm} --turns 1 --out seed.db --no-progress >/dev/null 2>&1 && echo '{}' > out/manifest.json && ${_p} sft fixit seed.db --out out")
# sft mine never writes into a store it reads.
ptxbench_bad_input(sft_mine_out_is_an_input 2 "error: --out ./seed.db is one of the run stores"
  OPTIONS --creates seed.db --max-s 90
  ARGS sh -c "${_p} run --tasks ${_gemm} --turns 1 --out seed.db --no-progress >/dev/null 2>&1 && ${_p} sft mine seed.db --model m --base-url http://127.0.0.1:9/v1 --out ./seed.db")
# A task or architecture named twice runs once (it used to break the run's bookkeeping).
ptxbench_bad_input(run_task_named_twice 0 "ptxbench run -> r.db"
  OPTIONS --creates r.db --grep "tasks: ${_gemm}. arch: sm_90a. " --lacks "failed"
  ARGS ${_p} run --tasks ${_gemm},${_gemm} --arch sm_90a,sm_90a --turns 1 --out r.db --no-progress)
# What the user typed is echoed escaped: no control byte reaches the terminal.
ptxbench_bad_input(control_bytes_are_escaped 2 "unknown task 'x.x1b.2Jy'"
  ARGS sh -c "${_p} run --no-progress --tasks \"$(printf 'x\\033[2Jy')\"")

# show, sft: run files are opened read-only; a foreign or damaged file is never changed
# (no growth, no switch to WAL, no side files).
ptxbench_bad_input(show_empty_file 2 "empty.db is not an SQLite database \\(it is empty\\)"
  SETUP empty.db ARGS ${_p} show empty.db)
ptxbench_bad_input(show_foreign_file 2 "foreign.db is not a ptxbench run database"
  SETUP foreign.db ARGS ${_p} show foreign.db)
ptxbench_bad_input(show_foreign_wal_file 2 "wal.db is not a ptxbench run database"
  SETUP wal.db ARGS ${_p} show wal.db)
ptxbench_bad_input(show_killed_programs_wal_file 2 "killed.db is not a ptxbench run database"
  SETUP killed.db ARGS ${_p} show killed.db)
ptxbench_bad_input(run_resume_killed_programs_wal_file 2 "killed.db is not a ptxbench run database"
  SETUP killed.db ARGS ${_p} run --resume killed.db)
ptxbench_bad_input(sft_coverage_killed_programs_wal_file 2 "killed.db is not a ptxbench run database"
  SETUP killed.db ARGS ${_p} sft coverage killed.db)
ptxbench_bad_input(show_missing_file 2 "gone.db does not exist" ARGS ${_p} show gone.db)
ptxbench_bad_input(show_folder 2 "d is not a file" SETUP d/ ARGS ${_p} show d)
ptxbench_bad_input(sft_fixit_foreign_file 2 "foreign.db is not a ptxbench run database"
  SETUP foreign.db ARGS ${_p} sft fixit foreign.db --out out)
ptxbench_bad_input(sft_fixit_empty_file 2 "empty.db is not an SQLite database"
  SETUP empty.db ARGS ${_p} sft fixit empty.db --out out)
ptxbench_bad_input(sft_fixit_out_is_a_file 2 "--out f.txt is a file"
  SETUP foreign.db f.txt ARGS ${_p} sft fixit foreign.db --out f.txt)
ptxbench_bad_input(sft_fixit_same_store_twice 2 "error: foreign.db is given twice"
  SETUP foreign.db ARGS ${_p} sft fixit foreign.db foreign.db --out out)
ptxbench_bad_input(sft_coverage_same_store_by_two_names 2 "error: foreign.db and ./foreign.db are the same file"
  SETUP foreign.db ARGS ${_p} sft coverage foreign.db ./foreign.db)
ptxbench_bad_input(sft_kernelgen_has_no_pairing 2 "not expected: --pairing=all"
  SETUP foreign.db ARGS ${_p} sft kernelgen foreign.db --out out --pairing=all)
ptxbench_bad_input(sft_coverage_foreign_wal_file 2 "wal.db is not a ptxbench run database"
  SETUP wal.db ARGS ${_p} sft coverage wal.db)
ptxbench_bad_input(sft_mine_foreign_file 2 "foreign.db is not a ptxbench run database"
  SETUP foreign.db ARGS ${_p} sft mine foreign.db --model m --base-url http://127.0.0.1:9/v1 --out m.db)
ptxbench_bad_input(sft_negative_seed 2 "--seed: '-1' is not a whole number"
  SETUP foreign.db ARGS ${_p} sft coverage foreign.db --seed -1)
