#include "task/expr.h"

#include <cctype>
#include <cstdlib>

namespace ptxbench::task {
namespace {

// Recursive descent: expr := term (('+'|'-') term)*; term := factor (('*'|'/') factor)*;
// factor := number | name | '(' expr ')' | '-' factor.
class Parser {
 public:
  Parser(std::string_view s, const std::map<std::string, double>& vars) : s_(s), vars_(vars) {}

  Result<double> parse() {
    auto v = expr();
    if (!v.ok()) return v;
    skip();
    if (pos_ != s_.size()) return fail("unexpected '" + std::string(1, s_[pos_]) + "'");
    return v;
  }

 private:
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  Error fail(const std::string& why) const {
    return make_error("bad formula \"" + std::string(s_) + "\" at column " +
                      std::to_string(pos_ + 1) + ": " + why);
  }
  Result<double> expr() {
    PTXB_TRY(double v, term());
    while (true) {
      skip();
      if (pos_ >= s_.size() || (s_[pos_] != '+' && s_[pos_] != '-')) return v;
      char op = s_[pos_++];
      PTXB_TRY(double r, term());
      v = op == '+' ? v + r : v - r;
    }
  }
  Result<double> term() {
    PTXB_TRY(double v, factor());
    while (true) {
      skip();
      if (pos_ >= s_.size() || (s_[pos_] != '*' && s_[pos_] != '/')) return v;
      char op = s_[pos_++];
      PTXB_TRY(double r, factor());
      if (op == '/' && r == 0) return fail("division by zero");
      v = op == '*' ? v * r : v / r;
    }
  }
  Result<double> factor() {
    skip();
    if (pos_ >= s_.size()) return fail("unexpected end");
    char c = s_[pos_];
    if (c == '-') {
      ++pos_;
      PTXB_TRY(double v, factor());
      return -v;
    }
    if (c == '(') {
      ++pos_;
      PTXB_TRY(double v, expr());
      skip();
      if (pos_ >= s_.size() || s_[pos_] != ')') return fail("missing ')'");
      ++pos_;
      return v;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      std::string num(s_.substr(pos_));
      char* end = nullptr;
      double v = std::strtod(num.c_str(), &end);
      pos_ += static_cast<std::size_t>(end - num.c_str());
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t start = pos_;
      while (pos_ < s_.size() &&
             (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
        ++pos_;
      std::string name(s_.substr(start, pos_ - start));
      auto it = vars_.find(name);
      if (it == vars_.end()) return fail("unknown name '" + name + "'");
      return it->second;
    }
    return fail("unexpected '" + std::string(1, c) + "'");
  }

  std::string_view s_;
  const std::map<std::string, double>& vars_;
  std::size_t pos_ = 0;
};

}  // namespace

Result<double> evaluate_expression(std::string_view expr,
                                   const std::map<std::string, double>& vars) {
  return Parser(expr, vars).parse();
}

}  // namespace ptxbench::task
