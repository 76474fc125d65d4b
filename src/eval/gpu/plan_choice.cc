#include "eval/gpu/plan_choice.h"

#include <algorithm>
#include <vector>

#include "eval/gpu/cuda_check.h"
#include "eval/gpu/event_timer.h"
#include "eval/gpu/l2_flush.h"

namespace ptxbench::gpu {

PlanChoice choose_fastest_plan(int plans, cudaStream_t stream,
                               const std::function<void(int)>& enqueue, int runs) {
  PlanChoice c;
  L2Flush flush;
  EventTimer timer;
  for (int i = 0; i < plans; ++i) {
    std::vector<double> ms;
    for (int r = 0; r < runs; ++r) {
      flush.flush(stream);
      ms.push_back(timer.time_ms(stream, [&] { enqueue(i); }));
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    ++c.tried;
    if (c.chosen < 0 || median < c.chosen_ms) {
      c.chosen = i;
      c.chosen_ms = median;
    }
  }
  PTXB_CUDA(cudaStreamSynchronize(stream));
  return c;
}

}  // namespace ptxbench::gpu
