// Pinning a child process to one GPU: `ptxbench run --gpus N` keeps one evaluation queue per
// GPU, and every worker (candidate, check, audit, Nsight Compute) of queue i must see GPU i
// only, or two queues would time their kernels on the same device.
#pragma once

#include <string>

namespace ptxbench {

// The CUDA_VISIBLE_DEVICES value that leaves a child exactly GPU `index`, counted among the
// GPUs this process may use: the index-th entry of `parent_visible` (our own
// CUDA_VISIBLE_DEVICES, null or empty when unset), else the index itself. An index past the
// parent's list gives "-1" (no GPU at all, never one the parent was not given); past the
// machine's GPUs the child finds no such device. Either way the worker reports it.
std::string visible_device_for(int index, const char* parent_visible);

}  // namespace ptxbench
