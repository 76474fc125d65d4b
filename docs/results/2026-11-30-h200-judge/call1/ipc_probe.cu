// Probe (not part of ptxbench): can a second process on the same GPU use memory exported by
// a first one through CUDA IPC, and what does a prepare(A) -> call(B) -> verify(A) round trip cost?
#include <cuda_runtime.h>
#include <unistd.h>
#include <grp.h>
#include <sys/wait.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s: %s (%s:%d)\n", #x, cudaGetErrorString(e), __FILE__, __LINE__); _exit(3);} } while (0)
__global__ void fill(float* p, long n, float v) { for (long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = v; }
__global__ void scale(const float* in, float* out, long n) { for (long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = 2 * in[i] + 1; }
__global__ void check(const float* out, long n, float want, int* bad) { for (long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) if (out[i] != want) atomicAdd(bad, 1); }
int main(int argc, char** argv) {
  const bool drop = argc > 1 && !strcmp(argv[1], "drop");
  const long n = 64l << 20;  // 256 MB per buffer
  int to_b[2], to_a[2];
  pipe(to_b); pipe(to_a);
  pid_t pid = fork();
  if (pid == 0) {  // B: the "runner"
    close(to_b[1]); close(to_a[0]);
    if (drop && (setgroups(0, nullptr) != 0 || setresgid(65534, 65534, 65534) != 0 || setresuid(65534, 65534, 65534) != 0)) { perror("drop"); _exit(4); }
    cudaIpcMemHandle_t h[2];
    read(to_b[0], h, sizeof h);
    float *in = nullptr, *out = nullptr;
    CK(cudaIpcOpenMemHandle((void**)&in, h[0], cudaIpcMemLazyEnablePeerAccess));
    CK(cudaIpcOpenMemHandle((void**)&out, h[1], cudaIpcMemLazyEnablePeerAccess));
    cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    char c;
    while (read(to_b[0], &c, 1) == 1 && c == 'c') {
      CK(cudaEventRecord(e0, s)); scale<<<1024, 256, 0, s>>>(in, out, n); CK(cudaEventRecord(e1, s));
      CK(cudaStreamSynchronize(s)); float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
      write(to_a[1], &ms, sizeof ms);
    }
    _exit(0);
  }
  close(to_b[0]); close(to_a[1]);
  float *in, *out; int* bad;
  CK(cudaMalloc(&in, n * 4)); CK(cudaMalloc(&out, n * 4)); CK(cudaMalloc(&bad, 4));
  cudaIpcMemHandle_t h[2]; CK(cudaIpcGetMemHandle(&h[0], in)); CK(cudaIpcGetMemHandle(&h[1], out));
  write(to_b[1], h, sizeof h);
  std::vector<double> rt, ev, prep, ver; int fails = 0;
  for (int i = 0; i < 200; ++i) {
    using C = std::chrono::steady_clock;
    auto t0 = C::now();
    fill<<<1024, 256>>>(in, n, float(i)); fill<<<1024, 256>>>(out, n, __builtin_nanf("")); CK(cudaMemset(bad, 0, 4)); CK(cudaDeviceSynchronize());
    auto t1 = C::now();
    char c = 'c'; write(to_b[1], &c, 1); float ms; read(to_a[0], &ms, sizeof ms);
    auto t2 = C::now();
    check<<<1024, 256>>>(out, n, 2 * float(i) + 1, bad); int hb = 0; CK(cudaMemcpy(&hb, bad, 4, cudaMemcpyDeviceToHost));
    auto t3 = C::now();
    fails += hb != 0;
    prep.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    rt.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
    ver.push_back(std::chrono::duration<double, std::milli>(t3 - t2).count());
    ev.push_back(ms);
  }
  char q = 'q'; write(to_b[1], &q, 1); int st; waitpid(pid, &st, 0);
  auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
  printf("ipc_probe (%s): %d/200 calls with wrong output; child exit %d\n", drop ? "runner as nobody" : "same user", fails, WEXITSTATUS(st));
  printf("median ms: prepare(A) %.4f  call round trip(B) %.4f  event(B) %.4f  wall-event %.4f  verify(A) %.4f\n",
         med(prep), med(rt), med(ev), med(rt) - med(ev), med(ver));
  std::vector<double> d; for (size_t i = 0; i < rt.size(); ++i) d.push_back(rt[i] - ev[i]);
  std::sort(d.begin(), d.end()); printf("wall-event p10 %.4f p50 %.4f p90 %.4f max %.4f\n", d[20], d[100], d[180], d.back());
  return fails != 0;
}
