#include "compile/elf_hardening.h"

#include <cxxabi.h>

#include <cstdlib>
#include <map>
#include <optional>

#include "compile/elf_file.h"
#include "core/fs.h"

namespace ptxbench::compile {
namespace {

// Dynamic tags and flags (System V ABI, GNU extensions).
constexpr std::int64_t kDtInit = 12, kDtFini = 13, kDtTextrel = 22, kDtBindNow = 24,
                       kDtInitArray = 25, kDtFiniArray = 26, kDtInitArraySz = 27,
                       kDtFiniArraySz = 28, kDtFlags = 30, kDtPreinitArray = 32,
                       kDtPreinitArraySz = 33, kDtFlags1 = 0x6ffffffb;
constexpr std::uint64_t kDfTextrel = 0x4, kDfBindNow = 0x8, kDf1Now = 0x1;

// The tails of the load-time/unload-time messages: why not, and what to do instead.
constexpr char kLoadAdvice[] =
    "which is not allowed: do one-time setup inside ptxbench_launch instead (behind a static "
    "flag)";
constexpr char kUnloadAdvice[] =
    "which is not allowed: ptxbench_launch must leave nothing to clean up (release "
    "stream-ordered allocations with cudaFreeAsync in the same call)";
constexpr char kLinkAdvice[] =
    "ptxbench links every candidate with -z relro -z now; remove the linker directives, section "
    "attributes or asm section switches that defeat it";

// The largest _init/_fini stubs glibc's crti.o + crtn.o produce (with CET/PAC instructions):
// anything larger has code placed in .init/.fini by the candidate.
struct StubLimits {
  std::uint64_t init = 0, fini = 0;
};
std::optional<StubLimits> stub_limits(std::uint16_t machine) {
  if (machine == elf::kEmX86_64) return StubLimits{27, 13};
  if (machine == elf::kEmAarch64) return StubLimits{28, 24};
  return std::nullopt;
}

bool is_relative(std::uint16_t machine, std::uint32_t type) {
  return (machine == elf::kEmX86_64 && type == 8) || (machine == elf::kEmAarch64 && type == 1027);
}

// R_X86_64_IRELATIVE, R_AARCH64_IRELATIVE: a slot filled by calling a resolver at load time.
bool is_irelative(std::uint16_t machine, std::uint32_t type) {
  return (machine == elf::kEmX86_64 && type == 37) || (machine == elf::kEmAarch64 && type == 1032);
}

constexpr std::uint8_t kSttGnuIfunc = 10;

std::string demangled(const std::string& name) {
  int status = 0;
  char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  std::string out = status == 0 && d ? std::string(d) : name;
  std::free(d);
  return out;
}

// The functions an init/fini array slot or a DT_INIT/DT_FINI address points at.
class Resolver {
 public:
  static Result<Resolver> make(const elf::File& f) {
    Resolver r(f);
    PTXB_TRY(r.symtab_, f.symbols(elf::kShtSymtab));
    PTXB_TRY(r.relocs_, f.relocations());
    return r;
  }

  // The function (by address) whose address is stored at `slot` once relocated; an imported
  // function's name when the slot is bound to an import.
  struct Target {
    std::uint64_t address = 0;
    std::string import;  // non-empty: the slot holds an imported symbol's address
  };
  Result<Target> slot(std::uint64_t slot) const {
    for (const auto& r : relocs_) {
      if (r.offset != slot) continue;
      if (is_relative(file_.machine(), r.type))
        return Target{static_cast<std::uint64_t>(r.addend), {}};
      PTXB_TRY(std::vector<elf::Symbol> table, file_.symbol_table(r.symtab));
      if (r.symbol == 0 || r.symbol > table.size())
        return make_error("corrupt relocation of an initialiser slot");
      const elf::Symbol& s = table[r.symbol - 1];
      if (s.shndx == 0) return Target{0, s.name.empty() ? "(unnamed import)" : s.name};
      return Target{s.value + static_cast<std::uint64_t>(r.addend), {}};
    }
    auto value = file_.read_u64(slot);
    if (!value) return make_error("an initialiser slot lies outside the file's sections");
    return Target{*value, {}};
  }

  // The function symbol at `address` (a local one first: the toolchain's are local).
  const elf::Symbol* function_at(std::uint64_t address) const {
    const elf::Symbol* found = nullptr;
    for (const auto& s : symtab_)
      if (s.type == elf::kSttFunc && s.shndx != 0 && s.value == address &&
          (!found || s.bind == elf::kStbLocal))
        found = &s;
    return found;
  }

  std::string describe(const Target& t) const {
    if (!t.import.empty()) return "the imported function " + t.import;
    if (const elf::Symbol* s = function_at(t.address)) return demangled(s->name);
    char buf[48];
    std::snprintf(buf, sizeof buf, "an unnamed function at 0x%llx",
                  static_cast<unsigned long long>(t.address));
    return buf;
  }

