// A stand-in candidate for candidate_test: records the pointers it is called with.
// Built as a shared object; no CUDA.
extern "C" {
void* ptxbench_test_recorded[16];
int ptxbench_test_calls = 0;

void ptxbench_launch(void* a, void* b, void* c, void* stream) {
  void* v[] = {a, b, c, stream};
  for (int i = 0; i < 4; ++i) ptxbench_test_recorded[i] = v[i];
  ++ptxbench_test_calls;
}

void ptxbench_launch10(void* a0, void* a1, void* a2, void* a3, void* a4, void* a5, void* a6,
                       void* a7, void* a8, void* stream) {
  void* v[] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, stream};
  for (int i = 0; i < 10; ++i) ptxbench_test_recorded[i] = v[i];
  ++ptxbench_test_calls;
}
}
