#include "cli/sft_args.h"

#include "core/text.h"

namespace ptxbench::cli {
namespace {

// The items of a comma-separated option, each given once or repeated. An empty item (a
// doubled comma, or one at an end) is refused: it is a typo that would silently drop a name.
Result<std::vector<std::string>> comma_list(const std::string& option,
                                            const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& v : values)
    for (const auto& part : split(v, ',')) {
      if (trim(part).empty())
        return make_error(
            option + " " + v + ": an empty item (a doubled comma, or a comma at an end)",
            "separate the names with single commas, e.g. " + option + " a,b");
      out.emplace_back(trim(part));
    }
  return out;
}

}  // namespace

Result<sft::Options> options_from(const SftArgs& a, sft::Mode mode) {
  sft::Options o;
  o.mode = mode;
  if (!a.categories.empty()) {
    PTXB_TRY(o.categories, comma_list("--categories", {a.categories}));
  }
  o.require_arch = !a.allow_missing_instructions;
  PTXB_TRY(o.allowed_flags, comma_list("--allow-flag", a.allow_flags));
  o.min_speedup = a.min_speedup;
  o.max_tokens = a.max_tokens;
  o.bytes_per_token = a.bytes_per_token;
  o.per_task_cap = a.per_task_cap;
  o.seed = a.seed;
  if (a.pairing != "one" && a.pairing != "all") return make_error("--pairing must be one or all");
  o.pairing = a.pairing == "one" ? sft::Pairing::one : sft::Pairing::all;
  PTXB_TRY(o.heldout_tasks, comma_list("--heldout-task", a.heldout));
  o.include_reasoning = !a.no_reasoning;
  PTXB_TRY_STATUS(o.validate());
  return o;
}

Result<sft::Corpus> corpus_from(const SftArgs& a) {
  std::vector<std::filesystem::path> paths(a.stores.begin(), a.stores.end());
  return sft::load_corpus(paths);
}

int sft_fail(Context& ctx, const Error& e, int code) {
  ctx.err << "error: " << e.to_string() << "\n";
  return exit_code_for(e, code);
}

}  // namespace ptxbench::cli
