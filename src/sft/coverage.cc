#include "sft/coverage.h"

#include <fmt/format.h>

#include <algorithm>

namespace ptxbench::sft {

void Coverage::add_stage(const std::string& stage) {
  if (std::find(stages_.begin(), stages_.end(), stage) == stages_.end()) stages_.push_back(stage);
}

void Coverage::count(const std::string& stage, const std::string& task, const std::string& category,
                     int turn, int n) {
  add_stage(stage);
  cells_[Cell{task, category, turn}][stage] += n;
}

int Coverage::at(const std::string& stage, const Cell& cell) const {
  auto c = cells_.find(cell);
  if (c == cells_.end()) return 0;
  auto s = c->second.find(stage);
  return s == c->second.end() ? 0 : s->second;
}

int Coverage::total(const std::string& stage) const {
  int n = 0;
  for (const auto& [cell, counts] : cells_) {
    auto s = counts.find(stage);
    if (s != counts.end()) n += s->second;
  }
  return n;
}

Json Coverage::to_json() const {
  Json totals = Json::object();
  for (const auto& s : stages_) totals[s] = total(s);
  Json cells = Json::array();
  for (const auto& [cell, counts] : cells_) {
    Json c{
        {"task", std::get<0>(cell)}, {"category", std::get<1>(cell)}, {"turn", std::get<2>(cell)}};
    for (const auto& s : stages_) c[s] = at(s, cell);
    cells.push_back(std::move(c));
  }
  return Json{{"stages", stages_}, {"totals", std::move(totals)}, {"cells", std::move(cells)}};
}

std::string Coverage::table() const {
  std::size_t task_w = 4, cat_w = 8;
  for (const auto& [cell, counts] : cells_) {
    task_w = std::max(task_w, std::get<0>(cell).size());
    cat_w = std::max(cat_w, std::get<1>(cell).size());
  }
  std::string out = fmt::format("{:<{}}  {:<{}}  {:>4}", "task", task_w, "category", cat_w, "turn");
  for (const auto& s : stages_)
    out += fmt::format("  {:>{}}", s, std::max<std::size_t>(s.size(), 5));
  out += "\n";
  auto row = [&](const std::string& t, const std::string& c, const std::string& turn,
                 auto value_of) {
    std::string line = fmt::format("{:<{}}  {:<{}}  {:>4}", t, task_w, c, cat_w, turn);
    for (const auto& s : stages_)
      line += fmt::format("  {:>{}}", value_of(s), std::max<std::size_t>(s.size(), 5));
    return line + "\n";
  };
  for (const auto& [cell, counts] : cells_)
    out += row(std::get<0>(cell), std::get<1>(cell), std::to_string(std::get<2>(cell)),
               [&](const std::string& s) { return at(s, cell); });
  out += row("TOTAL", "", "", [&](const std::string& s) { return total(s); });
  return out;
}

}  // namespace ptxbench::sft
