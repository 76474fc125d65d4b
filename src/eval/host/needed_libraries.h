// The libraries a shared object names as its dependencies (DT_NEEDED), as the dynamic loader
// reads them: the dynamic segment's DT_STRTAB address, mapped to the file through the PT_LOAD
// segments, and each DT_NEEDED offset into that table. ptxbench-host refuses a candidate that
// needs a library it has not loaded before its sandbox closed (nothing can be opened after).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ptxbench::eval::host {

// The names in DT_NEEDED order. An Error for a file that is not a well-formed ELF64 shared
// object (a string table outside the file, a name without its terminating NUL).
Result<std::vector<std::string>> needed_libraries(std::string_view elf_bytes);

// Which of `names` no object loaded in this process answers to, by file name or soname
// (dlopen with RTLD_NOLOAD, as the loader matches a DT_NEEDED entry).
std::vector<std::string> not_loaded(const std::vector<std::string>& names);

}  // namespace ptxbench::eval::host
