#include "compile/policy.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <unordered_map>
#include <utility>

#include "compile/driver_allow_list.h"
#include "compile/source_scrub.h"
#include "core/pattern.h"
#include "core/text.h"

namespace ptxbench::compile {
namespace {

// CUTLASS, CuTe and cudnn-frontend are header-only: their code is compiled into the candidate,
// so naming them in code is using them. cuBLAS, cuBLASLt and cuDNN are binary libraries: they
// are refused where the built object calls them (allow_list.h), not for their headers.
constexpr char kLibraryMsg[] =
    "CUTLASS, CuTe and cudnn-frontend are not allowed (like cuBLAS, cuBLASLt and cuDNN): write "
    "the kernel yourself with CUDA C++ and inline PTX";
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
    "and the assembler's `.incbin` and `.include` (in any case) are not allowed";
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
  Pattern re;
};

Pattern re(const char* pattern) {
  return Pattern(pattern);
}

// Patterns matched against each scrubbed code line.
const std::vector<PatternRule>& code_rules() {
  static const std::vector<PatternRule> kRules = {
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
      // .incbin outside a literal: a stringizing macro's argument, asm(S(.incbin "...")). The
      // assembler reads its directives in any case (.INCBIN), and .include reads a file too.
      {rule::include_path, kIncludeMsg, re(R"((?i)\.(incbin|include)\b)")},
  };
  return kRules;
}

struct HeaderRule {
  std::string_view rule;
  const char* message;
  Pattern re;
};

// Patterns matched against the header name of each #include.
const std::vector<HeaderRule>& header_rules() {
  static const std::vector<HeaderRule> kRules = {
      {rule::banned_library, kLibraryMsg,
       re(R"(^(cutlass|cute|cudnn_frontend)(/|\.h|_)|^cudnn_frontend)")},
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
    if (!check_literals()) return false;
    return check_asm() && !past_deadline();
  }

  bool past_deadline() const { return Clock::now() > deadline_; }

  void add(int line, std::string_view r, const char* message) {
    if (!seen_.emplace(line, std::string(r)).second) return;
    std::string text = line >= 1 && line <= static_cast<int>(raw_lines_.size())
                           ? std::string(trim(raw_lines_[line - 1]))
                           : "";
    if (text.size() > 160) text = text.substr(0, 157) + "...";
    found_.push_back({line, std::string(r), text, message});
  }

  void check_line(int line) {
    const std::string& code = code_lines_[line - 1];
    for (const auto& r : code_rules())
      if (r.re.search(code)) add(line, r.rule, r.message);
    check_has_include(line, code);
    static const Pattern kInclude(R"(^\s*(#|%:)\s*(include_next|include|import)\b\s*(.?))");
    const auto m = kInclude.find(code);
    if (!m) return;
    const std::string opener = m->str(3);
    if (opener != "<" && opener != "\"") {  // #include MACRO, or the name on the next line
      add(line, rule::include_path, kIncludeMsg);
      return;
    }
    std::string header =
        header_name(line, code, static_cast<std::size_t>(m->groups[3].data() - code.data()));
    if (escapes_include_dirs(header)) add(line, rule::include_path, kIncludeMsg);
    for (const auto& r : header_rules())
      if (r.re.search(header)) add(line, r.rule, r.message);
  }

  // __has_include(<...>) / __has_include("...") tells whether a file exists: the same names.
  void check_has_include(int line, const std::string& code) {
    if (code.find("__has_include") == std::string::npos) return;
    static const Pattern kAngle(R"(__has_include(_next)?\s*\(\s*<([^>]*)>)");
    for (const auto& m : kAngle.find_all(code))
      if (escapes_include_dirs(trim(m.groups[2]))) add(line, rule::include_path, kIncludeMsg);
    for (const StringLiteral* lit : literals_on(line))
      if (escapes_include_dirs(trim(lit->value))) add(line, rule::include_path, kIncludeMsg);
  }

  // The literals that open on `line` (the scrubber lists them in source order).
  std::vector<const StringLiteral*> literals_on(int line) const {
    const auto& all = scrubbed_.literals;
    auto it = std::lower_bound(all.begin(), all.end(), line,
                               [](const StringLiteral& l, int n) { return l.line < n; });
    std::vector<const StringLiteral*> out;
    for (; it != all.end() && it->line == line; ++it) out.push_back(&*it);
    return out;
  }

  // The header named by an #include on `line`; quoted names come from the literal list.
  std::string header_name(int line, const std::string& code, std::size_t open) const {
    if (code[open] == '<') {
      std::size_t close = code.find('>', open);
      return std::string(trim(code.substr(
          open + 1, close == std::string::npos ? std::string::npos : close - open - 1)));
    }
    const auto on_line = literals_on(line);
    return on_line.empty() ? std::string{} : std::string(trim(on_line.front()->value));
  }

  // false when the deadline passed first.
  bool check_literals() {
    static const Pattern kDriverName(R"(^cu[A-Z]\w*$)");
    static const Pattern kSharedLib(R"((^|/)lib\w+\.so(\.\d+)*$|\.so(\.\d+)+$)");
    static const Pattern kLinkFlag(
        R"((^|\s)(-l(cublas|cublasLt|cudnn|cuda|dl)\b|-Wl,|--whole-archive))");
    static const Pattern kPragmaComment(R"(^\s*comment\s*\()");
    static const Pattern kPragmaDependency(R"(^\s*GCC\s+dependency\b)");
    static const Pattern kIncbin(R"((?i)\.(incbin|include)\b)");  // the assembler's file reads
    // Adjacent literals are one string to the compiler (".inc" "bin \"/etc/passwd\""): each run
    // of them is joined once, and a literal followed by more text of its run is reported when
    // the run's last `.incbin` starts at or after it.
    const auto& lits = scrubbed_.literals;
    for (std::size_t first = 0; first < lits.size();) {
      std::size_t last = first;
      while (last + 1 < lits.size() && adjacent(last)) ++last;
      if (last > first) {
        std::string joined;
        std::vector<std::size_t> starts;
        for (std::size_t k = first; k <= last; ++k) {
          starts.push_back(joined.size());
          joined += lits[k].value;
        }
        std::size_t found = std::string::npos;
        for (const auto& m : kIncbin.find_all(joined)) found = m.position;
        for (std::size_t k = first; found != std::string::npos && k < last; ++k)
          if (starts[k - first] <= found &&
              joined.size() > starts[k - first] + lits[k].value.size())
            add(lits[k].line, rule::include_path, kIncludeMsg);
      }
      first = last + 1;
      if (past_deadline()) return false;
    }
    std::size_t n = 0;
    for (const auto& lit : scrubbed_.literals) {
      if ((++n & 1023) == 0 && past_deadline()) return false;
      if (kDriverName.search(lit.value) && !driver_function_allowed(lit.value))
        add(lit.line, rule::driver_entry_point, driver_message());
      if (kSharedLib.search(lit.value)) add(lit.line, rule::dynamic_loading, kDlMsg);
      if (kLinkFlag.search(lit.value)) add(lit.line, rule::link_pragma, kPragmaMsg);
      if (kPragmaComment.search(lit.value) && preceded_by_pragma(lit.offset))
        add(lit.line, rule::link_pragma, kPragmaMsg);
      if (kPragmaDependency.search(lit.value) && preceded_by_pragma(lit.offset))
        add(lit.line, rule::include_path, kIncludeMsg);
      if (kIncbin.search(lit.value)) add(lit.line, rule::include_path, kIncludeMsg);
    }
    return true;
  }

  // Is the literal at `offset` the argument of _Pragma( ... )?
  bool preceded_by_pragma(std::size_t offset) const {
    std::string_view before = std::string_view(scrubbed_.code).substr(0, offset);
    std::size_t k = before.find_last_not_of(" \t\n");
    if (k == std::string_view::npos || before[k] != '(') return false;
    // Only the right end is trimmed: trimming from the left would rescan the whole source for
    // each literal.
    const std::size_t end = before.find_last_not_of(" \t\n\v\f\r", k == 0 ? 0 : k - 1);
    return k > 0 && end != std::string_view::npos &&
           ends_with(before.substr(0, end + 1), "_Pragma");
  }

  // asm("...") / __asm__ volatile("..."): the instruction text is in string literals. false
  // when the deadline passed first. Each parenthesis is matched once and each body searched
  // once, however many asm keywords share it.
  bool check_asm() {
    static const Pattern kAsm(R"(\b(asm|__asm__|__asm)\b)");
    static const Pattern kSys(R"(\b(syscall|sysenter|sysexit|svc)\b|\bint\s+\$?0x80\b)");
    const std::string& code = scrubbed_.code;
    const auto& lits = scrubbed_.literals;
    std::unordered_map<std::size_t, std::size_t> close_of;  // '(' -> its ')' (or the end)
    std::unordered_map<std::size_t, bool> raw;              // '(' -> its body has a syscall
    std::size_t line = 1, counted = 0, n = 0;
    for (const auto& m : kAsm.find_all(code)) {
      if ((++n & 255) == 0 && past_deadline()) return false;
      const std::size_t at = m.position;
      const std::size_t open = code.find('(', at);
      if (open == std::string::npos) break;
      if (close_of.empty()) close_of = matching_parens(code);
      auto known = raw.find(open);
      if (known == raw.end()) {
        const std::size_t close = close_of.at(open);
        std::string body;
        auto it =
            std::upper_bound(lits.begin(), lits.end(), open,
                             [](std::size_t o, const StringLiteral& l) { return o < l.offset; });
        for (; it != lits.end() && it->offset < close; ++it) body += it->value + "\n";
        known = raw.emplace(open, kSys.search(body)).first;
      }
      line += static_cast<std::size_t>(
          std::count(code.begin() + static_cast<std::ptrdiff_t>(counted),
                     code.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
      counted = at;
      if (known->second) add(static_cast<int>(line), rule::raw_syscall, kSyscallMsg);
    }
    return true;
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

  // Every '(' with the ')' that closes it (the end of the code when none does), in one pass.
  static std::unordered_map<std::size_t, std::size_t> matching_parens(const std::string& code) {
    std::unordered_map<std::size_t, std::size_t> out;
    std::vector<std::size_t> open;
    for (std::size_t k = 0; k < code.size(); ++k) {
      if (code[k] == '(') open.push_back(k);
      if (code[k] == ')' && !open.empty()) {
        out[open.back()] = k;
        open.pop_back();
      }
    }
    for (std::size_t k : open) out[k] = code.size();
    return out;
  }

  Clock::time_point deadline_;
  std::string_view source_;
  ScrubbedSource scrubbed_;
  std::vector<std::string> code_lines_;
  std::vector<std::string> raw_lines_;
  std::vector<PolicyViolation> found_;
  std::set<std::pair<int, std::string>> seen_;  // (line, rule) already in found_
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
