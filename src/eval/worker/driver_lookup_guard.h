// The worker's run-time guard on CUDA driver lookups. The ptxbench-worker executable
// DEFINES and exports (linker option --export-dynamic-symbol, see src/eval/CMakeLists.txt)
//   cudaGetDriverEntryPoint, cudaGetDriverEntryPoint_ptsz,
//   cudaGetDriverEntryPointByVersion, cudaGetDriverEntryPointByVersion_ptsz,
//   cuGetProcAddress, cuGetProcAddress_v2
// with the CUDA 13 prototypes. The executable is first in the global lookup scope, so a
// candidate's imports of these names (dlopen'd with RTLD_LOCAL, through libcudart.so's
// symbol version or not) bind here rather than to libcudart/libcuda. Until the guard is
// armed every call is forwarded unchanged; once armed, a name on the driver allow-list
// (compile/driver_allow_list.h) is forwarded and returns exactly what the real function
// returns, and any other name ends the process: one line
//   "ptxbench-sandbox: refused driver function <name>\n"
// on stderr (write(2), no stdio, no allocation) and _exit(kDriverLookupRefusalExit).
//
// Forwarding goes to the next definition after the executable, found with
// dlsym(RTLD_NEXT, ...): libcudart.so for the runtime's lookups (the worker links the
// shared runtime; not the driver's cuGetProcAddress through -lcuda: that would make
// libcuda.so.1 a start-up dependency, so the worker would not even start without a driver,
// and the runtime's own answer, with its version and flag handling, is what the candidate
// asked for),
// libcuda.so.1 for cuGetProcAddress* (from the global scope, else the already loaded
// library, else loaded the way libcudart loads it). Without a driver library,
// cuGetProcAddress* return CUDA_ERROR_NOT_INITIALIZED.
//
// Who else calls these names: nothing that matters after arming. libcudart, cuBLASLt,
// cuDNN and CUPTI are linked -Bsymbolic and import none of them (cuBLASLt and cuDNN carry
// their own static runtime; none links libcuda: they reach the driver by dlopen/dlsym,
// which never resolves to the executable's definitions; driver_lookup_guard_test checks the
// installed libraries), and the worker's own code does not call them, so the baseline the
// candidate mode still builds after arming is unaffected. The guard is armed once, right before the
// candidate's dlopen (run_candidate_mode), and never disarmed: from then on the process runs
// untrusted code.
//
// A guard in the candidate's own process is a first line, not the sandbox: code that
// finds libcudart's functions by address (or issues system calls) gets past it; the
// operating-system sandbox (issue 13) confines that.
#pragma once

namespace ptxbench::eval::worker {

// The worker's exit status for a refused lookup: the sandbox refusal status.
// TODO(sandbox): use kSandboxRefusalExit (the sandbox helper's src/core/refusal.h, same value
// and the same "ptxbench-sandbox: refused ..." line shape) once that header lands on main.
inline constexpr int kDriverLookupRefusalExit = 87;

// From now on refuse every driver function that is not on the allow-list. Idempotent;
// there is no disarm.
void arm_driver_lookup_guard();

bool driver_lookup_guard_armed();

}  // namespace ptxbench::eval::worker
