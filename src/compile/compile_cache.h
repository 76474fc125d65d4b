// The content-addressed compile cache: Paths::cache_dir/compile/<key>/ holds kernel.cu,
// kernel.so, kernel.cubin, kernel.ptx, kernel.sass, compile.log and result.json. An entry
// is built in a temporary directory beside the entries and renamed into place whole, so
// no reader ever sees a half-written entry; an entry that does not check out (missing or
// malformed result.json, wrong key, missing or altered kernel.so) is ignored and replaced.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "compile/compile_result.h"
#include "core/fs.h"
#include "core/result.h"

namespace ptxbench::compile {

// Bumped when the entry layout or the result JSON changes: old entries become misses.
inline constexpr std::string_view kCacheSchema = "ptxbench-compile-v1";

class CompileCache {
 public:
  explicit CompileCache(std::filesystem::path root) : root_(std::move(root)) {}

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path entry_dir(const std::string& key) const { return root_ / key; }

  // The stored result for `key` with its paths pointing into the entry; an Error (a miss)
  // when there is no valid entry.
  Result<CompileResult> lookup(const std::string& key) const;

  // A fresh directory to build an entry in (same file system as the entries).
  Result<TempDir> make_build_dir() const;

  // Writes result.json into `build` and renames it to entry_dir(key), replacing an older
  // entry. When another process published the same key first, theirs is kept.
  Status publish(TempDir& build, const std::string& key, const CompileResult& result) const;

 private:
  void remove_stale_build_dirs() const;
  std::filesystem::path root_;
};

// The key: sha256 over the schema, the source, the flags, the arch and `nvcc --version`.
std::string cache_key(std::string_view source, const std::vector<std::string>& flags,
                      std::string_view arch, std::string_view toolkit_version);

// Points the result's file paths into `dir` (entries are relocatable).
void point_into(CompileResult& r, const std::filesystem::path& dir);

}  // namespace ptxbench::compile
