// sandbox_cuda_probe: the GPU half of the sandbox tests. It initialises CUDA (runtime, driver,
// NVML, optionally CUPTI) as the GPU worker does, applies the sandbox, then does a worker's
// post-initialisation work under it: memory, copies, launches, events, a host callback,
// pinned and managed memory, loading a real CUDA candidate, NVML samples, CUPTI flushes,
// and the normal exit. Every step prints "step <name>: ok" or what failed.
//
//   sandbox_cuda_probe CANDIDATE.so [--learn] [--no-sandbox] [--cupti] [--as-nobody] [--libs]
//                      [--open-on-callback] [--no-file-report]
//
// --learn lists the calls the allow-list lacks instead of refusing them ("would refuse").
// --as-nobody switches to nobody before initialising CUDA (as the worker's parent would).
// --libs also creates cuBLASLt and cuDNN handles under the sandbox and runs a cuBLASLt matmul.
// --open-on-callback has the candidate open /etc/hostname from a CUDA driver thread (its host
// function): with file access reporting that ends the process (exit 87, the call named), with
// --no-file-report it fails with EACCES (-13) and the run goes on.
// The launch-and-synchronise latency is printed before and after the sandbox (filter cost).
// Prints the threads CUDA started (name, blocked signals) and the sandbox report first.
#include <cublasLt.h>
#include <cuda_runtime.h>
#include <cudnn.h>
#include <cupti.h>
#include <dirent.h>
#include <dlfcn.h>
#include <glob.h>
#include <grp.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "sandbox/identity.h"
#include "sandbox/sandbox.h"

namespace {

int g_failures = 0;

void step(const char* name, cudaError_t e) {
  if (e == cudaSuccess) {
    std::printf("step %s: ok\n", name);
  } else {
    std::printf("step %s: FAILED %s\n", name, cudaGetErrorString(e));
    ++g_failures;
  }
  std::fflush(stdout);
}

__global__ void scale(float* x, int n, float f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= f;
}

void CUDART_CB host_callback(void* flag) {
  *static_cast<int*>(flag) = 1;
}

// The threads of this process: id, name, blocked-signal mask.
void print_threads() {
  DIR* d = opendir("/proc/self/task");
  if (!d) return;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::string base = std::string("/proc/self/task/") + e->d_name;
    std::string comm, line, blocked;
    std::ifstream(base + "/comm") >> comm;
    std::ifstream status(base + "/status");
    while (std::getline(status, line))
      if (line.rfind("SigBlk:", 0) == 0) blocked = line.substr(8);
    std::printf("thread %s %s SigBlk %s\n", e->d_name, comm.c_str(), blocked.c_str());
  }
  closedir(d);
}

std::vector<std::filesystem::path> nvidia_devices() {
  std::vector<std::filesystem::path> out;
  glob_t g{};
  if (glob("/dev/nvidia*", 0, nullptr, &g) == 0)
    for (std::size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
  globfree(&g);
  return out;
}

// --- NVML, loaded and initialised before the sandbox like the worker's -----------------------
struct Nvml {
  void* lib = nullptr;
  void* dev = nullptr;
  int (*clock)(void*, int, unsigned*) = nullptr;
  int (*power)(void*, unsigned*) = nullptr;
  bool init() {
    lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return false;
    auto nvml_init = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
    auto by_index =
        reinterpret_cast<int (*)(unsigned, void**)>(dlsym(lib, "nvmlDeviceGetHandleByIndex_v2"));
    clock = reinterpret_cast<int (*)(void*, int, unsigned*)>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    power = reinterpret_cast<int (*)(void*, unsigned*)>(dlsym(lib, "nvmlDeviceGetPowerUsage"));
    return nvml_init && by_index && clock && power && nvml_init() == 0 && by_index(0, &dev) == 0;
  }
  bool sample() {
    unsigned mhz = 0, mw = 0;
    return clock(dev, 1 /*SM*/, &mhz) == 0 && power(dev, &mw) == 0 && mhz > 0;
  }
};

// --- CUPTI kernel activity records ---------------------------------------------------------
int g_kernel_records = 0;
void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 1 << 20;
  *buffer = static_cast<uint8_t*>(aligned_alloc(8, *size));
  *max_records = 0;
}
void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) ++g_kernel_records;
  free(buffer);
}

// Mean microseconds of one tiny launch plus stream synchronisation (system-call bound).
double launch_sync_us(cudaStream_t s, float* d) {
  const int iters = 2000;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) {
    scale<<<1, 32, 0, s>>>(d, 32, 1.0f);
    cudaStreamSynchronize(s);
  }
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
         iters;
}

