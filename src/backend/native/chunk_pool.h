// The process-wide worker pool behind native kernels' ParallelFor (runtime/native_threads.h).
// Each job names its thread count; the calling thread takes part; workers spin briefly after a job, then sleep
// on a futex, so a pool left idle costs nothing and back-to-back kernels do not pay a wake-up
// each. One job runs at a time: a call made while the pool is busy (from another thread's
// kernel, or nested) runs its chunks serially on the caller, so it can never deadlock.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "backend/native/runtime/native_threads.h"

namespace collage::native {

class ChunkPool {
 public:
  static ChunkPool& Global();

  ChunkPool() = default;
  ~ChunkPool();
  ChunkPool(const ChunkPool&) = delete;
  ChunkPool& operator=(const ChunkPool&) = delete;

  // Runs task(context, chunk) for every chunk in [0, chunks) on up to `threads` threads (the
  // caller and threads - 1 workers), each claiming the next chunk when it is free.
  void Run(int threads, int64_t chunks, ::native::ChunkTask task, void* context);

  // The pool as a kernel sees it: at most `count` threads.
  ::native::Threads ForKernels(int count);

 private:
  void EnsureWorkers(size_t count);
  // Worker `index` helps with the jobs posted after job `seen` that ask for it.
  void WorkerLoop(size_t index, uint32_t seen);
  // Claims and runs chunks of job `job` until none is left or a later job is posted.
  void Work(uint32_t job);

  std::atomic<bool> busy_{false};
  std::mutex workers_mutex_;
  std::vector<std::thread> workers_;
  std::atomic<bool> stopping_{false};
  std::atomic<uint32_t> posted_{0};      // the latest job's number (workers wait on it)
  std::atomic<uint64_t> next_claim_{0};  // job number << 32 | next chunk
  std::atomic<int64_t> chunks_{0};
  std::atomic<size_t> helpers_{0};  // workers taking part in the current job
  std::atomic<::native::ChunkTask> task_{nullptr};
  std::atomic<void*> context_{nullptr};
  std::atomic<int32_t> remaining_{0};  // chunks of the current job not finished
};

}  // namespace collage::native
