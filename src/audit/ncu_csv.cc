#include "audit/ncu_csv.h"

#include <cstdlib>

#include "core/text.h"

namespace ptxbench::audit {
namespace {

// Lines of CSV data: ncu's own log lines ("==PROF== ...", "==WARNING== ...") dropped.
std::vector<std::string> data_lines(std::string_view csv) {
  std::vector<std::string> out;
  for (auto& l : split_lines(csv)) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    if (l.empty() || starts_with(l, "==")) continue;
    out.push_back(l);
  }
  return out;
}

int column(const std::vector<std::string>& header, std::string_view name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

std::string cell(const std::vector<std::string>& row, int col) {
  return col >= 0 && col < static_cast<int>(row.size()) ? row[col] : std::string{};
}

std::uint64_t count_cell(const std::vector<std::string>& row, int col) {
  double v = 0;
  return parse_ncu_number(cell(row, col), v) && v > 0 ? static_cast<std::uint64_t>(v + 0.5) : 0;
}

}  // namespace

std::vector<std::string> split_csv_line(std::string_view line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(std::move(cur));
  return out;
}

bool parse_ncu_number(std::string_view text, double& out) {
  std::string digits;
  for (char c : trim(text))
    if (c != ',') digits += c;
  if (digits.empty()) return false;
  char* end = nullptr;
  out = std::strtod(digits.c_str(), &end);
  return end && *end == '\0';
}

Result<std::map<std::string, std::uint64_t>> parse_opcode_instances(std::string_view text) {
  std::map<std::string, std::uint64_t> out;
  auto open = text.find('(');
  if (open == std::string_view::npos) return out;  // a total with no instance (all zero)
  auto close = text.rfind(')');
  if (close == std::string_view::npos || close < open)
    return make_error("ncu per-opcode value without a closing ')': " +
                      std::string(text.substr(0, 80)));
  for (const auto& item : split(text.substr(open + 1, close - open - 1), ';')) {
    auto colon = item.rfind(':');
    double v = 0;
    if (colon == std::string::npos || !parse_ncu_number(item.substr(colon + 1), v))
      return make_error("ncu per-opcode entry is not 'OPCODE: count': '" + item + "'");
    out[std::string(trim(item.substr(0, colon)))] += static_cast<std::uint64_t>(v + 0.5);
  }
  return out;
}

Result<std::vector<NcuLaunch>> parse_ncu_raw(std::string_view csv) {
  const auto lines = data_lines(csv);
  if (lines.empty()) return make_error("ncu printed no CSV rows (was any kernel profiled?)");
  const auto header = split_csv_line(lines[0]);
  const int id_col = column(header, "ID");
  const int name_col = column(header, "Kernel Name");
  const int warp_col = column(header, kNcuWarpPerOpcode);
  const int thread_col = column(header, kNcuThreadPerOpcode);
  if (name_col < 0 || warp_col < 0 || thread_col < 0)
    return make_error("ncu raw CSV lacks the Kernel Name or per-opcode columns",
                      "run ncu with --metrics " + std::string(kNcuWarpPerOpcode) + "," +
                          std::string(kNcuThreadPerOpcode) + " --print-metric-instances details");
  std::vector<NcuLaunch> out;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto row = split_csv_line(lines[i]);
    double id = -1;
    if (!parse_ncu_number(cell(row, id_col), id)) continue;  // the units row
    NcuLaunch l;
    l.id = static_cast<int>(id);
    l.kernel = cell(row, name_col);
    PTXB_TRY(l.warp_by_opcode, parse_opcode_instances(cell(row, warp_col)));
    PTXB_TRY(l.thread_pred_on_by_opcode, parse_opcode_instances(cell(row, thread_col)));
    for (std::string_view name : kNcuCorroborating) {
      double v = 0;
      if (parse_ncu_number(cell(row, column(header, std::string(name) + ".sum")), v))
        l.counters[std::string(name)] = v;
    }
    out.push_back(std::move(l));
  }
  return out;
}

Result<std::vector<NcuSourceKernel>> parse_ncu_source(std::string_view csv) {
  std::vector<NcuSourceKernel> out;
  std::vector<std::string> header;
  std::uint64_t base = 0;
  for (const auto& line : data_lines(csv)) {
    auto row = split_csv_line(line);
    if (!row.empty() && row[0] == "Kernel Name") {
      out.push_back({cell(row, 1), {}});
      header.clear();
      continue;
    }
    if (!row.empty() && row[0] == "Address") {
      header = row;
      continue;
    }
    if (out.empty() || header.empty())
      return make_error("ncu source CSV: an instruction row before its Kernel Name/header lines");
    const std::string addr = cell(row, column(header, "Address"));
    const std::uint64_t a = std::strtoull(addr.c_str(), nullptr, 16);
    if (out.back().rows.empty()) base = a;
    NcuSourceRow r;
    r.pc = static_cast<std::uint32_t>(a - base);
    r.text = cell(row, column(header, "Source"));
    r.warp_executed = count_cell(row, column(header, "Instructions Executed"));
    r.thread_executed = count_cell(row, column(header, "Thread Instructions Executed"));
    r.thread_pred_on =
        count_cell(row, column(header, "Predicated-On Thread Instructions Executed"));
    out.back().rows.push_back(std::move(r));
  }
  if (out.empty()) return make_error("ncu source CSV holds no kernel");
  return out;
}

}  // namespace ptxbench::audit
