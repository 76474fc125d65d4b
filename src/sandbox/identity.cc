#include "sandbox/identity.h"

#include <grp.h>
#include <pwd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace ptxbench {
namespace {
constexpr uid_t kNobodyFallback = 65534;
}  // namespace

std::optional<std::pair<uid_t, gid_t>> unprivileged_identity() {
  if (::geteuid() != 0) return std::nullopt;
  passwd pw{};
  passwd* found = nullptr;
  std::vector<char> buf(16384);
  if (::getpwnam_r("nobody", &pw, buf.data(), buf.size(), &found) == 0 && found)
    return std::make_pair(found->pw_uid, found->pw_gid);
  return std::make_pair(kNobodyFallback, static_cast<gid_t>(kNobodyFallback));
}

Status chown_tree(const std::filesystem::path& root, uid_t uid, gid_t gid) {
  auto change = [&](const std::filesystem::path& p) -> Status {
    if (::lchown(p.c_str(), uid, gid) != 0)
      return make_error("cannot give " + p.string() + " to " + std::to_string(uid) + ":" +
                        std::to_string(gid) + ": " + std::strerror(errno));
    return {};
  };
  PTXB_TRY_STATUS(change(root));
  std::error_code ec;
  std::filesystem::recursive_directory_iterator it(root, ec), end;
  if (ec) return make_error("cannot list " + root.string() + ": " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) return make_error("cannot list " + root.string() + ": " + ec.message());
    PTXB_TRY_STATUS(change(it->path()));
  }
  return {};
}

bool can_switch_identity(uid_t uid, gid_t gid, std::string* why) {
  pid_t pid = ::fork();
  if (pid < 0) {
    if (why) *why = std::string("fork failed: ") + std::strerror(errno);
    return false;
  }
  if (pid == 0) {
    if (::setgroups(0, nullptr) != 0) ::_exit(1);
    if (::setresgid(gid, gid, gid) != 0) ::_exit(2);
    if (::setresuid(uid, uid, uid) != 0) ::_exit(3);
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return true;
  if (why) {
    static const char* steps[] = {"", "setgroups", "setresgid", "setresuid"};
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    *why = std::string("cannot switch to ") + std::to_string(uid) + ":" + std::to_string(gid) +
           (code >= 1 && code <= 3 ? std::string(" (") + steps[code] + " failed)" : "");
  }
  return false;
}

}  // namespace ptxbench
