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

// Bad input when the output is a folder, a folder on its path is a file, it is one of `inputs`
// (a run file or kernel it would overwrite), or it exists already and `force` is false (the
// command did not make it: it is written over only with --force). `option` names it in the
// message. A folder on its path that does not exist yet is made when the output is written
// (make_output_folder), as every command that writes does (issue 38: one rule).
Status check_output(const std::string& option, const std::filesystem::path& out,
                    const std::vector<std::string>& inputs, bool force);

// The checks every command that writes `out` beside its `inputs` makes (report, gate, sft,
// rejudge, merge): bad input when `out` is the -wal, -journal or -shm file of one of `inputs`
// (writing it would lose the input's last commits: campaign 3b X28, campaign 4 X35, X36), or
// when the folder it goes in (the nearest one on its path that is there) is not writable by
// this user ("cannot write OUT: Permission denied (its folder DIR is not writable)": campaign 4,
// J01, F22).
Status check_output_place(const std::string& option, const std::filesystem::path& out,
                          const std::vector<std::string>& inputs);

// The folders on the path to `out` that are not there yet, made just before it is written.
Status make_output_folder(const std::filesystem::path& out);

// Bad input when two outputs (option, path) name the same file, however spelt (`x.xml`,
// `./x.xml`, a link to it): one would silently replace the other.
Status check_distinct_outputs(
    const std::vector<std::pair<std::string, std::filesystem::path>>& outputs);

}  // namespace ptxbench::cli
