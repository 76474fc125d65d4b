// Text into HTML, SVG and XML (the report files): valid UTF-8 (core/utf8.h), the five
// markup characters escaped, and control characters that XML 1.0 forbids shown as "\xNN",
// so text from a model, a compiler or a run file can never break or inject markup.
#pragma once

#include <string>
#include <string_view>

namespace ptxbench::report {

std::string escape_markup(std::string_view s);

}  // namespace ptxbench::report
