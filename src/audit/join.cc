#include "audit/join.h"

namespace ptxbench::audit {
namespace {

KernelAudit rows_from(const std::string& function, const std::string& demangled,
                      std::map<std::string, OpcodeCounts>& by_opcode) {
  KernelAudit k;
  k.function = function;
  k.demangled = demangled;
  for (auto& [op, row] : by_opcode) {
    row.opcode = op;
    k.opcodes.push_back(row);
  }
  return k;
}

}  // namespace

Result<std::map<std::string, PcTable>> records_by_function(const Json& worker_result) {
  std::map<std::string, PcTable> out;
  if (!worker_result.contains("records")) return out;
  const Json& recs = worker_result["records"];
  if (!recs.is_array()) return make_error("audit worker result: \"records\" is not an array");
  for (const Json& r : recs) {
    if (!r.contains("function") || !r.contains("pc"))
      return make_error("audit worker result: a record lacks function or pc");
    PcCounts& c = out[r["function"].get<std::string>()][r["pc"].get<std::uint32_t>()];
    c.warp_executed += r.value("inst_executed", std::uint64_t{0});
    c.thread_pred_on += r.value("thread_inst_executed_pred_on", std::uint64_t{0});
  }
  return out;
}

KernelAudit join_pcs(const compile::SassFunction& f, const PcTable& pcs) {
  std::map<std::string, OpcodeCounts> by_opcode;
  std::map<std::uint32_t, const compile::SassInstr*> at;
  for (const auto& in : f.instrs) {
    at[in.pc] = &in;
    by_opcode[in.opcode].static_count++;
  }
  std::int64_t unmatched = 0;
  for (const auto& [pc, c] : pcs) {
    auto it = at.find(pc);
    if (it == at.end()) {
      ++unmatched;
      continue;
    }
    OpcodeCounts& row = by_opcode[it->second->opcode];
    row.warp_executed += c.warp_executed;
    row.thread_pred_on += c.thread_pred_on;
  }
  KernelAudit k = rows_from(f.name, f.demangled, by_opcode);
  k.recorded = true;
  k.unmatched_records = unmatched;
  if (unmatched > 0)
    k.note = std::to_string(unmatched) + " runtime PCs have no instruction in the listing";
  return k;
}

KernelAudit join_opcodes(const std::string& function, const compile::SassFunction* f,
                         const std::map<std::string, std::uint64_t>& warp_executed,
                         const std::map<std::string, std::uint64_t>& thread_pred_on) {
  std::map<std::string, OpcodeCounts> by_opcode;
  if (f)
    for (const auto& in : f->instrs) by_opcode[in.opcode].static_count++;
  for (const auto& [op, n] : warp_executed) by_opcode[op].warp_executed += n;
  for (const auto& [op, n] : thread_pred_on) by_opcode[op].thread_pred_on += n;
  KernelAudit k = rows_from(function, f ? f->demangled : std::string{}, by_opcode);
  k.recorded = true;
  return k;
}

KernelAudit static_kernel(const compile::SassFunction& f) {
  std::map<std::string, OpcodeCounts> by_opcode;
  for (const auto& in : f.instrs) by_opcode[in.opcode].static_count++;
  return rows_from(f.name, f.demangled, by_opcode);
}

}  // namespace ptxbench::audit
