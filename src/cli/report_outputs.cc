#include "cli/report_outputs.h"

namespace ptxbench::cli {

Status check_output(const std::string& option, const std::filesystem::path& out,
                    const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path parent = out.parent_path().empty() ? fs::path(".") : out.parent_path();
  if (!fs::is_directory(parent, ec))
    return make_error(
        option + " " + out.string() + ": the folder " + parent.string() + " does not exist",
        "create it first, or write the file elsewhere");
  if (fs::is_directory(out, ec))
    return make_error(option + " " + out.string() + " is a folder", "name a file to write");
  for (const auto& in : inputs)
    if (fs::equivalent(in, out, ec))
      return make_error(option + " " + out.string() + " is also an input (" + in + ")",
                        "write the output to another file");
  return {};
}

}  // namespace ptxbench::cli
