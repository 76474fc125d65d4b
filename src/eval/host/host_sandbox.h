// The sandbox of ptxbench-host, the candidate's host process (sandbox/sandbox.h, profile host):
// applied after the shims (and the TVM-FFI runtime) are loaded and every descriptor but 0-4
// is closed, before the candidate is loaded, so its constructors run confined too.
//   Landlock  read (and map) the candidate's shared object, this program (its own copy: the
//             parent stages one per session) and the libraries already loaded in the process
//             (the shims, the C and C++ runtimes, the TVM-FFI runtime: a traceback reads their
//             symbols), one rule per file; no directory, nothing to write, no device file (no
//             /dev/nvidia*, not /dev/null).
//   seccomp   the host profile (sandbox/sandbox_profile.h): no device ioctl, threads, timers,
//             fresh executable memory, page-cache residency or eviction, machine-wide memory;
//             file locks answer EPERM; everything the gpu profile refuses.
// A refused call ends the process with the refusal line and exit 87. Where a mechanism is
// missing the report says so (SandboxReport::missing): never silently weaker; the parent
// decides whether to judge that way (--allow-weaker-sandbox).
#pragma once

#include <filesystem>
#include <vector>

#include "core/json.h"
#include "core/result.h"
#include "eval/host_protocol.h"
#include "sandbox/sandbox.h"

namespace ptxbench::eval::host {

SandboxPolicy host_policy(const std::filesystem::path& library);

// The files of the shared objects loaded in this process now (dl_iterate_phdr), absolute paths.
std::vector<std::filesystem::path> loaded_objects();

// Confines this process with host_policy(req.library), or not when req.sandbox is false. The
// report: SandboxReport::to_json plus "applied" (and "why" when not applied). An Error when a
// mechanism the kernel offers fails to apply (the process must not go on to the candidate).
Result<Json> confine_host(const HostRequest& req);

}  // namespace ptxbench::eval::host
