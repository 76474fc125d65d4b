#pragma once
// parallel_for: call fn(i) for every i in [0, n) on up to `concurrency` threads (the calling
// thread is one of them), each taking the next unclaimed index; returns when all are done.
// fn must do its own locking for shared state.
#include <cstddef>
#include <functional>

namespace ptxbench {

void parallel_for(int concurrency, std::size_t n, const std::function<void(std::size_t)>& fn);

}  // namespace ptxbench
