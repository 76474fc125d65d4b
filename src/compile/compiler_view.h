// The Landlock view nvcc runs in: whatever a candidate's source says (an #include of an
// absolute path, `.incbin`, `#pragma GCC dependency`, tricks the source policy does not know),
// nvcc and everything it starts (cudafe++, cicc, ptxas, gcc, as, ld) can read only the CUDA
// toolkit, the host compiler and the system's headers and libraries (/usr, /lib*, /bin), the
// DLPack headers, the dynamic loader's cache and /etc/alternatives, and write only the
// build folder (and /dev/null). /etc, /proc, /root, home folders, the compile cache's other
// entries and the repository stay closed: an attempt fails as "cannot open source file" in
// nvcc's log. The source policy (policy.h) names the same includes up front; this view is what
// holds when it misses one.
//
// Where the kernel has no Landlock the compile still runs, unconfined, and the result says
// so (CompileResult::compiler_confined).
#pragma once

#include <filesystem>
#include <vector>

#include "sandbox/sandbox.h"

namespace ptxbench::compile {

// `nvcc`: the compiler's path (its toolkit is the folder above its bin/); `dlpack_dir`: where
// dlpack/dlpack.h is (empty: /usr/include); `build_dir`: the one writable folder; `extra_read`:
// more folders to read (a tvm-ffi candidate's: the apache-tvm-ffi headers and library).
SandboxPolicy compiler_view(const std::filesystem::path& nvcc,
                            const std::filesystem::path& dlpack_dir,
                            const std::filesystem::path& build_dir,
                            const std::vector<std::filesystem::path>& extra_read = {});

}  // namespace ptxbench::compile
