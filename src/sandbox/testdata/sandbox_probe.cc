// sandbox_probe: a stand-in for the GPU worker in the sandbox tests. It applies the sandbox
// the way the worker does (after its own start-up, before loading the candidate), then loads
// a candidate shared object, whose constructor runs the attack the test chose, and calls it.
//
//   sandbox_probe CANDIDATE.so PRIVATE_DIR [--no-sandbox] [--no-landlock] [--no-seccomp]
//                 [--no-file-report] [--learn] [--helper-thread] [--signal-blocking-thread]
//                 [--cwd-private]
//
// The policy reads /usr, /lib*, /etc/ld.so.cache and the candidate's directory, and writes
// PRIVATE_DIR. --helper-thread starts, before the sandbox, a thread that runs jobs handed to
// sandbox_probe_run_on_helper (as the CUDA driver's threads run host callbacks);
// --signal-blocking-thread one that blocks every signal (so the sandbox cannot reach it).
// --no-file-report turns file access reporting off (Landlock alone: EACCES, silently);
// --cwd-private makes PRIVATE_DIR the working directory before the sandbox.
// Prints "sandbox: <report JSON>", then whatever the candidate prints, then
// "entry returned <n>".
#include <dlfcn.h>
#include <signal.h>

#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "sandbox/sandbox.h"

namespace {

// A thread that runs one job at a time for whoever asks.
struct Helper {
  std::mutex mu;
  std::condition_variable cv;
  void (*job)() = nullptr;
  bool job_done = false;
  bool stop = false;
  bool ready = false;
  std::thread thread;

  void start(bool block_signals) {
    thread = std::thread([this, block_signals] {
      if (block_signals) {
        sigset_t all;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, nullptr);
      }
      std::unique_lock<std::mutex> lock(mu);
      ready = true;
      cv.notify_all();
      while (!stop) {
        cv.wait(lock, [this] { return stop || (job && !job_done); });
        if (job && !job_done) {
          job();
          job_done = true;
          cv.notify_all();
        }
      }
    });
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [this] { return ready; });  // its signal mask is set
  }
  void run(void (*fn)()) {
    std::unique_lock<std::mutex> lock(mu);
    job = fn;
    job_done = false;
    cv.notify_all();
    cv.wait(lock, [this] { return job_done; });
    job = nullptr;
  }
  void finish() {
    if (!thread.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mu);
      stop = true;
    }
    cv.notify_all();
    thread.join();
  }
};

Helper g_helper;
Helper g_blocking;

}  // namespace

extern "C" __attribute__((visibility("default"))) void sandbox_probe_run_on_helper(void (*fn)()) {
  g_helper.run(fn);
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: sandbox_probe CANDIDATE.so PRIVATE_DIR [options]\n");
    return 2;
  }
  std::filesystem::path candidate = argv[1];
  ptxbench::SandboxPolicy policy;
  policy.read_paths = {
      "/usr", "/lib", "/lib64", "/lib32", "/etc/ld.so.cache", candidate.parent_path()};
  policy.write_paths = {argv[2]};
  bool sandbox = true;
  for (int i = 3; i < argc; ++i) {
    std::string opt = argv[i];
    if (opt == "--no-sandbox")
      sandbox = false;
    else if (opt == "--no-landlock")
      policy.landlock = false;
    else if (opt == "--no-seccomp")
      policy.seccomp = false;
    else if (opt == "--allow-sockets")
      policy.allow_sockets = true;
    else if (opt == "--no-file-report")
      policy.report_file_access = false;
    else if (opt == "--cwd-private")
      std::filesystem::current_path(argv[2]);
    else if (opt == "--learn")
      policy.seccomp_learn = true;
    else if (opt == "--helper-thread")
      g_helper.start(false);
    else if (opt == "--signal-blocking-thread")
      g_blocking.start(true);
    else {
      std::fprintf(stderr, "sandbox_probe: unknown option %s\n", opt.c_str());
      return 2;
    }
  }
  if (sandbox) {
    auto report = ptxbench::apply_sandbox(policy);
    if (!report.ok()) {
      std::fprintf(stderr, "sandbox_probe: %s\n", report.error().to_string().c_str());
      return 3;
    }
    std::printf("sandbox: %s\n", report->to_json().dump().c_str());
    std::fflush(stdout);
  }
  void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    std::fprintf(stderr, "sandbox_probe: cannot load the candidate: %s\n", dlerror());
    return 4;
  }
  auto entry = reinterpret_cast<int (*)()>(dlsym(handle, "sandbox_probe_entry"));
  if (!entry) {
    std::fprintf(stderr, "sandbox_probe: the candidate has no sandbox_probe_entry\n");
    return 5;
  }
  std::printf("entry returned %d\n", entry());
  std::fflush(stdout);
  g_helper.finish();
  g_blocking.finish();
  return 0;
}
