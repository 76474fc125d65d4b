#include "eval/session_protocol.h"

#include "eval/session_json.h"

namespace ptxbench::eval {
namespace {

Result<gpu::Distribution> checked_dist_from(const std::string& s) {
  gpu::Distribution d{};
  if (gpu::distribution_from_string(s, d)) return d;
  return make_error("unknown input distribution '" + s + "'");
}

Json int_pair(int workload, int slot) {
  return Json{{"workload", workload}, {"slot", slot}};
}

}  // namespace

Json OpenCommand::to_json() const {
  Json w = Json::array();
  for (const auto& x : workloads) {
    Json bases = Json::array();
    for (const auto& b : x.bases)
      bases.push_back(
          {{"seed", b.seed}, {"distribution", gpu::to_string(b.dist)}, {"keep", b.keep}});
    w.push_back({{"problem", gpu::to_json(x.problem)},
                 {"bases", bases},
                 {"slots", x.slots},
                 {"baseline", x.baseline}});
  }
  return Json{{"op", "open"},
              {"workloads", w},
              {"library_plan", std::string(gpu::to_string(library_plan))},
              {"library_plan_index", library_plan_index}};
}

Result<OpenCommand> OpenCommand::from_json(const Json& j) {
  return guarded("open command", [&]() -> Result<OpenCommand> {
    OpenCommand r;
    const auto plan = gpu::library_plan_from_string(j.value("library_plan", "fastest"));
    if (!plan) return make_error("unknown library_plan (fastest or heuristic)");
    r.library_plan = *plan;
    r.library_plan_index = j.value("library_plan_index", -1);
    for (const auto& w : j.at("workloads")) {
      SessionWorkload s;
      PTXB_TRY(s.problem, gpu::problem_from_json(w.at("problem")));
      for (const auto& b : w.at("bases")) {
        PTXB_TRY(auto d, checked_dist_from(b.at("distribution").get<std::string>()));
        s.bases.push_back({b.at("seed").get<std::uint64_t>(), d, b.at("keep").get<bool>()});
      }
      s.slots = w.at("slots").get<int>();
      s.baseline = w.value("baseline", false);
      if (s.bases.empty() || s.slots < 1)
        return make_error("a workload needs a base set and a slot");
      r.workloads.push_back(std::move(s));
    }
    if (r.workloads.empty()) return make_error("a session needs a workload");
    return r;
  });
}

Json VerifierRequest::to_json() const {
  return Json{{"mode", "verifier"}, {"dir", dir}};
}

Result<VerifierRequest> VerifierRequest::from_json(const Json& j) {
  return guarded("verifier request", [&]() -> Result<VerifierRequest> {
    VerifierRequest r;
    r.dir = j.at("dir").get<std::string>();
    return r;
  });
}

std::string_view to_string(Instrument i) {
  switch (i) {
    case Instrument::cupti:
      return "cupti";
    case Instrument::nvtx:
      return "nvtx";
    case Instrument::none:
      break;
  }
  return "none";
}

std::optional<Instrument> instrument_from_string(std::string_view s) {
  for (Instrument i : {Instrument::none, Instrument::cupti, Instrument::nvtx})
    if (to_string(i) == s) return i;
  return std::nullopt;
}

Json AuditArmCommand::to_json() const {
  return Json{{"op", "audit_arm"}, {"function", function}};
}

Result<AuditArmCommand> audit_arm_from_json(const Json& j) {
  return guarded("audit_arm command", [&]() -> Result<AuditArmCommand> {
    AuditArmCommand c;
    c.function = j.value("function", std::string{});
    return c;
  });
}

Json SlotHandles::to_json() const {
  return Json{{"input_capacities", input_capacities},
              {"outputs", outputs},
              {"input_offsets", input_offsets},
              {"output_offsets", output_offsets}};
}

Result<SlotHandles> slot_handles_from_json(const Json& j) {
  return guarded("slot", [&]() -> Result<SlotHandles> {
    SlotHandles h;
    h.input_capacities = j.at("input_capacities").get<std::vector<std::uint64_t>>();
    h.outputs = j.at("outputs").get<std::vector<std::string>>();
    h.input_offsets = j.at("input_offsets").get<std::vector<std::uint64_t>>();
    h.output_offsets = j.at("output_offsets").get<std::vector<std::uint64_t>>();
    if (h.input_offsets.size() != h.input_capacities.size() ||
        h.output_offsets.size() != h.outputs.size())
      return make_error("a slot needs one offset per tensor");
    for (std::size_t i = 0; i < h.input_capacities.size(); ++i)
      if (h.input_offsets[i] >= h.input_capacities[i])
        return make_error("an input's offset lies outside its allocation");
    return h;
  });
}

std::size_t input_descriptors(const MapCommand& m) {
  std::size_t n = 0;
  for (const auto& w : m.workloads)
    for (const auto& s : w.slots) n += s.input_capacities.size();
  return n;
}

Json MapCommand::to_json() const {
  Json w = Json::array();
  for (const auto& x : workloads) {
    Json slots_j = Json::array();
    for (const auto& s : x.slots) slots_j.push_back(s.to_json());
    w.push_back({{"problem", gpu::to_json(x.problem)}, {"slots", slots_j}});
  }
  Json j{{"op", "map"}, {"workloads", w}};
  if (inputs_writable) j["inputs_writable"] = true;
  return j;
}

Result<MapCommand> map_from_json(const Json& j) {
  return guarded("map command", [&]() -> Result<MapCommand> {
    MapCommand m;
    for (const auto& w : j.at("workloads")) {
      RunnerWorkload x;
      PTXB_TRY(x.problem, gpu::problem_from_json(w.at("problem")));
      for (const auto& s : w.at("slots")) {
        PTXB_TRY(SlotHandles h, slot_handles_from_json(s));
        x.slots.push_back(std::move(h));
      }
      if (x.slots.empty()) return make_error("a runner workload needs a slot");
      m.workloads.push_back(std::move(x));
    }
    if (m.workloads.empty()) return make_error("the map command has no workload");
    m.inputs_writable = j.value("inputs_writable", false);
    return m;
  });
}

Json BrokerRequest::to_json() const {
  return Json{{"mode", "broker"},
              {"dir", dir},
              {"candidate", candidate},
              {"call_timeout_seconds", call_timeout_seconds},
              {"sandbox", sandbox},
              {"sandbox_read", sandbox_read},
              {"instrument", std::string(to_string(instrument))},
              {"profiled", profiled},
              {"workspace_quota", workspace_quota},
              {"count_calls", count_calls}};
}

Result<BrokerRequest> BrokerRequest::from_json(const Json& j) {
  return guarded("broker request", [&]() -> Result<BrokerRequest> {
    BrokerRequest r;
    r.dir = j.at("dir").get<std::string>();
    r.candidate = j.at("candidate").get<std::string>();
    r.call_timeout_seconds = j.value("call_timeout_seconds", 20.0);
    r.sandbox = j.value("sandbox", true);
    r.sandbox_read = j.value("sandbox_read", std::vector<std::string>{});
    auto inst = instrument_from_string(j.value("instrument", std::string("none")));
    if (!inst) return make_error("unknown broker instrument");
    r.instrument = *inst;
    r.profiled = j.value("profiled", false);
    r.workspace_quota = j.value("workspace_quota", kDefaultWorkspaceQuota);
    r.count_calls = j.value("count_calls", false);
    return r;
  });
}

const char* to_string(Content c) {
  switch (c) {
    case Content::transformed:
      return "transformed";
    case Content::repeat:
      return "repeat";
    case Content::fresh:
      return "fresh";
  }
  return "?";
}

bool content_from_string(const std::string& s, Content& out) {
  for (Content c : {Content::transformed, Content::repeat, Content::fresh})
    if (s == to_string(c)) {
      out = c;
      return true;
    }
  return false;
}

const char* to_string(LoadShare s) {
  switch (s) {
    case LoadShare::half:
      return "half";
    case LoadShare::most:
      return "most";
    case LoadShare::all_but_one:
      return "all_but_one";
  }
  return "?";
}

const char* share_words(LoadShare s) {
  switch (s) {
    case LoadShare::half:
      return "half the";
    case LoadShare::most:
      return "all but an eighth of the";
    case LoadShare::all_but_one:
      return "all but one of the";
  }
  return "?";
}

bool load_share_from_string(const std::string& s, LoadShare& out) {
  for (LoadShare v : {LoadShare::half, LoadShare::most, LoadShare::all_but_one})
    if (s == to_string(v)) {
      out = v;
      return true;
    }
  return false;
}

Json PrepareCommand::to_json() const {
  Json j = int_pair(workload, slot);
  j["op"] = "prepare";
  j["content"] = to_string(content);
  j["base"] = base;
  j["transform_seed"] = transform_seed;
  j["poison_seed"] = poison_seed;
  return j;
}

Json VerifyCommand::to_json() const {
  Json j = int_pair(workload, slot);
  j["op"] = "verify";
  return j;
}

Json BaselineCommand::to_json() const {
  Json j = int_pair(workload, slot);
  j["op"] = "baseline";
  j["check"] = check;
  return j;
}

Json LibraryCommand::to_json() const {
  return Json{{"op", "library"}, {"workload", workload}, {"count", count}, {"slot", slot}};
}

Json HeatCommand::to_json() const {
  return Json{{"op", "heat"}, {"ms", ms}};
}

Json CallCommand::to_json(const char* op) const {
  Json list = Json::array();
  for (const auto& c : calls) list.push_back(Json::array({c.workload, c.slot}));
  Json j{{"op", op}, {"calls", std::move(list)}};
  if (function_times) j["function_times"] = true;
  if (sm_load) j["sm_load"] = true;
  if (sm_load && sm_load_ms > 0) j["sm_load_ms"] = sm_load_ms;
  if (sm_load) j["sm_load_share"] = to_string(sm_load_share);
  return j;
}

Result<Command> Command::parse(const std::string& line) {
  Json j = Json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("op") || !j.at("op").is_string())
    return make_error("a command line is not a JSON object with an \"op\"");
  return Command{j.at("op").get<std::string>(), j};
}

