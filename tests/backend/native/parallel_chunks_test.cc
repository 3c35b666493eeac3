// The parallel loops behind native kernels' ParallelFor: every chunk runs exactly once, on more
// than one thread when asked, each thread on a fixed contiguous share, and nested calls and
// calls from several threads complete.
#include "backend/native/parallel_chunks.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <chrono>
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

TEST(ParallelChunksTest, EveryChunkRunsOnceOnAtMostTheThreadsAsked) {
  for (int64_t chunks : {0, 1, 2, 3, 7, 2, 12}) {
    for (int repeat = 0; repeat < 50; ++repeat) {
      Tally tally(chunks);
      RunChunksInParallel(3, chunks, &Tally::Count, &tally);
      EXPECT_TRUE(tally.EachRanOnce()) << chunks << " chunks, repeat " << repeat;
      EXPECT_LE(tally.threads.size(), 3u) << "more threads than the job asked for";
    }
  }
}

TEST(ParallelChunksTest, BackToBackLoopsOfAlternatingSizeRunEachChunkOnce) {
  Tally small(2), large(64);
  int64_t failures = 0;
  for (int loop = 0; loop < 20000; ++loop) {
    Tally& tally = loop % 2 ? large : small;
    for (std::atomic<int>& count : tally.runs) count.store(0, std::memory_order_relaxed);
    RunChunksInParallel(2, static_cast<int64_t>(tally.runs.size()), &Tally::Count, &tally);
    failures += tally.EachRanOnce() ? 0 : 1;
  }
  EXPECT_EQ(failures, 0);
}

TEST(ParallelChunksTest, ChunksRunOnSeveralThreads) {
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
  RunChunksInParallel(2, 2, task, &rendezvous);
  EXPECT_EQ(rendezvous.met.load(), 2);
}

// Thread t of the team runs the t-th share of the chunks, the same on every call, so that
// consecutive loops over one tensor find each part in the cache of the core that last wrote it.
TEST(ParallelChunksTest, EachThreadRunsTheSameContiguousShareEveryCall) {
  constexpr int64_t kChunks = 8;
  const auto record = [] {
    std::vector<std::atomic<int>> owner(kChunks);
    RunChunksInParallel(2, kChunks, [](void* context, int64_t chunk) {
      (*static_cast<std::vector<std::atomic<int>>*>(context))[static_cast<size_t>(chunk)].store(omp_get_thread_num());
    }, &owner);
    std::vector<int> owners;
    for (const std::atomic<int>& thread : owner) owners.push_back(thread.load());
    return owners;
  };
  const std::vector<int> first = record();
  for (int call = 0; call < 20; ++call) ASSERT_EQ(record(), first);
  for (size_t chunk = 1; chunk < first.size(); ++chunk) EXPECT_LE(first[chunk - 1], first[chunk]);
  EXPECT_EQ(first.front(), 0);
}

TEST(ParallelChunksTest, NestedAndConcurrentCallsComplete) {
  std::deque<Tally> inner;
  for (int i = 0; i < 3; ++i) inner.emplace_back(4);
  RunChunksInParallel(3, 3, [](void* context, int64_t chunk) {
    auto& tallies = *static_cast<std::deque<Tally>*>(context);
    RunChunksInParallel(2, 4, &Tally::Count, &tallies[static_cast<size_t>(chunk)]);
  }, &inner);
  for (const Tally& tally : inner) EXPECT_TRUE(tally.EachRanOnce());

  std::deque<Tally> per_thread;
  for (int i = 0; i < 4; ++i) per_thread.emplace_back(6);
  std::vector<std::thread> callers;
  for (Tally& tally : per_thread) {
    callers.emplace_back([&tally] {
      for (int repeat = 0; repeat < 20; ++repeat) {
        for (std::atomic<int>& count : tally.runs) count.store(0);
        RunChunksInParallel(2, 6, &Tally::Count, &tally);
        if (!tally.EachRanOnce()) return;
      }
    });
  }
  for (std::thread& caller : callers) caller.join();
  for (const Tally& tally : per_thread) EXPECT_TRUE(tally.EachRanOnce());
}

}  // namespace
}  // namespace collage::native
