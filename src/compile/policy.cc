#include "compile/policy.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>

#include "compile/driver_allow_list.h"
#include "compile/source_scrub.h"
#include "core/text.h"

namespace ptxbench::compile {
namespace {

constexpr char kLibraryMsg[] =
    "cuBLAS, cuBLASLt, cuDNN, CUTLASS and CuTe are not allowed: write the kernel yourself "
    "with CUDA C++ and inline PTX";
constexpr char kPragmaMsg[] =
    "linker directives in the source are not allowed: ptxbench builds the kernel with a fixed "
    "command line and links no extra library";
constexpr char kDlMsg[] =
    "loading shared libraries at run time (dlopen/dlsym) is not allowed: the kernel may only use "
    "the CUDA runtime calls on ptxbench's allow-list";
constexpr char kSpawnMsg[] =
    "starting processes (system/popen/exec/fork/posix_spawn) is not allowed";
constexpr char kSyscallMsg[] =
    "raw system calls (syscall(), SYS_*/__NR_*, asm syscall) are not allowed";
constexpr char kFileMsg[] =
    "file access is not allowed: a kernel computes its outputs from its inputs only";
constexpr char kNetMsg[] = "network access (sockets) is not allowed";
constexpr char kIncludeMsg[] =
    "an #include may name only a header of the CUDA toolkit, the C/C++ standard library or "
    "DLPack by its usual relative name (<cuda_runtime.h>, <cuda/barrier>, <dlpack/dlpack.h>): "
    "absolute paths, `..`, computed includes (#include MACRO), #embed, `#pragma GCC dependency` "
    "and `.incbin` are not allowed";
constexpr char kInternalsMsg[] =
    "redefining ptxbench internals is not allowed (no PTXBENCH_* macros, no ptxbench namespace); "
    "a function that would interpose the CUDA runtime or driver is refused when the built object "
    "exports it";

// Built from the one driver allow-list (driver_allow_list.h).
const char* driver_message() {
  static const std::string kMessage = driver_function_advice();
  return kMessage.c_str();
}

struct PatternRule {
  std::string_view rule;
  const char* message;
  std::regex re;
};

std::regex re(const char* pattern) {
  return std::regex(pattern, std::regex::ECMAScript);
}

// Patterns matched against each scrubbed code line.
const std::vector<PatternRule>& code_rules() {
  static const std::vector<PatternRule> kRules = {
      {rule::banned_library, kLibraryMsg, re(R"(\b(cublas|cudnn|CUBLAS_|CUBLASLT_|CUDNN_)\w*)")},
      {rule::banned_library, kLibraryMsg, re(R"(\b(cutlass|cute)\s*::)")},
      {rule::banned_library, kLibraryMsg, re(R"(\bnamespace\s+(cutlass|cute)\b)")},
      {rule::link_pragma, kPragmaMsg, re(R"(^\s*#\s*pragma\s+comment\b)")},
      {rule::link_pragma, kPragmaMsg, re(R"(\b__pragma\s*\(\s*comment\b)")},
      {rule::dynamic_loading, kDlMsg,
       re(R"(\b(dlopen|dlsym|dlvsym|dlmopen|dlclose|dlinfo|dladdr|dlerror)\b)")},
      {rule::process_spawn, kSpawnMsg,
       re(R"(\b(system|popen|pclose|fork|vfork|execl|execlp|execle|execv|execvp|execvpe|execve|fexecve|posix_spawn|posix_spawnp|clone|clone3)\s*\()")},
      {rule::raw_syscall, kSyscallMsg, re(R"(\bsyscall\s*\(|\b__NR_\w+|\bSYS_[a-z_0-9]+\b)")},
      {rule::file_io, kFileMsg,
       re(R"(\b(fopen|fopen64|freopen|fdopen|open|open64|openat|creat|mkfifo|unlink|truncate|ftruncate|mmap|shm_open|opendir|readlink|chmod|mkdir)\s*\()")},
      {rule::file_io, kFileMsg,
       re(R"(\b(ifstream|ofstream|fstream|filebuf|basic_ifstream|basic_ofstream|basic_fstream)\b|\bstd\s*::\s*filesystem\b)")},
      {rule::network_io, kNetMsg,
       re(R"(\b(socket|socketpair|connect|listen|accept|accept4|sendto|recvfrom|sendmsg|recvmsg|getaddrinfo|gethostbyname|inet_pton|inet_addr)\s*\()")},
      {rule::network_io, kNetMsg, re(R"((^|[^:\w])bind\s*\()")},
      {rule::ptxbench_internals, kInternalsMsg,
       re(R"(^\s*#\s*(define|undef)\s+(PTXBENCH|ptxbench)_\w*)")},
      {rule::ptxbench_internals, kInternalsMsg, re(R"(\bnamespace\s+ptxbench\b|\bptxbench\s*::)")},
      {rule::include_path, kIncludeMsg,
       re(R"(^\s*(#|%:)\s*(embed\b|pragma\s+GCC\s+dependency\b))")},
      // .incbin outside a literal: a stringizing macro's argument, asm(S(.incbin "...")).
      {rule::include_path, kIncludeMsg, re(R"(\.incbin\b)")},
  };
  return kRules;
}

struct HeaderRule {
  std::string_view rule;
  const char* message;
  std::regex re;
};

// Patterns matched against the header name of each #include.
const std::vector<HeaderRule>& header_rules() {
  static const std::vector<HeaderRule> kRules = {
      {rule::banned_library, kLibraryMsg,
       re(R"(^(cublas|cublasLt|cublasXt|cudnn)\w*\.h(pp)?$|^(cutlass|cute|cudnn_frontend)(/|\.h|_)|^cudnn_frontend)")},
      {rule::dynamic_loading, kDlMsg, re(R"(^dlfcn\.h$)")},
      {rule::process_spawn, kSpawnMsg, re(R"(^spawn\.h$)")},
      {rule::raw_syscall, kSyscallMsg,
       re(R"(^(sys/syscall\.h|syscall\.h|asm/unistd.*|linux/.*)$)")},
      {rule::file_io, kFileMsg,
       re(R"(^(fstream|filesystem|fcntl\.h|sys/mman\.h|sys/stat\.h|dirent\.h)$)")},
      {rule::network_io, kNetMsg,
       re(R"(^(sys/socket\.h|sys/un\.h|netinet/.*|arpa/inet\.h|netdb\.h|curl/.*)$)")},
  };
  return kRules;
}

// Would `header` (the name between <> or "") leave the include directories?
bool escapes_include_dirs(std::string_view header) {
  if (header.empty() || header.front() == '/' || header.front() == '~') return true;
  if (header.find('\\') != std::string_view::npos) return true;
  for (const auto& part : split(header, '/'))
    if (part == "..") return true;
  return false;
}

using Clock = std::chrono::steady_clock;

class Checker {
 public:
  Checker(std::string_view source, Clock::time_point deadline)
      : deadline_(deadline),
        source_(source),
        scrubbed_(scrub_source(source)),
        code_lines_(split_lines(scrubbed_.code)),
        raw_lines_(split_lines(source)) {}

