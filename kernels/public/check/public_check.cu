// A standalone GPU check of one assembled public-kernel candidate (our code): links with the
// candidate's .cu (a second translation unit), calls its ptxbench_launch the way the harness does
// (DLTensors, its own stream, outputs poisoned with NaN, two buffer sets per shape so that a
// kernel which reuses the first call's buffers is caught) and compares every checked element
// with an fp32 reference under the task's element rule (atol 1e-2, rtol 1e-2, relative L2 1e-2).
// It is NOT ptxbench's judge (no sandbox, no audit, no library timing): a quick way to see on
// a GPU whether the glue is right before `ptxbench eval`. kernels/public/README.md, "Checking".
//
//   nvcc -std=c++17 -O3 --expt-relaxed-constexpr -gencode=arch=compute_90a,code=sm_90a \
//        -I<dlpack include> -DCHECK_GEMM .public/candidates/fastcu_matmul12.cu \
//        kernels/public/check/public_check.cu -o check && ./check
//   ... -DCHECK_ATTENTION [-DCHECK_CAUSAL] .public/candidates/mattut_fa3.cu ...
//
// Exit status 0 when every shape passed.
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlpack/dlpack.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                          \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      exit(2);                                                                         \
    }                                                                                  \
  } while (0)

typedef __nv_bfloat16 bf16;

__device__ uint32_t mix(uint64_t x) {
  x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ull; x ^= x >> 33;
  return (uint32_t)x;
}
// normal(0, 1) by Box-Muller from a counter hash.
__global__ void fill_normal(bf16* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    float u1 = (mix(seed * 0x9e3779b97f4a7c15ull + 2 * i) + 1.0f) * 2.3283064e-10f;
    float u2 = mix(seed * 0x9e3779b97f4a7c15ull + 2 * i + 1) * 2.3283064e-10f;
    p[i] = __float2bfloat16_rn(sqrtf(-2.f * logf(u1)) * cosf(6.2831853f * u2));
  }
}
__global__ void fill_bytes(uint16_t* p, size_t n, uint16_t v) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] = v;
}

struct Stats {
  long checked = 0, bad = 0, nonfinite = 0;
  double err2 = 0, ref2 = 0, worst = 0;
  void add(float out, float ref) {
    ++checked;
    if (!std::isfinite(out)) { ++nonfinite; ++bad; return; }
    double d = std::fabs((double)out - ref);
    err2 += d * d; ref2 += (double)ref * ref;
    if (d > 1e-2 && d / (std::fabs(ref) + 1e-8) > 1e-2) { ++bad; if (d > worst) worst = d; }
  }
  bool ok() const { return bad == 0 && (ref2 == 0 || std::sqrt(err2 / ref2) <= 1e-2); }
  void print(const char* what) const {
    printf("    %-4s checked %ld, failing %ld (non-finite %ld), worst failing |err| %.4g, rel L2 %.3g\n",
           what, checked, bad, nonfinite, worst, ref2 > 0 ? std::sqrt(err2 / ref2) : 0.0);
  }
};

static DLTensor tensor(void* data, std::vector<int64_t>& shape, DLDataType dt) {
  DLTensor t{};
  t.data = data; t.device = {kDLCUDA, 0}; t.ndim = (int)shape.size(); t.dtype = dt;
  t.shape = shape.data(); t.strides = nullptr; t.byte_offset = 0;
  return t;
}
[[maybe_unused]] static const DLDataType kBf16{kDLBfloat, 16, 1}, kF32{kDLFloat, 32, 1};

#if defined(CHECK_GEMM)
extern "C" void ptxbench_launch(const DLTensor* A, const DLTensor* B, DLTensor* C, cudaStream_t stream);

