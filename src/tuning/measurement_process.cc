#include "tuning/measurement_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <thread>
#include <vector>

#include "build_paths.h"
#include "backend/load_time_environment.h"
#include "support/error.h"

namespace collage {
namespace {

constexpr const char* kWorkerName = "collage-measure-worker";

std::vector<char*> Pointers(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& text : strings) pointers.push_back(text.data());
  pointers.push_back(nullptr);
  return pointers;
}

std::string DescribeStatus(int status) {
  if (WIFSIGNALED(status)) {
    const int signal_number = WTERMSIG(status);
    return "killed by signal " + std::to_string(signal_number) + " (" + strsignal(signal_number) + ")";
  }
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  return "ended";
}

// Signals a process does not raise by faulting, only by another process's (or its own) kill:
// the out-of-memory killer's SIGKILL, a user's or a supervisor's SIGTERM, a terminal's
// SIGINT, SIGHUP and SIGQUIT.
bool SentFromOutside(int status) {
  if (!WIFSIGNALED(status)) return false;
  switch (WTERMSIG(status)) {
    case SIGKILL:
    case SIGTERM:
    case SIGINT:
    case SIGHUP:
    case SIGQUIT:
      return true;
    default:
      return false;
  }
}

std::string FormatSeconds(double seconds) {
  std::ostringstream text;
  text << seconds;
  return text.str();
}

}  // namespace

std::string DefaultMeasurementWorkerPath() {
  if (const char* path = std::getenv("COLLAGE_MEASURE_WORKER"); path != nullptr && *path != '\0') return path;
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    const std::filesystem::path beside = self.parent_path() / kWorkerName;
    if (std::filesystem::exists(beside)) return beside.string();
  }
  const std::filesystem::path built = std::filesystem::path(COLLAGE_BINARY_DIR) / "bin" / kWorkerName;
  if (std::filesystem::exists(built)) return built.string();
  throw Error(std::string("cannot find the measurement worker '") + kWorkerName +
              "' next to this program or in " + built.parent_path().string() +
              "; build it or set COLLAGE_MEASURE_WORKER to its path");
}

MeasurementProcess::MeasurementProcess(std::string worker_path, std::string cache_dir)
    : worker_path_(std::move(worker_path)), cache_dir_(std::move(cache_dir)) {}

MeasurementProcess::~MeasurementProcess() {
  if (pid_ > 0) Stop(/*kill=*/false);
}

void MeasurementProcess::Start() {
  int sockets[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sockets) != 0) {
    throw Error(std::string("cannot create the measurement worker's socket: ") + std::strerror(errno));
  }
  // Everything the child needs is prepared before fork: it only calls async-signal-safe functions.
  const int child_socket_number = 3;
  std::vector<std::string> arguments = {worker_path_, "--socket", std::to_string(child_socket_number)};
  if (!cache_dir_.empty()) {
    arguments.push_back("--cache-dir");
    arguments.push_back(cache_dir_);
  }
  // The worker runs under the backends' load-time settings where ours lacks them.
  std::vector<std::string> environment = ProcessEnvironmentWithLoadTimeSettings(BackendRegistry::Global());
  std::vector<char*> argv = Pointers(arguments);
  std::vector<char*> envp = Pointers(environment);
  const pid_t pid = fork();
  if (pid < 0) {
    close(sockets[0]);
    close(sockets[1]);
    throw Error(std::string("cannot start the measurement worker: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // dup2 clears close-on-exec on the copy.
    if (dup2(sockets[1], child_socket_number) < 0) _exit(127);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  close(sockets[1]);
  pid_ = pid;
  socket_ = sockets[0];
  ++starts_;
}

MeasurementProcess::Ending MeasurementProcess::Stop(bool kill) {
  if (socket_ >= 0) close(socket_);
  socket_ = -1;
  if (pid_ <= 0) return {"not running"};
  int status = 0;
  pid_t reaped = 0;
  if (!kill) {
    // A worker whose socket closed exits at once; give it a moment before killing it.
    for (int attempt = 0; attempt < 200 && reaped == 0; ++attempt) {
      reaped = waitpid(pid_, &status, WNOHANG);
      if (reaped == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  if (reaped == 0) {
    ::kill(pid_, SIGKILL);
    reaped = waitpid(pid_, &status, 0);
  }
  pid_ = -1;
  if (reaped <= 0) return {"lost"};
  return {DescribeStatus(status), SentFromOutside(status)};
}

MeasurementReply MeasurementProcess::Measure(const MeasurementRequest& request, double timeout_seconds) {
  if (pid_ <= 0) Start();
  MeasurementReply failed;
  try {
    WriteRequest(socket_, request);
    pollfd wait_for{socket_, POLLIN, 0};
    const int timeout_ms = static_cast<int>(timeout_seconds * 1000);
    int ready;
    do {
      ready = poll(&wait_for, 1, timeout_ms);
    } while (ready < 0 && errno == EINTR);
    if (ready == 0) {
      Stop(/*kill=*/true);
      failed.reason = "timed out after " + FormatSeconds(timeout_seconds) + " s";
      failed.transient = true;
      return failed;
    }
    return ReadReply(socket_);
  } catch (const Error&) {
    const Ending ended = Stop(/*kill=*/false);
    failed.reason = "the measurement worker " + worker_path_ + " died: " + ended.description;
    failed.transient = ended.from_outside;
    return failed;
  }
}

}  // namespace collage
