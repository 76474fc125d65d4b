#include "prompt/prompt.h"

#include "core/sha256.h"
#include "prompt/context.h"
#include "prompt/tokens.h"

namespace ptxbench::prompt {

Result<PromptBundle> build_messages(const task::TaskSpec& task, std::string_view arch,
                                    std::string_view level, const Paths& paths,
                                    const PromptOptions& options) {
  PTXB_TRY(ContextManifest manifest, load_manifest(paths.context()));
  PTXB_TRY(std::string user, build_user_prompt(task, arch, options));
  PTXB_TRY(std::string system, assemble_system_prompt(manifest, level, arch, options.contract));
  PTXB_TRY(std::vector<std::string> fragments,
           manifest.fragments_for(level, arch, options.contract));
  PromptBundle b;
  b.system = std::move(system);
  b.user = std::move(user);
  b.level = std::string(level);
  b.version = manifest.version;
  b.context_sha256 = sha256_hex(b.system);
  b.fragments = std::move(fragments);
  b.system_tokens = estimate_tokens(b.system);
  b.user_tokens = estimate_tokens(b.user);
  b.token_estimate = b.system_tokens + b.user_tokens;
  return b;
}

}  // namespace ptxbench::prompt