Result<PrepareCommand> prepare_from_json(const Json& j) {
  return guarded("prepare command", [&]() -> Result<PrepareCommand> {
    PrepareCommand c;
    c.workload = j.at("workload").get<int>();
    c.slot = j.at("slot").get<int>();
    const std::string content = j.at("content").get<std::string>();
    if (!content_from_string(content, c.content))
      return make_error("unknown content '" + content + "'");
    c.base = j.value("base", 0);
    c.transform_seed = j.value("transform_seed", std::uint64_t{0});
    c.poison_seed = j.at("poison_seed").get<std::uint64_t>();
    return c;
  });
}

Result<VerifyCommand> verify_from_json(const Json& j) {
  return guarded("verify command", [&]() -> Result<VerifyCommand> {
    return VerifyCommand{j.at("workload").get<int>(), j.at("slot").get<int>()};
  });
}

Result<BaselineCommand> baseline_from_json(const Json& j) {
  return guarded("baseline command", [&]() -> Result<BaselineCommand> {
    return BaselineCommand{j.at("workload").get<int>(), j.at("slot").get<int>(),
                           j.value("check", false)};
  });
}

Result<CallCommand> call_from_json(const Json& j) {
  return guarded("call command", [&]() -> Result<CallCommand> {
    CallCommand c;
    for (const auto& e : j.at("calls")) {
      CallTarget t{e.at(0).get<int>(), e.at(1).get<int>()};
      for (const auto& o : c.calls)
        if (o.workload == t.workload && o.slot == t.slot)
          return make_error("a burst names slot " + std::to_string(t.slot) + " of workload " +
                            std::to_string(t.workload) + " twice");
      c.calls.push_back(t);
    }
    if (c.calls.empty()) return make_error("a burst of no calls");
    c.function_times = j.value("function_times", false);
    c.sm_load = j.value("sm_load", false);
    c.sm_load_ms = j.value("sm_load_ms", 0.0);
    if (!(c.sm_load_ms >= 0)) return make_error("a negative sm_load_ms");
    const std::string share = j.value("sm_load_share", std::string(to_string(LoadShare::half)));
    if (!load_share_from_string(share, c.sm_load_share))
      return make_error("unknown sm_load_share '" + share + "'");
    return c;
  });
}

