// A feasibility probe (2026-12-06) for counting target instructions on the judged calls
// themselves: CUPTI's range profiler, user ranges, one pass, one range per "call", around
// (a) cuBLASLt's bf16 GEMM (wgmma + TMA on sm_90) and (b) a CUDA-core bf16 GEMM; reports per
// call the hardware counters below and the call's event time with and without the profiler.
// Build: nvcc -O2 -arch=sm_90a range_counters_probe.cu -lcupti -lcublasLt -lcuda -o probe
#include <cublasLt.h>
#include <cuda.h>
#include <cuda_bf16.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CK(x)                                                            \
  do {                                                                   \
    auto r_ = (x);                                                       \
    if (r_) {                                                            \
      std::printf("FAILED %s = %d at line %d\n", #x, (int)r_, __LINE__); \
      std::exit(1);                                                      \
    }                                                                    \
  } while (0)

__global__ void cuda_core_gemm(const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* c,
                               int m, int n, int k) {
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  if (row >= m || col >= n) return;
  float acc = 0.f;
  for (int i = 0; i < k; ++i)
    acc += __bfloat162float(a[(size_t)row * k + i]) * __bfloat162float(b[(size_t)col * k + i]);
  c[(size_t)row * n + col] = __float2bfloat16(acc);
}

static const char* kMetrics[] = {
    "sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32.sum",
    "sm__inst_executed_pipe_tensor_op_gmma.sum",
    "sm__inst_executed_pipe_tma.sum",
    "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum",
};
constexpr int kNumMetrics = 4;

struct Gemm {
  int m, n, k;
  __nv_bfloat16 *a, *b, *c;
  cublasLtHandle_t lt;
  cublasLtMatmulDesc_t op;
  cublasLtMatrixLayout_t la, lb, lc;
  void* ws;
  size_t ws_size = 64 << 20;
  void lib(cudaStream_t s) {
    float alpha = 1.f, beta = 0.f;
    // C^T (n x m, col-major) = B^T... : row-major C = A B^T as col-major C^T = B A^T
    CK(cublasLtMatmul(lt, op, &alpha, b, lb, a, la, &beta, c, lc, c, lc, nullptr, ws, ws_size, s));
  }
  void core(cudaStream_t s) {
    dim3 blk(16, 16), grd((n + 15) / 16, (m + 15) / 16);
    cuda_core_gemm<<<grd, blk, 0, s>>>(a, b, c, m, n, k);
  }
};

static Gemm make_gemm(int m, int n, int k) {
  Gemm g{m, n, k};
  CK(cudaMalloc(&g.a, (size_t)m * k * 2));
  CK(cudaMalloc(&g.b, (size_t)n * k * 2));
  CK(cudaMalloc(&g.c, (size_t)m * n * 2));
  CK(cudaMalloc(&g.ws, g.ws_size));
  CK(cudaMemset(g.a, 0x3c, (size_t)m * k * 2));
  CK(cudaMemset(g.b, 0x3c, (size_t)n * k * 2));
  CK(cublasLtCreate(&g.lt));
  CK(cublasLtMatmulDescCreate(&g.op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  cublasOperation_t t = CUBLAS_OP_T, nn = CUBLAS_OP_N;
  CK(cublasLtMatmulDescSetAttribute(g.op, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t));
  CK(cublasLtMatmulDescSetAttribute(g.op, CUBLASLT_MATMUL_DESC_TRANSB, &nn, sizeof nn));
  CK(cublasLtMatrixLayoutCreate(&g.lb, CUDA_R_16BF, k, n, k));
  CK(cublasLtMatrixLayoutCreate(&g.la, CUDA_R_16BF, k, m, k));
  CK(cublasLtMatrixLayoutCreate(&g.lc, CUDA_R_16BF, n, m, n));
  return g;
}

struct Profiler {
  CUpti_RangeProfiler_Object* obj = nullptr;
  CUpti_Profiler_Host_Object* host = nullptr;
  std::vector<uint8_t> config, counter_data;
  void enable(CUcontext ctx, int max_ranges) {
    CUpti_Profiler_Initialize_Params ip{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CK(cuptiProfilerInitialize(&ip));
    CUpti_Device_GetChipName_Params cp{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    cp.deviceIndex = 0;
    CK(cuptiDeviceGetChipName(&cp));
    std::printf("chip %s\n", cp.pChipName);
    CUpti_RangeProfiler_Enable_Params ep{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    ep.ctx = ctx;
    CK(cuptiRangeProfilerEnable(&ep));
    obj = ep.pRangeProfilerObject;
    CUpti_Profiler_GetCounterAvailability_Params ap{
        CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    ap.ctx = ctx;
    CK(cuptiProfilerGetCounterAvailability(&ap));
    std::vector<uint8_t> avail(ap.counterAvailabilityImageSize);
    ap.pCounterAvailabilityImage = avail.data();
    CK(cuptiProfilerGetCounterAvailability(&ap));
    CUpti_Profiler_Host_Initialize_Params hp{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    hp.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hp.pChipName = cp.pChipName;
    hp.pCounterAvailabilityImage = avail.data();
    CK(cuptiProfilerHostInitialize(&hp));
    host = hp.pHostObject;
    CUpti_Profiler_Host_ConfigAddMetrics_Params mp{
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    mp.pHostObject = host;
    mp.ppMetricNames = kMetrics;
    mp.numMetrics = kNumMetrics;
    CK(cuptiProfilerHostConfigAddMetrics(&mp));
    CUpti_Profiler_Host_GetConfigImageSize_Params sp{
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    sp.pHostObject = host;
    CK(cuptiProfilerHostGetConfigImageSize(&sp));
    config.resize(sp.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params gp{
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    gp.pHostObject = host;
    gp.configImageSize = config.size();
    gp.pConfigImage = config.data();
    CK(cuptiProfilerHostGetConfigImage(&gp));
    CUpti_RangeProfiler_GetCounterDataSize_Params dp{
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    dp.pRangeProfilerObject = obj;
    dp.pMetricNames = kMetrics;
    dp.numMetrics = kNumMetrics;
    dp.maxNumOfRanges = max_ranges;
    dp.maxNumRangeTreeNodes = max_ranges;
    CK(cuptiRangeProfilerGetCounterDataSize(&dp));
    counter_data.resize(dp.counterDataSize);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    ci.pRangeProfilerObject = obj;
    ci.counterDataSize = counter_data.size();
    ci.pCounterData = counter_data.data();
    CK(cuptiRangeProfilerCounterDataImageInitialize(&ci));
    CUpti_RangeProfiler_SetConfig_Params sc{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    sc.pRangeProfilerObject = obj;
    sc.configSize = config.size();
    sc.pConfig = config.data();
    sc.counterDataImageSize = counter_data.size();
    sc.pCounterDataImage = counter_data.data();
    sc.range = CUPTI_UserRange;
    sc.replayMode = CUPTI_UserReplay;
    sc.maxRangesPerPass = max_ranges;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    CK(cuptiRangeProfilerSetConfig(&sc));
  }
  void start() {
    CUpti_RangeProfiler_Start_Params p{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = obj;
    CK(cuptiRangeProfilerStart(&p));
  }
  void push(const char* name) {
    CUpti_RangeProfiler_PushRange_Params p{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = obj;
    p.pRangeName = name;
    CK(cuptiRangeProfilerPushRange(&p));
  }
  void pop() {
    CUpti_RangeProfiler_PopRange_Params p{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = obj;
    CK(cuptiRangeProfilerPopRange(&p));
  }
  void stop_and_print() {
    CUpti_RangeProfiler_Stop_Params p{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = obj;
    CK(cuptiRangeProfilerStop(&p));
    std::printf("all passes submitted: %d\n", p.isAllPassSubmitted);
    CUpti_RangeProfiler_DecodeData_Params d{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    d.pRangeProfilerObject = obj;
    CK(cuptiRangeProfilerDecodeData(&d));
    std::printf("ranges dropped: %zu\n", d.numOfRangeDropped);
    CUpti_RangeProfiler_GetCounterDataInfo_Params ci{
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    ci.pCounterDataImage = counter_data.data();
    ci.counterDataImageSize = counter_data.size();
    CK(cuptiRangeProfilerGetCounterDataInfo(&ci));
    for (size_t r = 0; r < ci.numTotalRanges; ++r) {
      CUpti_RangeProfiler_CounterData_GetRangeInfo_Params ri{
          CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE};
      ri.pCounterDataImage = counter_data.data();
      ri.counterDataImageSize = counter_data.size();
      ri.rangeIndex = r;
      ri.rangeDelimiter = "/";
      CK(cuptiRangeProfilerCounterDataGetRangeInfo(&ri));
      double v[kNumMetrics] = {};
      CUpti_Profiler_Host_EvaluateToGpuValues_Params ev{
          CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
      ev.pHostObject = host;
      ev.pCounterDataImage = counter_data.data();
      ev.counterDataImageSize = counter_data.size();
      ev.rangeIndex = r;
      ev.ppMetricNames = kMetrics;
      ev.numMetrics = kNumMetrics;
      ev.pMetricValues = v;
      CK(cuptiProfilerHostEvaluateToGpuValues(&ev));
      std::printf(
          "range %-24s hgmma_bf16_ops %.4g gmma_inst %.4g tma_inst %.4g tma_ld_bytes %.4g\n",
          ri.rangeName, v[0], v[1], v[2], v[3]);
    }
  }
};

static float time_call(Gemm& g, bool lib, cudaStream_t s, Profiler* prof, const char* name) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  if (prof) prof->push(name);
  cudaEventRecord(e0, s);
  if (lib)
    g.lib(s);
  else
    g.core(s);
  cudaEventRecord(e1, s);
  if (prof) prof->pop();
  CK(cudaStreamSynchronize(s));
  float ms = 0;
  cudaEventElapsedTime(&ms, e0, e1);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return ms;
}

static float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int main() {
  CK(cudaSetDevice(0));
  CK(cudaFree(nullptr));
  CUcontext ctx;
  CK(cuCtxGetCurrent(&ctx));
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  Gemm big = make_gemm(8192, 7168, 5120), small = make_gemm(512, 512, 512);
  const int n = 21;
  std::vector<float> off;
  for (int i = 0; i < 3; ++i) time_call(big, true, s, nullptr, "warm");
  for (int i = 0; i < n; ++i) off.push_back(time_call(big, true, s, nullptr, "off"));
  Profiler prof;
  prof.enable(ctx, 256);
  prof.start();
  std::vector<float> on;
  char name[64];
  for (int i = 0; i < n; ++i) {
    std::snprintf(name, sizeof name, "lib_%d", i);
    on.push_back(time_call(big, true, s, &prof, name));
  }
  float core_ms = time_call(small, false, s, &prof, "cuda_core_512");
  float lib_small = time_call(small, true, s, &prof, "lib_512");
  prof.stop_and_print();
  std::vector<float> after;
  for (int i = 0; i < n; ++i) after.push_back(time_call(big, true, s, nullptr, "after"));
  double flops = 2.0 * 8192 * 7168 * 5120;
  std::printf("2MNK %.6g (FMA count %.6g); A+B bytes %.6g\n", flops, flops / 2,
              (8192.0 + 7168.0) * 5120 * 2);
  std::printf("lib 8192x7168x5120 median ms: profiler off %.4f, on %.4f, off again %.4f\n",
              median(off), median(on), median(after));
  std::printf("cuda-core 512 %.4f ms, lib 512 %.4f ms; 2MNK(512) %.6g\n", core_ms, lib_small,
              2.0 * 512 * 512 * 512);
  return 0;
}
