// Can the broker hand the candidate's kernels a read-only view of their inputs? A diagnostic
// program (2026-12-07), not a test. Red team leak8/inputs_scratch_restored.cu rewrites its inputs
// inside a call and restores them before the call ends, so the checksums before and after match;
// the kind's fix would map the inputs read-only in the broker's context (CUDA virtual memory
// management: cuMemCreate in the verifier, exported as a file descriptor, imported by the broker
// and mapped with CU_MEM_ACCESS_FLAGS_PROT_READ). This probe asks the driver, in the roles the
// fix would give the processes:
//   owner   a process that creates the memory, writes a pattern, exports a descriptor
//   viewer  a separate process per variant that imports it, maps it read-only and runs a kernel:
//           read (plain loads), bulk (cp.async.bulk global->shared, the TMA's path), and the
//           writes st (plain store), atomic (atomicAdd), bulkstore (cp.async.bulk shared->global)
// After each viewer the owner checks its pattern. And, in one process, the read bandwidth of a
// read-only view against a read-write view and cudaMalloc memory (256 MiB, 20 reads each).
// Prints one line per result. Build: nvcc -O3 -arch=sm_90a -o vmm_probe vmm_readonly_probe.cu
// -lcuda
#include <cuda.h>
#include <cuda_runtime.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CU(x)                                                   \
  do {                                                          \
    CUresult r_ = (x);                                          \
    if (r_ != CUDA_SUCCESS) {                                   \
      const char* s_ = nullptr;                                 \
      cuGetErrorName(r_, &s_);                                  \
      std::printf("  %s: %s -> %s\n", role, #x, s_ ? s_ : "?"); \
      std::fflush(stdout);                                      \
      std::_Exit(2);                                            \
    }                                                           \
  } while (0)

static const char* role = "main";
static constexpr size_t kBytes = size_t{256} << 20;
static constexpr unsigned kPattern = 0x3f800000u;  // 1.0f

__global__ void read_sum(const unsigned* p, size_t n, unsigned long long* out) {
  unsigned long long s = 0;
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n;
       i += size_t{gridDim.x} * blockDim.x)
    s += p[i];
  atomicAdd(out, s);
}
__global__ void write_st(unsigned* p) {
  p[threadIdx.x] = 7;
}
__global__ void write_atomic(unsigned* p) {
  atomicAdd(p + threadIdx.x, 1u);
}

__global__ void bulk(unsigned* g, unsigned long long* out, int store) {
  __shared__ alignas(128) unsigned buf[1024];
  __shared__ alignas(8) unsigned long long bar;
  const unsigned sb = static_cast<unsigned>(__cvta_generic_to_shared(buf));
  const unsigned bb = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bb));
    asm volatile("fence.proxy.async.shared::cta;");
    if (!store) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 4096;" ::"r"(bb) : "memory");
      asm volatile(
          "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 4096, "
          "[%2];" ::"r"(sb),
          "l"(g), "r"(bb)
          : "memory");
      asm volatile(
          "{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra W; }" ::
              "r"(bb)
          : "memory");
    }
  }
  __syncthreads();
  if (store) {
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) buf[i] = 9;
    asm volatile("fence.proxy.async.shared::cta;");
    __syncthreads();
    if (threadIdx.x == 0) {
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 4096;" ::"l"(g), "r"(sb)
                   : "memory");
      asm volatile("cp.async.bulk.commit_group; cp.async.bulk.wait_group 0;" ::: "memory");
    }
    return;
  }
  unsigned long long s = 0;
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) s += buf[i];
  atomicAdd(out, s);
}

static CUmemGenericAllocationHandle create(CUdevice dev) {
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  CUmemGenericAllocationHandle h;
  CU(cuMemCreate(&h, kBytes, &prop, 0));
  return h;
}

static CUdeviceptr map(CUmemGenericAllocationHandle h, CUdevice dev, CUmemAccess_flags flags) {
  CUdeviceptr va;
  CU(cuMemAddressReserve(&va, kBytes, 0, 0, 0));
  CU(cuMemMap(va, kBytes, 0, h, 0));
  CUmemAccessDesc d{};
  d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  d.location.id = dev;
  d.flags = flags;
  CU(cuMemSetAccess(va, kBytes, &d, 1));
  return va;
}

static CUdevice init() {
  CU(cuInit(0));
  CUdevice dev;
  CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CU(cuCtxSetCurrent(ctx));
  return dev;
}

static void send_fd(int sock, int fd) {
  char byte = 0;
  iovec iov{&byte, 1};
  alignas(cmsghdr) char ctl[CMSG_SPACE(sizeof(int))];
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  m.msg_control = ctl;
  m.msg_controllen = sizeof ctl;
  cmsghdr* c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  std::memcpy(CMSG_DATA(c), &fd, sizeof fd);
  if (sendmsg(sock, &m, 0) != 1) std::_Exit(3);
}

static int recv_fd(int sock) {
  char byte;
  iovec iov{&byte, 1};
  alignas(cmsghdr) char ctl[CMSG_SPACE(sizeof(int))];
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  m.msg_control = ctl;
  m.msg_controllen = sizeof ctl;
  if (recvmsg(sock, &m, 0) != 1) std::_Exit(3);
  int fd;
  std::memcpy(&fd, CMSG_DATA(CMSG_FIRSTHDR(&m)), sizeof fd);
  return fd;
}