  PolicyCheck run() {
    PolicyCheck out;
    out.timed_out = !run_checks();
    std::sort(found_.begin(), found_.end(), [](const auto& a, const auto& b) {
      return a.line != b.line ? a.line < b.line : a.rule < b.rule;
    });
    out.violations = std::move(found_);
    return out;
  }

 private:
  // false when the deadline passed first.
  bool run_checks() {
    for (std::size_t i = 0; i < code_lines_.size(); ++i) {
      if ((i & 63) == 0 && past_deadline()) return false;
      check_line(static_cast<int>(i) + 1);
    }
    if (past_deadline()) return false;
    check_literals();
    check_asm();
    if (past_deadline()) return false;
    return !past_deadline();
  }

  bool past_deadline() const { return Clock::now() > deadline_; }

  void add(int line, std::string_view r, const char* message) {
    for (const auto& v : found_)
      if (v.line == line && v.rule == r) return;
    std::string text = line >= 1 && line <= static_cast<int>(raw_lines_.size())
                           ? std::string(trim(raw_lines_[line - 1]))
                           : "";
    if (text.size() > 160) text = text.substr(0, 157) + "...";
    found_.push_back({line, std::string(r), text, message});
  }

  void check_line(int line) {
    const std::string& code = code_lines_[line - 1];
    for (const auto& r : code_rules())
      if (std::regex_search(code, r.re)) add(line, r.rule, r.message);
    check_has_include(line, code);
    static const std::regex kInclude(R"(^\s*(#|%:)\s*(include_next|include|import)\b\s*(.?))");
    std::smatch m;
    if (!std::regex_search(code, m, kInclude)) return;
    const std::string opener = m.str(3);
    if (opener != "<" && opener != "\"") {  // #include MACRO, or the name on the next line
      add(line, rule::include_path, kIncludeMsg);
      return;
    }
    std::string header = header_name(line, code, m.position(3));
    if (escapes_include_dirs(header)) add(line, rule::include_path, kIncludeMsg);
    for (const auto& r : header_rules())
      if (std::regex_search(header, r.re)) add(line, r.rule, r.message);
  }

