#include "cli/report_outputs.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ptxbench::cli {
namespace {

// Is `out` the -wal, -journal or -shm file beside the input `in` (campaign 3b X28: --csv
// w.db-wal --force replaced the input's WAL, and its committed rows were lost)?
bool is_sqlite_companion(const std::string& in, const std::filesystem::path& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path a = fs::weakly_canonical(fs::absolute(in, ec), ec);
  const fs::path b = fs::weakly_canonical(fs::absolute(out, ec), ec);
  for (const char* suffix : {"-wal", "-journal", "-shm"})
    if (b == fs::path(a.string() + suffix)) return true;
  return false;
}

}  // namespace

Status check_output(const std::string& option, const std::filesystem::path& out,
                    const std::vector<std::string>& inputs, bool force) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // Refused before anything is made (campaign 3b, V08/H21/H22: an empty folder was left and an
  // internal temporary name shown); an existing folder is refused below.
  if (const std::string s = out.string(); s.ends_with('/') && !fs::exists(out, ec))
    return make_error(
        option + " " + s + " names a folder",
        "name the file to write, e.g. " + option + " " + fs::path(s).parent_path().string());
  for (fs::path q = out.parent_path(); !q.empty(); q = q.parent_path()) {
    if (fs::exists(q, ec)) {
      if (!fs::is_directory(q, ec))
        return make_error(
            option + " " + out.string() + ": " + q.string() + " is a file, not a folder",
            "write the file elsewhere");
      break;
    }
    if (q == q.parent_path()) break;
  }
  if (out == "-")  // not stdout: a file named "-" would be written silently
    return make_error(option + " -: the output goes to a file, not to stdout",
                      "name a file to write");
  if (fs::is_directory(out, ec))
    return make_error(option + " " + out.string() + " is a folder", "name a file to write");
  // A device, pipe or socket: the output is written to a new file and renamed into place, which
  // would replace it (`--html /dev/null --force` made /dev/null a regular file for everyone).
  if (const auto st = fs::status(out, ec); !ec && fs::exists(st) && !fs::is_regular_file(st))
    return make_error(
        option + " " + out.string() + " is not a regular file (a device, pipe or socket)",
        "name a file to write; the output is never written through a device");
  for (const auto& in : inputs)
    if (fs::equivalent(in, out, ec))
      return make_error(option + " " + out.string() + " is also an input (" + in + ")",
                        "write the output to another file");
  PTXB_TRY_STATUS(check_output_place(option, out, inputs));
  // A link to nowhere is no file another process made meanwhile (campaign 4, H04).
  if (!force && fs::is_symlink(fs::symlink_status(out, ec)) && !fs::exists(out, ec))
    return make_error(option + " " + out.string() + " is a dangling symbolic link (to " +
                          fs::read_symlink(out, ec).string() + ")",
                      "remove it or name a new file, or pass --force to write over the link");
  if (!force && fs::exists(out, ec))
    return make_error(option + " " + out.string() + " already exists",
                      "name a new file, or pass --force to write over it");
  return {};
}

Status check_output_place(const std::string& option, const std::filesystem::path& out,
                          const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  for (const auto& in : inputs)
    if (is_sqlite_companion(in, out))
      return make_error(option + " " + out.string() +
                            " is the SQLite companion file of the input " + in +
                            " (writing it would lose the run's last commits)",
                        "write the output to another file");
  std::error_code ec;
  for (fs::path q = out.has_parent_path() ? out.parent_path() : fs::path(".");;
       q = q.parent_path()) {
    if (fs::exists(q, ec) && !fs::is_directory(q, ec))  // out lies under a file (campaign 6, F02)
      return make_error("cannot write " + option + " " + out.string() + ": " + q.string() +
                            " is a file, not a folder",
                        "write it in a folder");
    if (fs::is_directory(q, ec)) {
      if (::access(q.c_str(), W_OK | X_OK) != 0)
        return make_error("cannot write " + option + " " + out.string() + ": " +
                              std::strerror(errno) + " (its folder " + q.string() +
                              " is not writable)",
                          "write it in a folder you may write");
      return {};
    }
    if (q.empty() || q == q.parent_path()) return {};
    if (!q.has_parent_path()) q = "./" + q.string();  // a relative path's first folder: in .
  }
}

Status make_output_folder(const std::filesystem::path& out) {
  if (out.parent_path().empty()) return {};
  std::error_code ec;
  std::filesystem::create_directories(out.parent_path(), ec);
  if (ec)
    return make_error("cannot make the folder " + out.parent_path().string() + ": " + ec.message());
  return {};
}

Status check_distinct_outputs(
    const std::vector<std::pair<std::string, std::filesystem::path>>& outputs) {
  namespace fs = std::filesystem;
  auto key = [](const fs::path& p) {
    std::error_code ec;
    fs::path k = fs::weakly_canonical(fs::absolute(p, ec), ec);
    return ec ? fs::absolute(p).lexically_normal() : k;
  };
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (key(outputs[i].second) == key(outputs[j].second))
        return make_error(outputs[j].first + " and " + outputs[i].first + " name the same file (" +
                              outputs[i].second.string() + "): one would replace the other",
                          "give each output a file of its own");
  return {};
}

}  // namespace ptxbench::cli
