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
  OPTIONS --grep "2  bad input" --grep "130, 143, 129  interrupted" --grep "PTXBENCH_ROOT"
          --grep "PTXBENCH_CACHE" --grep "PTXBENCH_NVCC" --grep "PTXBENCH_NO_GPU"
  ARGS ${_p} --help)
# Every command's help ends with the same exit codes and environment (a command with a
# footer of its own, such as run's, keeps them).
foreach(_cmd tasks compile eval audit prompt run show rejudge report gate serve "serve lb-config" sft "sft fixit"
    "sft mine" merge slurm "slurm script" "slurm submit" version import-fib export-fib)
  string(REPLACE " " "_" _name "${_cmd}")
  separate_arguments(_words UNIX_COMMAND "${_cmd}")
  ptxbench_bad_input(${_name}_help_lists_exit_codes 0 ""
    OPTIONS --grep "2  bad input" --grep "130, 143, 129  interrupted" --grep "PTXBENCH_NO_GPU"
    ARGS ${_p} ${_words} --help)
endforeach()
ptxbench_bad_input(run_help_keeps_its_own_text 0 "" OPTIONS --grep "embedded scripted agent replays"
  ARGS ${_p} run --help)
ptxbench_bad_input(version_prints_the_toolchain 0 "^ptxbench [0-9]" OPTIONS --grep "^nvcc: "
  --grep "^cuobjdump: " --grep "^nvdisasm: " --grep "^built with: " ARGS ${_p} version)
ptxbench_bad_input(version_unknown_option 2
  "^ptxbench: unknown option --bogus for version \\(`ptxbench version --help` lists its options\\)$"
  ARGS ${_p} version --bogus)

# tasks
ptxbench_bad_input(tasks_axis_too_large 2 "axes.M: value 9223372036854775807 is larger than 2147483647"
  SETUP huge_axis/ ARGS env PTXBENCH_ROOT=huge_axis ${_p} tasks)
ptxbench_bad_input(tasks_listed_hidden_workload 2 "a task file lists no hidden workload: each session draws its own"
  SETUP hidden_listed/ ARGS env PTXBENCH_ROOT=hidden_listed ${_p} tasks)
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
ptxbench_bad_input(eval_negative_input_seed 2 "--input-seed: '-1' is not a whole number"
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --input-seed -1)
# A reply or kernel saved as UTF-16 (with or without its byte-order mark) is named so, never
# "has no code block" (campaign 3b: E12).
foreach(_bom "" "_with_bom")
  ptxbench_bad_input(eval_reply_utf16${_bom} 2 "^ptxbench eval: r.md is UTF-16 LE text, not UTF-8 \\(save it as UTF-8"
    OPTIONS --creates r.md
    ARGS sh -c "{ printf 'Code:\\n```cuda\\n'; cat ${_kernel}; printf '```\\n'; } | iconv -f utf-8 -t utf-16le > r.md && if [ -n '${_bom}' ]; then { printf '\\377\\376'; cat r.md; } > r2 && mv r2 r.md; fi && ${_p} eval r.md --task ${_gemm} --reply")
endforeach()
ptxbench_bad_input(audit_negative_seed 2 "--seed: '-5' is not a whole number"
  ARGS ${_p} audit ${_kernel} --task ${_gemm} --seed -5)

# prompt
# Campaign 7, X05: `prompt --levels --json extra` printed the text table, ignoring both.
ptxbench_bad_input(prompt_levels_with_a_task 2 "^ptxbench prompt: --levels lists the context levels and takes no task \\('extra'\\)"
  ARGS ${_p} prompt --levels --json extra)
ptxbench_bad_input(prompt_levels_json 0 "^\\{"
  OPTIONS --grep "\"context_version\"" --grep "\"name\": \"reference\""
  ARGS ${_p} prompt --levels --json)
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
# Campaign 7, X73: a suite inside a list is named as such, with a hint that does not offer it again.
ptxbench_bad_input(run_suite_in_a_list 2 "'core' is a suite, and a suite is --tasks' whole value, never one item of a list \\('core,extended,all'\\)"
  OPTIONS --grep "pass --tasks core alone" --lacks "or pass core, extended, all"
  ARGS ${_run} --tasks core,extended,all)
ptxbench_bad_input(run_unknown_contract 2 "--contract: bogus not in \\{native,tvm-ffi,auto\\}"
  ARGS ${_run} --contract bogus)
ptxbench_bad_input(run_unknown_arch 2 "unknown architecture 'sm_80'" ARGS ${_run1} --arch sm_80)
ptxbench_bad_input(run_zero_turns 2 "--turns 0 is out of range" ARGS ${_run1} --turns 0)
# Issue 38: bounds on every count option (a million samples wrote a 116 MB plan first).
ptxbench_bad_input(run_samples_too_many 2 "--samples 1000000 is out of range"
  ARGS ${_run1} --samples 1000000)
ptxbench_bad_input(run_samples_overflow 2 "samples" ARGS ${_run1} --samples 99999999999)
ptxbench_bad_input(run_concurrency_too_many 2 "--concurrency 100000 is out of range"
  ARGS ${_run1} --concurrency 100000)
ptxbench_bad_input(run_cpu_jobs_too_many 2 "--cpu-jobs 5000 is out of range" ARGS ${_run1} --cpu-jobs 5000)
ptxbench_bad_input(run_gpus_too_many 2 "--gpus 1000 is out of range" ARGS ${_run1} --gpus 1000)
ptxbench_bad_input(run_attempts_too_many 2 "--attempts 1000 is out of range"
  ARGS ${_run1} ${_ep} --attempts 1000)
ptxbench_bad_input(run_max_tokens_too_many 2 "--max-tokens 2000000000 is out of range"
  ARGS ${_run1} ${_ep} --max-tokens 2000000000)
# Campaign 5, R02: the sampling options are bounded as sft mine bounds them.
ptxbench_bad_input(run_temperature_huge 2 "--temperature must be a number in 0..10"
  ARGS ${_run1} ${_ep} --temperature 1e308)
