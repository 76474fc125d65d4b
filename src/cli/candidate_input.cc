#include "cli/candidate_input.h"

#include "core/fs.h"
#include "task/loader.h"

namespace ptxbench::cli {

void add_candidate_options(CLI::App& sub, std::string& file, std::string& task, std::string& arch) {
  sub.add_option("kernel", file, "the candidate .cu file")->required();
  sub.add_option("--task", task, "the task the kernel implements (ptxbench tasks)")->required();
  sub.add_option("--arch", arch, "sm_90a (Hopper) or sm_100a (Blackwell)")->capture_default_str();
}

Result<CandidateInput> load_candidate_input(const Paths& paths, const std::string& file,
                                            const std::string& task, const std::string& arch) {
  if (!task::is_known_arch(arch))
    return make_error("unknown architecture '" + arch + "' (use sm_90a or sm_100a)");
  CandidateInput in;
  PTXB_TRY(in.source, read_file(file));
  PTXB_TRY(in.spec, task::load_task_by_name(paths, task));
  if (!in.spec.supports(arch))
    return make_error("task '" + task + "' has no targets for " + arch,
                      "see `ptxbench tasks --arch " + arch + "`");
  return in;
}

}  // namespace ptxbench::cli
