// Resource gates for the stages: a CPU pool for compiles (N at a time) and one queue
// per GPU (one evaluation at a time on each). A trajectory's thread blocks in
// acquire() until its turn, so evaluations queue up per GPU in arrival order.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

namespace ptxbench::run {

class Semaphore {
 public:
  explicit Semaphore(int count) : count_(count) {}
  void acquire();
  void release();
  int available() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  int count_;
};

class GpuQueue;

// A held GPU; released on destruction.
class GpuLease {
 public:
  GpuLease(GpuQueue* q, int device) : q_(q), device_(device) {}
  GpuLease(GpuLease&& o) noexcept : q_(o.q_), device_(o.device_) { o.q_ = nullptr; }
  GpuLease(const GpuLease&) = delete;
  GpuLease& operator=(const GpuLease&) = delete;
  GpuLease& operator=(GpuLease&&) = delete;
  ~GpuLease();
  int device() const { return device_; }

 private:
  GpuQueue* q_;
  int device_;
};

// First come, first served over `devices` GPUs.
class GpuQueue {
 public:
  explicit GpuQueue(int devices);
  GpuLease acquire();
  int devices() const { return static_cast<int>(busy_.size()); }

 private:
  friend class GpuLease;
  void release(int device);
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<bool> busy_;
  std::deque<unsigned long> waiting_;  // tickets, in arrival order
  unsigned long next_ticket_ = 0;
};

// A held CPU slot; released on destruction.
class CpuLease {
 public:
  explicit CpuLease(Semaphore& s) : s_(&s) { s_->acquire(); }
  CpuLease(const CpuLease&) = delete;
  CpuLease& operator=(const CpuLease&) = delete;
  ~CpuLease() { s_->release(); }

 private:
  Semaphore* s_;
};

struct StageSlots {
  StageSlots(int cpu_jobs, int gpus) : cpu(cpu_jobs), gpu(gpus > 0 ? gpus : 1) {}
  Semaphore cpu;
  GpuQueue gpu;
};

}  // namespace ptxbench::run