// A small fp32 cuBLASLt matmul (handle, descriptors, heuristic, run), as the baselines do.
void cublaslt_matmul(cudaStream_t s) {
  const int m = 256;
  float *a = nullptr, *c = nullptr;
  step("lt malloc", cudaMalloc(&a, m * m * sizeof(float)));
  step("lt malloc", cudaMalloc(&c, m * m * sizeof(float)));
  cublasLtHandle_t lt{};
  cublasLtMatmulDesc_t op{};
  cublasLtMatrixLayout_t layout{};
  cublasLtMatmulPreference_t pref{};
  cublasLtMatmulHeuristicResult_t heur{};
  int found = 0;
  float one = 1.0f, zero = 0.0f;
  bool ok =
      cublasLtCreate(&lt) == CUBLAS_STATUS_SUCCESS &&
      cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32F, CUDA_R_32F) == CUBLAS_STATUS_SUCCESS &&
      cublasLtMatrixLayoutCreate(&layout, CUDA_R_32F, m, m, m) == CUBLAS_STATUS_SUCCESS &&
      cublasLtMatmulPreferenceCreate(&pref) == CUBLAS_STATUS_SUCCESS &&
      cublasLtMatmulAlgoGetHeuristic(lt, op, layout, layout, layout, layout, pref, 1, &heur,
                                     &found) == CUBLAS_STATUS_SUCCESS &&
      found > 0 &&
      cublasLtMatmul(lt, op, &one, a, layout, a, layout, &zero, c, layout, c, layout, &heur.algo,
                     nullptr, 0, s) == CUBLAS_STATUS_SUCCESS;
  std::printf("step cublasLt matmul: %s\n", ok ? "ok" : "FAILED");
  g_failures += ok ? 0 : 1;
  step("lt sync", cudaStreamSynchronize(s));
  if (pref) cublasLtMatmulPreferenceDestroy(pref);
  if (layout) cublasLtMatrixLayoutDestroy(layout);
  if (op) cublasLtMatmulDescDestroy(op);
  if (lt) cublasLtDestroy(lt);
  cudaFree(a);
  cudaFree(c);
}

