// Small string helpers shared by the stages.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ptxbench {

std::string_view trim(std::string_view s);
std::vector<std::string> split_lines(std::string_view s);
std::vector<std::string> split(std::string_view s, char sep);
bool starts_with(std::string_view s, std::string_view prefix);
bool ends_with(std::string_view s, std::string_view suffix);
std::string to_lower(std::string_view s);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
// Where the last line of `s` that starts with `prefix` starts; npos when no line does.
std::size_t last_line_starting(std::string_view s, std::string_view prefix);
// A human-friendly count: 1234567 -> "1.23M".
std::string human_count(double v);

}  // namespace ptxbench
