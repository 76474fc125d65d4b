// The files `report` and `gate` write (--html, --junit, --csv): checked before anything is
// read or judged, so a typo in an output path costs nothing, and written atomically
// (core/fs.h), so a CI job never reads half a file.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"

namespace ptxbench::cli {

// Bad input when an output's folder does not exist, the output is a folder, or it is one of
// `inputs` (a run file or kernel it would overwrite). `option` names it in the message.
Status check_output(const std::string& option, const std::filesystem::path& out,
                    const std::vector<std::string>& inputs);

// Bad input when two outputs (option, path) name the same file, however spelt (`x.xml`,
// `./x.xml`, a link to it): one would silently replace the other.
Status check_distinct_outputs(
    const std::vector<std::pair<std::string, std::filesystem::path>>& outputs);

}  // namespace ptxbench::cli
