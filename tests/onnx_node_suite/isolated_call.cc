#include "onnx_node_suite/isolated_call.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <sstream>

#include "support/error.h"

namespace collage::node_suite {
namespace {

void WriteAll(int fd, const std::string& text) {
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    written += static_cast<size_t>(n);
  }
}

[[noreturn]] void RunChild(const std::function<std::string()>& work, int write_fd) {
  int code = 0;
  try {
    WriteAll(write_fd, work());
  } catch (const std::exception& error) {
    WriteAll(2, std::string("uncaught exception: ") + error.what() + "\n");
    code = 3;
  } catch (...) {
    code = 3;
  }
  close(write_fd);
  // _exit: no atexit handlers or static destructors of the parent's state run twice.
  _exit(code);
}

std::string DescribeExit(int status) {
  if (WIFSIGNALED(status)) {
    const int signal_number = WTERMSIG(status);
    const char* name = sigabbrev_np(signal_number);
    return "killed by signal " + std::to_string(signal_number) + (name ? " (SIG" + std::string(name) + ")" : "");
  }
  return "exited with status " + std::to_string(WEXITSTATUS(status)) + " without an answer";
}

}  // namespace

IsolatedResult RunIsolated(const std::function<std::string()>& work, double time_limit_seconds) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw Error(std::string("pipe failed: ") + std::strerror(errno));
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    throw Error(std::string("fork failed: ") + std::strerror(errno));
  }
  if (child == 0) {
    close(fds[0]);
    RunChild(work, fds[1]);
  }
  close(fds[1]);

  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(time_limit_seconds));
  IsolatedResult result;
  bool timed_out = false;
  char buffer[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd readable{fds[0], POLLIN, 0};
    const int ready = poll(&readable, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    const ssize_t n = read(fds[0], buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // end of file: the child closed the pipe
    result.output.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(child, SIGKILL);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    result.status = IsolatedResult::Status::kTimedOut;
    std::ostringstream detail;
    detail << "no answer within " << time_limit_seconds << " s";
    result.detail = detail.str();
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    result.status = IsolatedResult::Status::kCrashed;
    result.detail = DescribeExit(status);
  }
  return result;
}

}  // namespace collage::node_suite
