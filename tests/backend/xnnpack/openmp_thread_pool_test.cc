// XNNPACK's parallel loops on OpenMP threads: every pthreadpool loop shape visits each tile of
// its grid exactly once with the right extents, on more than one thread when the pool has
// them; denormals are flushed during a loop that asks and only then; and XNNPACK itself reaches
// these definitions rather than libpthreadpool's.
#ifdef COLLAGE_WITH_XNNPACK

#include "backend/xnnpack/openmp_thread_pool.h"

#include <gtest/gtest.h>
#include <pthreadpool.h>
#include <dlfcn.h>
#include <time.h>
#include <xmmintrin.h>

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "backend/backend_test_util.h"
#include "backend/xnnpack/xnnpack_backend.h"
#include "backend/xnnpack/xnnpack_test_graphs.h"

namespace collage {
namespace {

using Pool = std::unique_ptr<std::remove_pointer_t<pthreadpool_t>, decltype(&pthreadpool_destroy)>;

Pool MakePool(size_t threads) { return Pool(pthreadpool_create(threads), &pthreadpool_destroy); }

// Every call a loop made: the tile's start and extent per dimension, and the threads used.
struct Visits {
  std::mutex mutex;
  std::map<std::vector<size_t>, int> tiles;  // starts, then extents -> calls
  std::set<std::thread::id> threads;