  const std::vector<elf::Symbol>& symtab() const { return symtab_; }
  const std::vector<elf::Relocation>& relocs() const { return relocs_; }

 private:
  explicit Resolver(const elf::File& f) : file_(f) {}
  const elf::File& file_;
  std::vector<elf::Symbol> symtab_;
  std::vector<elf::Relocation> relocs_;
};

// The toolchain's initialisers, by the local function symbol a slot points at; "" otherwise.
std::string toolchain_initialiser(const elf::Symbol* s) {
  if (!s || s->bind != elf::kStbLocal) return {};
  const std::string& n = s->name;
  if (n == "frame_dummy") return "frame_dummy";
  if (n.starts_with("__sti____cudaRegisterAll") || n == "_ZL24__sti____cudaRegisterAllv")
    return "cuda_registration";
  if (n.starts_with("_GLOBAL__sub_I_")) return "cxx_static_init";
  return {};
}

std::string toolchain_finaliser(const elf::Symbol* s) {
  return s && s->bind == elf::kStbLocal && s->name == "__do_global_dtors_aux" ? s->name : "";
}

class HardeningChecker {
 public:
  HardeningChecker(const elf::File& f, const Resolver& r, std::map<std::int64_t, std::uint64_t> dyn)
      : f_(f), r_(r), dyn_(std::move(dyn)) {}

  Result<HardeningCheck> run() {
    PTXB_TRY_STATUS(check_array(kDtInitArray, kDtInitArraySz, true));
    PTXB_TRY_STATUS(check_array(kDtFiniArray, kDtFiniArraySz, false));
    check_preinit();
    check_stub(kDtInit, "_init", ".init", true);
    check_stub(kDtFini, "_fini", ".fini", false);
    for (const auto& s : r_.symtab())
      if (s.name == "__gmon_start__" && s.shndx != 0)
        add("the object defines __gmon_start__, which the toolchain's _init stub calls when the "
            "library is loaded: rename that function");
    PTXB_TRY_STATUS(check_indirect_functions());
    check_relro();
    check_segments();
    return std::move(out_);
  }

 private:
  void add(std::string problem) { out_.problems.push_back(std::move(problem)); }
  bool has(std::int64_t tag) const { return dyn_.count(tag) > 0; }
  std::uint64_t get(std::int64_t tag) const { return has(tag) ? dyn_.at(tag) : 0; }

  Status check_array(std::int64_t tag, std::int64_t size_tag, bool init) {
    if (!has(tag)) return {};
    std::map<std::string, int> seen;
    for (std::uint64_t off = 0; off + 8 <= get(size_tag); off += 8) {
      PTXB_TRY(Resolver::Target t, r_.slot(get(tag) + off));
      const elf::Symbol* s = t.import.empty() ? r_.function_at(t.address) : nullptr;
      std::string kind = init ? toolchain_initialiser(s) : toolchain_finaliser(s);
      if (!kind.empty() && ++seen[kind] == 1) continue;
      std::string what = r_.describe(t);
      if (init)
        add("`" + what + "` runs when the library is loaded (a constructor: " +
            "__attribute__((constructor)), an .init_array entry or a section placed there), " +
            kLoadAdvice);
      else
        add("`" + what + "` runs when the library is unloaded or the worker exits (a destructor: " +
            "__attribute__((destructor)) or a .fini_array entry), " + kUnloadAdvice);
    }
    return {};
  }

  // GNU indirect functions: the loader calls their resolvers inside dlopen, before any
  // constructor, so they are load-time code too (red team of 2026-12-06,
  // kernels/controls/words/ifunc_load_time_output.cu). Told by an IRELATIVE relocation (a
  // local one) or an STT_GNU_IFUNC symbol the object defines (an exported one, bound at load).
  Status check_indirect_functions() {
    bool found = false;
    for (const auto& rel : r_.relocs()) found = found || is_irelative(f_.machine(), rel.type);
    PTXB_TRY(std::vector<elf::Symbol> dynsym, f_.symbols(elf::kShtDynsym));
    const std::vector<elf::Symbol>* tables[] = {&r_.symtab(), &dynsym};
    for (const auto* table : tables)
      for (const auto& s : *table) found = found || (s.type == kSttGnuIfunc && s.shndx != 0);
    if (found)
      add(std::string("the object has a GNU indirect function (__attribute__((ifunc)), or asm "
                      "`.type NAME, @gnu_indirect_function`): its resolver runs when the library "
                      "is loaded, ") +
          kLoadAdvice);
    return {};
  }

