#include "cli/candidate_input.h"

#include <filesystem>

#include "cli/command.h"
#include "core/fs.h"
#include "core/utf8.h"
#include "task/loader.h"

namespace ptxbench::cli {

CLI::Option* add_candidate_options(CLI::App& sub, std::string& file, std::string& task,
                                   std::string& arch, bool task_required) {
  sub.add_option("kernel", file, "the candidate .cu file")->required();
  CLI::Option* t = sub.add_option("--task", task, "the task the kernel implements (ptxbench tasks)")
                       ->required(task_required);
  sub.add_option("--arch", arch, "sm_90a (Hopper) or sm_100a (Blackwell)")->capture_default_str();
  return t;
}

void add_source_limit_option(CLI::App& sub, std::size_t& max_source_bytes) {
  sub.add_option("--max-source-bytes", max_source_bytes,
                 "the largest kernel source accepted (a larger one is a policy violation)")
      ->check(whole_range(1, 1ll << 30))
      ->capture_default_str();
}

void add_contract_option(CLI::App& sub, ContractChoice& choice, const std::string& help) {
  sub.add_option_function<std::string>(
         "--contract",
         [&choice](const std::string& v) { choice = contract_choice_from_string(v).value(); }, help)
      ->check(CLI::IsMember([] {
        auto names = names_of(kContracts);
        names.push_back(std::string(to_string(ContractChoice{})));  // auto
        return names;
      }()))
      ->default_str("auto");
}

Result<CandidateInput> load_candidate_input(const Paths& paths, const std::string& file,
                                            const std::string& task, const std::string& arch,
                                            std::size_t max_source_bytes,
                                            const task::TaskSpec* given) {
  if (!task::is_known_arch(arch))
    return make_error("unknown architecture '" + arch + "' (use sm_90a or sm_100a)");
  CandidateInput in;
  std::error_code ec;
  if (std::filesystem::exists(file, ec) && !std::filesystem::is_regular_file(file, ec))
    return make_error(
        "cannot read " + file + ": not a regular file (" +
            (std::filesystem::is_directory(file, ec) ? "a folder" : "a device or pipe") + ")",
        "give the path of one .cu file");
  PTXB_TRY(FileHead head, read_file_head(file, max_source_bytes + 1));
  if (const Utf16 u = utf16_of(head.bytes); u != Utf16::no)
    return make_error(file + " is " + to_string(u) + " text, not UTF-8",
                      "save it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8 " + file +
                          " > utf8_copy), then pass that");
  const std::size_t bom = head.bytes.size() - without_utf8_bom(head.bytes).size();
  in.source = head.bytes.substr(bom);  // a UTF-8 byte-order mark is no part of the code
  in.source_bytes = head.size - bom;
  in.whole = head.whole();
  if (given) {
    in.spec = *given;
  } else {
    PTXB_TRY(in.spec, task::load_task_by_name(paths, task));
  }
  if (!in.spec.supports(arch))
    return make_error("task '" + in.spec.name + "' has no targets for " + arch,
                      "see `ptxbench tasks --arch " + arch + "`");
  return in;
}

}  // namespace ptxbench::cli
