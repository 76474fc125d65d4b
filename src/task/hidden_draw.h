// Hidden workloads, drawn per session from the task's promise ([constraints]) with a secret
// seed. A hidden workload anyone can read (a task file, `ptxbench tasks`, a prompt) is a public
// one: a kernel can be right for the listed sizes only. So a task file lists its timed workload
// and a range for each axis that varies, and every session draws its own hidden sizes inside
// those ranges. The draw is a pure function of (task, seed): a session is reproduced from its
// recorded seed.
//
// What a session checks (docs/task-spec.md, "Hidden workloads"), five workloads a task:
//   gemm (M varies; T = the timed M, P = the promised maximum)
//     small    M in [1, 63]: one token up to less than one 64-row tile
//     ragged   M in [65, 1023], M not a multiple of 8 (a ragged tail for any tile height)
//     large    M in [max(T/4, 1025) + 1, P], M not a multiple of 128 (from above the audit band:
//              every M over 1024 that is not a multiple of 128 is drawn by audit or large)
//     audit    M in [1025, max(T/4, 1025)], M not a multiple of 128: also the instruction
//              audit's second workload (large enough that tile padding does not distort the
//              tensor-FLOP coverage, small enough to run fast under instrumentation)
//     any      M anywhere in the promise, a multiple of 64 half the time: every promised
//              value can be checked (the others leave out whole classes, as multiples of 128;
//              red team 2026-12-04)
//   attention (B, H and S vary; S a multiple of 128 where promised; timed Bt, Ht, St)
//     small    S up to 768, B in {1, 3}, H in {1, 3, 5, 7}: B*H odd (heads taken in pairs)
//     ragged   S/128 odd and at least 3 (no multiple of 256), S up to St, B in (Bt, max B] and
//              H in (Ht, max H] where the promise goes above the timed ones (else anywhere)
//     large    S above St (up to the promise), B up to 2, H up to 4
//     audit    S in [768, 2048], B up to 2, H in [2, 8]
//     any      B, H and S anywhere in the promise, redrawn until its work B*H*S² is at most
//              the timed workload's (so every promised value of each axis can be checked; a
//              combination with more work than the timed one is not)
// Every range is cut to the promise; where a cut range holds no value that meets the draw's
// condition, the condition is dropped, and where it holds none at all, the draw is any promised
// value. No drawn workload equals the timed one. For the suite's timed workloads (GEMM M = 8192,
// attention B = 4, H = 48, S = 4096) the attention draws have less work (B*H*S²) than the timed
// one, the GEMM draws at most P/T = 2 times it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "task/spec.h"

namespace ptxbench::task {

// The kinds of hidden workload a session draws, in the order they are drawn.
enum class HiddenKind { small, ragged, large, audit, any };
std::string_view to_string(HiddenKind k);
std::optional<HiddenKind> hidden_kind_from_string(std::string_view s);  // none: unknown name
// The kind in words for a model's feedback, from the promise's classes above (public in
// docs/task-spec.md), never a drawn value: gemm ragged "an M that is not a multiple of 8
// (below 1024)".
std::string_view describe(HiddenKind k, Family f);
inline constexpr HiddenKind kHiddenKinds[] = {
    HiddenKind::small, HiddenKind::ragged, HiddenKind::large, HiddenKind::audit, HiddenKind::any};

struct HiddenWorkload {
  HiddenKind kind = HiddenKind::small;
  Workload workload;  // role "hidden", named "hidden_<kind>"; fixed axes at their timed value
};

// Whether `task`'s promise is one the draw knows: gemm varies M alone; attention varies some of
// B, H and S. An Error that says which axis is not drawable.
Status hidden_draw_supported(const TaskSpec& task);

// The session's hidden workloads under `seed`, one per HiddenKind, in kHiddenKinds order.
// Requires hidden_draw_supported(task).
std::vector<HiddenWorkload> draw_hidden_workloads(const TaskSpec& task, std::uint64_t seed);

}  // namespace ptxbench::task