  void check_preinit() {
    if (has(kDtPreinitArray) || has(kDtPreinitArraySz) || f_.section(".preinit_array"))
      add(std::string("the object has a .preinit_array (code run before the program starts), ") +
          kLoadAdvice);
    for (std::string_view name : {".ctors", ".dtors"})
      if (const elf::Section* s = f_.section(name); s && s->size > 0)
        add("the object has a " + std::string(name) +
            " section (old-style constructors/destructors), " +
            (name == ".ctors" ? kLoadAdvice : kUnloadAdvice));
  }

  // DT_INIT/DT_FINI: only the toolchain's stub, named `stub`, alone in `section`.
  void check_stub(std::int64_t tag, std::string_view stub, std::string_view section, bool init) {
    const char* advice = init ? kLoadAdvice : kUnloadAdvice;
    const elf::Section* sec = f_.section(section);
    if (has(tag)) {
      const elf::Symbol* s = r_.function_at(get(tag));
      if (!s || s->name != stub || !sec || !sec->contains(get(tag)))
        add((init ? "DT_INIT" : "DT_FINI") + std::string(" points at `") +
            r_.describe({get(tag), {}}) + "` instead of the toolchain's " + std::string(stub) +
            " stub, " + advice);
    }
    auto limits = stub_limits(f_.machine());
    std::uint64_t limit = limits ? (init ? limits->init : limits->fini) : 0;
    if (sec && limits && sec->size > limit)
      add("the " + std::string(section) + " section holds " + std::to_string(sec->size) +
          " bytes, more than the toolchain's " + std::string(stub) + " stub (at most " +
          std::to_string(limit) + "): code placed in " + std::string(section) + " runs when the " +
          "library is " + (init ? "loaded" : "unloaded") + ", " + advice);
  }

  void check_relro() {
    const elf::Segment* relro = nullptr;
    for (const auto& p : f_.segments())
      if (p.type == elf::kPtGnuRelro) relro = &p;
    if (!relro) {
      add(std::string("the object is not linked with RELRO (no PT_GNU_RELRO segment), so its "
                      "relocated pointers stay writable: ") +
          kLinkAdvice);
    } else {
      for (std::string_view name : {".init_array", ".fini_array", ".dynamic", ".got", ".got.plt"}) {
        const elf::Section* s = f_.section(name);
        if (!s || s->size == 0) continue;
        if (s->addr < relro->vaddr || s->addr + s->size > relro->vaddr + relro->memsz)
          add("`" + std::string(name) +
              "` lies outside the RELRO segment, so it stays writable after loading (partial "
              "RELRO): " +
              kLinkAdvice);
      }
    }
    bool now = has(kDtBindNow) || (get(kDtFlags) & kDfBindNow) || (get(kDtFlags1) & kDf1Now);
    if (!now)
      add(std::string("the object is not linked for immediate binding (no BIND_NOW), so its GOT "
                      "is patched lazily while the worker runs: ") +
          kLinkAdvice);
  }

  void check_segments() {
    for (const auto& p : f_.segments()) {
      if (p.type == elf::kPtLoad && (p.flags & elf::kPfW) && (p.flags & elf::kPfX))
        add("a loadable segment is both writable and executable (self-modifying code): keep host "
            "code in .text and data in data sections; do not use section attributes or asm "
            "section flags that make code writable");
      if (p.type == elf::kPtGnuStack && (p.flags & elf::kPfX))
        add("the object asks for an executable stack (nested functions, trampolines or an asm "
            "section flag): remove the construct that needs it");
    }
    if (has(kDtTextrel) || (get(kDtFlags) & kDfTextrel))
      add("the object has text relocations (host code patched when it is loaded): write "
          "position-independent host code (ptxbench passes -fPIC); remove asm that stores "
          "absolute addresses in code");
  }

  const elf::File& f_;
  const Resolver& r_;
  std::map<std::int64_t, std::uint64_t> dyn_;
  HardeningCheck out_;
};

}  // namespace

Result<HardeningCheck> check_hardening(std::string_view elf_bytes) {
  PTXB_TRY(elf::File file, elf::File::parse(elf_bytes));
  PTXB_TRY(Resolver resolver, Resolver::make(file));
  PTXB_TRY(auto entries, file.dynamic());
  std::map<std::int64_t, std::uint64_t> dyn;
  for (const auto& [tag, value] : entries) dyn.emplace(tag, value);
  if (dyn.empty()) return make_error("the object has no dynamic section (not a shared object)");
  return HardeningChecker(file, resolver, std::move(dyn)).run();
}

Result<HardeningCheck> read_hardening(const std::filesystem::path& shared_object) {
  PTXB_TRY(std::string bytes, read_file(shared_object));
  auto r = check_hardening(bytes);
  if (!r.ok()) return make_error(shared_object.string() + ": " + r.error().message);
  return r;
}

}  // namespace ptxbench::compile
