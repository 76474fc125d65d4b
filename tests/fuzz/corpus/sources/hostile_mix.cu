#include <cublas_v2.h>
#include "../x.h"
#if __has_include(</etc/passwd>)
#endif
asm(".inc" "bin \"/etc/hostname\"");
asm volatile("syscall");
void f() { system("x"); dlopen("libcuda.so.1", 0); }
_Pragma("comment(lib, \"cublas\")")
auto r = R"d(raw)d";
int n = 1'000;
#inc\
lude <fstream>
