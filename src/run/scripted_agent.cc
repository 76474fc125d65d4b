#include "run/scripted_agent.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>
#include <chrono>

#include "core/fs.h"

namespace ptxbench::run {
namespace {

Result<std::string> str_field(const toml::table& t, std::string_view key, const std::string& where,
                              bool required) {
  auto v = t[key].value<std::string>();
  if (!v && required)
    return make_error(where + ": missing string field `" + std::string(key) + "`");
  return v.value_or("");
}

Result<ScriptedTurn> parse_turn(const Paths& paths, const toml::table& t,
                                const std::string& where) {
  ScriptedTurn turn;
  PTXB_TRY(turn.text, str_field(t, "text", where, true));
  PTXB_TRY(turn.kernel, str_field(t, "kernel", where, false));
  PTXB_TRY(std::string expect, str_field(t, "expect", where, false));
  if (!expect.empty()) {  // a name no verdict has is a broken trajectory (campaign 4, O28)
    turn.expect = judge::disposition_from_string(expect);
    if (!turn.expect) {
      std::vector<std::string> names;
      for (judge::Disposition d : judge::all_dispositions())
        names.emplace_back(judge::to_string(d));
      return make_error(fmt::format("{}: expect = \"{}\" is not a verdict", where, expect),
                        fmt::format("use one of {}", fmt::join(names, ", ")));
    }
  }
  if (!turn.kernel.empty()) {
    auto code = read_file_inside(paths.root, turn.kernel);
    if (!code.ok())
      return make_error(
          where + ": kernel " + turn.kernel + " cannot be read (" + code.error().message + ")",
          "kernel paths are relative to PTXBENCH_ROOT, here " + paths.root.string() +
              ": fix the path or add the file");
    turn.code = std::move(*code);
  }
  return turn;
}

}  // namespace

std::filesystem::path scripted_file(const Paths& paths, std::string_view version,
                                    std::string_view task, std::string_view arch) {
  return paths.trajectories() / version / fmt::format("{}.{}.toml", task, arch);
}

Result<ScriptedTrajectory> load_scripted(const Paths& paths, const std::filesystem::path& file) {
  PTXB_TRY(std::string text, read_file(file));
  toml::table doc;
  try {
    doc = toml::parse(text, file.string());
  } catch (const toml::parse_error& e) {
    return make_error(fmt::format("{}:{}:{}: not valid TOML: {}", file.string(),
                                  e.source().begin.line, e.source().begin.column, e.description()));
  }
  ScriptedTrajectory t;
  t.file = file;
  std::string where = file.string();
  PTXB_TRY(t.version, str_field(doc, "version", where, true));
  PTXB_TRY(t.task, str_field(doc, "task", where, true));
  PTXB_TRY(t.arch, str_field(doc, "arch", where, true));
  const toml::array* turns = doc["turn"].as_array();
  if (!turns || turns->empty()) return make_error(where + ": no [[turn]] entries");
  for (std::size_t i = 0; i < turns->size(); ++i) {
    const toml::table* tt = (*turns)[i].as_table();
    if (!tt) return make_error(fmt::format("{}: turn {} is not a table", where, i + 1));
    PTXB_TRY(ScriptedTurn turn, parse_turn(paths, *tt, fmt::format("{}: turn {}", where, i + 1)));
    t.turns.push_back(std::move(turn));
  }
  std::string expected_name = t.task + "." + t.arch + ".toml";
  if (file.filename() != expected_name)
    return make_error(where + ": its task/arch say it should be named " + expected_name);
  return t;
}

Result<std::vector<ScriptedTrajectory>> load_scripted_version(const Paths& paths,
                                                              std::string_view version) {
  std::filesystem::path dir = paths.trajectories() / version;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    return make_error(
        dir.string() + " does not exist",
        "the scripted agent's versions are the folders of " + paths.trajectories().string());
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".toml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<ScriptedTrajectory> out;
  for (const auto& f : files) {
    PTXB_TRY(ScriptedTrajectory t, load_scripted(paths, f));
    if (t.version != version)
      return make_error(f.string() + ": version is " + t.version + ", its folder says " +
                        std::string(version));
    out.push_back(std::move(t));
  }
  return out;
}

std::string scripted_reply(const ScriptedTurn& t) {
  std::string reply = t.text;
  if (!t.code.empty()) {
    reply += "\n\n```cuda\n" + t.code;
    if (reply.back() != '\n') reply += '\n';
    reply += "```\n";
  }
  return reply;
}

Result<llm::ChatReply> ScriptedClient::complete(const llm::ChatRequest& request) {
  auto start = std::chrono::steady_clock::now();
  auto assistants = std::count_if(request.messages.begin(), request.messages.end(),
                                  [](const llm::Message& m) { return m.role == "assistant"; });
  llm::ChatReply r;
  r.model = model_id();
  auto k = static_cast<std::size_t>(assistants);
  if (k >= t_.turns.size()) {
    r.finish_reason = std::string(kEndOfScript);
  } else {
    r.content = scripted_reply(t_.turns[k]);
    r.finish_reason = "stop";
  }
  r.latency_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

Result<ScriptedTrajectory> ScriptedClientFactory::load_pair(const std::string& task,
                                                            const std::string& arch) const {
  std::filesystem::path file = scripted_file(paths_, version_, task, arch);
  std::error_code ec;
  if (!std::filesystem::exists(file, ec))
    return make_error("the scripted agent has no trajectory for " + task + " on " + arch + " (" +
                          file.string() + ")",
                      "pass --model and --base-url to use a model, or choose tasks listed in " +
                          (paths_.trajectories() / version_).string());
  auto t = load_scripted(paths_, file);
  if (!t.ok()) {
    Error e = t.error();
    e.message = "the scripted agent's trajectories: " + e.message;
    if (e.hint.empty())
      e.hint =
          "fix the file, whose format the comment atop trajectories/v1/*.toml describes, or "
          "pass --model and --base-url to use a model";
    return e;
  }
  if (t->version != version_)
    return make_error("the scripted agent's trajectories: " + file.string() + ": version is " +
                          t->version + ", its folder says " + version_,
                      "set version = \"" + version_ + "\" in it");
  return t;
}

Status ScriptedClientFactory::load(const std::vector<store::TrajectoryKey>& plan) {
  for (const auto& key : plan) {
    const auto pair = std::make_pair(key.task, key.arch);
    if (loaded_.count(pair) > 0) continue;
    PTXB_TRY(ScriptedTrajectory t, load_pair(key.task, key.arch));
    loaded_.emplace(pair, std::move(t));
  }
  return {};
}

Result<std::shared_ptr<llm::ChatClient>> ScriptedClientFactory::client_for(
    const store::TrajectoryKey& key) {
  if (auto it = loaded_.find({key.task, key.arch}); it != loaded_.end())
    return std::shared_ptr<llm::ChatClient>(std::make_shared<ScriptedClient>(it->second));
  PTXB_TRY(ScriptedTrajectory t, load_pair(key.task, key.arch));
  return std::shared_ptr<llm::ChatClient>(std::make_shared<ScriptedClient>(std::move(t)));
}

bool ScriptedClientFactory::has(const std::string& task, const std::string& arch) const {
  std::error_code ec;
  return std::filesystem::exists(scripted_file(paths_, version_, task, arch), ec);
}

}  // namespace ptxbench::run
