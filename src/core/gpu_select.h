// Pinning a child process to one GPU: `ptxbench run --gpus N` keeps one evaluation queue per
// GPU, and every worker (candidate, check, audit, Nsight Compute) of queue i must see GPU i
// only, or two queues would time their kernels on the same device.
#pragma once

#include <map>
#include <string>

namespace ptxbench {

// The CUDA_VISIBLE_DEVICES value that leaves a child exactly GPU `index`, counted among the
// GPUs this process may use: the index-th entry of `parent_visible` (our own
// CUDA_VISIBLE_DEVICES, null or empty when unset), else the index itself. An index past the
// parent's list gives "-1" (no GPU at all, never one the parent was not given); past the
// machine's GPUs the child finds no such device. Either way the worker reports it.
std::string visible_device_for(int index, const char* parent_visible);

// Sets a child's CUDA_VISIBLE_DEVICES to GPU `device` of this process's own (through our
// CUDA_VISIBLE_DEVICES); device < 0 leaves `env` alone.
void pin_to_gpu(std::map<std::string, std::string>& env, int device);

// How many GPUs a process may use: the machine's count, cut by `parent_visible` (a list keeps
// its length, at most the machine's; "-1"-style or empty-looking lists hide all). -1 when the
// machine's count is unknown (machine_gpus < 0).
int visible_gpu_count(const char* parent_visible, int machine_gpus);
// The machine's NVIDIA GPUs (entries of /proc/driver/nvidia/gpus), -1 when that is not there.
int machine_gpu_count();

}  // namespace ptxbench
