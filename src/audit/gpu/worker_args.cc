#include "audit/gpu/worker_args.h"

#include <cstdlib>

namespace ptxbench::audit::worker {

bool parse_tensor_arg(const std::string& text, TensorArg& out) {
  const auto c1 = text.find(':');
  const auto c2 = c1 == std::string::npos ? c1 : text.find(':', c1 + 1);
  if (c2 == std::string::npos) return false;
  const std::string role = text.substr(0, c1);
  if (role != "in" && role != "out") return false;
  out.output = role == "out";
  out.dtype = text.substr(c1 + 1, c2 - c1 - 1);
  if (out.dtype != "bf16" && out.dtype != "fp16" && out.dtype != "fp32") return false;
  out.shape.clear();
  std::string dims = text.substr(c2 + 1);
  std::size_t pos = 0;
  while (pos <= dims.size()) {
    auto x = dims.find('x', pos);
    if (x == std::string::npos) x = dims.size();
    const std::string d = dims.substr(pos, x - pos);
    char* end = nullptr;
    const long long v = std::strtoll(d.c_str(), &end, 10);
    if (d.empty() || *end != '\0' || v < 1) return false;
    out.shape.push_back(v);
    pos = x + 1;
  }
  return !out.shape.empty();
}

std::string parse_worker_args(int argc, char** argv, WorkerArgs& out) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&](std::string& dst) {
      if (i + 1 >= argc) return false;
      dst = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--no-lazy") {
      out.lazy_patching = false;
    } else if (a == "--late-config") {
      out.late_config = true;
    } else if (a == "--no-sandbox") {
      out.sandbox = false;
    } else if (!next(v)) {
      return "option " + a + " needs a value (or is unknown)";
    } else if (a == "--mode") {
      out.mode = v;
    } else if (a == "--so") {
      out.so_path = v;
    } else if (a == "--out") {
      out.out_dir = v;
    } else if (a == "--seed") {
      out.seed = std::strtoull(v.c_str(), nullptr, 10);
    } else if (a == "--kernel") {
      out.kernel = v;
    } else if (a == "--enable-at") {
      out.enable_at = v;
    } else if (a == "--tensor") {
      TensorArg t;
      if (!parse_tensor_arg(v, t))
        return "bad --tensor '" + v + "' (want in|out:bf16|fp16|fp32:DxDxD)";
      out.tensors.push_back(t);
    } else {
      return "unknown option " + a;
    }
  }
  if (out.mode != "discover" && out.mode != "sass" && out.mode != "run")
    return "--mode must be discover, sass or run";
  if (out.so_path.empty() || out.out_dir.empty()) return "--so and --out are required";
  if (out.tensors.empty()) return "at least one --tensor is required";
  if (out.enable_at != "launch" && out.enable_at != "start" && out.enable_at != "replay")
    return "--enable-at must be launch, start or replay";
  return {};
}

}  // namespace ptxbench::audit::worker
