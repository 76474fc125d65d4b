#include "prompt/context.h"

#include <toml++/toml.h>

#include <set>

#include "core/fs.h"
#include "core/sha256.h"
#include "core/text.h"
#include "task/spec.h"

namespace ptxbench::prompt {
namespace {

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  for (std::size_t pos = s.find(from); pos != std::string::npos;
       pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
  return s;
}

std::string rtrim(std::string_view s) {
  std::size_t end = s.find_last_not_of(" \t\r\n");
  return end == std::string_view::npos ? std::string() : std::string(s.substr(0, end + 1));
}

}  // namespace

std::vector<std::string> ContextManifest::level_names() const {
  std::vector<std::string> names;
  for (const auto& [name, level] : levels) names.push_back(name);
  return names;
}

std::string_view contract_fragment(Contract contract) {
  return contract == Contract::tvm_ffi ? "contract-tvm-ffi" : "contract";
}

Result<std::vector<std::string>> ContextManifest::fragments_for(std::string_view level,
                                                                std::string_view arch,
                                                                Contract contract) const {
  auto it = levels.find(std::string(level));
  if (it == levels.end())
    return make_error("unknown context level '" + std::string(level) + "'",
                      "choose one of: " + join(level_names(), ", "));
  std::vector<std::string> out;
  for (const auto& f : it->second.fragments)
    out.push_back(
        replace_all(replace_all(f, "{arch}", arch), "{contract}", contract_fragment(contract)));
  return out;
}

Result<ContextManifest> parse_manifest(std::string_view toml_text,
                                       const std::filesystem::path& dir) {
  const std::string where = (dir / "levels.toml").string();
  toml::table t;
  try {
    t = toml::parse(toml_text, where);
  } catch (const toml::parse_error& e) {
    return make_error(where + ":" + std::to_string(e.source().begin.line) +
                          ": not valid TOML: " + std::string(e.description()),
                      "fix the manifest's syntax");
  }
  ContextManifest m;
  m.dir = dir;
  auto version = t["version"].value<std::string>();
  if (!version || version->empty()) return make_error(where + ": version: missing or not a string");
  m.version = *version;
  const toml::table* levels = t["levels"].as_table();
  if (levels == nullptr || levels->empty())
    return make_error(where + ": levels: no [levels.NAME] tables");
  for (const auto& [key, node] : *levels) {
    ContextLevel level;
    level.name = std::string(key.str());
    const toml::table* lt = node.as_table();
    if (lt == nullptr) return make_error(where + ": levels." + level.name + ": not a table");
    level.description = (*lt)["description"].value_or(std::string());
    const toml::array* frags = (*lt)["fragments"].as_array();
    if (frags == nullptr || frags->empty())
      return make_error(where + ": levels." + level.name + ".fragments: missing or empty");
    for (const auto& f : *frags) {
      auto s = f.value<std::string>();
      if (!s || s->empty() || s->find("..") != std::string::npos || s->front() == '/')
        return make_error(where + ": levels." + level.name +
                          ".fragments: each entry must be a relative path inside context/");
      level.fragments.push_back(*s);
    }
    m.levels.emplace(level.name, std::move(level));
  }
  return m;
}

Result<ContextManifest> load_manifest(const std::filesystem::path& context_dir) {
  auto text = read_file_inside(context_dir, "levels.toml");
  if (!text.ok())
    return make_error("cannot read the context manifest " + (context_dir / "levels.toml").string() +
                          ": " + text.error().message,
                      "run from a ptxbench checkout or set PTXBENCH_ROOT");
  return parse_manifest(*text, context_dir);
}

Result<std::string> context_fingerprint(const ContextManifest& manifest) {
  std::set<std::string> files = {"levels.toml"};
  for (const auto& [name, level] : manifest.levels)
    for (task::Arch arch : task::kAllArchs)
      for (Contract contract : {Contract::native, Contract::tvm_ffi}) {
        PTXB_TRY(std::vector<std::string> frags,
                 manifest.fragments_for(name, task::to_string(arch), contract));
        files.insert(frags.begin(), frags.end());
      }
  Sha256 h;
  for (const auto& f : files) {
    PTXB_TRY(std::string text, read_file_inside(manifest.dir, f));
    h.update(f).update("\n").update(text).update("\n");
  }
  return h.hex_digest();
}

Result<std::string> assemble_system_prompt(const ContextManifest& manifest, std::string_view level,
                                           std::string_view arch, Contract contract) {
  PTXB_TRY(std::vector<std::string> fragments, manifest.fragments_for(level, arch, contract));
  std::string out;
  for (const auto& rel : fragments) {
    auto text = read_file_inside(manifest.dir, rel);
    if (!text.ok())
      return make_error("context fragment " + (manifest.dir / rel).string() + " (level '" +
                            std::string(level) + "', arch " + std::string(arch) +
                            ") cannot be used: " + text.error().message,
                        "add the file (a regular file inside context/) or fix context/levels.toml");
    std::string body = rtrim(*text);
    if (body.empty())
      return make_error("context fragment " + (manifest.dir / rel).string() + " is empty");
    if (!out.empty()) out += "\n\n";
    out += body;
  }
  out += "\n";
  return out;
}

}  // namespace ptxbench::prompt