  // __has_include(<...>) / __has_include("...") tells whether a file exists: the same names.
  void check_has_include(int line, const std::string& code) {
    if (code.find("__has_include") == std::string::npos) return;
    static const std::regex kAngle(R"(__has_include(_next)?\s*\(\s*<([^>]*)>)");
    for (auto it = std::sregex_iterator(code.begin(), code.end(), kAngle);
         it != std::sregex_iterator(); ++it)
      if (escapes_include_dirs(trim((*it)[2].str()))) add(line, rule::include_path, kIncludeMsg);
    for (const auto& lit : scrubbed_.literals)
      if (lit.line == line && escapes_include_dirs(trim(lit.value)))
        add(line, rule::include_path, kIncludeMsg);
  }

  // The header named by an #include on `line`; quoted names come from the literal list.
  std::string header_name(int line, const std::string& code, std::size_t open) const {
    if (code[open] == '<') {
      std::size_t close = code.find('>', open);
      return std::string(trim(code.substr(
          open + 1, close == std::string::npos ? std::string::npos : close - open - 1)));
    }
    for (const auto& lit : scrubbed_.literals)
      if (lit.line == line) return std::string(trim(lit.value));
    return {};
  }

  void check_literals() {
    static const std::regex kDriverName(R"(^cu[A-Z]\w*$)");
    static const std::regex kSharedLib(R"((^|/)lib\w+\.so(\.\d+)*$|\.so(\.\d+)+$)");
    static const std::regex kLinkFlag(
        R"((^|\s)(-l(cublas|cublasLt|cudnn|cuda|dl)\b|-Wl,|--whole-archive))");
    static const std::regex kPragmaComment(R"(^\s*comment\s*\()");
    static const std::regex kPragmaDependency(R"(^\s*GCC\s+dependency\b)");
    static const std::regex kIncbin(R"(\.incbin\b)");
    // Adjacent literals are one string to the compiler (".inc" "bin \"/etc/passwd\"").
    for (std::size_t i = 0; i + 1 < scrubbed_.literals.size(); ++i) {
      std::string joined = scrubbed_.literals[i].value;
      for (std::size_t k = i; k + 1 < scrubbed_.literals.size() && adjacent(k); ++k)
        joined += scrubbed_.literals[k + 1].value;
      if (joined.size() > scrubbed_.literals[i].value.size() && std::regex_search(joined, kIncbin))
        add(scrubbed_.literals[i].line, rule::include_path, kIncludeMsg);
    }
    for (const auto& lit : scrubbed_.literals) {
      if (std::regex_search(lit.value, kDriverName) && !driver_function_allowed(lit.value))
        add(lit.line, rule::driver_entry_point, driver_message());
      if (std::regex_search(lit.value, kSharedLib)) add(lit.line, rule::dynamic_loading, kDlMsg);
      if (std::regex_search(lit.value, kLinkFlag)) add(lit.line, rule::link_pragma, kPragmaMsg);
      if (std::regex_search(lit.value, kPragmaComment) && preceded_by_pragma(lit.offset))
        add(lit.line, rule::link_pragma, kPragmaMsg);
      if (std::regex_search(lit.value, kPragmaDependency) && preceded_by_pragma(lit.offset))
        add(lit.line, rule::include_path, kIncludeMsg);
      if (std::regex_search(lit.value, kIncbin)) add(lit.line, rule::include_path, kIncludeMsg);
    }
  }

  // Is the literal at `offset` the argument of _Pragma( ... )?
  bool preceded_by_pragma(std::size_t offset) const {
    std::string_view before = std::string_view(scrubbed_.code).substr(0, offset);
    std::size_t k = before.find_last_not_of(" \t\n");
    if (k == std::string_view::npos || before[k] != '(') return false;
    std::string_view head = trim(before.substr(0, k));
    return ends_with(head, "_Pragma");
  }

