// Host-only shared objects for src/compile/elf_hardening_test.cc: one source, one variant
// per PROBE_* macro (see src/compile/CMakeLists.txt), each planting one load-time construct.
#include <vector>

int probe_value = 1;

#if defined(PROBE_CONSTRUCTOR)
__attribute__((constructor)) static void at_load() {
  probe_value = 2;
}
#endif

#if defined(PROBE_DESTRUCTOR)
__attribute__((destructor)) static void at_unload() {
  probe_value = 3;
}
#endif

#if defined(PROBE_STATIC_INIT)
static std::vector<int> table(16, 3);
#endif

#if defined(PROBE_INIT_SECTION)
// Code appended to the toolchain's _init stub: runs at load time without any array entry.
__asm__(".section .init,\"ax\",@progbits\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\tnop\n\t.text\n");
#endif

#if defined(PROBE_GMON)
extern "C" void __gmon_start__() {
  probe_value = 4;
}
#endif

#if defined(PROBE_IFUNC_LOCAL) || defined(PROBE_IFUNC_EXPORTED)
// A GNU indirect function: the loader calls its resolver inside dlopen (an IRELATIVE relocation
// when local, an STT_GNU_IFUNC symbol bound at load when exported).
static int pick_one() {
  return 5;
}
extern "C" int (*pick_resolver())() {
  probe_value = 6;  // load-time code
  return pick_one;
}
#if defined(PROBE_IFUNC_LOCAL)
static int pick() __attribute__((ifunc("pick_resolver")));
#else
extern "C" int pick() __attribute__((ifunc("pick_resolver")));
#endif
#endif

extern "C" int probe_launch() {
#if defined(PROBE_IFUNC_LOCAL) || defined(PROBE_IFUNC_EXPORTED)
  return pick();
#endif
#if defined(PROBE_STATIC_INIT)
  return probe_value + table[2];
#else
  return probe_value;
#endif
}
