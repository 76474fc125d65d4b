// Helpers for the audit CPU tests: the recorded H200 outputs under src/audit/testdata/.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "core/fs.h"
#include "core/json.h"
#include "core/paths.h"

namespace ptxbench::audit::testing {

inline std::string testdata(const std::string& name) {
  auto text = read_file(Paths::discover().root / "src" / "audit" / "testdata" / name);
  EXPECT_TRUE(text.ok()) << name << ": " << (text.ok() ? "" : text.error().to_string());
  return text.ok() ? *text : std::string{};
}

inline Json testdata_json(const std::string& name) {
  return Json::parse(testdata(name));
}

}  // namespace ptxbench::audit::testing
