// The worker pool behind native kernels' ParallelFor: every chunk runs exactly once, on more
// than one thread when asked, and calls that find the pool busy (nested, or from another
// thread) still complete.
#include "backend/native/chunk_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace collage::native {
namespace {

// Counts the runs of each chunk and the threads that ran them.
struct Tally {
  std::vector<std::atomic<int>> runs;
  std::mutex mutex;
  std::set<std::thread::id> threads;

  explicit Tally(int64_t chunks) : runs(static_cast<size_t>(chunks)) {}

  static void Count(void* context, int64_t chunk) {
    auto& tally = *static_cast<Tally*>(context);
    tally.runs[static_cast<size_t>(chunk)].fetch_add(1);
    std::lock_guard<std::mutex> lock(tally.mutex);
    tally.threads.insert(std::this_thread::get_id());
  }

  bool EachRanOnce() const {
    for (const std::atomic<int>& count : runs) {
      if (count.load() != 1) return false;
    }
    return true;
  }
};

TEST(ChunkPoolTest, EveryChunkRunsOnceOnAtMostTheThreadsAsked) {
  ChunkPool pool;
  for (int64_t chunks : {0, 1, 2, 3, 7, 2, 12}) {
    for (int repeat = 0; repeat < 50; ++repeat) {
      Tally tally(chunks);
      pool.Run(3, chunks, &Tally::Count, &tally);
      EXPECT_TRUE(tally.EachRanOnce()) << chunks << " chunks, repeat " << repeat;
      EXPECT_LE(tally.threads.size(), 3u) << "more threads than the job asked for";
    }
  }
}

TEST(ChunkPoolTest, BackToBackJobsOfGrowingSizeRunEachChunkOnce) {
  // A worker still finishing a small job must not claim chunks of the larger job posted right
  // after it (that ran a chunk twice and left the caller waiting forever). A deadlock here
  // cannot be unwound, so a watchdog ends the process with a message instead.
  std::mutex mutex;
  std::condition_variable done_signal;
  bool done = false;
  int64_t failures = 0;
  // Spinning threads get the pool's threads preempted at arbitrary points, which widens the
  // window a stale worker needs.
  std::atomic<bool> stop_spinning{false};
  std::vector<std::thread> spinners;
  for (int i = 0; i < 3; ++i) {
    spinners.emplace_back([&] {
      while (!stop_spinning.load(std::memory_order_relaxed)) {
      }
    });
  }
  std::thread stress([&] {
    ChunkPool pool;
    Tally small(2), large(64);
    for (int job = 0; job < 100000; ++job) {
      Tally& tally = job % 2 ? large : small;
      for (std::atomic<int>& count : tally.runs) count.store(0, std::memory_order_relaxed);
      pool.Run(2, static_cast<int64_t>(tally.runs.size()), &Tally::Count, &tally);
      failures += tally.EachRanOnce() ? 0 : 1;
    }
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
    done_signal.notify_all();
  });
  {
    std::unique_lock<std::mutex> lock(mutex);
    if (!done_signal.wait_for(lock, std::chrono::seconds(120), [&] { return done; })) {
      std::fprintf(stderr, "ChunkPoolTest: back-to-back jobs deadlocked\n");
      std::_Exit(1);
    }
  }
  stress.join();
  stop_spinning.store(true);
  for (std::thread& spinner : spinners) spinner.join();
  EXPECT_EQ(failures, 0);
}

TEST(ChunkPoolTest, ChunksRunOnSeveralThreads) {
  ChunkPool pool;
  // Each chunk waits until both have started, which only happens when two threads run them.
  struct Rendezvous {
    std::atomic<int> started{0};
    std::atomic<int> met{0};
  } rendezvous;
  const auto task = [](void* context, int64_t) {
    auto& r = *static_cast<Rendezvous*>(context);
    r.started.fetch_add(1);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (r.started.load() < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
    if (r.started.load() >= 2) r.met.fetch_add(1);
  };
  pool.Run(2, 2, task, &rendezvous);
  EXPECT_EQ(rendezvous.met.load(), 2);
}

TEST(ChunkPoolTest, NestedAndConcurrentCallsComplete) {
  ChunkPool pool;
  struct Outer {
    ChunkPool* pool;
    std::deque<Tally>* inner;
  };
  std::deque<Tally> inner;
  for (int i = 0; i < 3; ++i) inner.emplace_back(4);
  Outer outer{&pool, &inner};
  pool.Run(3, 3, [](void* context, int64_t chunk) {
    auto& o = *static_cast<Outer*>(context);
    o.pool->Run(2, 4, &Tally::Count, &(*o.inner)[static_cast<size_t>(chunk)]);
  }, &outer);
  for (const Tally& tally : inner) EXPECT_TRUE(tally.EachRanOnce());

  std::deque<Tally> per_thread;
  for (int i = 0; i < 4; ++i) per_thread.emplace_back(6);
  std::vector<std::thread> callers;
  for (Tally& tally : per_thread) {
    callers.emplace_back([&pool, &tally] {
      for (int repeat = 0; repeat < 20; ++repeat) {
        for (std::atomic<int>& count : tally.runs) count.store(0);
        pool.Run(2, 6, &Tally::Count, &tally);
        if (!tally.EachRanOnce()) return;
      }
    });
  }
  for (std::thread& caller : callers) caller.join();
  for (const Tally& tally : per_thread) EXPECT_TRUE(tally.EachRanOnce());
}

}  // namespace
}  // namespace collage::native
