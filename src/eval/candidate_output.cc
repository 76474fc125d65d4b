#include "eval/candidate_output.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

namespace ptxbench::eval {
namespace {

Status failed(const std::filesystem::path& file, int err) {
  return Error{"cannot write the candidate's output to " + file.string() + ": " +
               std::strerror(err)};
}

void section(std::ofstream& f, const char* name, std::string_view text) {
  f << "-- " << name << " (" << text.size() << " bytes) --\n" << text;
  if (!text.empty() && text.back() != '\n') f << "\n";
}

}  // namespace

Status start_candidate_output(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec)) return failed(file, EISDIR);
  std::ofstream f(file, std::ios::trunc);
  if (!f) return failed(file, errno ? errno : EIO);
  return {};
}

Status append_candidate_output(const std::filesystem::path& file, std::string_view session,
                               const CandidateOutput& out) {
  std::ofstream f(file, std::ios::app);
  if (!f) return failed(file, errno ? errno : EIO);
  f << "== " << session << " ==\n";
  section(f, "host process stdout", out.host_stdout);
  section(f, "host process stderr", out.host_stderr);
  section(f, "broker output", out.broker);
  f.flush();
  if (!f) return failed(file, errno ? errno : EIO);
  return {};
}

}  // namespace ptxbench::eval
