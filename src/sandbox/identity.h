// The unprivileged identity a candidate's worker runs as when ptxbench itself runs as root,
// and handing it the worker's private directory.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "core/result.h"

namespace ptxbench {

// nobody's uid and primary group (nogroup on Debian) when this process runs as root (effective
// uid 0), looked up in the user database (65534:65534 when absent there); nullopt when this
// process is unprivileged already (a child then keeps its parent's user).
std::optional<std::pair<uid_t, gid_t>> unprivileged_identity();

// Gives `root` and everything below it to uid:gid (symbolic links themselves, never their
// targets). An Error names the first entry that could not be changed.
Status chown_tree(const std::filesystem::path& root, uid_t uid, gid_t gid);

// Whether a child of this process could switch to uid:gid (tried in a forked child that
// exits at once); `why` says why not.
bool can_switch_identity(uid_t uid, gid_t gid, std::string* why = nullptr);

}  // namespace ptxbench
