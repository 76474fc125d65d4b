#include "compile/ptxas_report.h"

#include <cxxabi.h>

#include <cstdlib>

#include "core/pattern.h"
#include "core/text.h"

namespace ptxbench::compile {
namespace {

std::int64_t to_int(const std::string& s) {
  return std::strtoll(s.c_str(), nullptr, 10);
}

// "Used 58 registers, used 1 barriers, 16392 bytes smem, 400 bytes cmem[0]"
void parse_usage(const std::string& line, KernelResources& k) {
  static const Pattern kItem(
      R"((\d+)\s+(registers|barriers|bytes smem|bytes cmem\[0\]|bytes cumulative stack size))");
  for (const auto& m : kItem.find_all(line)) {
    std::int64_t v = to_int(m.str(1));
    std::string what = m.str(2);
    if (what == "registers")
      k.registers = static_cast<int>(v);
    else if (what == "barriers")
      k.barriers = static_cast<int>(v);
    else if (what == "bytes smem")
      k.shared_bytes = v;
    else if (what == "bytes cmem[0]")
      k.constant_bytes = v;
    else
      k.cumulative_stack_bytes = v;
  }
}

// "32 bytes stack frame, 32 bytes spill stores, 32 bytes spill loads"
void parse_frame(const std::string& line, KernelResources& k) {
  static const Pattern kItem(R"((\d+)\s+bytes\s+(stack frame|spill stores|spill loads))");
  for (const auto& m : kItem.find_all(line)) {
    std::int64_t v = to_int(m.str(1));
    std::string what = m.str(2);
    if (what == "stack frame")
      k.stack_frame_bytes = v;
    else if (what == "spill stores")
      k.spill_store_bytes = v;
    else
      k.spill_load_bytes = v;
  }
}

void maybe_warning(const std::string& line, PtxasReport& r) {
  static const Pattern kCode(R"(\((C\d{4})\))");
  static const Pattern kPrefix(R"(^ptxas\s*(info|warning|error)?[^:]*:\s*)");
  static const Pattern kFunction(R"(function\s+'([^']+)')");
  const auto code = kCode.find(line);
  bool is_warning = line.find("warning") != std::string::npos && starts_with(line, "ptxas");
  if (!code && !is_warning) return;
  PtxasWarning w;
  if (code) w.code = code->str(1);
  w.text = kPrefix.replace_first(line, "");
  if (const auto f = kFunction.find(line)) w.function = f->str(1);
  for (const auto& old : r.warnings)
    if (old.text == w.text) return;
  r.warnings.push_back(std::move(w));
}

}  // namespace

std::string demangle(std::string_view mangled) {
  if (!starts_with(mangled, "_Z")) return {};
  int status = 0;
  std::string name(mangled);
  char* out = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  std::string result = status == 0 && out ? out : "";
  std::free(out);
  return result;
}

PtxasReport parse_ptxas_report(std::string_view log) {
  static const Pattern kEntry(R"(Compiling entry function '([^']+)' for '([^']+)')");
  static const Pattern kProps(R"(Function properties for (\S+))");
  PtxasReport r;
  auto add = [&](const std::string& name) {
    KernelResources k;
    k.name = name;
    k.demangled = demangle(name);
    r.functions.push_back(std::move(k));
    return r.functions.size() - 1;
  };
  // The block being read: the entry being compiled (its "Used" line follows), and the function
  // whose properties follow (its frame line); kNone when there is none.
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::size_t entry = kNone, props = kNone;
  for (const std::string& raw : split_lines(log)) {
    std::string line(trim(raw));
    if (const auto e = kEntry.find(line)) {
      entry = add(e->str(1));
      r.functions[entry].entry = true;
      r.functions[entry].arch = e->str(2);
      props = kNone;
    } else if (const auto p = kProps.find(line)) {
      props = entry != kNone && r.functions[entry].name == p->str(1) ? entry : add(p->str(1));
    } else if (line.find("bytes stack frame") != std::string::npos && props != kNone) {
      parse_frame(line, r.functions[props]);
      props = kNone;
    } else if (line.find("Used ") != std::string::npos &&
               line.find("registers") != std::string::npos && entry != kNone) {
      parse_usage(line, r.functions[entry]);
      entry = kNone;
    }
    maybe_warning(line, r);
  }
  return r;
}

}  // namespace ptxbench::compile
