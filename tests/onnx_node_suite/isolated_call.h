// Runs a piece of work in a forked child process with a time limit, so that a crash or a
// hang in the work is reported instead of ending or stalling the caller.
//
// The child runs `work`, sends the string it returns back over a pipe and exits; the parent
// waits at most the time limit for it. The caller should not have started threads that the
// work relies on (OpenMP pools do not survive fork); a driver that only forks keeps every
// child fresh.
#pragma once

#include <functional>
#include <string>

namespace collage::node_suite {

struct IsolatedResult {
  enum class Status {
    kFinished,  // the child returned normally; `output` is what the work returned
    kCrashed,   // the child died (a signal, or an exit without an answer); `detail` says how
    kTimedOut,  // the child ran past the limit and was killed
  };
  Status status = Status::kFinished;
  std::string output;
  std::string detail;
};

// `work` must not throw across the fork: an escaping exception counts as a crash.
IsolatedResult RunIsolated(const std::function<std::string()>& work, double time_limit_seconds);

}  // namespace collage::node_suite