ptxbench_bad_input(run_top_p_zero 2 "--top-p must be in \\(0, 1\\]" ARGS ${_run1} ${_ep} --top-p 0)
ptxbench_bad_input(run_plan_too_large 2 "the plan has [0-9]+ trajectories .*, more than 20000"
  ARGS ${_run} --tasks all --samples 1000)
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
# Issue 38: parsed whole before a run file exists (a port past 65535, an unclosed IPv6 bracket).
ptxbench_bad_input(run_url_port_out_of_range 2 "--base-url 'http://127.0.0.1:99999/v1' has port 99999, outside 1..65535"
  ARGS ${_run1} --model m --base-url http://127.0.0.1:99999/v1)
ptxbench_bad_input(run_url_unclosed_ipv6 2 "--base-url 'http://\\[::1/v1' opens an IPv6 address with \\[ and never closes it"
  ARGS ${_run1} --model m --base-url http://[::1/v1)
# A query or fragment would take the appended /chat/completions (campaign 4, R36, R37, N20).
ptxbench_bad_input(run_url_with_query 2 "--base-url 'http://127.0.0.1:8000/v1\\?x=1' has a query"
  OPTIONS --grep "ptxbench appends /chat/completions" ARGS ${_run1} --model m --base-url http://127.0.0.1:8000/v1?x=1)
ptxbench_bad_input(run_url_with_fragment 2 "--base-url 'http://127.0.0.1:8000/v1#frag' has a fragment"
  ARGS ${_run1} --model m --base-url "http://127.0.0.1:8000/v1#frag" --out r.db)
ptxbench_bad_input(sft_mine_url_with_query 2 "--base-url 'http://127.0.0.1:8000/v1\\?x=1' has a query"
  ARGS ${_p} sft mine ${CMAKE_CURRENT_SOURCE_DIR}/../report/recorded/h200-2026-11-30-main.db --model m --base-url http://127.0.0.1:8000/v1?x=1 --out m.db)
ptxbench_bad_input(run_unset_key_variable 2 "environment variable PTXB_NEVER_SET_KEY \\(the API key\\) is not set"
  ARGS ${_run1} ${_ep} --api-key-env PTXB_NEVER_SET_KEY)
ptxbench_bad_input(run_negative_temperature 2 "--temperature must be a number in 0..10"
  ARGS ${_run1} ${_ep} --temperature -1)
ptxbench_bad_input(run_nan_temperature 2 "--temperature must be a number in 0..10"
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
# Issue 38: a server that sends an event stream's headers and then nothing is a stall too, and
# the hint names --stall-timeout.
ptxbench_bad_input(run_stream_headers_then_nothing 1 "ptxbench run -> r.db"
  OPTIONS --creates r.db --max-s 30 --grep "the reply stopped arriving \\(no byte for 2.0 s\\)"
          --grep "raise --stall-timeout" --lacks "raise --request-timeout"
  ARGS ${_fake_endpoint} headers -- ${_run1} --model m --base-url {URL} --turns 1 --out r.db
       --stream --stall-timeout 2 --attempts 1)
# Campaign 6, P34: an impossible Content-Length is named at once, not waited on for 60 s.
ptxbench_bad_input(run_impossible_content_length 1 "ptxbench run -> r.db"
  OPTIONS --creates r.db --max-s 30
          --grep "Content-Length 99999999999999999999, not a size a reply can have"
  ARGS ${_fake_endpoint} bigclen -- ${_run1} --model m --base-url {URL} --turns 1 --out r.db
       --attempts 1)
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
# sft mine's own store (its config holds its default --speedup-target 0, "stop at the first
# correct, executing turn") is read back by show and sft fixit and resumed by a second mine; a
# negative target is still damage (campaign 4, N06, N12).
ptxbench_bad_input(sft_mine_store_reads_back 0 ""
  OPTIONS --creates seed.db --creates mine.db --max-s 90
          --grep "^run mine.db \\(created .*, done\\)"
          --grep "^TOTAL" --grep "error: 1 of 1 teacher trajectories failed" --lacks "damaged"
  ARGS sh -c "${_p} run --tasks ${_gemm} --turns 1 --out seed.db --no-progress >/dev/null 2>&1 && { ${_fake_endpoint} dead -- ${_p} sft mine seed.db --model m --base-url {URL} --out mine.db --attempts 1 >/dev/null 2>&1; test $? = 1; } && { ${_fake_endpoint} dead -- ${_p} sft mine seed.db --model m --base-url {URL} --out mine.db --attempts 1 2>&1; test $? = 1; } && ${_p} sft fixit mine.db --out fx && rm -r fx && ${_p} show mine.db")
ptxbench_bad_input(show_negative_speedup_target 2
  "^ptxbench show: r.db: the stored configuration's speedup_target is not a number of at least 0: "
  OPTIONS --creates r.db --max-s 90
  ARGS sh -c "${_p} run --tasks ${_gemm} --turns 1 --out r.db --no-progress >/dev/null 2>&1 && sqlite3 r.db \"UPDATE runs SET config_json = json_set(config_json, '$.speedup_target', -1)\" && ${_p} show r.db")

# NaN is not a number of seconds.
ptxbench_bad_input(eval_sample_budget_nan 2 "--sample-budget: 'nan' is not a number in"
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --sample-budget nan)
ptxbench_bad_input(eval_sustained_load_negative 2 "--sustained-load-ms: '-1' is not a number in .0, 10000."
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --sustained-load-ms -1)
ptxbench_bad_input(eval_library_plan_bogus 2 "--library-plan: bogus not in {fastest,heuristic}"
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --library-plan bogus)
ptxbench_bad_input(eval_call_timeout_nan 2 "--call-timeout: 'nan' is not a number in"
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --call-timeout nan)
# The timeline is part of the JSON report only.
ptxbench_bad_input(eval_timeline_without_json 2 "--timeline requires --json"
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --timeline)
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
# Issue 38: a folder that holds files (an export cut short before its manifest) is written over
# only with --force; coverage writes its report to --out.
ptxbench_bad_input(sft_fixit_into_a_folder_with_files 2 "error: --out out is not empty \\(it holds train.jsonl\\)"
  SETUP out/ OPTIONS --creates seed.db --creates out/train.jsonl --max-s 90
  ARGS sh -c "${_p} run --tasks ${_gemm} --turns 1 --out seed.db --no-progress >/dev/null 2>&1 && echo x > out/train.jsonl && ${_p} sft fixit seed.db --out out")
ptxbench_bad_input(sft_fixit_force_writes_over 0 ""
  SETUP out/ OPTIONS --creates seed.db --max-s 90 --grep "wrote 0 train"
  ARGS sh -c "${_p} run --tasks ${_gemm} --turns 1 --out seed.db --no-progress >/dev/null 2>&1 && echo '{}' > out/manifest.json && ${_p} sft fixit seed.db --out out --force && rm out/*")
ptxbench_bad_input(sft_coverage_to_a_file 0 "" OPTIONS --creates seed.db --creates cov.txt --max-s 90
  --grep "wrote the coverage report to cov.txt"
  ARGS sh -c "${_p} run --tasks ${_gemm} --turns 1 --out seed.db --no-progress >/dev/null 2>&1 && ${_p} sft coverage seed.db --out cov.txt")
ptxbench_bad_input(sft_coverage_out_exists 2 "error: --out cov.txt already exists"
  SETUP foreign.db cov.txt ARGS ${_p} sft coverage foreign.db --out cov.txt)
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
# show: prices are finite numbers >= 0 and go with one run; two runs, or one and --compare,
# are compared, each opened read-only.
ptxbench_bad_input(show_negative_price 2 "--price-in: '-1' is not a number in .0, 1000000000."
  SETUP foreign.db ARGS ${_p} show foreign.db --price-in -1)
ptxbench_bad_input(show_nan_price 2 "--price-out: 'nan' is not a number in"
  SETUP foreign.db ARGS ${_p} show foreign.db --price-out nan)
ptxbench_bad_input(show_prices_with_a_comparison 2 "--price-in/--price-out go with one run, not a comparison"
  SETUP foreign.db ARGS ${_p} show foreign.db foreign.db --price-in 1)
ptxbench_bad_input(show_compare_and_two_runs 2 "--compare with two runs"
  SETUP foreign.db ARGS ${_p} show foreign.db foreign.db --compare foreign.db)
ptxbench_bad_input(show_three_runs 2 "RUN: At Most 2 required but received 3"
  SETUP foreign.db ARGS ${_p} show foreign.db foreign.db foreign.db)
ptxbench_bad_input(show_compare_foreign_file 2 "foreign.db is not a ptxbench run database"
  SETUP foreign.db ARGS ${_p} show foreign.db --compare foreign.db)
ptxbench_bad_input(show_compare_missing_file 2 "gone.db does not exist"
  SETUP foreign.db ARGS ${_p} show foreign.db --compare gone.db)
# rejudge: the run is read-only; --out names a new file, which appears whole or not at all
# (--creates: nothing else is left, no temporary folder).
ptxbench_bad_input(rejudge_missing_file 2 "gone.db does not exist"
  ARGS ${_p} rejudge gone.db --out new.db)
ptxbench_bad_input(rejudge_foreign_file 2 "foreign.db is not a ptxbench run database"
  SETUP foreign.db ARGS ${_p} rejudge foreign.db --out new.db)
ptxbench_bad_input(rejudge_empty_file 2 "empty.db is not an SQLite database"
  SETUP empty.db ARGS ${_p} rejudge empty.db --out new.db)
# An output in a place that takes no files, a dangling link as an output, an input's SQLite
# companion as an output: bad input, naming the output (campaign 4: H04, H17, J01, X35, X36).
ptxbench_bad_input(report_html_dangling_link 2 "^ptxbench report: --html dl.html is a dangling symbolic link \\(to nowhere.html\\)"
  SETUP finished.db OPTIONS --grep "pass --force"
  ARGS sh -c "ln -s nowhere.html dl.html; ${_p} report finished.db --html dl.html; c=$?; rm dl.html; test -e nowhere.html && exit 9; exit $c")
ptxbench_bad_input(report_html_in_proc 2 "^ptxbench report: cannot write /proc/o.html: .* \\(its folder /proc is not writable\\)"
  SETUP finished.db OPTIONS --lacks "tmp" ARGS ${_p} report finished.db --html /proc/o.html)
ptxbench_bad_input(rejudge_out_in_proc 2 "^ptxbench rejudge: cannot write --out /proc/n.db"
  SETUP finished.db ARGS ${_p} rejudge finished.db --out /proc/n.db)
ptxbench_bad_input(rejudge_out_is_input_shm 2 "^ptxbench rejudge: --out finished.db-shm is the SQLite companion file of the input finished.db"
  SETUP finished.db ARGS ${_p} rejudge finished.db --out finished.db-shm)
ptxbench_bad_input(merge_out_is_input_wal 2 "^ptxbench merge: --out finished.db-wal is the SQLite companion file of the input finished.db"
  SETUP finished.db ARGS ${_p} merge finished.db --out finished.db-wal)
# Issue 38: a run that is not finished (killed, or still being written) is refused, or with
# --allow-partial rejudged into a run that says it is partial.
set(_unfinished "${_p} run --tasks ${_gemm} --turns 1 --out r.db --no-progress >/dev/null 2>&1 && sqlite3 r.db \"UPDATE runs SET status = 'running'\"")
ptxbench_bad_input(rejudge_unfinished_run 2 "r.db is not a finished run \\(its status is 'running'"
  OPTIONS --creates r.db --max-s 90 ARGS sh -c "${_unfinished} && ${_p} rejudge r.db --out n.db")
ptxbench_bad_input(rejudge_unfinished_run_allowed 0 "" OPTIONS --creates r.db --creates n.db --max-s 120
  --grep "note: r.db was not finished .status 'running'.: n.db holds only the turns it had"
  ARGS sh -c "${_unfinished} && ${_p} rejudge r.db --out n.db --allow-partial && sqlite3 n.db \"SELECT provenance_json FROM runs\" | grep -q '\"partial\":true'")
ptxbench_bad_input(rejudge_without_out 2 "--out is required"
  SETUP foreign.db ARGS ${_p} rejudge foreign.db)
set(_run_r "${_p} run --tasks ${_gemm} --turns 1 --out r.db --no-progress >/dev/null 2>&1")
ptxbench_bad_input(rejudge_out_exists 2 "x.db already exists"
  SETUP x.db OPTIONS --creates r.db --max-s 90
  ARGS sh -c "${_run_r} && ${_p} rejudge r.db --out x.db")
ptxbench_bad_input(rejudge_out_is_the_run 2 "--out ./r.db is the run being rejudged"
  OPTIONS --creates r.db --max-s 90
  ARGS sh -c "${_run_r} && ${_p} rejudge r.db --out ./r.db")
ptxbench_bad_input(rejudge_out_is_a_folder 2 "--out d is a folder"
  SETUP d/ OPTIONS --creates r.db --max-s 90
  ARGS sh -c "${_run_r} && ${_p} rejudge r.db --out d")
# The scripted main job's run (2 turns: a compile error, a wrong result) rejudged without a
# GPU: the no-GPU path, said so; the same categories; the new file shows, compares with the
# old and names it in its provenance. The run's cost: nvcc's CPU seconds measured (the
# rejudge's compiles hit the cache: none).
ptxbench_bad_input(rejudge_without_a_gpu 0 "ptxbench rejudge r.db -> new.db"
  OPTIONS --creates r.db --creates new.db --max-s 300
          --grep "no GPU here: the candidates are compiled and statically audited only"
          --grep "on a GPU machine"
          --grep "1 trajectories, 2 turns, 2 candidates judged again, 0 changed category"
          --grep "turns: 2 in both \\(2 same category, 0 changed\\)"
          --grep "compile_error +1 +1"
          --grep "^after: +new.db"
          --grep "\"rejudge_of\""
          --grep "gemm_n7168_k5120 sm_90a: 2 turns. tokens 0 prompt \\+ 0 completion \\(0 reasoning\\), \\$0.0000. requests [0-9.]+ s. compile (0\\.[1-9]|[1-9][0-9]*\\.[0-9]) CPU-s. GPU 0.0 s. per correct kernel: not known without a GPU"
          --grep "gemm_n7168_k5120 sm_90a: 2 turns. .* compile 0.0 CPU-s"
          --grep "^    turn 2: not_evaluated. tokens 0 \\+ 0 \\(0 reasoning\\), request [0-9.]+ s, nvcc 0.0 CPU-s, GPU 0.0 s"
  ARGS sh -c "PTXBENCH_NO_GPU=1 ${_p} run --tasks ${_gemm} --turns 2 --out r.db --no-progress >/dev/null 2>&1 && PTXBENCH_NO_GPU=1 ${_p} rejudge r.db --out new.db && ${_p} show new.db --compare r.db && ${_p} show new.db --json | grep rejudge_of && ${_p} show r.db --price-in 1 --price-out 2 && ${_p} show new.db --turns")
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
ptxbench_bad_input(sft_kernelgen_has_no_pairing 2
  "^ptxbench: unknown option --pairing for sft kernelgen \\(`ptxbench sft kernelgen --help` lists its options\\)$"
  SETUP foreign.db ARGS ${_p} sft kernelgen foreign.db --out out --pairing=all)
# Issue 38 (K01, K02): an option the command does not have is named as such, its value never
# taken for a run file ("stores: File does not exist: one"), in every command whose positional
# arguments would take it.
ptxbench_bad_input(sft_kernelgen_unknown_option_pairing 2
  "^ptxbench: unknown option --pairing for sft kernelgen \\(`ptxbench sft kernelgen --help` lists its options\\)$"
  SETUP finished.db ARGS ${_p} sft kernelgen finished.db --out o --pairing one)
ptxbench_bad_input(sft_kernelgen_unknown_option_categories 2
  "^ptxbench: unknown option --categories for sft kernelgen \\(`ptxbench sft kernelgen --help` lists its options\\)$"
  SETUP finished.db ARGS ${_p} sft kernelgen finished.db --out o --categories x)
foreach(_row
    "sft_fixit|sft fixit|finished.db --out o"
    "sft_coverage|sft coverage|finished.db"
    "sft_mine|sft mine|finished.db --out m.db --dry-run"
    "show|show|finished.db"
    "report|report|finished.db --csv o.csv"
    "merge|merge|finished.db --out m.db"
    "rejudge|rejudge|finished.db --out n.db"
    "compile|compile|${_kernel} --task ${_gemm}"
    "eval|eval|${_kernel} --task ${_gemm}"
    "audit|audit|${_kernel} --task ${_gemm}"
    "gate|gate|${_kernel} --task ${_gemm}"
    "prompt|prompt|${_gemm}"
    "slurm_script|slurm script|--shards 2")
  string(REPLACE "|" ";" _f "${_row}")
  list(GET _f 0 _name)
  list(GET _f 1 _words)
  list(GET _f 2 _args)
  separate_arguments(_words)
  separate_arguments(_args)
  string(REPLACE ";" " " _said "${_words}")
  ptxbench_bad_input(${_name}_unknown_option_with_a_value 2
    "^ptxbench: unknown option --bogus for ${_said} \\(`ptxbench ${_said} --help` lists its options\\)$"
    SETUP finished.db ARGS ${_p} ${_words} ${_args} --bogus finished.db)
endforeach()
ptxbench_bad_input(show_unknown_short_option 2
  "^ptxbench: unknown option -x for show \\(`ptxbench show --help` lists its options\\)$"
  SETUP finished.db ARGS ${_p} show finished.db -x finished.db)
ptxbench_bad_input(sft_coverage_foreign_wal_file 2 "wal.db is not a ptxbench run database"
  SETUP wal.db ARGS ${_p} sft coverage wal.db)
ptxbench_bad_input(sft_mine_foreign_file 2 "foreign.db is not a ptxbench run database"
  SETUP foreign.db ARGS ${_p} sft mine foreign.db --model m --base-url http://127.0.0.1:9/v1 --out m.db)
ptxbench_bad_input(sft_negative_seed 2 "--seed: '-1' is not a whole number"
  SETUP foreign.db ARGS ${_p} sft coverage foreign.db --seed -1)

# run --shard (issue 18): the shard is checked with the other options, before any file is made.
ptxbench_bad_input(run_help_names_the_scheduler_variables 0 ""
  OPTIONS --grep "SLURM_ARRAY_TASK_ID" --grep "JOB_COMPLETION_INDEX" --grep "--shard-count"
  ARGS ${_p} run --help)
ptxbench_bad_input(run_shard_out_of_range 2 "--shard '2/2' names shard 2 of 2. they are 0 to 1"
  ARGS ${_run1} --shard 2/2)
ptxbench_bad_input(run_shard_not_i_over_n 2 "--shard '3' is not I/N" ARGS ${_run1} --shard 3)
ptxbench_bad_input(run_shard_no_shards 2 "--shard '0/0' has no shards" ARGS ${_run1} --shard 0/0)
ptxbench_bad_input(run_shard_and_shard_count 2 "--shard I/N already says the shard count"
  ARGS ${_run1} --shard 0/2 --shard-count 2)
ptxbench_bad_input(run_shard_count_without_an_index 2 "--shard-count needs a shard index"
  ARGS ${_run1} --shard-count 2)
ptxbench_bad_input(run_shard_count_negative 2 "--shard-count: '-2' is not a whole number"
  ARGS ${_run1} --shard-count -2)
ptxbench_bad_input(run_slurm_array_with_a_gap 2 "the Slurm array task 5 .array 0..., 2 tasks. is not shard 0..1"
  ARGS env SLURM_ARRAY_TASK_ID=5 SLURM_ARRAY_TASK_COUNT=2 ${_run1})
ptxbench_bad_input(run_slurm_array_without_count 2 "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not"
  ARGS env SLURM_ARRAY_TASK_ID=0 ${_run1})
ptxbench_bad_input(run_slurm_array_other_count 2 "--shard-count 3 but the Slurm job array has 2 tasks"
  ARGS env SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=2 ${_run1} --shard-count 3)
ptxbench_bad_input(run_job_completion_index_past_count 2 "JOB_COMPLETION_INDEX=3 but --shard-count is 3"
  ARGS env JOB_COMPLETION_INDEX=3 ${_run1} --shard-count 3)
ptxbench_bad_input(run_resume_with_shard 2 "--resume continues a run with the settings stored in it. --shard would be ignored"
  SETUP x.db ARGS ${_p} run --resume x.db --shard 0/2)
# A shard of an empty part of the plan is a run of nothing (merge needs every shard's file).
ptxbench_bad_input(run_empty_shard 0 "ptxbench run -> r.db"
  OPTIONS --creates r.db --grep "shard 1/2 .from --shard.: 0 of the plan's 1 trajectories"
  ARGS ${_run1} --turns 1 --shard 1/2 --out r.db)

# merge (issue 18): nothing is written unless every input is a shard of one complete run.
# Two scripted runs of one turn (a.db: shard 0/2), then the merge: sh -c "${_a} B_OPTIONS${_m}".
set(_a "${_p} run --no-progress --tasks ${_gemm} --turns 1 --shard 0/2 --out a.db >/dev/null 2>&1 && ${_p} run --no-progress --tasks ${_gemm} --out b.db")
set(_m " >/dev/null 2>&1 && ${_p} merge a.db b.db --out m.db")
ptxbench_bad_input(merge_needs_out 2 "--out is required" SETUP foreign.db ARGS ${_p} merge foreign.db)
ptxbench_bad_input(merge_foreign_file 2 "foreign.db is not a ptxbench run database"
  SETUP foreign.db ARGS ${_p} merge foreign.db --out m.db)
ptxbench_bad_input(merge_missing_input 2 "gone.db does not exist" ARGS ${_p} merge gone.db --out m.db)
ptxbench_bad_input(merge_out_exists 2 "x.db already exists" SETUP foreign.db x.db
  ARGS ${_p} merge foreign.db --out x.db)
ptxbench_bad_input(merge_out_is_a_folder 2 "--out d is a folder" SETUP foreign.db d/
  ARGS ${_p} merge foreign.db --out d)
ptxbench_bad_input(merge_same_file_twice 2 "foreign.db is given twice" SETUP foreign.db
  ARGS ${_p} merge foreign.db ./foreign.db --out m.db)
ptxbench_bad_input(merge_different_configurations 2 "a.db and b.db were run with different configurations \\(turn_budgets, turns differ\\)"
  OPTIONS --creates a.db --creates b.db --max-s 90
  ARGS sh -c "${_a} --turns 2 --shard 1/2${_m}")
ptxbench_bad_input(merge_overlapping_shards 2 "a.db and b.db are both shard 0/2: they overlap"
  OPTIONS --creates a.db --creates b.db --max-s 90
  ARGS sh -c "${_a} --turns 1 --shard 0/2${_m}")
ptxbench_bad_input(merge_other_split 2 "different shard counts"
  OPTIONS --creates a.db --creates b.db --max-s 90
  ARGS sh -c "${_a} --turns 1 --shard 1/3${_m}")
ptxbench_bad_input(merge_missing_shard 2 "the shards are incomplete: shard 1/2 is missing"
  OPTIONS --creates a.db --grep "--allow-partial" --max-s 90
  ARGS sh -c "${_p} run --no-progress --tasks ${_gemm} --turns 1 --shard 0/2 --out a.db >/dev/null 2>&1 && ${_p} merge a.db --out m.db")
ptxbench_bad_input(merge_allow_partial 0 "ptxbench merge: 1 of 2 shards .1 trajectory. -> m.db .partial"
  OPTIONS --creates a.db --creates m.db --max-s 90
  ARGS sh -c "${_p} run --no-progress --tasks ${_gemm} --turns 1 --shard 0/2 --out a.db >/dev/null 2>&1 && ${_p} merge a.db --out m.db --allow-partial")

# slurm (issue 18): the script is printed, not submitted; submit needs sbatch.
set(_slurm ${_p} slurm script --shards 4)
ptxbench_bad_input(slurm_needs_a_subcommand 2 "" ARGS ${_p} slurm)
ptxbench_bad_input(slurm_script_dir_with_a_line_break 2 "--dir holds a line break"
  ARGS ${_p} slurm script --shards 2 --dir "a\nPTXBENCH_SHARD\ntouch PWNED")
ptxbench_bad_input(slurm_script_gpus_per_shard_too_many 2 "--gpus-per-shard 1000 is out of range"
  ARGS ${_p} slurm script --shards 2 --gpus-per-shard 1000)
ptxbench_bad_input(slurm_script_zero_shards 2 "--shards must be at least 1"
  ARGS ${_p} slurm script --shards 0)
ptxbench_bad_input(slurm_script_needs_shards 2 "--shards is required" ARGS ${_p} slurm script)
ptxbench_bad_input(slurm_script_run_out 2 "--out is set by the job script"
  ARGS ${_slurm} -- --tasks core --out x.db)
ptxbench_bad_input(slurm_script_run_gpus 2 "--gpus is set by the job script.*--gpus-per-shard"
  ARGS ${_slurm} -- --gpus=2)
ptxbench_bad_input(slurm_script_dir_is_a_file 2 "--dir x is a file" SETUP x ARGS ${_slurm} --dir x)
ptxbench_bad_input(slurm_script_prints_the_array_and_the_merge 0 "^#!/usr/bin/env bash"
  OPTIONS --grep "sbatch '--parsable' '--job-name=ptxbench' '--partition=gpu' --array=0-3 .*--gres=gpu:2"
          --grep "--shard \"\\$SLURM_ARRAY_TASK_ID/4\"" --grep "'--gpus' '2' '--tasks' 'core'"
          --grep "--dependency=afterany:" --grep "merge .*/out/shard-0-of-4.db.*/out/shard-3-of-4.db' --out"
          --grep "run --no-progress --resume"
  ARGS ${_slurm} --gpus-per-shard 2 --partition gpu --dir out -- --tasks core)
ptxbench_bad_input(slurm_submit_without_sbatch 2 "sbatch .Slurm's job submission command. is not on PATH"
  ARGS env PATH=/nonexistent ${_p} slurm submit --shards 2 --dir out)
# Issue 38 (SL07): --time in one of sbatch's forms, or refused (it went into the script as it
# was, and sbatch refused it at submission); each form sbatch documents is accepted.
foreach(_time forever 4h 1:2:3:4 1-2-3 1- :30 "1 day")
  string(REGEX REPLACE "[^a-z0-9]" "_" _name "${_time}")
  ptxbench_bad_input(slurm_script_time_${_name} 2 "^ptxbench slurm script: --time ${_time}: not a time limit sbatch accepts \\(use minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS"
    ARGS ${_slurm} --time ${_time})
endforeach()
foreach(_time 0 90 30:00 04:00:00 2-00 1-12:30 1-12:30:15)
  string(REGEX REPLACE "[^a-z0-9]" "_" _name "${_time}")
  ptxbench_bad_input(slurm_script_time_ok_${_name} 0 "^#!/usr/bin/env bash"
    OPTIONS --grep "'--time=${_time}' --array=0-3" ARGS ${_slurm} --time ${_time})
endforeach()
# Issue 38 (SL22): every number of slurm is bounded (--cpus-per-shard 0 reached sbatch).
ptxbench_bad_input(slurm_script_zero_cpus_per_shard 2 "^--cpus-per-shard: '0' is not a whole number in .1, 4096."
  ARGS ${_slurm} --cpus-per-shard 0)
ptxbench_bad_input(slurm_script_negative_gpus_per_shard 2 "^--gpus-per-shard: '-1' is not a whole number"
  ARGS ${_slurm} --gpus-per-shard -1)
ptxbench_bad_input(slurm_script_cpus_per_shard 0 "^#!/usr/bin/env bash"
  OPTIONS --grep "--cpus-per-task=8" ARGS ${_slurm} --cpus-per-shard 8)
# Issue 38 (SL11, SL14, SL23): the run options after -- are checked when the script is made, by
# run's own parser and checks, with run's message: every array task would have refused them.
foreach(_row
    "samples_zero|--samples must be at least 1|--samples 0"
    "unknown_task|unknown task 'bogus'|--tasks bogus"
    "unclosed_ipv6|--base-url 'http://.::1/v1' opens an IPv6 address with . and never closes it|--model m --base-url http://[::1/v1"
    "model_without_base_url|--model needs --base-url|--model m"
    "unknown_option|The following argument was not expected: --bogus|--bogus"
    "not_a_number|Could not convert: --turns = x|--turns x"
    "unknown_context|unknown context level 'bogus'|--context bogus"
    "empty_value|--model was given an empty value|--model=")
  string(REPLACE "|" ";" _f "${_row}")
  list(GET _f 0 _name)
  list(GET _f 1 _says)
  list(GET _f 2 _args)
  separate_arguments(_args UNIX_COMMAND "${_args}")
  ptxbench_bad_input(slurm_script_run_${_name} 2 "^ptxbench slurm script: run options after --: ${_says}"
    ARGS ${_slurm} -- ${_args})
endforeach()
ptxbench_bad_input(slurm_script_run_options_ok 0 "^#!/usr/bin/env bash"
  OPTIONS --grep "'--tasks' '${_gemm}' '--model' 'm' '--base-url' 'http://127.0.0.1:9/v1' '--samples' '2'"
  ARGS ${_slurm} -- --tasks ${_gemm} --model m --base-url http://127.0.0.1:9/v1 --samples 2)
# Issue 38 (SL26): submit into a folder that holds a run file of this run's names (a shard's, the
# merged one) is refused up front, naming it: the shard would have resumed another run, or the
# merge failed at the end. (A stand-in sbatch on PATH; nothing may be left in d/.)
foreach(_file shard-0-of-2.db shard-1-of-2.db merged.db)
  string(REGEX REPLACE "[^a-z0-9]" "_" _name "${_file}")
  ptxbench_bad_input(slurm_submit_dir_holds_${_name} 2 "^ptxbench slurm submit: --dir .*/d already holds .*/d/${_file}, a file this run would write"
    SETUP d/ OPTIONS --grep "choose another --dir, or remove .*/d/${_file}"
    ARGS sh -c "mkdir fakebin && printf '#!/bin/sh\\ncat >/dev/null\\necho 1\\n' >fakebin/sbatch && chmod +x fakebin/sbatch && touch d/${_file} && PATH=$PWD/fakebin:$PATH ${_p} slurm submit --shards 2 --dir d; c=$?; rm -r fakebin d/${_file}; exit $c")
endforeach()
# Campaign 5, L23: an sbatch that prints megabytes on one line (no job id) is told apart at once
# (the script's ${array%%;*} took quadratic time on it: it ran for minutes, printing nothing).
ptxbench_bad_input(slurm_submit_sbatch_prints_megabytes 1
  "^ptxbench: sbatch printed no job id for the shards \\('5000000 characters'\\)"
  SETUP d/ OPTIONS --max-s 30
  ARGS sh -c "mkdir fakebin && printf '#!/bin/sh\\ncat >/dev/null\\ndd if=/dev/zero bs=1000 count=5000 2>/dev/null | tr -c 7 7\\n' >fakebin/sbatch && chmod +x fakebin/sbatch && PATH=$PWD/fakebin:$PATH ${_p} slurm submit --shards 2 --dir d; c=$?; rm -r fakebin d/submit.sh d/logs; exit $c")
# Campaign 6, F02: an export folder under a file; F23: an export folder that is a dangling link.
ptxbench_bad_input(sft_fixit_out_under_a_file 2
  "cannot write --out finished.db/x: finished.db is a file, not a folder"
  SETUP finished.db ARGS ${_p} sft fixit finished.db --out finished.db/x)
ptxbench_bad_input(sft_fixit_out_dangling_link 2
  "--out o is a symbolic link to nowhere, which is not there"
  SETUP finished.db
  ARGS sh -c "ln -s nowhere o && ${_p} sft fixit finished.db --out o; c=$?; rm o; exit $c")
# Campaign 6: O01, a task file that is a dangling link; N16, sft mine --json without --dry-run
# (ignored, and the model was called); L13, an --sbatch-arg that is no option.
ptxbench_bad_input(tasks_dangling_task_link 2 "task file .*zz.toml is a symbolic link to nowhere.toml, which is not there"
  ARGS sh -c "mkdir -p r/tasks/gemm && cp $PTXBENCH_ROOT/tasks/gemm/gemm_n7168_k5120.toml r/tasks/gemm/ && ln -s nowhere.toml r/tasks/gemm/zz.toml && PTXBENCH_ROOT=$PWD/r ${_p} tasks; c=$?; rm -r r; exit $c")
ptxbench_bad_input(sft_mine_json_without_dry_run 2 "--json needs --dry-run"
  SETUP finished.db
  ARGS ${_p} sft mine finished.db --model m --base-url http://127.0.0.1:9/v1 --json --out m.db)
ptxbench_bad_input(slurm_script_sbatch_arg_no_option 2 "--sbatch-arg 'not-an-option' is not an sbatch option"
  ARGS ${_p} slurm script --shards 2 --sbatch-arg not-an-option)
# Campaign 7: X42, a typo in --allow-flag allowed nothing; X45, sft mine --dry-run took an ftp://
# base URL; Q24, --api-key-env 'A=B' was looked up as a variable.
ptxbench_bad_input(sft_kernelgen_allow_flag_bogus 2 "--allow-flag: 'bogus_flag' is not a guard flag"
  SETUP finished.db ARGS ${_p} sft kernelgen finished.db --out ex --allow-flag bogus_flag)
ptxbench_bad_input(sft_mine_dry_run_ftp_base_url 2 "ftp://x"
  SETUP finished.db ARGS ${_p} sft mine finished.db --model m --dry-run --base-url ftp://x)
ptxbench_bad_input(run_api_key_env_not_a_name 2 "--api-key-env 'A=B' is not an environment variable's name"
  ARGS ${_run1} ${_ep} --api-key-env A=B)
# Campaign 6, L29: a script that cannot be written for want of room is the machine's failure,
# exit 1 (a file-size limit stands in for a full disk here: no mount needed).
ptxbench_bad_input(slurm_submit_no_room_for_the_script 1
  "^ptxbench slurm submit: cannot write .*submit.sh: the disk is full or a file-size limit was reached"
  SETUP d/
  ARGS sh -c "mkdir fakebin && printf '#!/bin/sh\\ncat >/dev/null\\necho 1\\n' >fakebin/sbatch && chmod +x fakebin/sbatch && (ulimit -f 0; PATH=$PWD/fakebin:$PATH ${_p} slurm submit --shards 2 --dir d); c=$?; rm -rf fakebin d/logs; exit $c")
ptxbench_bad_input(slurm_submit_with_a_stand_in_sbatch 0 "^shards: job array 1 \\(2 tasks\\). merge: job 1 -> .*/d/merged.db"
  SETUP d/
  ARGS sh -c "mkdir fakebin && printf '#!/bin/sh\\ncat >/dev/null\\necho 1\\n' >fakebin/sbatch && chmod +x fakebin/sbatch && PATH=$PWD/fakebin:$PATH ${_p} slurm submit --shards 2 --dir d && test -s d/submit.sh && rm -r fakebin d/submit.sh d/logs")
# report: every argument is checked before any run file is read or output written.
set(_h200 ${CMAKE_CURRENT_SOURCE_DIR}/../report/recorded/h200-2026-11-30-main.db)
ptxbench_bad_input(report_no_output 2 "ptxbench report: nothing to write"
  OPTIONS --grep "give at least one of --html, --junit, --csv" ARGS ${_p} report ${_h200})
ptxbench_bad_input(report_no_run_file 2 "RUN is required" ARGS ${_p} report --html r.html)
ptxbench_bad_input(report_missing_file 2 "gone.db does not exist"
  ARGS ${_p} report gone.db --html r.html)
ptxbench_bad_input(report_foreign_file 2 "foreign.db is not a ptxbench run database"
  SETUP foreign.db ARGS ${_p} report foreign.db --html r.html --csv r.csv)
ptxbench_bad_input(report_killed_programs_wal_file 2 "killed.db is not a ptxbench run database"
  SETUP killed.db ARGS ${_p} report killed.db --junit r.xml)
ptxbench_bad_input(report_same_file_twice 2 "foreign.db is given twice"
  SETUP foreign.db ARGS ${_p} report foreign.db ./foreign.db --html r.html)
# A missing output folder is made when the output is written, by every command (issue 38: one
# rule); a file where a folder should be is refused.
ptxbench_bad_input(report_output_folder_is_made 0 "ptxbench report: wrote new/deeper/r.html"
  ARGS sh -c "${_p} report ${_h200} --html new/deeper/r.html && test -s new/deeper/r.html && rm -r new")
ptxbench_bad_input(report_output_under_a_file 2 "--html f.txt/r.html: f.txt is a file, not a folder"
  SETUP f.txt ARGS ${_p} report ${_h200} --html f.txt/r.html)
ptxbench_bad_input(report_output_is_a_folder 2 "--junit d is a folder"
  SETUP d/ ARGS ${_p} report ${_h200} --junit d)
ptxbench_bad_input(report_output_is_an_input 2 "--csv foreign.db is also an input"
  SETUP foreign.db ARGS ${_p} report foreign.db --csv foreign.db)
# The recorded H200 run: all three files, and the run file itself unchanged.
ptxbench_bad_input(report_writes_all_three 0 "ptxbench report: wrote r.html"
  OPTIONS --creates r.html --creates r.xml --creates r.csv
    --grep "wrote r.xml \\(5 trajectories of 1 run file\\)" --grep "wrote r.csv"
  ARGS ${_p} report ${_h200} --html r.html --junit r.xml --csv r.csv)

# An output that exists is not the command's to replace: refused (untouched) without --force,
# written over with it (issue 38: never overwrite what it did not create).
ptxbench_bad_input(report_existing_output 2 "--csv r.csv already exists"
  SETUP r.csv ARGS ${_p} report ${_h200} --html new.html --csv r.csv)
ptxbench_bad_input(report_force_writes_over 0 "ptxbench report: wrote r.csv"
  ARGS sh -c "echo old > r.csv && ${_p} report ${_h200} --csv r.csv --force && ! grep -qx old r.csv && test -s r.csv && rm r.csv")
# The second campaign of 2026-12-05: "-" is not stdout (gate --json - wrote a file named "-"), and
# a file-size limit ends the write with an error, not SIGXFSZ with a temporary file left behind.
ptxbench_bad_input(report_output_dash 2 "--csv -: the output goes to a file, not to stdout"
  ARGS ${_p} report ${_h200} --csv -)
ptxbench_bad_input(report_file_size_limit 1 ""
  OPTIONS --lacks "Killed|File size limit"
  ARGS sh -c "ulimit -f 1; ${_p} report ${_h200} --html o.html; c=$?; ls o.html* >/dev/null 2>&1 && exit 9; exit $c")

ptxbench_bad_input(rejudge_out_is_a_folder_name 2 "--out sub/ names a folder"
  OPTIONS --grep "e.g. --out sub/rejudged.db"
  ARGS sh -c "${_p} rejudge ${_h200} --out sub/; c=$?; test -e sub && exit 9; exit $c")
ptxbench_bad_input(rejudge_out_is_a_dangling_link 2 "--out dl.db is a symbolic link \\(to gone.db\\)"
  ARGS sh -c "ln -s gone.db dl.db; ${_p} rejudge ${_h200} --out dl.db; c=$?; rm dl.db; exit $c")

# Two exports into one new folder at once: one writes, the other is refused (second campaign F23).
ptxbench_bad_input(sft_fixit_two_at_once 0 ""
  ARGS sh -c "${_p} sft fixit ${_h200} --out o > a.log 2>&1 & ${_p} sft fixit ${_h200} --out o > b.log 2>&1; w=$?; wait $!; v=$?; test -e o.lock && exit 9; test $((w + v)) = 2 || exit 8; grep -h 'being written by\\|already holds\\|not empty' a.log b.log || exit 7; rm -r o a.log b.log")

# An sbatch that prints no job id is a failed submission, not "job array  (2 tasks)" (second
# campaign L20).
ptxbench_bad_input(slurm_submit_sbatch_without_job_id 1 "sbatch printed no job id for the shards"
  ARGS sh -c "d=$(mktemp -d) && mkdir $d/bin && printf '#!/bin/sh\\nexit 0\\n' > $d/bin/sbatch && chmod +x $d/bin/sbatch && PATH=$d/bin:$PATH ${_p} slurm submit --shards 2 --dir $d/run 2>&1; c=$?; rm -rf $d; exit $c")

# A device, pipe or socket is never replaced, even with --force (the campaign of 2026-12-05 found
# --html /dev/null --force renaming a regular file over /dev/null).
ptxbench_bad_input(report_force_device 2 "--html /dev/null is not a regular file"
  ARGS sh -c "${_p} report ${_h200} --html /dev/null --force; c=$?; test -c /dev/null && exit $c")
ptxbench_bad_input(report_force_fifo 2 "--csv p is not a regular file"
  ARGS sh -c "mkfifo p && ${_p} report ${_h200} --csv p --force; c=$?; test -p p && rm p && exit $c")
ptxbench_bad_input(sft_coverage_force_device 2 "--out /dev/full is not a regular file"
  ARGS sh -c "${_p} sft coverage ${_h200} --out /dev/full --force; c=$?; test -c /dev/full && exit $c")
ptxbench_bad_input(sft_coverage_existing_out 2 "--out c.txt already exists"
  SETUP c.txt ARGS ${_p} sft coverage ${_h200} --out c.txt)
# Issue 38: no output of sft is one of its inputs, even with --force (coverage wrote its report
# over the run file it read; an export folder holding a run file named like an output). Each
# exits 2 with the run file (a copy of the recorded one) unchanged, or fails.
ptxbench_bad_input(sft_coverage_out_is_the_input_with_force 2 "error: --out r.db is also an input \\(r.db\\)"
  OPTIONS --creates r.db
  ARGS sh -c "cp ${_h200} r.db && chmod u+w r.db && ${_p} sft coverage r.db --out r.db --force || { cmp -s r.db ${_h200} && exit 2; }")
ptxbench_bad_input(sft_fixit_writes_over_an_input_with_force 2 "error: --out out: the export writes out/train.jsonl, which is one of the run files it reads"
  SETUP out/ OPTIONS --creates out/train.jsonl
  ARGS sh -c "cp ${_h200} out/train.jsonl && chmod u+w out/train.jsonl && ${_p} sft fixit out/train.jsonl --out out --force || { cmp -s out/train.jsonl ${_h200} && exit 2; }")
ptxbench_bad_input(sft_kernelgen_manifest_is_an_input 2 "error: --out out: the export writes out/manifest.json, which is one of the run files it reads"
  SETUP out/ OPTIONS --creates out/manifest.json
  ARGS sh -c "cp ${_h200} out/manifest.json && ${_p} sft kernelgen out/manifest.json --out out --force")
# Issue 38: every number of every sft subcommand is bounded while the command line is parsed
# (whole_range, finite_range, finite_above in cli/command.h): NaN, infinity, 0 or a negative
# count was accepted, and mine's late checks never ran with --dry-run. Rows: subcommand,
# option, value, what the message says (a regex: . for a bracket).
set(_mine_dry sft mine ${_h200} --dry-run)
foreach(_row
    "fixit|--bytes-per-token|nan|'nan' is not a number in .0, 1000."
    "kernelgen|--bytes-per-token|inf|'inf' is not a number in .0, 1000."
    "coverage|--bytes-per-token|0|'0' is not a number in .0, 1000."
    "coverage|--max-tokens|99999999999|'99999999999' is not a whole number in .0, 10000000."
    "coverage|--per-task-cap|-1|'-1' is not a whole number in .0, 1000000."
    "mine|--limit|-1|'-1' is not a whole number in .0, 1000000."
    "mine|--turns|0|'0' is not a whole number in .1, 64."
    "mine|--turns|1.5|'1.5' is not a whole number in .1, 64."
    "mine|--concurrency|0|'0' is not a whole number in .1, 256."
    "mine|--cpu-jobs|-1|'-1' is not a whole number in .1, 256."
    "mine|--speedup-target|-1|'-1' is not a number in .0, 1000."
    "mine|--temperature|nan|'nan' is not a number in .0, 10."
    "mine|--max-tokens|0|'0' is not a whole number in .1, 10000000."
    "mine|--request-timeout|0|'0' is not a number in .0, 1000000."
    "mine|--stall-timeout|inf|'inf' is not a number in .0, 1000000."
    "mine|--attempts|0|'0' is not a whole number in .1, 100."
    "mine|--retry-max-s|-1|'-1' is not a number in .0, 1000000."
    "mine|--per-task-cap|-1|'-1' is not a whole number in .0, 1000000.")
  string(REPLACE "|" ";" _f "${_row}")
  list(GET _f 0 _sub)
  list(GET _f 1 _opt)
  list(GET _f 2 _value)
  list(GET _f 3 _says)
  string(REGEX REPLACE "^--" "" _name "${_opt}")
  string(REPLACE "-" "_" _name "${_name}")
  string(REPLACE "." "_" _v "${_value}")
  string(REPLACE "-" "minus" _v "${_v}")
  if(_sub STREQUAL "mine")
    set(_cmd ${_p} ${_mine_dry})
  elseif(_sub STREQUAL "coverage")
    set(_cmd ${_p} sft coverage ${_h200})
  else()
    set(_cmd ${_p} sft ${_sub} ${_h200} --out out)
  endif()
  ptxbench_bad_input(sft_${_sub}_${_name}_${_v} 2 "^${_opt}: ${_says}" ARGS ${_cmd} ${_opt} ${_value})
endforeach()
# Issue 38: an empty item of a comma-separated list is a typo, refused (it dropped a name
# silently); an unknown category is refused too.
ptxbench_bad_input(sft_coverage_empty_category 2 "error: --categories compile_error,,incorrect: an empty item"
  ARGS ${_p} sft coverage ${_h200} --categories compile_error,,incorrect)
ptxbench_bad_input(sft_coverage_trailing_comma 2 "error: --categories compile_error,: an empty item"
  ARGS ${_p} sft coverage ${_h200} --categories compile_error,)
ptxbench_bad_input(sft_fixit_empty_heldout_item 2 "error: --heldout-task ,${_gemm}: an empty item"
  ARGS ${_p} sft fixit ${_h200} --out out --heldout-task ,${_gemm})
ptxbench_bad_input(sft_coverage_unknown_category 2 "error: unknown failing category 'bogus'"
  ARGS ${_p} sft coverage ${_h200} --categories compile_error,bogus)

# gate: every kernel and the task are read before anything is judged.
set(_plain ${CMAKE_CURRENT_SOURCE_DIR}/../kernels/sm90_plain.cu)
ptxbench_bad_input(gate_existing_junit 2 "--junit g.xml already exists"
  SETUP g.xml ARGS ${_p} gate ${_plain} --task ${_gemm} --junit g.xml)
set(_controls ${CMAKE_CURRENT_SOURCE_DIR}/../../kernels/controls)
ptxbench_bad_input(gate_no_task 2 "--task is required" ARGS ${_p} gate ${_plain})
ptxbench_bad_input(gate_no_kernel 2 "kernel is required" ARGS ${_p} gate --task ${_gemm})
ptxbench_bad_input(gate_unknown_task 2 "unknown task 'bogus'" ARGS ${_p} gate ${_plain} --task bogus)
ptxbench_bad_input(gate_second_kernel_missing 2 "^ptxbench gate: cannot read .*gone.cu"
  OPTIONS --lacks "PASS|FAIL" ARGS ${_p} gate ${_plain} gone.cu --task ${_gemm})
ptxbench_bad_input(gate_negative_min_speedup 2 "'-1' is not a number in \\[0, 1000\\]"
  ARGS ${_p} gate ${_plain} --task ${_gemm} --min-speedup -1)
ptxbench_bad_input(gate_nan_min_speedup 2 "'nan' is not a number"
  ARGS ${_p} gate ${_plain} --task ${_gemm} --min-speedup nan)
ptxbench_bad_input(gate_junit_folder_is_made 17 "" OPTIONS --grep "wrote new/g.xml"
  ARGS sh -c "${_p} gate ${_plain} --task ${_gemm} --junit new/g.xml; c=$?; test -s new/g.xml && rm -r new && exit $c")
ptxbench_bad_input(gate_junit_is_a_kernel 2 "--junit .*sm90_plain.cu is also an input"
  ARGS ${_p} gate ${_plain} --task ${_gemm} --junit ${_plain})
ptxbench_bad_input(gate_json_folder_is_made 17 ""
  ARGS sh -c "${_p} gate ${_plain} --task ${_gemm} --json new/g.jsonl; c=$?; test -s new/g.jsonl && rm -r new && exit $c")
ptxbench_bad_input(gate_json_under_a_file 2 "--json f.txt/g.jsonl: f.txt is a file, not a folder"
  SETUP f.txt ARGS ${_p} gate ${_plain} --task ${_gemm} --json f.txt/g.jsonl)
ptxbench_bad_input(gate_json_is_a_kernel 2 "--json .*sm90_plain.cu is also an input"
  ARGS ${_p} gate ${_plain} --task ${_gemm} --json ${_plain})
ptxbench_bad_input(gate_json_is_the_junit 2 "--junit and --json name the same file"
  ARGS ${_p} gate ${_plain} --task ${_gemm} --json g.out --junit g.out)
ptxbench_bad_input(gate_timeline_without_json 2 "--timeline requires --json"
  ARGS ${_p} gate ${_plain} --task ${_gemm} --timeline)
# --candidate-output: a folder for gate (one file per kernel), a file for eval; checked before
# anything is judged.
ptxbench_bad_input(gate_candidate_output_is_a_file 2
  "--candidate-output f.txt is not a folder that can be made: a file is there"
  SETUP f.txt ARGS ${_p} gate ${_plain} --task ${_gemm} --candidate-output f.txt)
ptxbench_bad_input(eval_candidate_output_is_a_folder 2
  "ptxbench eval: cannot write the candidate's output to out: Is a directory"
  SETUP out/ ARGS ${_p} eval ${_kernel} --task ${_gemm} --candidate-output out)
# --shared-inputs is a flag (run, rejudge, gate): a value is refused.
ptxbench_bad_input(gate_shared_inputs_value 2 "Could not convert: --shared-inputs = maybe"
  ARGS ${_p} gate ${_plain} --task ${_gemm} --shared-inputs=maybe)
ptxbench_bad_input(rejudge_shared_inputs_value 2 "Could not convert: --shared-inputs = maybe"
  ARGS ${_p} rejudge gone.db --out new.db --shared-inputs=maybe)
ptxbench_bad_input(run_shared_inputs_value 2 "Could not convert: --shared-inputs = maybe"
  ARGS ${_p} run --shared-inputs=maybe)
# Without a GPU (the table runs with PTXBENCH_NO_GPU=1) a kernel is compiled and statically
# audited only: a compile error fails with its own code, and a kernel that compiles is not
# evaluated, so it cannot pass (17). The exit code is the first failing kernel's.
ptxbench_bad_input(gate_without_gpu 11 "^ptxbench gate: no GPU here"
  OPTIONS --creates g.xml --creates g.jsonl
    --file-grep g.jsonl "^\\{\"file\":\".*compile_error.cu\",\"gate\":\\{\"passed\":false,\"exit_code\":11"
    --file-grep g.jsonl "gemm_n7168_k5120.cu\",\"gate\":\\{\"passed\":false,\"exit_code\":17,.*\"report\":\\{\"task\":\"gemm_n7168_k5120\",.*\"disposition\":\"not_evaluated\""
    --grep "^FAIL .*compile_error.cu \\(exit 11\\): COMPILE ERROR"
    --grep "^FAIL .*gemm_n7168_k5120.cu \\(exit 17\\): not evaluated: .*correctness is unknown"
    --grep "wrote g.xml"
  ARGS ${_p} gate ${_controls}/gemm/compile_error.cu
    ${_controls}/../reference/sm_90a/gemm_n7168_k5120.cu --task ${_gemm} --min-speedup 0.95
    --require-arch --junit g.xml --json g.jsonl)

# One output discipline (issue 38): an empty value is bad input, never "not given"; output that
# cannot be written (a full disk, a closed stdout) is a failure, never exit 0; one file named
# for two outputs is refused.
# (through sh: CMake drops an empty argument of a test's command)
ptxbench_bad_input(run_resume_empty_value 2 "^ptxbench: --resume was given an empty value"
  ARGS sh -c "${_p} run --resume ''")
ptxbench_bad_input(run_out_empty_value 2 "^ptxbench: --out was given an empty value"
  ARGS ${_p} run --out=)
ptxbench_bad_input(show_empty_argument 2 "^ptxbench: an empty argument after 'show'"
  ARGS sh -c "${_p} show ''")
ptxbench_bad_input(tasks_to_a_full_disk 1 "^ptxbench: the output could not be written"
  ARGS sh -c "${_p} tasks > /dev/full")
ptxbench_bad_input(tasks_to_a_closed_stdout 1 "^ptxbench: the output could not be written"
  ARGS sh -c "${_p} tasks >&-")
ptxbench_bad_input(help_to_a_full_disk 1 "^ptxbench: the output could not be written"
  ARGS sh -c "${_p} --help > /dev/full")
ptxbench_bad_input(report_one_file_for_three_outputs 2 "--html and --junit name the same file \\(x\\)"
  SETUP foreign.db ARGS ${_p} report foreign.db --html x --csv ./x --junit x)

# Issue 38: a flipped byte in a stored JSON column (SQLite's integrity check still passes) is
# reported as a damaged run file by show, report and sft, never read as "compiled 0.00"; a
# truncated run file is called damaged, not foreign.
set(_flipped "${_p} run --tasks ${_gemm} --turns 1 --out r.db --no-progress >/dev/null 2>&1 && sqlite3 r.db \"UPDATE turns SET compile_json = substr(compile_json, 1, length(compile_json) - 1) || ']'\" && sqlite3 r.db 'PRAGMA integrity_check' | grep -qx ok")
foreach(_cmd "show r.db" "report r.db --csv x.csv" "sft coverage r.db")
  string(REPLACE " " "_" _name "${_cmd}")
  string(REGEX REPLACE "_r\\.db.*" "" _name "${_name}")
  ptxbench_bad_input(${_name}_flipped_stored_json 2 "" OPTIONS --creates r.db --max-s 90
    --grep "turn 1 of trajectory 1: its stored compile stage is not valid JSON: the run file is damaged"
    ARGS sh -c "${_flipped} && ${_p} ${_cmd}")
endforeach()
ptxbench_bad_input(show_truncated_run 2 "r.db is a damaged SQLite database" OPTIONS --creates r.db --max-s 90
  ARGS sh -c "${_p} run --tasks ${_gemm} --turns 1 --out r.db --no-progress >/dev/null 2>&1 && truncate -s 5000 r.db && ${_p} show r.db")
# Issue 38, bad-input campaign 3 (S21, S22, S24-S26, S30, P115, M10): rows that parse but are
# not what ptxbench writes are named when the run file is opened or its run read, by every
# command that reads run files, never shown as other numbers ("compiled 0.00", "0.000").
set(_damaged "the run file is damaged \\(use an intact copy of the run file")
ptxbench_bad_input(show_settings_null 2
  "^ptxbench show: settings_null.db: the run's stored settings \\(its configuration\\) are missing or invalid \\(null, not an object\\): ${_damaged}"
  SETUP settings_null.db ARGS ${_p} show settings_null.db)
ptxbench_bad_input(show_settings_empty 2
  "^ptxbench show: settings_empty.db: the run's stored settings \\(its configuration\\) are missing or invalid \\(empty, not an object\\): ${_damaged}"
  SETUP settings_empty.db ARGS ${_p} show settings_empty.db)
ptxbench_bad_input(show_compile_stage_missing 2
  "^ptxbench show: compile_missing.db: turn 1 of trajectory 1: its stored compile stage is missing or invalid \\(a compile_error turn without one\\): ${_damaged}"
  SETUP compile_missing.db ARGS ${_p} show compile_missing.db)
ptxbench_bad_input(show_speedup_negative 2
  "^ptxbench show: speedup_negative.db: turn 1 of trajectory 1: its stored speedup is missing or invalid \\(-1, not a number above 0\\): ${_damaged}"
  SETUP speedup_negative.db ARGS ${_p} show speedup_negative.db)
ptxbench_bad_input(show_speedup_text 2
  "^ptxbench show: speedup_text.db: turn 1 of trajectory 1: its stored speedup is missing or invalid \\(text, not a number\\): ${_damaged}"
  SETUP speedup_text.db ARGS ${_p} show speedup_text.db)
ptxbench_bad_input(report_csv_speedup_text 2
  "^ptxbench report: speedup_text.db: turn 1 of trajectory 1: its stored speedup is missing or invalid \\(text, not a number\\): ${_damaged}"
  SETUP speedup_text.db ARGS ${_p} report speedup_text.db --csv o.csv)
ptxbench_bad_input(show_turns_of_no_trajectory 2
  "^ptxbench show: orphan_turns.db: 20 turns refer to trajectories that do not exist \\(the first: turn 1 of trajectory 1001\\): ${_damaged}"
  SETUP orphan_turns.db ARGS ${_p} show orphan_turns.db --turns)
ptxbench_bad_input(merge_trajectories_deleted 2
  "^ptxbench merge: trajectories_deleted.db: 20 turns and 50 messages refer to trajectories that do not exist \\(the first: turn 1 of trajectory 1\\): ${_damaged}"
  SETUP trajectories_deleted.db ARGS ${_p} merge trajectories_deleted.db --out m.db)
# ... by every command that reads a run file, before it judges or writes anything.
foreach(_row
    "show|show FILE"
    "show_compare|show finished.db FILE"
    "report|report FILE --html o.html --junit o.xml --csv o.csv"
    "sft_fixit|sft fixit FILE --out o"
    "sft_kernelgen|sft kernelgen FILE --out o"
    "sft_coverage|sft coverage FILE"
    "sft_mine|sft mine FILE --out mine.db --dry-run"
    "merge|merge FILE --out m.db"
    "rejudge|rejudge FILE --out n.db"
    "run_resume|run --resume FILE --no-progress")
  string(REPLACE "|" ";" _f "${_row}")
  list(GET _f 0 _name)
  list(GET _f 1 _cmd)
  foreach(_fixture compile_missing orphan_turns settings_null)
    string(REPLACE "FILE" "${_fixture}.db" _args "${_cmd}")
    separate_arguments(_args)
    ptxbench_bad_input(${_name}_damaged_${_fixture} 2 "${_fixture}.db: .*${_damaged}"
      SETUP finished.db ${_fixture}.db ARGS ${_p} ${_args})
  endforeach()
endforeach()
# Stored JSON that parses but holds a value of another type than ptxbench wrote, or one no run
# has: the field named when the file is opened (campaign 3b: D02, D05-D07, D23, D29).
ptxbench_bad_input(show_wrong_type_in_stored_json 2
  "^ptxbench show: r.db: the stored configuration's turn_budgets is not a list of whole numbers \\(string\\): ${_damaged}"
  OPTIONS --creates r.db --max-s 90
  ARGS sh -c "${_p} run --tasks ${_gemm} --turns 1 --out r.db --no-progress >/dev/null 2>&1 && sqlite3 r.db \"UPDATE runs SET config_json = json_set(config_json, '$.turn_budgets', 'x')\" && ${_p} show r.db")
foreach(_row
    "turns_text|the stored configuration's turns is not a whole number \\(string\\)"
    "budgets_beyond|the stored configuration's turn_budgets holds 0, not a turn number \\(1 or more\\)"
    "stages_typed|turn 1 of trajectory 1: its stored compile stage is invalid \\(JSON integer, not an object\\)"
    "turn_huge|turn 9223372036854775001 of trajectory 1: its turn number is not one of the run's 8 turns"
    "flags_deep|turn 1 of trajectory 1: its stored flags are not a list of flag names")
  string(REPLACE "|" ";" _f "${_row}")
  list(GET _f 0 _fixture)
  list(GET _f 1 _says)
  foreach(_cmd "show|show FILE --turns" "show_json|show FILE --json" "report|report FILE --html o.html"
      "sft_fixit|sft fixit FILE --out o" "rejudge|rejudge FILE --out n.db")
    string(REPLACE "|" ";" _c "${_cmd}")
    list(GET _c 0 _name)
    list(GET _c 1 _args)
    string(REPLACE "FILE" "${_fixture}.db" _args "${_args}")
    separate_arguments(_args)
    ptxbench_bad_input(${_name}_damaged_${_fixture} 2 "${_fixture}.db: ${_says}: ${_damaged}"
      SETUP ${_fixture}.db ARGS ${_p} ${_args})
  endforeach()
endforeach()
# Campaign 5, D60: damage found while rejudge reads the turns (not when the file is opened) is
# bad input too, exit 2, as it is for show and report.
ptxbench_bad_input(rejudge_damaged_eval_deep 2 "^ptxbench rejudge eval_deep.db -> n.db"
  OPTIONS --grep "eval_deep.db: turn 1 of trajectory 1: its stored evaluation is not valid JSON: the run file is damaged"
  SETUP eval_deep.db ARGS ${_p} rejudge eval_deep.db --out n.db)
# SQLite's own damage is named by its code, with the file and what to do, never the SQL
# (campaign 3b: D50, DJ16, D54, J05, M21).
ptxbench_bad_input(sft_fixit_zeroed_pages 2
  "^error: zeroed_pages.db is damaged \\(SQLite: database disk image is malformed\\) \\(use an intact copy"
  OPTIONS --lacks "SELECT" SETUP zeroed_pages.db ARGS ${_p} sft fixit zeroed_pages.db --out o)
# (exit 2 since the store checks the trajectories' states when it opens the file: damage is bad input)
ptxbench_bad_input(rejudge_zeroed_pages 2 "" OPTIONS --lacks "SELECT"
  --grep "^ptxbench rejudge: zeroed_pages.db is damaged \\(SQLite: database disk image is malformed\\)"
  SETUP zeroed_pages.db ARGS ${_p} rejudge zeroed_pages.db --out n.db)
foreach(_cmd "show|show hot_journal.db" "report|report hot_journal.db --csv o.csv"
    "sft_fixit|sft fixit hot_journal.db --out o" "rejudge|rejudge hot_journal.db --out n.db"
    "merge|merge hot_journal.db --out m.db")
  string(REPLACE "|" ";" _c "${_cmd}")
  list(GET _c 0 _name)
  list(GET _c 1 _args)
  separate_arguments(_args)
  ptxbench_bad_input(${_name}_hot_journal 2
    "hot_journal.db-journal holds an unfinished transaction \\(its writer stopped mid-write\\): hot_journal.db reads as damaged until it is rolled back \\(open it once with write access to roll it back, e.g. sqlite3 hot_journal.db 'pragma integrity_check'\\)"
    SETUP hot_journal.db ARGS ${_p} ${_args})
endforeach()
# A full disk or a file-size limit is the machine's failure (exit 1), named for the file the
# user asked for (not a temporary one), with nothing left behind (campaign 3b: X01, X02, M17).
set(_limit "the disk is full or a file-size limit was reached \\(SQLite: ")
ptxbench_bad_input(run_file_size_limit 1 "^ptxbench run: cannot write n.db: ${_limit}"
  ARGS sh -c "ulimit -f 10 && exec ${_p} run --tasks ${_gemm} --turns 1 --out n.db --no-progress")
ptxbench_bad_input(merge_file_size_limit 1 "^ptxbench merge: cannot write m.db: ${_limit}"
  SETUP finished.db ARGS sh -c "ulimit -f 40 && exec ${_p} merge finished.db --out m.db")
ptxbench_bad_input(merge_output_folder_is_made 0 "" OPTIONS --creates r.db --max-s 90
  --grep "ptxbench merge: 1 of 1 shard .* -> new/m.db"
  ARGS sh -c "${_p} run --tasks ${_gemm} --turns 1 --out r.db --no-progress >/dev/null 2>&1 && ${_p} merge r.db --out new/m.db && test -s new/m.db && rm -r new")

# The bad-input campaign of issue 38 (the IDs are the campaign's).
set(_recorded ${CMAKE_CURRENT_SOURCE_DIR}/../report/recorded/h200-2026-11-30-main.db)
# RO16/RO21/RO31: resuming a finished run changes nothing (bad_input.sh compares every file's
# checksum: the run file keeps schema 1 and its finished_at, a -wal of garbage stays as it was).
ptxbench_bad_input(run_resume_finished_run 0
  "^ptxbench run: finished.db is finished \\(5 trajectories done\\): nothing to resume"
  SETUP finished.db ARGS ${_p} run --resume finished.db)
# Campaign 6, R10: with --json the finished run's summary is printed as JSON on stdout.
ptxbench_bad_input(run_resume_finished_run_json 0 "finished.db is finished .*nothing to resume"
  SETUP finished.db
  ARGS sh -c "${_p} run --resume finished.db --json | python3 -c 'import json, sys; assert json.load(sys.stdin)'")
ptxbench_bad_input(run_resume_finished_run_beside_a_garbage_wal 0
  "^ptxbench run: finished_wal.db is finished \\(5 trajectories done\\): nothing to resume"
  SETUP finished_wal.db ARGS ${_p} run --resume finished_wal.db --no-progress)
# ... while a run with a trajectory to redo (a failed one), or one killed after its last
# trajectory (still marked running), is resumed.
ptxbench_bad_input(run_resume_redoes_a_failed_trajectory 0 "^resuming p.db"
  OPTIONS --creates p.db --max-s 60 --lacks "nothing to resume"
  ARGS sh -c "cp ${_recorded} p.db && chmod u+w p.db && sqlite3 p.db \"UPDATE trajectories SET status = 'failed' WHERE id = 5\" && ${_p} run --resume p.db --no-progress && test \"$(sqlite3 p.db 'SELECT status FROM trajectories WHERE id = 5')\" = done")
ptxbench_bad_input(run_resume_marks_a_run_killed_at_its_end_done 0 "^resuming k.db"
  OPTIONS --creates k.db --max-s 60 --lacks "nothing to resume"
  ARGS sh -c "cp ${_recorded} k.db && chmod u+w k.db && sqlite3 k.db \"UPDATE runs SET status = 'running', finished_at = NULL\" && ${_p} run --resume k.db --no-progress && test \"$(sqlite3 k.db 'SELECT status FROM runs')\" = done")
# S19: an SQLite file that says it is a run but lacks a table or a column of one is named so,
# with what to do, by every command that reads it.
ptxbench_bad_input(show_run_without_its_trajectories_table 2
  "no_trajectories.db is not a complete ptxbench run file \\(it has no table trajectories\\)"
  SETUP no_trajectories.db OPTIONS --grep "use an intact copy of the run file"
  ARGS ${_p} show no_trajectories.db)
ptxbench_bad_input(run_resume_run_without_its_trajectories_table 2
  "no_trajectories.db is not a complete ptxbench run file \\(it has no table trajectories\\)"
  SETUP no_trajectories.db ARGS ${_p} run --resume no_trajectories.db)
ptxbench_bad_input(report_run_without_a_column 2
  "no_llm_column.db is not a complete ptxbench run file \\(its table turns has no column llm_json\\)"
  SETUP no_llm_column.db ARGS ${_p} report no_llm_column.db --csv x.csv)
ptxbench_bad_input(sft_coverage_run_without_its_trajectories_table 2
  "no_trajectories.db is not a complete ptxbench run file"
  SETUP no_trajectories.db ARGS ${_p} sft coverage no_trajectories.db)
# EP12: usage that is no token count (-5, 1e30) is stored as not reported, with one warning
# per run naming the server; `show` of a file an older ptxbench wrote with such values counts
# them as 0, never a negative or overflowed total.
ptxbench_bad_input(run_endpoint_usage_not_token_counts 0 "" OPTIONS --creates r.db --max-s 60
  --grep "warning: the server at http://127.0.0.1:[0-9]+/v1/chat/completions reported token usage that is no token count \\(prompt_tokens = -5, completion_tokens = 1e\\+30"
  ARGS sh -c "${_fake_endpoint} bad_usage -- ${_p} run --no-progress --tasks ${_gemm} --model m --base-url {URL} --turns 2 --out r.db 2>err.txt; c=$?; cat err.txt; test $c = 0 && test \"$(grep -c 'no token count' err.txt)\" = 1 && test \"$(sqlite3 r.db \"SELECT COUNT(*) FROM turns WHERE json_extract(llm_json, '$.prompt_tokens') IS NOT NULL OR json_extract(llm_json, '$.completion_tokens') IS NOT NULL\")\" = 0 && rm err.txt")
ptxbench_bad_input(show_stored_usage_that_is_no_token_count 0 "^\\{" OPTIONS --creates t.db --json
  --grep "\"prompt_tokens\": 0," --grep "\"completion_tokens\": 0," --lacks "_tokens\": -"
  ARGS sh -c "cp ${_recorded} t.db && chmod u+w t.db && sqlite3 t.db \"UPDATE turns SET llm_json = json_set(llm_json, '$.prompt_tokens', -5, '$.completion_tokens', 1e30)\" && ${_p} show t.db --json")
# R58: an empty or blank value of any option (any command) is refused before anything is made.
ptxbench_bad_input(run_blank_model 2 "^ptxbench: --model was given a blank value \\(only whitespace\\)"
  ARGS sh -c "${_p} run --tasks ${_gemm} --model ' ' --base-url http://127.0.0.1:9/v1 --out r.db")
ptxbench_bad_input(run_blank_base_url 2 "^ptxbench: --base-url was given a blank value"
  ARGS sh -c "${_p} run --tasks ${_gemm} --model m --base-url='  ' --out r.db")
ptxbench_bad_input(run_blank_api_key_env 2 "^ptxbench: --api-key-env was given a blank value"
  ARGS sh -c "${_p} run --tasks ${_gemm} --model m --base-url http://127.0.0.1:9/v1 --api-key-env \"$(printf '\\t')\" --out r.db")
ptxbench_bad_input(run_blank_out 2 "^ptxbench: --out was given a blank value"
  ARGS sh -c "${_p} run --tasks ${_gemm} --out ' '")
ptxbench_bad_input(run_blank_tasks 2 "^ptxbench: --tasks was given a blank value"
  ARGS sh -c "${_p} run --tasks '   ' --out r.db")
ptxbench_bad_input(show_blank_argument 2 "^ptxbench: a blank argument \\(only whitespace\\) after 'show'"
  ARGS sh -c "${_p} show ' '")
ptxbench_bad_input(tasks_blank_family 2 "^ptxbench: --family was given a blank value"
  ARGS sh -c "${_p} tasks --family ' '")
ptxbench_bad_input(gate_blank_junit 2 "^ptxbench: --junit was given a blank value"
  ARGS sh -c "${_p} gate ${_plain} --task ${_gemm} --junit ' '")
# R62/R63: the scripted trajectories a run replays are read before its run file exists.
ptxbench_bad_input(run_invalid_scripted_trajectory 2
  "^ptxbench run: the scripted agent's trajectories: bad_trajectory/+trajectories/v1/gemm_n7168_k5120.sm_90a.toml:4:[0-9]+: not valid TOML"
  SETUP bad_trajectory/ ARGS env PTXBENCH_ROOT=bad_trajectory ${_run1} --out r.db)
# Campaign 5: O30, a scripted kernel named by an absolute path; O14, a context fragment that is
# a FIFO (the prompt waited for a writer forever).
ptxbench_bad_input(run_scripted_trajectory_absolute_kernel 2
  "kernel /etc/passwd cannot be read \\(/etc/passwd: the path must be relative to"
  SETUP absolute_kernel/ ARGS env PTXBENCH_ROOT=absolute_kernel ${_run1} --out r.db)
ptxbench_bad_input(prompt_fifo_context_fragment 2
  "context fragment .*role.md .* cannot be used: cannot read .*: it is not a regular file"
  SETUP fifo_fragment/ OPTIONS --max-s 20
  ARGS env PTXBENCH_ROOT=fifo_fragment ${_p} prompt ${_gemm} --context none)
ptxbench_bad_input(run_scripted_trajectory_missing_kernel 2
  "^ptxbench run: the scripted agent's trajectories: .*gemm_n7168_k5120.sm_90a.toml: turn 1: kernel kernels/no_such_kernel.cu cannot be read"
  SETUP missing_kernel/ ARGS env PTXBENCH_ROOT=missing_kernel ${_run1} --out r.db)
# TK19: a root whose tasks/ holds no task file is a wrong PTXBENCH_ROOT, not an empty suite.
ptxbench_bad_input(tasks_empty_task_folder 2 "no task files \\(\\*\\.toml\\) were found under .*empty_root/tasks"
  SETUP empty_root/tasks/ OPTIONS --grep "PTXBENCH_ROOT"
  ARGS env PTXBENCH_ROOT=empty_root ${_p} tasks)
# A tolerance that is nan, inf or negative would pass every element (campaign 4, O09, O10).
set(_src_root ${CMAKE_CURRENT_SOURCE_DIR}/../..)
foreach(_row "rtol_nan|rtol = nan|rtol" "atol_inf|atol = inf|atol")
  string(REPLACE "|" ";" _f "${_row}")
  list(GET _f 0 _n)
  list(GET _f 1 _line)
  list(GET _f 2 _key)
  ptxbench_bad_input(tasks_tolerance_${_n} 2 "^ptxbench tasks: .*gemm_n7168_k5120.toml: tolerance.${_key}: is not a finite number of at least 0"
    ARGS sh -c "mkdir -p rt/tasks && cp ${_src_root}/tasks/gemm/gemm_n7168_k5120.toml rt/tasks/ && sed -i '/^\\[tolerance\\]/,/^\\[/{/^${_key} *=/d}' rt/tasks/gemm_n7168_k5120.toml && sed -i 's/^\\[tolerance\\]/[tolerance]\\n${_line}/' rt/tasks/gemm_n7168_k5120.toml && PTXBENCH_ROOT=rt ${_p} tasks; c=$?; rm -r rt; exit $c")
endforeach()
ptxbench_bad_input(run_empty_task_folder 2 "no task files \\(\\*\\.toml\\) were found under .*empty_root/tasks"
  SETUP empty_root/tasks/ ARGS env PTXBENCH_ROOT=empty_root ${_p} run --out r.db)
# E12: an integer option's value past its type is refused, never wrapped or saturated.
ptxbench_bad_input(eval_seed_past_2_64 2
  "--seed: '18446744073709551616' is out of range \\(at most 18446744073709551615\\)"
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --seed 18446744073709551616)
ptxbench_bad_input(eval_input_seed_past_2_64 2 "--input-seed: '99999999999999999999' is out of range"
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --input-seed 99999999999999999999)
ptxbench_bad_input(audit_seed_past_2_64 2 "--seed: '18446744073709551616' is out of range"
  ARGS ${_p} audit ${_kernel} --task ${_gemm} --seed 18446744073709551616)
ptxbench_bad_input(sft_seed_past_2_64 2 "--seed: '18446744073709551616' is out of range"
  SETUP foreign.db ARGS ${_p} sft fixit foreign.db --out o --seed 18446744073709551616)
ptxbench_bad_input(sft_max_tokens_past_2_64 2 "--max-tokens: '18446744073709551616' is (out of range|not a whole number in \\[0, 10000000\\])"
  SETUP foreign.db ARGS ${_p} sft fixit foreign.db --out o --max-tokens 18446744073709551616)
ptxbench_bad_input(run_shard_count_past_int 2 "--shard-count: '2147483648' is out of range \\(at most 2147483647\\)"
  ARGS ${_run1} --shard-count 2147483648)
# GT16: --shared-inputs with --allow-weaker-sandbox is a valid combination (with the whole
# sandbox the latter changes nothing); the help says what happens where the sandbox is weaker.
ptxbench_bad_input(gate_help_says_what_shared_inputs_does_under_a_weaker_sandbox 0 ""
  OPTIONS --grep "each candidate is judged on input sets of its own instead"
          --lacks "Not where the candidate's sandbox is weaker"
  ARGS ${_p} gate --help)

# The judging option group (cli/judging_options.h) is the same in every judging command.
ptxbench_bad_input(gate_trials_too_few 2 "--trials: '2' is not a whole number in \\[3, 100\\]$"
  ARGS ${_p} gate ${_kernel} --task ${_gemm} --trials 2)
# Campaign 7, V02h: "3" followed by a no-break space was "Value 3  not in range 3 to 100", a value
# that looks in range; the byte that is not a digit is named.
ptxbench_bad_input(eval_trials_no_break_space 2 "--trials: '3.+' is not a whole number in \\[3, 100\\]: it holds the byte 0xC2 \\(position 2\\), not a digit"
  ARGS sh -c "${_p} eval ${_kernel} --task ${_gemm} --trials \"$(printf '3\\302\\240')\"")
ptxbench_bad_input(gate_call_timeout_nan 2 "--call-timeout: 'nan' is not a number in"
  ARGS ${_p} gate ${_kernel} --task ${_gemm} --call-timeout nan)
ptxbench_bad_input(run_library_plan_bogus 2 "--library-plan: bogus not in \\{fastest,heuristic\\}"
  ARGS ${_run1} --library-plan bogus)
ptxbench_bad_input(run_sample_budget_too_small 2 "--sample-budget: '0.01' is not a number in"
  ARGS ${_run1} --sample-budget 0.01)
ptxbench_bad_input(run_resume_with_trials 2 "--resume continues a run with the settings stored in it. --trials would be ignored"
  SETUP foreign.db ARGS ${_p} run --resume foreign.db --trials 5)
# --count-timed-calls is a flag: a value other than true/false is refused, and a resumed run
# keeps the stored setting.
ptxbench_bad_input(eval_count_timed_calls_value 2 "Could not convert: --count-timed-calls = maybe"
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --count-timed-calls=maybe)
ptxbench_bad_input(run_resume_with_count_timed_calls 2 "--resume continues a run with the settings stored in it. --count-timed-calls would be ignored"
  SETUP foreign.db ARGS ${_p} run --resume foreign.db --count-timed-calls)

# An output ending in / that does not exist is refused before anything is made (campaign 3b
# R15, V08, H21, H22: an empty folder was made, then the command failed).
ptxbench_bad_input(run_out_ends_in_slash 2 "--out n.db/ names a folder"
  OPTIONS --grep "e.g. --out n.db/run.db" ARGS ${_run1} --turns 1 --out n.db/)
ptxbench_bad_input(sft_coverage_out_ends_in_slash 2 "--out c.txt/ names a folder"
  OPTIONS --grep "e.g. --out c.txt\\)" ARGS ${_p} sft coverage ${_h200} --out c.txt/)
ptxbench_bad_input(report_html_ends_in_slash 2 "--html h.html/ names a folder"
  ARGS ${_p} report ${_h200} --html h.html/)
ptxbench_bad_input(report_junit_ends_in_slash 2 "--junit sub/ names a folder"
  ARGS ${_p} report ${_h200} --junit sub/)

# Two writers of one new output without --force: exactly one writes it, the other is refused
# ("already exists"), never silently replacing it (campaign 3b V04, X11: both said "wrote").
ptxbench_bad_input(sft_coverage_concurrent_writers 0 ""
  ARGS sh -c "for i in 1 2 3 4; do ${_p} sft coverage ${_h200} --out c.txt >o$i.txt 2>&1 & done; wait; n=$(cat o1.txt o2.txt o3.txt o4.txt | grep -c 'wrote the coverage report'); r=$(cat o1.txt o2.txt o3.txt o4.txt | grep -c 'already exists'); rm o1.txt o2.txt o3.txt o4.txt c.txt; echo wrote $n refused $r; test $n = 1 && test $r = 3")

# An output naming an input run file's SQLite companion (-wal, -journal, -shm) is refused like
# the input itself, even with --force (campaign 3b X28: the input's WAL was replaced).
ptxbench_bad_input(report_csv_is_the_input_wal 2 "--csv finished.db-wal is the SQLite companion file of the input finished.db"
  SETUP finished.db ARGS ${_p} report finished.db --csv finished.db-wal --force)
ptxbench_bad_input(sft_coverage_out_is_the_input_journal 2 "--out finished.db-journal is the SQLite companion file"
  SETUP finished.db ARGS ${_p} sft coverage finished.db --out finished.db-journal --force)

# sft mine --out naming a run file of `ptxbench run` (not a mine store) is refused, the file
# untouched (campaign 3b N07: the teacher's trajectory was written into it).
ptxbench_bad_input(sft_mine_out_is_a_run_file 2 "--out s0.db is a run file of `ptxbench run`, not a mine store"
  SETUP finished.db
  ARGS sh -c "cp finished.db s0.db && ${_p} sft mine finished.db --model m --base-url http://127.0.0.1:1/v1 --out s0.db --limit 1 --attempts 1 --retry-max-s 0; c=$?; cmp -s finished.db s0.db || exit 9; rm s0.db; exit $c")

# gate --json cut short by the file size limit (or a full disk) is removed and the cause said
# (campaign 3b X05: a cut file was left and "writing j.jsonl failed" gave no reason).
ptxbench_bad_input(gate_json_file_size_limit 1 ""
  OPTIONS --grep "writing j.jsonl failed: File too large \\(the cut file was removed\\)"
  ARGS sh -c "ulimit -f 1; ${_p} gate ${_kernel} --task ${_gemm} --max-source-bytes 2 --json j.jsonl; c=$?; ls j.jsonl* >/dev/null 2>&1 && exit 9; exit $c")

# serve: options are refused before anything listens (the service itself: tests/cli/serve.sh
# and src/serve/*_test.cc).
ptxbench_bad_input(serve_public_address_without_token 2
  "^ptxbench serve: --host 0.0.0.0 is not a loopback address \\(127.0.0.0/8, ::1, localhost\\), and no token was given"
  ARGS env -u PTXBENCH_SERVE_TOKEN ${_p} serve --host 0.0.0.0 --store s.db)
ptxbench_bad_input(serve_short_token 2 "^ptxbench serve: the token in t.txt is 5 characters long" OPTIONS --creates t.txt
  ARGS bash -c "echo short > t.txt && exec \"$0\" serve --token-file t.txt --store s.db" ${_p})
ptxbench_bad_input(serve_missing_token_file 2 "^ptxbench serve: .*nothere.txt"
  ARGS ${_p} serve --token-file nothere.txt --store s.db)
ptxbench_bad_input(serve_port_out_of_range 2 "--port" ARGS ${_p} serve --port 70000)
ptxbench_bad_input(serve_too_many_gpus 2 "^ptxbench serve: --gpus 2 but this process may use 0 GPU"
  ARGS ${_p} serve --gpus 2 --store s.db)
ptxbench_bad_input(serve_store_in_missing_folder 1 "^ptxbench serve: .*no/such/folder/s.db"
  ARGS ${_p} serve --store no/such/folder/s.db --port 0)
ptxbench_bad_input(serve_instance_with_a_dot 2 "--instance must be 1 to 40 letters, digits"
  ARGS ${_p} serve --instance node.7 --store s.db)
# Tenants (--tokens-file, docs/serve.md "Tenants"; every mistake of the file: src/serve/
# tenants_test.cc).
ptxbench_bad_input(serve_tokens_file_bad_line 2
  "^ptxbench serve: tenants.txt line 2: tenant team-b's token is 5 characters long"
  OPTIONS --creates tenants.txt
  ARGS bash -c "printf 'team-a 0123456789abcdef0\\nteam-b short\\n' > tenants.txt && exec \"$0\" serve --tokens-file tenants.txt --store s.db" ${_p})
ptxbench_bad_input(serve_tokens_file_same_token_twice 2
  "^ptxbench serve: tenants.txt: two tenants have the same token"
  OPTIONS --creates tenants.txt
  ARGS bash -c "printf 'a 0123456789abcdef0\\nb 0123456789abcdef0\\n' > tenants.txt && exec \"$0\" serve --tokens-file tenants.txt --store s.db" ${_p})
ptxbench_bad_input(serve_token_file_and_tokens_file 2
  "^ptxbench serve: both --token-file and --tokens-file are given"
  ARGS ${_p} serve --token-file t.txt --tokens-file tenants.txt --store s.db)
ptxbench_bad_input(serve_max_queued_per_tenant_negative 2 "--max-queued-per-tenant"
  ARGS ${_p} serve --max-queued-per-tenant -1 --store s.db)
# serve lb-config: the HAProxy configuration for several instances (its text: src/serve/
# lb_config_test.cc; a real HAProxy in front of two instances: tests/cli/serve_haproxy.sh).
ptxbench_bad_input(serve_lb_config_without_backends 2 "--backend is required"
  ARGS ${_p} serve lb-config)
ptxbench_bad_input(serve_lb_config_backend_without_name 2
  "^ptxbench serve lb-config: --backend \"10.0.0.7:8765\": it is not HOST:PORT:NAME.*give HOST:PORT:NAME, e.g. 10.0.0.7:8765:gpu-node-7"
  ARGS ${_p} serve lb-config --backend 10.0.0.7:8765)
ptxbench_bad_input(serve_lb_config_bad_port 2
  "^ptxbench serve lb-config: --backend \"h:99999:n1\": the port is not a number from 1 to 65535"
  ARGS ${_p} serve lb-config --backend h:99999:n1)
ptxbench_bad_input(serve_lb_config_same_name_twice 2
  "^ptxbench serve lb-config: two backends are named \"n1\".*its own .ptxbench serve --instance."
  ARGS ${_p} serve lb-config --backend a:1:n1 --backend b:1:n1)
ptxbench_bad_input(serve_lb_config_bad_bind 2
  "^ptxbench serve lb-config: --bind \"8765\" is not ADDR:PORT"
  ARGS ${_p} serve lb-config --backend a:1:n1 --bind 8765)
ptxbench_bad_input(serve_lb_config_prints_a_config 0 "^# HAProxy in front of 2"
  OPTIONS --grep "use-server n2 if \\{ path_beg /v1/jobs/n2\\. \\}" --grep "balance leastconn"
  ARGS ${_p} serve lb-config --backend a:1:n1 --backend b:2:n2)

# import-fib, export-fib and eval --task-config: FlashInfer-Trace (issue 36, docs/interop.md)
set(_fib ${CMAKE_CURRENT_SOURCE_DIR}/../../src/interop/testdata)
ptxbench_bad_input(import_fib_needs_out 2 "--out is required"
  ARGS ${_p} import-fib ${_fib}/reference_gemm_n7168_k5120.json)
ptxbench_bad_input(import_fib_missing_definition 2
  "^ptxbench import-fib: the definition nothere.json does not exist$"
  ARGS ${_p} import-fib nothere.json --out t)
ptxbench_bad_input(import_fib_not_json 2 "^ptxbench import-fib: definition: not JSON"
  SETUP def.json ARGS ${_p} import-fib def.json --out t)
ptxbench_bad_input(import_fib_other_op_type 2
  "^ptxbench import-fib: definition: op_type: 'moe' is not a family ptxbench judges"
  ARGS ${_p} import-fib ${_fib}/unsupported_moe.json --out t)
ptxbench_bad_input(import_fib_other_dtype 2
  "^ptxbench import-fib: definition: inputs.A.dtype: 'float16' is not judged by ptxbench"
  ARGS ${_p} import-fib ${_fib}/unsupported_fp16.json --out t)
ptxbench_bad_input(import_fib_unknown_timed 2 "--timed nope: no workload has this uuid"
  ARGS ${_p} import-fib ${_fib}/reference_mha_bwd_d128.json ${_fib}/reference_mha_bwd_d128.jsonl
    --out t --timed nope)
ptxbench_bad_input(import_fib_workloads_of_another 2
  "^ptxbench import-fib: workloads line 1: definition: 'mha_bwd_d128' is not the definition"
  ARGS ${_p} import-fib ${_fib}/reference_gemm_n7168_k5120.json ${_fib}/reference_mha_bwd_d128.jsonl
    --out t)
ptxbench_bad_input(import_fib_out_under_a_file 2 "^ptxbench import-fib: --out"
  SETUP t ARGS ${_p} import-fib ${_fib}/reference_gemm_n7168_k5120.json --out t)
ptxbench_bad_input(import_fib_writes_the_spec 0 "^wrote t/gemm/gemm_n7168_k5120.toml: gemm, timed"
  SETUP t/gemm/ OPTIONS --creates t/gemm/gemm_n7168_k5120.toml --file-grep t/gemm/gemm_n7168_k5120.toml "^flops = "
  ARGS ${_p} import-fib ${_fib}/reference_gemm_n7168_k5120.json --out t)
ptxbench_bad_input(export_fib_needs_out 2 "--out is required" SETUP finished.db
  ARGS ${_p} export-fib finished.db)
ptxbench_bad_input(export_fib_missing_run 2 "^ptxbench export-fib: nothere.db does not exist"
  ARGS ${_p} export-fib nothere.db --out d)
ptxbench_bad_input(export_fib_foreign_file 2 "^ptxbench export-fib: .*foreign.db.*not a ptxbench run"
  SETUP foreign.db ARGS ${_p} export-fib foreign.db --out d)
ptxbench_bad_input(export_fib_out_not_empty 2 "^ptxbench export-fib: --out . is a folder that is not empty"
  SETUP finished.db ARGS ${_p} export-fib finished.db --out .)
ptxbench_bad_input(export_fib_out_is_a_file 2 "^ptxbench export-fib: --out x is a file"
  SETUP finished.db x ARGS ${_p} export-fib finished.db --out x)
ptxbench_bad_input(eval_needs_task_or_config 2 "^ptxbench eval: --task or --task-config is required"
  ARGS ${_p} eval ${_kernel})
ptxbench_bad_input(eval_task_and_config 2 "excludes"
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --task-config ${_fib}/reference_gemm_n7168_k5120.json)
ptxbench_bad_input(eval_workloads_without_config 2 "requires --task-config|--workloads requires"
  ARGS ${_p} eval ${_kernel} --task ${_gemm} --workloads x.jsonl)
ptxbench_bad_input(eval_config_other_op_type 2
  "^ptxbench eval: --task-config .*unsupported_moe.json: definition: op_type: 'moe'"
  ARGS ${_p} eval ${_kernel} --task-config ${_fib}/unsupported_moe.json)
ptxbench_bad_input(eval_manifest_needs_trace_set 2
  "^ptxbench eval: --task-config .* is the reference PTXBench's task manifest for definition 'gemm_n7168_k5120'"
  ARGS ${_p} eval ${_kernel} --task-config ${_fib}/reference_task_gemm_n7168_k5120.json)
ptxbench_bad_input(eval_manifest_trace_set_without_it 2 "no definition gemm_n7168_k5120.json under"
  ARGS ${_p} eval ${_kernel} --task-config ${_fib}/reference_task_gemm_n7168_k5120.json
    --trace-set ${_fib})
# The reference's own invocation, on this machine without a GPU: compiled, not evaluated, and the
# ptxbench.eval.v1 fields beside ptxbench's report (status INFRA_ERROR: no kernel was run).
ptxbench_bad_input(eval_reference_invocation 0 "^\\{"
  OPTIONS --json --grep "\"schema\": \"ptxbench.eval.v1\"" --grep "\"status\": \"INFRA_ERROR\""
          --grep "\"task_id\": \"gemm-n7168-k5120-m8192-h100\"" --grep "\"disposition\": \"not_evaluated\""
  ARGS ${_p} eval ${_kernel} --task-config ${_fib}/reference_task_gemm_n7168_k5120.json
    --trace-set ${_fib}/trace_set --json)
# A definition as --task-config, with its workloads (listed in workload_uuids); task_id is the
# definition's name. Without a GPU: compiled, not evaluated, exit 0.
ptxbench_bad_input(eval_definition_as_task_config 0 "^\\{"
  OPTIONS --json --grep "\"schema\": \"ptxbench.eval.v1\"" --grep "\"task_id\": \"gemm_n7168_k5120\""
          --grep "\"5f0e4a8e-3c1b-4d3e-9a55-0000000000a1\"" --grep "\"disposition\": \"not_evaluated\""
  ARGS ${_p} eval ${_kernel} --task-config ${_fib}/reference_gemm_n7168_k5120.json
    --workloads ${_fib}/trace_set/workloads/gemm/gemm_n7168_k5120.jsonl --json)