static const char* kVariants[] = {"read", "bulk", "st", "atomic", "bulkstore"};

static void viewer(int sock, const char* variant) {
  role = variant;
  CUdevice dev = init();
  int fd = recv_fd(sock);
  CUmemGenericAllocationHandle h;
  CU(cuMemImportFromShareableHandle(&h, reinterpret_cast<void*>(static_cast<intptr_t>(fd)),
                                    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  close(fd);
  auto* p = reinterpret_cast<unsigned*>(map(h, dev, CU_MEM_ACCESS_FLAGS_PROT_READ));
  unsigned long long* sum;
  cudaMalloc(&sum, 8);
  cudaMemset(sum, 0, 8);
  if (!std::strcmp(variant, "read")) read_sum<<<264, 512>>>(p, kBytes / 4, sum);
  if (!std::strcmp(variant, "bulk")) bulk<<<1, 256>>>(p, sum, 0);
  if (!std::strcmp(variant, "st")) write_st<<<1, 256>>>(p);
  if (!std::strcmp(variant, "atomic")) write_atomic<<<1, 256>>>(p);
  if (!std::strcmp(variant, "bulkstore")) bulk<<<1, 256>>>(p, sum, 1);
  cudaError_t e = cudaDeviceSynchronize();
  unsigned long long s = 0;
  if (e == cudaSuccess) cudaMemcpy(&s, sum, 8, cudaMemcpyDeviceToHost);
  std::printf("viewer %-9s kernel: %s, sum %llu\n", variant, cudaGetErrorName(e), s);
  std::fflush(stdout);
  char done = 1;
  (void)!write(sock, &done, 1);
}

static void owner(int* socks, int n) {
  role = "owner";
  CUdevice dev = init();
  CUmemGenericAllocationHandle h = create(dev);
  auto* p = reinterpret_cast<unsigned*>(map(h, dev, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
  CU(cuMemsetD32(reinterpret_cast<CUdeviceptr>(p), kPattern, kBytes / 4));
  CU(cuCtxSynchronize());
  for (int i = 0; i < n; ++i) {
    int fd;
    CU(cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    send_fd(socks[i], fd);
    close(fd);
    char done;
    if (read(socks[i], &done, 1) != 1) std::printf("owner: viewer %s died\n", kVariants[i]);
    unsigned first[1024];
    CU(cuMemcpyDtoH(first, reinterpret_cast<CUdeviceptr>(p), sizeof first));
    int changed = 0;
    for (unsigned v : first) changed += v != kPattern;
    std::printf("owner after %-9s: %d of 1024 words changed, context %s\n", kVariants[i], changed,
                cudaGetErrorName(cudaDeviceSynchronize()));
    std::fflush(stdout);
  }
}

static float time_reads(const unsigned* p, unsigned long long* sum) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  read_sum<<<264, 512>>>(p, kBytes / 4, sum);
  cudaEventRecord(a);
  for (int i = 0; i < 20; ++i) read_sum<<<264, 512>>>(p, kBytes / 4, sum);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms;
  cudaEventElapsedTime(&ms, a, b);
  return ms / 20;
}

static void bandwidth() {
  role = "bandwidth";
  CUdevice dev = init();
  CUmemGenericAllocationHandle h = create(dev);
  auto* rw = reinterpret_cast<unsigned*>(map(h, dev, CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
  auto* ro = reinterpret_cast<unsigned*>(map(h, dev, CU_MEM_ACCESS_FLAGS_PROT_READ));
  unsigned* plain;
  cudaMalloc(&plain, kBytes);
  cudaMemset(plain, 0, kBytes);
  unsigned long long* sum;
  cudaMalloc(&sum, 8);
  for (int round = 0; round < 2; ++round) {
    const float t_plain = time_reads(plain, sum), t_rw = time_reads(rw, sum),
                t_ro = time_reads(ro, sum);
    std::printf(
        "bandwidth round %d (GB/s): cudaMalloc %.0f, VMM read-write %.0f, VMM read-only %.0f "
        "(%s)\n",
        round, kBytes / t_plain / 1e6, kBytes / t_rw / 1e6, kBytes / t_ro / 1e6,
        cudaGetErrorName(cudaDeviceSynchronize()));
  }
}

int main() {
  constexpr int n = sizeof kVariants / sizeof *kVariants;
  int owner_side[n], viewer_side[n];
  for (int i = 0; i < n; ++i) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return 1;
    owner_side[i] = sv[0];
    viewer_side[i] = sv[1];
  }
  if (fork() == 0) {
    owner(owner_side, n);
    std::_Exit(0);
  }
  for (int i = 0; i < n; ++i) {  // one at a time: a viewer's fault must not meet the next one
    pid_t v = fork();
    if (v == 0) {
      viewer(viewer_side[i], kVariants[i]);
      std::_Exit(0);
    }
    int st;
    waitpid(v, &st, 0);
  }
  int st;
  while (wait(&st) > 0) {
  }
  pid_t b = fork();
  if (b == 0) {
    bandwidth();
    std::_Exit(0);
  }
  waitpid(b, &st, 0);
  return 0;
}