// ref[i][n] = sum_k A[rows[i]][k] * B[n][k] (fp32), one warp per element.
__global__ void gemm_ref(const bf16* A, const bf16* B, const int* rows, int R, int N, int K, float* ref) {
  long w = (blockIdx.x * (long)blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (w >= (long)R * N) return;
  int i = (int)(w / N), n = (int)(w % N);
  const bf16* a = A + (size_t)rows[i] * K; const bf16* b = B + (size_t)n * K;
  float acc = 0;
  for (int k = lane; k < K; k += 32) acc += __bfloat162float(a[k]) * __bfloat162float(b[k]);
  for (int o = 16; o; o /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (lane == 0) ref[w] = acc;
}

int main(int argc, char** argv) {
  const int N = 7168, K = 5120;
  std::vector<int> Ms = {1, 70, 1000, 1001, 2048, 8192};
  if (argc > 1) { Ms.clear(); for (int i = 1; i < argc; ++i) Ms.push_back(atoi(argv[i])); }
  cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  bool all_ok = true;
  for (int M : Ms) {
    struct Set { bf16 *A, *B, *C; } set[2];
    for (int j = 0; j < 2; ++j) {
      CK(cudaMalloc(&set[j].A, sizeof(bf16) * (size_t)M * K));
      CK(cudaMalloc(&set[j].B, sizeof(bf16) * (size_t)N * K));
      CK(cudaMalloc(&set[j].C, sizeof(bf16) * (size_t)M * N));
      fill_normal<<<1024, 256, 0, s>>>(set[j].A, (size_t)M * K, 11 + 2 * j + 100 * M);
      fill_normal<<<1024, 256, 0, s>>>(set[j].B, (size_t)N * K, 12 + 2 * j + 100 * M);
      fill_bytes<<<1024, 256, 0, s>>>((uint16_t*)set[j].C, (size_t)M * N, 0x7fc0);  // bf16 NaN
    }
    std::vector<int64_t> sa{M, K}, sb{N, K}, sc{M, N};
    for (int j = 0; j < 2; ++j) {  // back to back, as the harness's bursts
      DLTensor a = tensor(set[j].A, sa, kBf16), b = tensor(set[j].B, sb, kBf16), c = tensor(set[j].C, sc, kBf16);
      ptxbench_launch(&a, &b, &c, s);
    }
    CK(cudaStreamSynchronize(s));
    CK(cudaGetLastError());
    // Rows checked: all when M <= 2048, else every 61st and the last 3.
    std::vector<int> rows;
    for (int m = 0; m < M; ++m) if (M <= 2048 || m % 61 == 0 || m >= M - 3) rows.push_back(m);
    int R = (int)rows.size();
    int* drows; float* dref; CK(cudaMalloc(&drows, sizeof(int) * R)); CK(cudaMalloc(&dref, sizeof(float) * (size_t)R * N));
    CK(cudaMemcpy(drows, rows.data(), sizeof(int) * R, cudaMemcpyHostToDevice));
    printf("M=%d N=%d K=%d (%d rows checked per call)\n", M, N, K, R);
    for (int j = 0; j < 2; ++j) {
      gemm_ref<<<(int)(((long)R * N * 32 + 255) / 256), 256, 0, s>>>(set[j].A, set[j].B, drows, R, N, K, dref);
      CK(cudaStreamSynchronize(s));
      std::vector<float> ref((size_t)R * N); std::vector<bf16> out((size_t)M * N);
      CK(cudaMemcpy(ref.data(), dref, sizeof(float) * ref.size(), cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(out.data(), set[j].C, sizeof(bf16) * out.size(), cudaMemcpyDeviceToHost));
      Stats st;
      for (int i = 0; i < R; ++i) for (int n = 0; n < N; ++n)
        st.add(__bfloat162float(out[(size_t)rows[i] * N + n]), ref[(size_t)i * N + n]);
      char what[8]; snprintf(what, sizeof what, "C#%d", j + 1); st.print(what);
      all_ok &= st.ok();
    }
    if (M == 8192) {  // a rough rate, not ptxbench's timing
      DLTensor a = tensor(set[0].A, sa, kBf16), b = tensor(set[0].B, sb, kBf16), c = tensor(set[0].C, sc, kBf16);
      cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
      for (int i = 0; i < 3; ++i) ptxbench_launch(&a, &b, &c, s);
      CK(cudaEventRecord(e0, s));
      const int iters = 20;
      for (int i = 0; i < iters; ++i) ptxbench_launch(&a, &b, &c, s);
      CK(cudaEventRecord(e1, s)); CK(cudaEventSynchronize(e1));
      float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); ms /= iters;
      printf("    %.3f ms per call, %.1f TFLOP/s\n", ms, 2.0 * M * N * K / (ms * 1e-3) / 1e12);
    }
    for (int j = 0; j < 2; ++j) { cudaFree(set[j].A); cudaFree(set[j].B); cudaFree(set[j].C); }
    cudaFree(drows); cudaFree(dref);
  }
  printf(all_ok ? "PASS\n" : "FAIL\n");
  return all_ok ? 0 : 1;
}

#elif defined(CHECK_ATTENTION)
#ifndef CHECK_CAUSAL
#define CHECK_CAUSAL 0
#endif
extern "C" void ptxbench_launch(const DLTensor* Q, const DLTensor* K, const DLTensor* V, DLTensor* O,
                                DLTensor* LSE, cudaStream_t stream);

// One warp per checked query row r of head bh: online softmax in fp32, lane owns 4 dims.
__global__ void attn_ref(const bf16* Q, const bf16* K, const bf16* V, const int* rows, int R, int S,
                         float* O, float* L) {
  int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
  if (w >= R) return;
  long row = rows[w];  // (bh * S + s)
  long bh = row / S; int s = (int)(row % S);
  const bf16* q = Q + row * 128;
  float qv[4], acc[4] = {0, 0, 0, 0};
  for (int i = 0; i < 4; ++i) qv[i] = __bfloat162float(q[lane * 4 + i]);
  float mx = -INFINITY, sum = 0, scale = 1.0f / sqrtf(128.f);
  int kend = CHECK_CAUSAL ? s + 1 : S;
  for (int j = 0; j < kend; ++j) {
    const bf16* k = K + (bh * S + j) * 128; const bf16* v = V + (bh * S + j) * 128;
    float d = 0;
    for (int i = 0; i < 4; ++i) d += qv[i] * __bfloat162float(k[lane * 4 + i]);
    for (int o = 16; o; o /= 2) d += __shfl_xor_sync(0xffffffffu, d, o);
    d *= scale;
    float nm = fmaxf(mx, d), c = expf(mx - nm), p = expf(d - nm);
    sum = sum * c + p;
    for (int i = 0; i < 4; ++i) acc[i] = acc[i] * c + p * __bfloat162float(v[lane * 4 + i]);
    mx = nm;
  }
  for (int i = 0; i < 4; ++i) O[(long)w * 128 + lane * 4 + i] = acc[i] / sum;
  if (lane == 0) L[w] = mx + logf(sum);
}

int main(int argc, char** argv) {
  struct Shape { int B, H, S; };
  std::vector<Shape> shapes = {{1, 3, 256}, {3, 5, 384}, {2, 8, 1024}, {1, 4, 2048}, {4, 48, 4096}};
  cudaStream_t s; CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  bool all_ok = true;
  printf("causal=%d\n", CHECK_CAUSAL);
  for (auto sh : shapes) {
    const size_t n = (size_t)sh.B * sh.H * sh.S * 128, nl = (size_t)sh.B * sh.H * sh.S;
    struct Set { bf16 *Q, *K, *V, *O; float* L; } set[2];
    for (int j = 0; j < 2; ++j) {
      CK(cudaMalloc(&set[j].Q, 2 * n)); CK(cudaMalloc(&set[j].K, 2 * n)); CK(cudaMalloc(&set[j].V, 2 * n));
      CK(cudaMalloc(&set[j].O, 2 * n)); CK(cudaMalloc(&set[j].L, 4 * nl));
      fill_normal<<<1024, 256, 0, s>>>(set[j].Q, n, 21 + 3 * j + sh.S);
      fill_normal<<<1024, 256, 0, s>>>(set[j].K, n, 22 + 3 * j + sh.S);
      fill_normal<<<1024, 256, 0, s>>>(set[j].V, n, 23 + 3 * j + sh.S);
      fill_bytes<<<1024, 256, 0, s>>>((uint16_t*)set[j].O, n, 0x7fc0);
      fill_bytes<<<1024, 256, 0, s>>>((uint16_t*)set[j].L, 2 * nl, 0x7fc0);  // float NaN halves
    }
    std::vector<int64_t> s4{sh.B, sh.H, sh.S, 128}, s3{sh.B, sh.H, sh.S};
    for (int j = 0; j < 2; ++j) {
      DLTensor q = tensor(set[j].Q, s4, kBf16), k = tensor(set[j].K, s4, kBf16), v = tensor(set[j].V, s4, kBf16),
               o = tensor(set[j].O, s4, kBf16), l = tensor(set[j].L, s3, kF32);
      ptxbench_launch(&q, &k, &v, &o, &l, s);
    }
    CK(cudaStreamSynchronize(s));
    CK(cudaGetLastError());
    std::vector<int> rows;  // all rows up to 8192 of them, else a stride
    long total = (long)nl;
    long stride = total <= 8192 ? 1 : total / 4096 + 1;
    for (long r = 0; r < total; r += stride) rows.push_back((int)r);
    rows.push_back((int)(total - 1));
    int R = (int)rows.size();
    int* drows; float *dO, *dL;
    CK(cudaMalloc(&drows, 4 * R)); CK(cudaMalloc(&dO, 4 * (size_t)R * 128)); CK(cudaMalloc(&dL, 4 * R));
    CK(cudaMemcpy(drows, rows.data(), 4 * R, cudaMemcpyHostToDevice));
    printf("B=%d H=%d S=%d D=128 (%d rows checked per call)\n", sh.B, sh.H, sh.S, R);
    for (int j = 0; j < 2; ++j) {
      attn_ref<<<(R * 32 + 255) / 256, 256, 0, s>>>(set[j].Q, set[j].K, set[j].V, drows, R, sh.S, dO, dL);
      CK(cudaStreamSynchronize(s));
      std::vector<float> ro((size_t)R * 128), rl(R), ol(nl);
      std::vector<bf16> oo(n);
      CK(cudaMemcpy(ro.data(), dO, 4 * ro.size(), cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(rl.data(), dL, 4 * R, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(oo.data(), set[j].O, 2 * n, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(ol.data(), set[j].L, 4 * nl, cudaMemcpyDeviceToHost));
      Stats so, sl;
      for (int i = 0; i < R; ++i) {
        for (int d = 0; d < 128; ++d) so.add(__bfloat162float(oo[(size_t)rows[i] * 128 + d]), ro[(size_t)i * 128 + d]);
        sl.add(ol[rows[i]], rl[i]);
      }
      printf("   call %d\n", j + 1); so.print("O"); sl.print("LSE");
      all_ok &= so.ok() && sl.ok();
    }
    if (sh.S == 4096) {
      DLTensor q = tensor(set[0].Q, s4, kBf16), k = tensor(set[0].K, s4, kBf16), v = tensor(set[0].V, s4, kBf16),
               o = tensor(set[0].O, s4, kBf16), l = tensor(set[0].L, s3, kF32);
      cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
      for (int i = 0; i < 3; ++i) ptxbench_launch(&q, &k, &v, &o, &l, s);
      CK(cudaEventRecord(e0, s));
      const int iters = 10;
      for (int i = 0; i < iters; ++i) ptxbench_launch(&q, &k, &v, &o, &l, s);
      CK(cudaEventRecord(e1, s)); CK(cudaEventSynchronize(e1));
      float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); ms /= iters;
      double flops = (CHECK_CAUSAL ? 2.0 : 4.0) * sh.B * sh.H * (double)sh.S * sh.S * 128;
      printf("    %.3f ms per call, %.1f TFLOP/s\n", ms, flops / (ms * 1e-3) / 1e12);
    }
    for (int j = 0; j < 2; ++j) { cudaFree(set[j].Q); cudaFree(set[j].K); cudaFree(set[j].V); cudaFree(set[j].O); cudaFree(set[j].L); }
    cudaFree(drows); cudaFree(dO); cudaFree(dL);
  }
  printf(all_ok ? "PASS\n" : "FAIL\n");
  return all_ok ? 0 : 1;
}
#else
#error "define CHECK_GEMM or CHECK_ATTENTION"
#endif
