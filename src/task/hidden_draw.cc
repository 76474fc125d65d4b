#include "task/hidden_draw.h"

#include <algorithm>
#include <functional>

namespace ptxbench::task {
namespace {

// SplitMix64: the draw's random stream (the same on every platform, unlike the standard
// library's distributions).
class Stream {
 public:
  explicit Stream(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

using Condition = std::function<bool(std::int64_t)>;

bool any_value(std::int64_t) {
  return true;
}

// A promised value of `c` in [lo, hi] meeting `cond` (0: none found). Uniform: random picks
// among the promised values in range until one meets `cond`, then, for a rare condition on a
// range of at most 2^16 values, one of those that meet it.
std::int64_t pick(Stream& s, const AxisConstraint& c, std::int64_t lo, std::int64_t hi,
                  const Condition& cond) {
  const std::int64_t m = c.multiple_of;
  const std::int64_t first = (std::max(lo, c.min) + m - 1) / m * m;
  const std::int64_t last = std::min(hi, c.max) / m * m;
  if (first > last) return 0;
  const std::uint64_t n = static_cast<std::uint64_t>((last - first) / m) + 1;
  for (int attempt = 0; attempt < 64; ++attempt) {
    const std::int64_t v = first + static_cast<std::int64_t>(s.next() % n) * m;
    if (cond(v)) return v;
  }
  if (n > (1u << 16)) return 0;
  std::vector<std::int64_t> meeting;
  for (std::int64_t v = first; v <= last; v += m)
    if (cond(v)) meeting.push_back(v);
  return meeting.empty() ? 0 : meeting[s.next() % meeting.size()];
}

// A promised value in [lo, hi] meeting `cond`; without one, any in [lo, hi]; without that, any
// promised value.
std::int64_t draw_in(Stream& s, const AxisConstraint& c, std::int64_t lo, std::int64_t hi,
                     const Condition& cond) {
  if (std::int64_t v = pick(s, c, lo, hi, cond)) return v;
  if (std::int64_t v = pick(s, c, lo, hi, any_value)) return v;
  return pick(s, c, c.min, c.max, any_value);
}

// One axis's draw: [lo, hi] and a condition, or the axis's timed value when it does not vary.
struct AxisDraw {
  std::string axis;
  std::int64_t lo, hi;
  Condition cond = any_value;
  bool aligned_half = false;  // half the draws (by the stream) a multiple of 64 instead
};

// An attention workload's work, B*H*S² (1 for a GEMM: its draws bound M instead).
double work(const TaskSpec& task, const Workload& w) {
  if (task.family == Family::gemm) return 1;
  auto at = [&](const char* a) {
    auto it = w.axes.find(a);
    return it == w.axes.end() ? 1.0 : static_cast<double>(it->second);
  };
  return at("B") * at("H") * at("S") * at("S");
}

Workload draw_workload(const TaskSpec& task, HiddenKind kind, const std::vector<AxisDraw>& draws,
                       Stream& s) {
  Workload w = task.timed();
  w.name = "hidden_" + std::string(to_string(kind));
  w.role = WorkloadRole::hidden;
  const double most = work(task, task.timed());
  for (int attempt = 0; attempt < 64; ++attempt) {
    for (const AxisDraw& d : draws) {
      auto c = task.constraints.find(d.axis);
      if (c == task.constraints.end()) continue;
      const bool aligned = d.aligned_half && s.next() % 2 == 0;
      w.axes[d.axis] =
          draw_in(s, c->second, d.lo, d.hi,
                  aligned ? Condition([](std::int64_t v) { return v % 64 == 0; }) : d.cond);
    }
    if (w.axes != task.timed().axes && work(task, w) <= most) break;
  }
  return w;
}

std::vector<AxisDraw> gemm_draws(const TaskSpec& task, HiddenKind kind) {
  const std::int64_t t = task.timed().axes.at("M");
  const std::int64_t p = task.constraints.at("M").max;
  auto ragged = [](std::int64_t tile) { return [tile](std::int64_t v) { return v % tile != 0; }; };
  switch (kind) {
    case HiddenKind::small:
      return {{"M", 1, 63}};
    case HiddenKind::ragged:
      return {{"M", 65, 1023, ragged(8)}};
    case HiddenKind::large:
      // From just above the audit band: no band of the promise is left to `any` alone (red team
      // leak6/medium_m_gap: M in [2049, 4095] was drawn in ~6% of sessions).
      return {{"M", std::max<std::int64_t>(t / 4, 1025) + 1, p, ragged(128)}};
    case HiddenKind::audit:
      return {{"M", 1025, std::max<std::int64_t>(t / 4, 1025), ragged(128)}};
    case HiddenKind::any:  // aligned sizes half the time: the other kinds favour ragged ones
      return {{"M", 1, p, any_value, true}};
  }
  return {};
}

std::vector<AxisDraw> attention_draws(const TaskSpec& task, HiddenKind kind) {
  const std::int64_t st = task.timed().axes.at("S");
  // B or H above the timed workload's, where the promise goes higher (else anywhere in it): every
  // session checks more batches and heads than the timed launch, so a grid sized for the timed
  // ones fails each session, not one in two (red team 34, attn_fwd_undrawn_batch).
  auto above_timed = [&](const std::string& a) {
    auto c = task.constraints.find(a);
    const std::int64_t hi = c == task.constraints.end() ? 1 : c->second.max;
    const std::int64_t t = task.timed().axes.count(a) ? task.timed().axes.at(a) : 1;
    return AxisDraw{a, t < hi ? t + 1 : 1, hi};
  };
  auto odd = [](std::int64_t v) { return v % 2 == 1; };
  auto odd_tiles = [](std::int64_t v) { return v % 128 != 0 || (v / 128) % 2 == 1; };
  switch (kind) {
    case HiddenKind::small:
      return {{"S", 1, 768}, {"B", 1, 4, odd}, {"H", 1, 8, odd}};
    case HiddenKind::ragged:
      return {{"S", 384, st, odd_tiles}, above_timed("B"), above_timed("H")};
    case HiddenKind::large:
      return {{"S", st + 1, 2 * st}, {"B", 1, 2}, {"H", 1, 4}};
    case HiddenKind::audit:
      return {{"S", 768, 2048}, {"B", 1, 2}, {"H", 2, 8}};
    case HiddenKind::any: {
      auto bound = [&](const std::string& a) {
        auto c = task.constraints.find(a);
        return c == task.constraints.end() ? std::int64_t{1} : c->second.max;
      };
      return {{"S", 1, bound("S")}, {"B", 1, bound("B")}, {"H", 1, bound("H")}};
    }
  }
  return {};
}

}  // namespace

std::string_view to_string(HiddenKind k) {
  switch (k) {
    case HiddenKind::small:
      return "small";
    case HiddenKind::ragged:
      return "ragged";
    case HiddenKind::large:
      return "large";
    case HiddenKind::audit:
      return "audit";
    case HiddenKind::any:
      return "any";
  }
  return "unknown";
}

std::optional<HiddenKind> hidden_kind_from_string(std::string_view s) {
  for (HiddenKind k : kHiddenKinds)
    if (to_string(k) == s) return k;
  return std::nullopt;
}

std::string_view describe(HiddenKind k, Family f) {
  const bool gemm = f == Family::gemm;
  switch (k) {
    case HiddenKind::small:
      return gemm ? "a small M (below 64)" : "a short sequence, B*H odd";
    case HiddenKind::ragged:
      return gemm ? "an M that is not a multiple of 8 (below 1024)"
                  : "a sequence length that is an odd multiple of 128, more batches and "
                    "heads than the timed workload";
    case HiddenKind::large:
      return gemm ? "a large M that is not a multiple of 128"
                  : "a sequence longer than the timed one";
    case HiddenKind::audit:
      return gemm ? "a mid-size M that is not a multiple of 128" : "a mid-length sequence";
    case HiddenKind::any:
      return "sizes drawn anywhere in the promise";
  }
  return "sizes drawn from the promise";
}

Status hidden_draw_supported(const TaskSpec& task) {
  const std::vector<std::string> allowed = task.family == Family::gemm
                                               ? std::vector<std::string>{"M"}
                                               : std::vector<std::string>{"B", "H", "S"};
  for (const auto& [axis, c] : task.constraints)
    if (std::find(allowed.begin(), allowed.end(), axis) == allowed.end())
      return make_error("axis " + axis + " cannot vary in a " +
                        std::string(to_string(task.family)) +
                        " task: hidden workloads are drawn over " +
                        (task.family == Family::gemm ? "M" : "B, H and S"));
  if (task.family == Family::gemm && !task.constraints.count("M"))
    return make_error("a gemm task promises a range for M (the number of tokens)");
  return {};
}

std::vector<HiddenWorkload> draw_hidden_workloads(const TaskSpec& task, std::uint64_t seed) {
  Stream s(seed);
  std::vector<HiddenWorkload> out;
  for (HiddenKind kind : kHiddenKinds) {
    auto draws = task.family == Family::gemm ? gemm_draws(task, kind) : attention_draws(task, kind);
    out.push_back({kind, draw_workload(task, kind, draws, s)});
  }
  return out;
}

}  // namespace ptxbench::task
