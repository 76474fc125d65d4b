#!/usr/bin/env bash
# Fails when a program under src/ uses std::regex: libstdc++'s matcher backtracks and recurses once
# per character, so one long line of a candidate's source, a model's reply or a tool's output
# exhausted the stack and crashed ptxbench (issue 38). Use Pattern (core/pattern.h, RE2: linear
# time, no recursion) or a scanner. Tests may use std::regex on text they wrote themselves.
exec "$(dirname "$0")/forbidden.sh" 'std::(regex|sregex|smatch|cmatch|wregex)|#include <regex>' \
  '_test\.(cc|h):|/testing/|/testdata/|^src/core/pattern\.h:' \
  "use Pattern (core/pattern.h) or a scanner instead of std::regex" \
  "ok: no std::regex in src/ outside tests"