  // asm("...") / __asm__ volatile("..."): the instruction text is in string literals.
  void check_asm() {
    static const std::regex kAsm(R"(\b(asm|__asm__|__asm)\b)");
    static const std::regex kSys(R"(\b(syscall|sysenter|sysexit|svc)\b|\bint\s+\$?0x80\b)");
    const std::string& code = scrubbed_.code;
    for (auto it = std::sregex_iterator(code.begin(), code.end(), kAsm);
         it != std::sregex_iterator(); ++it) {
      std::size_t at = static_cast<std::size_t>(it->position());
      std::size_t open = code.find('(', at);
      if (open == std::string::npos) continue;
      std::size_t close = matching_paren(code, open);
      std::string body;
      for (const auto& lit : scrubbed_.literals)
        if (lit.offset > open && lit.offset < close) body += lit.value + "\n";
      if (std::regex_search(body, kSys)) add(line_of(code, at), rule::raw_syscall, kSyscallMsg);
    }
  }

  // Only whitespace between literal k's closing quote and literal k + 1's opening one.
  bool adjacent(std::size_t k) const {
    const auto& a = scrubbed_.literals[k];
    const auto& b = scrubbed_.literals[k + 1];
    const std::size_t end = a.offset + a.value.size() + 2;  // past the closing quote
    if (end > b.offset || b.offset > scrubbed_.code.size()) return false;
    return std::all_of(scrubbed_.code.begin() + static_cast<std::ptrdiff_t>(end),
                       scrubbed_.code.begin() + static_cast<std::ptrdiff_t>(b.offset),
                       [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
  }

  static std::size_t matching_paren(const std::string& code, std::size_t open) {
    int depth = 0;
    for (std::size_t k = open; k < code.size(); ++k) {
      if (code[k] == '(') ++depth;
      if (code[k] == ')' && --depth == 0) return k;
    }
    return code.size();
  }

  Clock::time_point deadline_;
  std::string_view source_;
  ScrubbedSource scrubbed_;
  std::vector<std::string> code_lines_;
  std::vector<std::string> raw_lines_;
  std::vector<PolicyViolation> found_;
};

}  // namespace

// The source as the preprocessor sees it after its second translation phase: every backslash
// at the end of a line joined with the next (`#inc\` + newline + `lude "/etc/passwd"`).
std::string spliced(std::string_view source) {
  std::string out;
  out.reserve(source.size());
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\\' && i + 1 < source.size() && source[i + 1] == '\n') {
      ++i;
      continue;
    }
    if (source[i] == '\\' && i + 2 < source.size() && source[i + 1] == '\r' &&
        source[i + 2] == '\n') {
      i += 2;
      continue;
    }
    out += source[i];
  }
  return out;
}

PolicyCheck check_source_policy(std::string_view source, Clock::time_point deadline) {
  PolicyCheck out = Checker(source, deadline).run();
  if (out.timed_out || source.find("\\\n") == std::string_view::npos) return out;
  // Line continuations: the joined source is checked too (its line numbers are those of the
  // joined lines); what it adds is reported once.
  PolicyCheck joined = Checker(spliced(source), deadline).run();
  out.timed_out = joined.timed_out;
  for (auto& v : joined.violations) {
    const bool known = std::any_of(out.violations.begin(), out.violations.end(),
                                   [&](const PolicyViolation& o) { return o.rule == v.rule; });
    if (!known) out.violations.push_back(std::move(v));
  }
  return out;
}

std::vector<PolicyViolation> check_source_policy(std::string_view source) {
  return check_source_policy(source, Clock::time_point::max()).violations;
}

std::optional<PolicyViolation> check_source_size(std::uint64_t source_bytes,
                                                 std::size_t max_bytes) {
  if (source_bytes <= max_bytes) return std::nullopt;
  return PolicyViolation{0, std::string(rule::source_size), "",
                         "the source is " + std::to_string(source_bytes) +
                             " bytes; a candidate may have at most " + std::to_string(max_bytes) +
                             " bytes (one self-contained .cu file)"};
}

std::string describe(const PolicyViolation& v) {
  std::string s = "line " + std::to_string(v.line) + ": " + v.rule + ": " + v.message;
  if (!v.text.empty()) s += ": `" + v.text + "`";
  return s;
}

}  // namespace ptxbench::compile