void cudnn_handle(cudaStream_t s) {
  cudnnHandle_t h{};
  bool ok = cudnnCreate(&h) == CUDNN_STATUS_SUCCESS &&
            cudnnSetStream(h, s) == CUDNN_STATUS_SUCCESS && cudnnDestroy(h) == CUDNN_STATUS_SUCCESS;
  std::printf("step cudnn handle (version %zu): %s\n", cudnnGetVersion(), ok ? "ok" : "FAILED");
  g_failures += ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: sandbox_cuda_probe CANDIDATE.so [options]\n");
    return 2;
  }
  std::filesystem::path candidate = argv[1];
  bool learn = false, sandbox = true, cupti = false, as_nobody = false, libs = false;
  bool open_on_callback_thread = false, file_report = true;
  for (int i = 2; i < argc; ++i) {
    std::string o = argv[i];
    learn |= o == "--learn";
    sandbox &= o != "--no-sandbox";
    cupti |= o == "--cupti";
    as_nobody |= o == "--as-nobody";
    libs |= o == "--libs";
    open_on_callback_thread |= o == "--open-on-callback";
    file_report &= o != "--no-file-report";
  }
  char dir_template[] = "/tmp/ptxb-sandbox-cuda-XXXXXX";
  std::filesystem::path private_dir = mkdtemp(dir_template);
  if (as_nobody) {
    if (auto id = ptxbench::unprivileged_identity()) {
      if (!ptxbench::chown_tree(private_dir, id->first, id->second).ok() ||
          setgroups(0, nullptr) != 0 || setresgid(id->second, id->second, id->second) != 0 ||
          setresuid(id->first, id->first, id->first) != 0) {
        std::printf("cannot switch to nobody\n");
        return 3;
      }
    }
  }

  // --- initialisation, before the sandbox ---
  const int n = 1 << 20;
  float* d = nullptr;
  cudaStream_t s{};
  step("init", cudaFree(nullptr));
  step("stream", cudaStreamCreate(&s));
  step("malloc", cudaMalloc(&d, n * sizeof(float)));
  Nvml nvml;
  bool have_nvml = nvml.init();
  std::printf("nvml: %s\n", have_nvml ? "initialised" : "unavailable");
  if (cupti) {
    bool ok = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) == CUPTI_SUCCESS &&
              cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) == CUPTI_SUCCESS;
    std::printf("cupti: %s\n", ok ? "enabled" : "FAILED");
  }
  scale<<<n / 256, 256, 0, s>>>(d, n, 1.0f);
  step("warm-up launch", cudaStreamSynchronize(s));
  print_threads();
  std::printf("launch+sync before the sandbox: %.2f us\n", launch_sync_us(s, d));

  if (sandbox) {
    ptxbench::SandboxPolicy policy;
    policy.read_paths = {"/usr", "/lib", "/lib64", "/etc/ld.so.cache", candidate.parent_path()};
    policy.write_paths = {private_dir};
    policy.device_paths = nvidia_devices();
    policy.seccomp_learn = learn;
    policy.report_file_access = file_report;
    auto report = ptxbench::apply_sandbox(policy);
    if (!report.ok()) {
      std::printf("sandbox: FAILED %s\n", report.error().to_string().c_str());
      return 4;
    }
    std::printf("sandbox: %s\n", report->to_json().dump().c_str());
    std::fflush(stdout);
  }

  // --- a worker's work, under the sandbox ---
  std::vector<float> host(n, 2.0f);
  step("memcpy h2d", cudaMemcpy(d, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  step("memset", cudaMemsetAsync(d, 0, 16, s));
  cudaEvent_t a{}, b{};
  step("events", cudaEventCreate(&a));
  step("events", cudaEventCreate(&b));
  step("record", cudaEventRecord(a, s));
  scale<<<n / 256, 256, 0, s>>>(d, n, 3.0f);
  step("launch", cudaGetLastError());
  step("record", cudaEventRecord(b, s));
  step("event sync", cudaEventSynchronize(b));
  float ms = 0;
  step("elapsed", cudaEventElapsedTime(&ms, a, b));
  int flag = 0;
  step("host callback", cudaLaunchHostFunc(s, host_callback, &flag));
  step("stream sync", cudaStreamSynchronize(s));
  std::printf("host callback ran: %d\n", flag);
  void* pinned = nullptr;
  step("malloc host", cudaMallocHost(&pinned, 1 << 22));
  step("memcpy d2h pinned", cudaMemcpyAsync(pinned, d, 1 << 22, cudaMemcpyDeviceToHost, s));
  step("stream sync", cudaStreamSynchronize(s));
  step("free host", cudaFreeHost(pinned));
  float* managed = nullptr;
  step("malloc managed", cudaMallocManaged(&managed, 1 << 22));
  managed[0] = 1.0f;
  scale<<<1, 256, 0, s>>>(managed, 256, 2.0f);
  step("managed sync", cudaStreamSynchronize(s));
  std::printf("managed value: %g\n", managed[0]);
  step("free managed", cudaFree(managed));
  cudaStream_t s2{};
  step("stream create", cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  step("stream destroy", cudaStreamDestroy(s2));
  if (have_nvml) std::printf("nvml sample: %s\n", nvml.sample() ? "ok" : "FAILED");
  std::printf("launch+sync after the sandbox: %.2f us\n", launch_sync_us(s, d));
  if (libs) {
    cublaslt_matmul(s);
    cudnn_handle(s);
  }

  void* h = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    std::printf("step dlopen: FAILED %s\n", dlerror());
    return 5;
  }
  std::printf("step dlopen: ok\n");
  auto run = reinterpret_cast<int (*)(float*, int, cudaStream_t)>(dlsym(h, "candidate_run"));
  auto open_on_callback =
      reinterpret_cast<long (*)(cudaStream_t)>(dlsym(h, "candidate_open_on_callback_thread"));
  step("candidate launch", static_cast<cudaError_t>(run(d, n, s)));
  step("candidate sync", cudaStreamSynchronize(s));
  step("memcpy d2h", cudaMemcpy(host.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("value after candidate: %g (expect 7)\n", host[n - 1]);  // 2 * 3 + 1
  if (open_on_callback_thread) {
    std::fflush(stdout);
    std::printf("candidate open on callback thread: %ld\n", open_on_callback(s));
  }
  if (cupti) {
    std::printf("cupti flush: %s\n", cuptiActivityFlushAll(1) == CUPTI_SUCCESS ? "ok" : "FAILED");
    std::printf("cupti kernel records: %d\n", g_kernel_records);
  }
  step("free", cudaFree(d));
  step("device sync", cudaDeviceSynchronize());
  print_threads();
  std::printf("done, %d failed steps\n", g_failures);
  std::fflush(stdout);
  return g_failures == 0 ? 0 : 1;  // the normal exit: CUDA's own teardown runs sandboxed too
}
