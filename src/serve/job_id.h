// Job ids of `ptxbench serve` across instances. Several services (one per node) may stand
// behind one load balancer, each with its own store; an id must name one job among all of
// them and say which instance holds it, so that a poll can be routed there. An id is
// "INSTANCE.N": the instance's name (--instance), a dot, and the job's number in that
// instance's store, e.g. "gpu-node-3.1742". A name is 1 to 40 letters, digits, '-' or '_',
// starting with a letter: never a dot, so the part before the first dot is the owner (a
// balancer routes on that prefix: lb_config.h). A bare number ("1742") is a job of the
// instance that reads it: the ids of stores written before instance names stay readable.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ptxbench::serve {

using JobId = std::int64_t;  // a job's number in its instance's store (SQLite rowid, >= 1)

inline constexpr std::size_t kMaxInstanceName = 40;

// Whether `name` may name an instance (the rule above).
bool valid_instance_name(std::string_view name);
// The rule, for error messages.
inline constexpr std::string_view kInstanceNameRule =
    "1 to 40 letters, digits, '-' or '_', starting with a letter (no dots: the part of a job "
    "id before its first dot names its instance)";

// The default instance name from the machine's host name: its first label, each character
// outside the rule replaced by '-', cut to 40, and "serve" when what is left does not start
// with a letter (so "10-0-0-7.cluster" is "serve", "GPU_node.7" is "GPU_node").
std::string default_instance_name(std::string_view hostname);

// "INSTANCE.N".
std::string job_id_text(std::string_view instance, JobId n);

struct JobRef {
  std::string instance;  // empty: a bare number, the reading instance's own job
  JobId n = 0;
};
// The owner and number of an id; nullopt when it is no id (not NAME.N or N with N in
// 1..10^18-1, or a name outside the rule).
std::optional<JobRef> parse_job_id(std::string_view text);

}  // namespace ptxbench::serve
