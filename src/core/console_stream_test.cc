#include "core/console_stream.h"

#include <gtest/gtest.h>

#include <sstream>

namespace ptxbench {
namespace {

TEST(ConsoleStream, ControlBytesAreShownEscapedLineByLine) {
  std::ostringstream raw;
  {
    ConsoleStream out(raw);
    out << "agent: evil\x1b]0;pwned\x07@model\n"
        << "tab\tok\n";
    out << "partial \xC2";  // a character split across writes stays whole
    out << "\x9B"
        << "x" << std::flush;
  }
  EXPECT_EQ(raw.str(), "agent: evil\\x1b]0;pwned\\x07@model\ntab\tok\npartial \\x9bx");
}

TEST(ConsoleStream, JsonAndPlainTextPassUnchanged) {
  std::ostringstream raw;
  {
    ConsoleStream out(raw);
    out << "{\n  \"message\": \"a\\u001b b\"\n}\n" << 42 << ' ' << 1.5 << '\n';
  }
  EXPECT_EQ(raw.str(), "{\n  \"message\": \"a\\u001b b\"\n}\n42 1.5\n");
}

}  // namespace
}  // namespace ptxbench
