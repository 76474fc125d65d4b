// What a run records about where it ran: ptxbench version and git commit, host, nvcc,
// GPU and driver (nvidia-smi, when present), time and command line.
#pragma once

#include <string>
#include <vector>

#include "core/json.h"
#include "core/paths.h"
#include "core/subprocess.h"

namespace ptxbench::run {

Json collect_provenance(const Paths& paths, ProcessRunner& runner, const std::string& version,
                        const std::vector<std::string>& argv);

}  // namespace ptxbench::run
