#include "eval/call_diagnoses.h"

#include <fmt/format.h>

namespace ptxbench::eval {
namespace {

// extra[key][i], or null.
const Json* at_call(const Json& extra, const char* key, std::size_t i) {
  if (!extra.is_object()) return nullptr;
  auto it = extra.find(key);
  if (it == extra.end() || !it->is_array() || i >= it->size()) return nullptr;
  return &(*it)[i];
}

}  // namespace

bool is_default_stream(std::uint64_t stream) {
  return stream <= 2;
}

CallDiagnoses call_diagnoses(const Json& extra, std::size_t i) {
  CallDiagnoses d;
  if (const Json* s = at_call(extra, "side_streams", i); s && s->is_array())
    for (const Json& h : *s) {
      const bool handle =
          h.is_number_unsigned() || (h.is_number_integer() && h.get<long long>() >= 0);
      d.side_stream = true;
      d.default_stream = d.default_stream || (handle && is_default_stream(h.get<std::uint64_t>()));
    }
  if (const Json* s = at_call(extra, "stale", i); s && s->is_array())
    for (const Json& t : *s)
      if (t.is_string()) d.stale.push_back(t.get<std::string>());
  if (const Json* k = at_call(extra, "kept_bytes", i);
      k && k->is_number_integer() && k->get<long long>() > 0)
    d.kept_bytes = k->get<std::uint64_t>();
  return d;
}

std::vector<Flag> diagnosis_flags(const CallDiagnoses& d) {
  std::vector<Flag> out;
  if (d.default_stream) out.push_back(Flag::default_stream);
  if (d.side_stream) out.push_back(Flag::side_stream);
  if (!d.stale.empty()) out.push_back(Flag::stale_buffers);
  if (d.kept_bytes > 0) out.push_back(Flag::workspace_kept);
  return out;
}

std::string diagnosis_clause(const CallDiagnoses& d, bool withhold) {
  std::vector<std::string> seen;
  if (!d.stale.empty())
    seen.push_back((withhold ? std::string("a launch or copy carrying another call's buffers")
                             : d.stale.front()) +
                   " (stale_buffers)");
  if (d.kept_bytes > 0)
    seen.push_back(withhold ? std::string("the call began with device memory that an earlier call "
                                          "allocated and kept (workspace_kept)")
                            : fmt::format("the call began with {} bytes of device memory that an "
                                          "earlier call allocated and kept (workspace_kept)",
                                          d.kept_bytes));
  if (d.default_stream)
    seen.push_back(
        "work was enqueued on a default stream (stream 0, cudaStreamLegacy or "
        "cudaStreamPerThread), not the stream given (default_stream)");
  if (seen.empty()) return {};
  std::string out = "; the broker saw: ";
  for (std::size_t k = 0; k < seen.size(); ++k) out += (k ? "; " : "") + seen[k];
  return out;
}

}  // namespace ptxbench::eval
