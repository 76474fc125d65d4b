// CompileResult: the verdict of the compile stage for one candidate source, task and
// architecture. Plain data; JSON in result_json.h, human text in format.h.
#pragma once

#include <string>
#include <vector>

#include "compile/census.h"
#include "compile/entry_point.h"
#include "compile/policy.h"
#include "compile/ptxas_report.h"
#include "core/contract.h"
#include "core/outcome.h"

namespace ptxbench::compile {

struct CompileResult {
  // passed | policy_violation (source size and rules, disallowed symbols, or load-time code
  // and missing hardening in the built object) | compile_error (nvcc failed, no entry point
  // or one with the wrong signature) | compile_timeout (the compile stage ran past its limit:
  // source checks or nvcc; timed_out is set too).
  Outcome outcome = Outcome::compile_error;
  std::string summary;  // one paragraph for people and models: what happened, what to do
  std::string task;
  std::string arch;
  // The kernel contract the candidate was built and checked in (chosen, or detected from the
  // source); the runner calls it the same way.
  Contract contract = Contract::native;
  std::string log;  // nvcc/ptxas output, trimmed and size-capped
  bool timed_out = false;
  // The contract's entry point, checked against the task on every call (entry_point.h);
  // not_checked when the compile stopped before the check (nvcc failed, a policy violation,
  // a timeout).
  EntryPointProblem entry_point = EntryPointProblem::not_checked;
  // nvcc ran inside a Landlock view of the toolkit, the system headers and its build folder
  // (compiler_view.h); false where the kernel has no Landlock (or the entry came from an
  // older cache).
  bool compiler_confined = false;
  std::vector<PolicyViolation> violations;      // source policy (before nvcc)
  std::vector<std::string> disallowed_symbols;  // imports not on the allow-list
  std::vector<std::string> forbidden_exports;   // exported names that would interpose
  std::vector<std::string> symbol_reasons;      // one line per symbol above
  // What the built object runs at load/unload time or lacks (RELRO, BIND_NOW), one line
  // each with what to do instead (elf_hardening.h).
  std::vector<std::string> object_problems;
  // The sha256 of each fatbinary nvcc wrote for this build (its --keep folder), recorded when the
  // entry was built: the object's .nv_fatbin must hold exactly these (device_code.h). Empty in
  // entries made before the check: those are built again.
  std::vector<std::string> device_code_sha256;
  // Per function of the built code: its figures from the code, ptxas -v's where they agree
  // (resource_usage.h reconcile_resources).
  std::vector<KernelResources> resources;
  // The resources above were checked against the built code; false in entries made before the
  // check (those are built again).
  bool resources_from_code = false;
  std::vector<PtxasWarning> warnings;  // ptxas warnings / performance notes
  Census census;                       // empty unless the object was built
  std::string shared_object;           // absolute path inside the cache entry; empty if none
  std::string cubin;                   // the device image (for nvdisasm); empty if none
  std::string sass;                    // the SASS listing file the census came from
  std::string shared_object_sha256;
  std::string cache_key;  // sha256 of source, flags, arch and nvcc --version
  bool cache_hit = false;
  double seconds = 0;           // wall time of this compile() call
  double compiler_seconds = 0;  // nvcc's wall time when the entry was built
  // nvcc's CPU time (user + system, its cicc and ptxas included) when the entry was built;
  // 0 in results stored before it was measured. A cache hit spent none of it again.
  double compiler_cpu_seconds = 0;
  std::vector<std::string> command;  // the nvcc command line (paths relative to the entry)
};

}  // namespace ptxbench::compile