  void Add(std::vector<size_t> tile) {
    const std::lock_guard<std::mutex> lock(mutex);
    ++tiles[std::move(tile)];
    threads.insert(std::this_thread::get_id());
  }
};

// What a serial loop over the grid visits: `ranges` per dimension, tiled by `tiles` (1: the
// dimension is untiled and its extent is not passed).
std::map<std::vector<size_t>, int> SerialVisits(const std::vector<size_t>& ranges, const std::vector<size_t>& tiles) {
  std::map<std::vector<size_t>, int> expected;
  std::vector<size_t> index(ranges.size(), 0);
  for (size_t range : ranges) {
    if (range == 0) return expected;
  }
  while (true) {
    std::vector<size_t> tile = index;
    for (size_t d = 0; d < ranges.size(); ++d) {
      if (tiles[d] > 1) tile.push_back(std::min(tiles[d], ranges[d] - index[d]));
    }
    ++expected[tile];
    size_t d = ranges.size();
    while (d-- > 0) {
      index[d] += tiles[d];
      if (index[d] < ranges[d]) break;
      index[d] = 0;
    }
    if (d == static_cast<size_t>(-1)) return expected;
  }
}

Visits* visits = nullptr;

void Visit1d(void*, size_t i) { visits->Add({i}); }
void Visit1dTile1d(void*, size_t i, size_t ti) { visits->Add({i, ti}); }
void Visit2d(void*, size_t i, size_t j) { visits->Add({i, j}); }
void Visit2dTile1d(void*, size_t i, size_t j, size_t tj) { visits->Add({i, j, tj}); }
void Visit2dTile2d(void*, size_t i, size_t j, size_t ti, size_t tj) { visits->Add({i, j, ti, tj}); }
void Visit3d(void*, size_t i, size_t j, size_t k) { visits->Add({i, j, k}); }
void Visit3dTile2d(void*, size_t i, size_t j, size_t k, size_t tj, size_t tk) { visits->Add({i, j, k, tj, tk}); }
void Visit4d(void*, size_t i, size_t j, size_t k, size_t l) { visits->Add({i, j, k, l}); }
void Visit4dTile2d(void*, size_t i, size_t j, size_t k, size_t l, size_t tk, size_t tl) {
  visits->Add({i, j, k, l, tk, tl});
}
void Visit5d(void*, size_t i, size_t j, size_t k, size_t l, size_t m) { visits->Add({i, j, k, l, m}); }
void Visit5dTile2d(void*, size_t i, size_t j, size_t k, size_t l, size_t m, size_t tl, size_t tm) {
  visits->Add({i, j, k, l, m, tl, tm});
}
void Visit6dTile2d(void*, size_t i, size_t j, size_t k, size_t l, size_t m, size_t n, size_t tm, size_t tn) {
  visits->Add({i, j, k, l, m, n, tm, tn});
}

// Runs `loop` on a pool of `threads` (none: no pool) and checks its visits against the serial
// loop over `ranges` tiled by `tiles`.
template <typename Loop>
void ExpectSerialVisits(const std::vector<size_t>& ranges, const std::vector<size_t>& tiles, const Loop& loop) {
  for (size_t threads : {0, 1, 2, 3}) {
    Pool pool = threads == 0 ? Pool(nullptr, &pthreadpool_destroy) : MakePool(threads);
    Visits seen;
    visits = &seen;
    loop(pool.get());
    visits = nullptr;
    EXPECT_EQ(seen.tiles, SerialVisits(ranges, tiles)) << threads << " threads";
    EXPECT_LE(seen.threads.size(), std::max<size_t>(threads, 1));
  }
}

TEST(OpenMpThreadPoolTest, EveryLoopShapeVisitsEachTileOnceWithItsExtent) {
  ExpectSerialVisits({7}, {1}, [](pthreadpool_t p) { pthreadpool_parallelize_1d(p, Visit1d, nullptr, 7, 0); });
  ExpectSerialVisits({10}, {4}, [](pthreadpool_t p) {
    pthreadpool_parallelize_1d_tile_1d(p, Visit1dTile1d, nullptr, 10, 4, 0);
  });
  ExpectSerialVisits({3, 5}, {1, 1}, [](pthreadpool_t p) { pthreadpool_parallelize_2d(p, Visit2d, nullptr, 3, 5, 0); });
  ExpectSerialVisits({3, 7}, {1, 3}, [](pthreadpool_t p) {
    pthreadpool_parallelize_2d_tile_1d(p, Visit2dTile1d, nullptr, 3, 7, 3, 0);
  });
  ExpectSerialVisits({5, 9}, {2, 4}, [](pthreadpool_t p) {
    pthreadpool_parallelize_2d_tile_2d(p, Visit2dTile2d, nullptr, 5, 9, 2, 4, 0);
  });
  ExpectSerialVisits({2, 3, 4}, {1, 1, 1}, [](pthreadpool_t p) {
    pthreadpool_parallelize_3d(p, Visit3d, nullptr, 2, 3, 4, 0);
  });
  ExpectSerialVisits({2, 5, 7}, {1, 2, 3}, [](pthreadpool_t p) {
    pthreadpool_parallelize_3d_tile_2d(p, Visit3dTile2d, nullptr, 2, 5, 7, 2, 3, 0);
  });
  ExpectSerialVisits({2, 1, 3, 2}, {1, 1, 1, 1}, [](pthreadpool_t p) {
    pthreadpool_parallelize_4d(p, Visit4d, nullptr, 2, 1, 3, 2, 0);
  });
  ExpectSerialVisits({2, 3, 5, 6}, {1, 1, 2, 4}, [](pthreadpool_t p) {
    pthreadpool_parallelize_4d_tile_2d(p, Visit4dTile2d, nullptr, 2, 3, 5, 6, 2, 4, 0);
  });
  ExpectSerialVisits({2, 2, 1, 3, 2}, {1, 1, 1, 1, 1}, [](pthreadpool_t p) {
    pthreadpool_parallelize_5d(p, Visit5d, nullptr, 2, 2, 1, 3, 2, 0);
  });
  ExpectSerialVisits({2, 1, 2, 5, 3}, {1, 1, 1, 3, 2}, [](pthreadpool_t p) {
    pthreadpool_parallelize_5d_tile_2d(p, Visit5dTile2d, nullptr, 2, 1, 2, 5, 3, 3, 2, 0);
  });
  ExpectSerialVisits({1, 2, 1, 2, 7, 5}, {1, 1, 1, 1, 4, 2}, [](pthreadpool_t p) {
    pthreadpool_parallelize_6d_tile_2d(p, Visit6dTile2d, nullptr, 1, 2, 1, 2, 7, 5, 4, 2, 0);
  });
}

TEST(OpenMpThreadPoolTest, AnEmptyGridVisitsNothing) {
  ExpectSerialVisits({4, 0}, {1, 1}, [](pthreadpool_t p) { pthreadpool_parallelize_2d(p, Visit2d, nullptr, 4, 0, 0); });
}

// The serial reference itself: it must tell a loop that skips or repeats a tile apart.
TEST(OpenMpThreadPoolTest, TheSerialReferenceSeesAMissedTile) {
  auto expected = SerialVisits({5, 9}, {2, 4});
  EXPECT_EQ(expected.size(), 9u);
  EXPECT_EQ(expected.count({4, 8, 1, 1}), 1u);
  Pool pool = MakePool(2);
  Visits seen;
  visits = &seen;
  pthreadpool_parallelize_2d_tile_2d(pool.get(), Visit2dTile2d, nullptr, 5, 8, 2, 4, 0);
  visits = nullptr;
  EXPECT_NE(seen.tiles, expected);
}

TEST(OpenMpThreadPoolTest, LoopsUseMoreThanOneThreadWhenThePoolHasThem) {
  Pool pool = MakePool(2);
  EXPECT_EQ(pthreadpool_get_threads_count(pool.get()), 2u);
  bool two_threads = false;
  for (int attempt = 0; attempt < 50 && !two_threads; ++attempt) {
    Visits seen;
    visits = &seen;
    pthreadpool_parallelize_1d(
        pool.get(), [](void*, size_t i) {
          std::this_thread::sleep_for(std::chrono::microseconds(200));
          visits->Add({i});
        },
        nullptr, 8, 0);
    visits = nullptr;
    two_threads = seen.threads.size() == 2;
  }
  EXPECT_TRUE(two_threads);
}

constexpr unsigned kDenormalBits = 0x8040;  // flush to zero, denormals are zero

TEST(OpenMpThreadPoolTest, DenormalsAreFlushedDuringALoopThatAsksAndOnlyThen) {
  Pool pool = MakePool(2);
  static std::atomic<int> flushing, not_flushing;
  auto record = [](void*, size_t) { ((_mm_getcsr() & kDenormalBits) == kDenormalBits ? flushing : not_flushing)++; };
  const unsigned before = _mm_getcsr();
  flushing = not_flushing = 0;
  pthreadpool_parallelize_1d(pool.get(), record, nullptr, 16, PTHREADPOOL_FLAG_DISABLE_DENORMALS);
  EXPECT_EQ(flushing.load(), 16);
  EXPECT_EQ(_mm_getcsr(), before);
  flushing = not_flushing = 0;
  pthreadpool_parallelize_1d(pool.get(), record, nullptr, 16, 0);
  EXPECT_EQ(not_flushing.load(), 16);
}

double ProcessCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

double CpuSecondsWhileAsleep(double seconds) {
  const double before = ProcessCpuSeconds();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  return ProcessCpuSeconds() - before;
}

// Where XNNPACK was bound to libpthreadpool before Collage (Python after `import torch`), a job
// runs on the library's own workers, which poll ~20 ms afterwards; parking them must reach the
// library's function, not this program's definition of the same name.
TEST(OpenMpThreadPoolTest, ParkingSendsTheLibrarysOwnWorkersToSleep) {
  using Parallelize1d = void (*)(pthreadpool_t, pthreadpool_task_1d_t, void*, size_t, uint32_t);
  const auto library_parallelize =
      reinterpret_cast<Parallelize1d>(dlsym(RTLD_NEXT, "pthreadpool_parallelize_1d"));
  ASSERT_NE(library_parallelize, nullptr);
  Pool pool = MakePool(2);
  constexpr double kSleepSeconds = 0.01;
  const auto job_on_library_workers = [&] {
    library_parallelize(
        pool.get(), [](void*, size_t) { std::this_thread::sleep_for(std::chrono::microseconds(100)); }, nullptr, 8,
        0);
  };
  // Negative control: without parking, a worker polls through the sleep.
  job_on_library_workers();
  EXPECT_GT(CpuSecondsWhileAsleep(kSleepSeconds), 0.3 * kSleepSeconds);
  job_on_library_workers();
  xnnpack::ParkLibraryWorkers(pool.get());
  EXPECT_LT(CpuSecondsWhileAsleep(kSleepSeconds), 0.2 * kSleepSeconds);
}

TEST(OpenMpThreadPoolTest, XnnpackRunsItsLoopsHere) {
  using testing::xnnpack::Conv2D;
  using testing::xnnpack::TypedFunction;
  const Var x = MakeVar("x", TensorType(DType::kF32, {1, 8, 16, 16}));
  const Function function = TypedFunction({x}, Conv2D(x, 8, {8, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}, 1}, 3));
  const int64_t before = xnnpack::LoopsRunOnOpenMpThreads();
  EXPECT_TRUE(testing::MatchesReference(XnnpackBackend(), function));
  EXPECT_GT(xnnpack::LoopsRunOnOpenMpThreads(), before);
}

}  // namespace
}  // namespace collage

#endif  // COLLAGE_WITH_XNNPACK
