#include "run/slots.h"

#include <algorithm>

#include "core/check.h"

namespace ptxbench::run {

void Semaphore::acquire() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return count_ > 0; });
  --count_;
}

void Semaphore::release() {
  {
    std::lock_guard lock(mu_);
    ++count_;
  }
  cv_.notify_one();
}

int Semaphore::available() const {
  std::lock_guard lock(mu_);
  return count_;
}

GpuLease::~GpuLease() {
  if (q_) q_->release(device_);
}

GpuQueue::GpuQueue(int devices) : busy_(static_cast<std::size_t>(devices), false) {
  PTXB_CHECK(devices > 0, "GpuQueue needs at least one device");
}

GpuLease GpuQueue::acquire() {
  std::unique_lock lock(mu_);
  unsigned long ticket = next_ticket_++;
  waiting_.push_back(ticket);
  auto free_device = [&] { return std::find(busy_.begin(), busy_.end(), false); };
  cv_.wait(lock, [&] { return waiting_.front() == ticket && free_device() != busy_.end(); });
  waiting_.pop_front();
  auto it = free_device();
  *it = true;
  int device = static_cast<int>(it - busy_.begin());
  lock.unlock();
  cv_.notify_all();  // the next ticket may fit on another free device
  return GpuLease(this, device);
}

void GpuQueue::release(int device) {
  {
    std::lock_guard lock(mu_);
    busy_[static_cast<std::size_t>(device)] = false;
  }
  cv_.notify_all();
}

}  // namespace ptxbench::run
