#include "interop/task_config.h"

#include <algorithm>
#include <set>

#include "core/fs.h"
#include "core/json.h"
#include "core/text.h"

namespace ptxbench::interop {
namespace {

namespace fs = std::filesystem;

Result<std::string> read_small(const fs::path& path, const std::string& what) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    return make_error(what + " " + path.string() + " is not a file");
  if (fs::file_size(path, ec) > (std::uintmax_t{64} << 20))
    return make_error(what + " " + path.string() + " is larger than 64 MiB");
  return read_file(path);
}

// The one file named `file_name` under `dir` (recursively); none or two is an error.
Result<fs::path> find_one(const fs::path& dir, const std::string& file_name,
                          const std::string& what) {
  std::error_code ec;
  std::vector<fs::path> found;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().filename() == file_name && it->is_regular_file(ec)) found.push_back(it->path());
  if (found.empty())
    return make_error("--trace-set " + dir.parent_path().string() + ": no " + what + " " +
                      file_name + " under " + dir.string());
  if (found.size() > 1)
    return make_error("--trace-set: " + file_name + " is there twice: " + found[0].string() +
                      " and " + found[1].string());
  return found[0];
}

std::string uuid_of(const Json& line) {
  const Json* w = &line;
  if (line.contains("workload") && line["workload"].is_object()) w = &line["workload"];
  return w->contains("uuid") && (*w)["uuid"].is_string() ? (*w)["uuid"].get<std::string>() : "";
}

Result<TaskConfig> from_manifest(const Json& m, const std::string& where,
                                 const fs::path& trace_set) {
  auto field = [&](const std::string& f, const std::string& why) {
    return make_error(where + ": " + f + ": " + why);
  };
  TaskConfig c;
  for (const char* key : {"task_id", "definition"})
    if (!m.contains(key) || !m[key].is_string() || m[key].get<std::string>().empty())
      return field(key, "must be a non-empty string");
  c.task_id = m["task_id"].get<std::string>();
  const std::string name = m["definition"].get<std::string>();
  if (!m.contains("workload_uuids") || !m["workload_uuids"].is_array() ||
      m["workload_uuids"].empty())
    return field("workload_uuids", "must be a non-empty list");
  for (const Json& u : m["workload_uuids"]) {
    if (!u.is_string() || u.get<std::string>().empty())
      return field("workload_uuids", "must hold non-empty strings");
    c.workload_uuids.push_back(u.get<std::string>());
  }
  if (m.contains("nvcc_gencode")) {
    const std::string g = m["nvcc_gencode"].is_string() ? m["nvcc_gencode"].get<std::string>() : "";
    if (g == "arch=compute_90a,code=sm_90a")
      c.arch = "sm_90a";
    else if (g == "arch=compute_100a,code=sm_100a")
      c.arch = "sm_100a";
    else
      return field("nvcc_gencode", "'" + g + "' is not sm_90a or sm_100a");
  }
  c.target_speedup = 1.0;
  if (m.contains("target_speedup")) {
    if (!m["target_speedup"].is_number() || m["target_speedup"].get<double>() < 0)
      return field("target_speedup", "must be a number of at least 0");
    c.target_speedup = m["target_speedup"].get<double>();
  }
  c.sanitizer_runs = 2;
  if (m.contains("max_check_runs")) {
    if (!m["max_check_runs"].is_number_integer() || m["max_check_runs"].get<std::int64_t>() < 0)
      return field("max_check_runs", "must be a whole number of at least 0");
    c.sanitizer_runs =
        static_cast<int>(std::min<std::int64_t>(m["max_check_runs"].get<std::int64_t>(), 1000));
  }
  if (trace_set.empty())
    return make_error(
        where + " is the reference PTXBench's task manifest for definition '" + name + "'",
        "pass --trace-set DIR, the FlashInfer-Trace folder holding "
        "definitions/.../" +
            name + ".json and workloads/.../" + name + ".jsonl");
  PTXB_TRY(fs::path def_file, find_one(trace_set / "definitions", name + ".json", "definition"));
  PTXB_TRY(fs::path wl_file, find_one(trace_set / "workloads", name + ".jsonl", "workloads file"));
  PTXB_TRY(std::string def_text, read_small(def_file, "the definition"));
  PTXB_TRY(std::string wl_text, read_small(wl_file, "the workloads file"));
  std::string listed;
  std::set<std::string> seen;
  for (const std::string& line : split_lines(wl_text)) {
    const Json j = parse_json(line);
    if (j.is_discarded() || !j.is_object()) continue;  // import_fib names a bad line of those kept
    const std::string u = uuid_of(j);
    if (std::find(c.workload_uuids.begin(), c.workload_uuids.end(), u) != c.workload_uuids.end())
      listed += line + "\n", seen.insert(u);
  }
  for (const auto& u : c.workload_uuids)
    if (!seen.count(u)) return field("workload_uuids", "'" + u + "' is not in " + wl_file.string());
  ImportOptions o;
  o.timed_uuid = c.workload_uuids.front();
  auto t = import_fib(def_text, listed, o);
  if (!t.ok()) return make_error(def_file.string() + ": " + t.error().to_string());
  c.task = std::move(t).value();
  return c;
}

}  // namespace

Result<TaskConfig> load_task_config(const fs::path& config, const fs::path& workloads_file,
                                    const fs::path& trace_set) {
  PTXB_TRY(std::string text, read_small(config, "--task-config"));
  const Json j = parse_json(text);
  if (j.is_discarded() || !j.is_object())
    return make_error("--task-config " + config.string() + ": not a JSON object",
                      "give a FlashInfer-Trace definition or a PTXBench task manifest");
  if (j.contains("task_id") && !j.contains("op_type")) {
    if (!workloads_file.empty())
      return make_error("--workloads: a task manifest names its workloads (workload_uuids)",
                        "drop --workloads; pass --trace-set DIR");
    return from_manifest(j, "--task-config " + config.string(), trace_set);
  }
  std::string workloads;
  if (!workloads_file.empty()) {
    PTXB_TRY(workloads, read_small(workloads_file, "--workloads"));
  }
  auto t = import_fib(text, workloads);
  if (!t.ok()) return make_error("--task-config " + config.string() + ": " + t.error().to_string());
  TaskConfig c;
  c.task = std::move(t).value();
  c.task_id = c.task.definition;
  c.workload_uuids = c.task.workload_uuids;
  return c;
}

}  // namespace ptxbench::interop
