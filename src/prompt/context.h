// Context levels: which fragments of context/ make up the system prompt (ablations).
// context/levels.toml maps each level name to an ordered list of fragment paths relative
// to context/; "{arch}" in a path is replaced by the architecture (sm_90a, sm_100a) and
// "{contract}" by the kernel contract's fragment name (contract_fragment). The manifest's
// version string is recorded with every run.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/contract.h"
#include "core/result.h"

namespace ptxbench::prompt {

struct ContextLevel {
  std::string name;
  std::string description;
  std::vector<std::string> fragments;  // may contain "{arch}"
};

struct ContextManifest {
  std::filesystem::path dir;  // the context/ folder
  std::string version;
  std::map<std::string, ContextLevel> levels;

  std::vector<std::string> level_names() const;
  // The level's fragment paths for `arch` and `contract`, relative to dir. Unknown level ->
  // Error that lists the known ones.
  Result<std::vector<std::string>> fragments_for(std::string_view level, std::string_view arch,
                                                 Contract contract = Contract::native) const;
};

// What "{contract}" becomes: "contract" (native: common/contract.md) or "contract-tvm-ffi".
std::string_view contract_fragment(Contract contract);

Result<ContextManifest> parse_manifest(std::string_view toml_text,
                                       const std::filesystem::path& dir);
// Reads <context_dir>/levels.toml.
Result<ContextManifest> load_manifest(const std::filesystem::path& context_dir);

// SHA-256 over levels.toml and every fragment any level uses for any known arch and contract
// (sorted
// paths, each followed by its content). It changes whenever the context text changes,
// so a test can insist that the version string changes with it.
Result<std::string> context_fingerprint(const ContextManifest& manifest);

// The system prompt: the level's fragments for `arch`, read from disk, trailing
// whitespace trimmed, joined by one blank line, ending with a newline. A missing or empty
// fragment file is an Error naming it.
Result<std::string> assemble_system_prompt(const ContextManifest& manifest, std::string_view level,
                                           std::string_view arch,
                                           Contract contract = Contract::native);

}  // namespace ptxbench::prompt
