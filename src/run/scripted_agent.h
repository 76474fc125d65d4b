// The embedded default agent: a ChatClient that replays a versioned trajectory
// shipped in trajectories/<version>/<task>.<arch>.toml, so `ptxbench run` shows the
// whole protocol with no model endpoint. Each turn of the file is a reply text and a
// kernel file (repository-relative) that is appended as a fenced ```cuda block.
// When the file has no more turns the client answers with finish_reason
// kEndOfScript and the loop ends the trajectory ("script_end").
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/paths.h"
#include "core/result.h"
#include "judge/disposition.h"
#include "llm/chat.h"
#include "run/loop.h"

namespace ptxbench::run {

inline constexpr std::string_view kEndOfScript = "end_of_script";

struct ScriptedTurn {
  std::string text;    // what the "model" says before its code
  std::string kernel;  // repository-relative path; empty: a reply without code
  // The verdict this turn should get on a GPU (documentation and tests); none when not given.
  std::optional<judge::Disposition> expect;
  std::string code;  // the kernel file's content, loaded
};

struct ScriptedTrajectory {
  std::string version;
  std::string task;
  std::string arch;
  std::vector<ScriptedTurn> turns;
  std::filesystem::path file;
};

std::filesystem::path scripted_file(const Paths& paths, std::string_view version,
                                    std::string_view task, std::string_view arch);
// Parses and checks one file; every referenced kernel must exist (loaded into `code`).
Result<ScriptedTrajectory> load_scripted(const Paths& paths, const std::filesystem::path& file);
// Every trajectory file of a version (sorted by file name).
Result<std::vector<ScriptedTrajectory>> load_scripted_version(const Paths& paths,
                                                              std::string_view version);

// The reply text for one scripted turn (text, then the kernel in a ```cuda block).
std::string scripted_reply(const ScriptedTurn& t);

class ScriptedClient final : public llm::ChatClient {
 public:
  explicit ScriptedClient(ScriptedTrajectory t) : t_(std::move(t)) {}
  // Turn k (1-based) is the number of assistant messages in the request plus one.
  Result<llm::ChatReply> complete(const llm::ChatRequest& request) override;
  std::string model_id() const override { return "scripted/" + t_.version; }

 private:
  ScriptedTrajectory t_;
};

// Hands each trajectory a ScriptedClient for its (task, arch) file; loads each file once.
class ScriptedClientFactory final : public ClientFactory {
 public:
  ScriptedClientFactory(Paths paths, std::string version)
      : paths_(std::move(paths)), version_(std::move(version)) {}
  // Loads and checks the file of every (task, arch) pair of `plan` (its TOML, its fields, its
  // version, every kernel it names), before a run file exists: an Error names the first bad
  // file and what is wrong with it (issue 38: a bad file failed its trajectory in a run file
  // whose resume could only fail again). client_for then hands out what was loaded.
  Status load(const std::vector<store::TrajectoryKey>& plan);
  Result<std::shared_ptr<llm::ChatClient>> client_for(const store::TrajectoryKey& key) override;
  // Is there a trajectory file for this pair?
  bool has(const std::string& task, const std::string& arch) const;

 private:
  Result<ScriptedTrajectory> load_pair(const std::string& task, const std::string& arch) const;
  Paths paths_;
  std::string version_;
  std::map<std::pair<std::string, std::string>, ScriptedTrajectory> loaded_;  // set by load()
};

}  // namespace ptxbench::run
