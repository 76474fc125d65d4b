// The child used by child_process_test: a stand-in for the GPU worker that answers
// commands over CommandChannel. Commands (one word, then an argument):
//   echo TEXT   reply TEXT              fds      reply the open fds, e.g. "0 1 2 3 4"
//   spam N      N bytes to stdout and to stderr (marked at both ends), then reply "done"
//   big N       reply N bytes           exit N   exit with code N, no reply
//   hang        never reply             net      reply the line count of /proc/net/dev
//   stdin       reply what stdin holds  split    reply "half" in two writes, 300 ms apart
// At end of input it prints "bye" to stderr and exits 0.
#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/command_channel.h"

namespace {

std::string open_fds() {
  DIR* d = ::opendir("/proc/self/fd");
  std::string fds;
  if (!d) return "cannot list";
  int own = ::dirfd(d);
  std::vector<int> found;
  while (dirent* e = ::readdir(d)) {
    if (e->d_name[0] == '.') continue;
    int fd = std::atoi(e->d_name);
    if (fd != own) found.push_back(fd);
  }
  ::closedir(d);
  std::sort(found.begin(), found.end());
  for (int fd : found) fds += (fds.empty() ? "" : " ") + std::to_string(fd);
  return fds;
}

void spam(std::size_t n) {
  std::string block(64 * 1024, 'x');
  for (FILE* f : {stdout, stderr}) {
    std::fputs("HEAD-MARK\n", f);
    for (std::size_t done = 0; done < n; done += block.size())
      std::fwrite(block.data(), 1, block.size(), f);
    std::fputs("\nTAIL-MARK\n", f);
    std::fflush(f);
  }
}

std::string line_count(const char* path) {
  std::ifstream in(path);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) ++n;
  return std::to_string(n);
}

}  // namespace

int main() {
  auto channel = ptxbench::CommandChannel::from_fds();
  if (!channel.ok()) {
    std::cerr << channel.error().to_string() << "\n";
    return 2;
  }
  while (true) {
    auto got = channel->next_line();
    if (!got.ok()) return 3;
    if (!*got) break;
    const std::string& line = **got;
    std::string word = line.substr(0, line.find(' '));
    std::string arg = line.size() > word.size() ? line.substr(word.size() + 1) : "";
    std::string answer;
    if (word == "echo")
      answer = arg;
    else if (word == "fds")
      answer = open_fds();
    else if (word == "spam")
      spam(std::stoul(arg)), answer = "done";
    else if (word == "big")
      answer = std::string(std::stoul(arg), 'b');
    else if (word == "exit")
      std::exit(std::stoi(arg));
    else if (word == "hang")
      ::pause();
    else if (word == "net")
      answer = line_count("/proc/net/dev");
    else if (word == "stdin")
      answer = std::string(std::istreambuf_iterator<char>(std::cin), {});
    else if (word == "split") {
      (void)!::write(4, "ha", 2);
      ::usleep(300 * 1000);
      answer = "lf";
    } else
      answer = "unknown command";
    if (!channel->reply(answer).ok()) return 4;
  }
  std::cerr << "bye\n";
  return 0;
}