Result<HeatCommand> heat_from_json(const Json& j) {
  return guarded("heat command", [&]() -> Result<HeatCommand> {
    HeatCommand c{j.at("ms").get<double>()};
    if (!(c.ms > 0 && c.ms <= 10000)) return make_error("a heat of 0 to 10000 ms");
    return c;
  });
}

Result<LibraryCommand> library_from_json(const Json& j) {
  return guarded("library command", [&]() -> Result<LibraryCommand> {
    LibraryCommand c{j.at("workload").get<int>(), j.at("count").get<int>(), j.value("slot", 0)};
    if (c.count < 1 || c.count > 1024) return make_error("a library burst of 1 to 1024 runs");
    if (c.slot < 0) return make_error("a library burst's slot is >= 0");
    return c;
  });
}

std::string to_hex(const void* data, std::size_t n) {
  static const char* kDigits = "0123456789abcdef";
  std::string s;
  s.reserve(2 * n);
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i) {
    s.push_back(kDigits[p[i] >> 4]);
    s.push_back(kDigits[p[i] & 15]);
  }
  return s;
}

Result<std::vector<unsigned char>> from_hex(const std::string& s) {
  if (s.size() % 2 != 0) return make_error("a hex string of odd length");
  auto val = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::vector<unsigned char> out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    int hi = val(s[2 * i]), lo = val(s[2 * i + 1]);
    if (hi < 0 || lo < 0) return make_error("a non-hex character in a hex string");
    out[i] = static_cast<unsigned char>(hi * 16 + lo);
  }
  return out;
}

}  // namespace ptxbench::eval
