// The tuner's handle on a measurement worker process (measurement_worker.h): started on
// the first request, reused for the next ones, killed and replaced after a candidate that
// times out, and replaced after one that crashes it. The worker runs under the backends'
// load-time environment (backend/load_time_environment.h), so that one backend's idle
// threads do not steal the cores the next candidate's backend is timed on.
#pragma once

#include <sys/types.h>

#include <string>

#include "tuning/measurement_protocol.h"

namespace collage {

// $COLLAGE_MEASURE_WORKER, else `collage-measure-worker` next to the running executable,
// else the one in this build's bin folder. Throws Error when none exists.
std::string DefaultMeasurementWorkerPath();

class MeasurementProcess {
 public:
  // `worker_path` is an executable that calls MeasurementWorkerMain; `cache_dir` is passed
  // to the backends' compilers ("" for their default).
  explicit MeasurementProcess(std::string worker_path, std::string cache_dir = "");
  ~MeasurementProcess();
  MeasurementProcess(const MeasurementProcess&) = delete;
  MeasurementProcess& operator=(const MeasurementProcess&) = delete;

  // The worker's reply, or an invalid reply saying "timed out after N s" (the worker is
  // killed) or that the worker died (with its signal or exit status). A time-out and a death
  // by a signal that only comes from outside the process (SIGKILL, SIGTERM, SIGINT, SIGHUP,
  // SIGQUIT) are transient; a crash (SIGSEGV, SIGABRT, ...) or an exit is not.
  MeasurementReply Measure(const MeasurementRequest& request, double timeout_seconds);

  // How many worker processes were started so far.
  size_t starts() const { return starts_; }
  // The current worker's process id; -1 before the first request and after a worker ended.
  pid_t pid() const { return pid_; }

 private:
  void Start();
  struct Ending {
    std::string description;  // "killed by signal 11 (Segmentation fault)", "exited with status 127"
    bool from_outside = false;  // killed by a signal that only another process sends
  };
  // Closes the socket and reaps the worker, killing it first when `kill` is set or it does
  // not exit promptly.
  Ending Stop(bool kill);

  std::string worker_path_;
  std::string cache_dir_;
  pid_t pid_ = -1;
  int socket_ = -1;
  size_t starts_ = 0;
};

}  // namespace collage
