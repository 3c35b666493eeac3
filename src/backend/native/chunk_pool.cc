#include "backend/native/chunk_pool.h"

#include <algorithm>
#include <limits>

namespace collage::native {
namespace {

// About 20 microseconds of polling before a waiter sleeps.
constexpr int kSpinRounds = 2000;

// The chunk field of a finished job's claim word: above any chunk count.
constexpr uint64_t kClosed = 0xffffffffu;

void Pause() { __builtin_ia32_pause(); }

// Waits until `value` differs from `old`: polls, then sleeps on the futex.
template <typename T>
T WaitWhileEqual(const std::atomic<T>& value, T old) {
  for (int round = 0; round < kSpinRounds; ++round) {
    const T now = value.load(std::memory_order_acquire);
    if (now != old) return now;
    Pause();
  }
  value.wait(old, std::memory_order_acquire);
  return value.load(std::memory_order_acquire);
}

void RunChunksOnPool(void* pool, int threads, int64_t chunks, ::native::ChunkTask task, void* context) {
  static_cast<ChunkPool*>(pool)->Run(threads, chunks, task, context);
}

}  // namespace

ChunkPool& ChunkPool::Global() {
  static ChunkPool pool;
  return pool;
}

ChunkPool::~ChunkPool() {
  stopping_.store(true);
  posted_.fetch_add(1, std::memory_order_release);
  posted_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

::native::Threads ChunkPool::ForKernels(int count) { return ::native::Threads{count, &RunChunksOnPool, this}; }

void ChunkPool::EnsureWorkers(size_t count) {
  std::lock_guard<std::mutex> lock(workers_mutex_);
  // Created before the caller posts its job, so a new worker waits for the next job number.
  const uint32_t posted = posted_.load(std::memory_order_acquire);
  while (workers_.size() < count) {
    const size_t index = workers_.size();
    workers_.emplace_back([this, index, posted] { WorkerLoop(index, posted); });
  }
}

void ChunkPool::WorkerLoop(size_t index, uint32_t seen) {
  while (true) {
    seen = WaitWhileEqual(posted_, seen);
    if (stopping_.load()) return;
    if (index < helpers_.load(std::memory_order_acquire)) Work(seen);
  }
}

void ChunkPool::Work(uint32_t job) {
  uint64_t claim = next_claim_.load(std::memory_order_acquire);
  while (static_cast<uint32_t>(claim >> 32) == job) {
    const int64_t chunk = static_cast<int64_t>(claim & 0xffffffffu);
    if (chunk >= chunks_.load(std::memory_order_seq_cst)) return;
    if (!next_claim_.compare_exchange_weak(claim, claim + 1, std::memory_order_acq_rel)) continue;
    // The claimed chunk keeps the job open, so its task and context are stable.
    task_.load(std::memory_order_relaxed)(context_.load(std::memory_order_relaxed), chunk);
    if (remaining_.fetch_sub(1, std::memory_order_acq_rel) == 1) remaining_.notify_all();
    claim = next_claim_.load(std::memory_order_acquire);
  }
}

void ChunkPool::Run(int threads, int64_t chunks, ::native::ChunkTask task, void* context) {
  if (threads <= 1 || chunks <= 1 || chunks > std::numeric_limits<int32_t>::max() ||
      busy_.exchange(true, std::memory_order_acquire)) {
    for (int64_t chunk = 0; chunk < chunks; ++chunk) task(context, chunk);
    return;
  }
  const size_t helpers = static_cast<size_t>(std::min<int64_t>(threads, chunks) - 1);
  EnsureWorkers(helpers);
  helpers_.store(helpers, std::memory_order_relaxed);
  const uint32_t job = posted_.load(std::memory_order_relaxed) + 1;
  task_.store(task, std::memory_order_relaxed);
  context_.store(context, std::memory_order_relaxed);
  chunks_.store(chunks, std::memory_order_seq_cst);
  remaining_.store(static_cast<int32_t>(chunks), std::memory_order_relaxed);
  next_claim_.store(static_cast<uint64_t>(job) << 32, std::memory_order_release);
  posted_.store(job, std::memory_order_release);
  posted_.notify_all();
  Work(job);
  for (int32_t left = remaining_.load(std::memory_order_acquire); left != 0;) left = WaitWhileEqual(remaining_, left);
  // Close the job before the next one changes chunks_: a worker that read this job's last
  // claim but not yet chunks_ could otherwise see the next job's larger count and claim a
  // chunk past this job's end, running it twice and leaving remaining_ below zero.
  next_claim_.store(static_cast<uint64_t>(job) << 32 | kClosed, std::memory_order_seq_cst);
  busy_.store(false, std::memory_order_release);
}

}  // namespace collage::native
