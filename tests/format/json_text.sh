#!/usr/bin/env bash
# Fails when a program under src/ turns JSON into text with Json::dump instead of to_text
# (core/json.h): dump throws on bytes that are not UTF-8, which abort ptxbench. Tests and
# test fixtures may dump what they built themselves.
exec "$(dirname "$0")/forbidden.sh" '\.dump\(' '^src/core/json\.h:|_test\.(cc|h):|/testing/|/testdata/' \
  "use to_text(json[, indent]) from core/json.h instead of Json::dump" \
  "ok: no Json::dump outside core/json.h"
