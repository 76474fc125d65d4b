// The coverage report: counts per (task, category, turn) at each stage of the export
// (failing turns found, repairable, deduplicated, within the token limit, balanced,
// exported), as a console table and as JSON for the manifest.
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "core/json.h"

namespace ptxbench::sft {

class Coverage {
 public:
  using Cell = std::tuple<std::string, std::string, int>;  // task, category, turn

  // Declares a stage; stages print in the order declared. Counting into an undeclared
  // stage declares it.
  void add_stage(const std::string& stage);
  void count(const std::string& stage, const std::string& task, const std::string& category,
             int turn, int n = 1);

  const std::vector<std::string>& stages() const { return stages_; }
  int at(const std::string& stage, const Cell& cell) const;
  int total(const std::string& stage) const;

  // {"stages": [...], "totals": {stage: n}, "cells": [{"task", "category", "turn", stage: n, ...}]}
  Json to_json() const;
  // One line per cell, one column per stage, then a TOTAL line.
  std::string table() const;

 private:
  std::vector<std::string> stages_;
  std::map<Cell, std::map<std::string, int>> cells_;
};

}  // namespace ptxbench::sft
