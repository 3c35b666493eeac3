#include "backend/xnnpack/openmp_thread_pool.h"

#include <pthreadpool.h>

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <atomic>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "backend/openmp_ranges.h"

#define COLLAGE_EXPORTED __attribute__((visibility("default")))

namespace collage::xnnpack {
namespace {

std::atomic<int64_t> loops_run{0};

// libpthreadpool's own definitions of what this file defines for pools (the next ones in the
// dynamic linker's search order). Pools are libpthreadpool's, so that they also work where
// XNNPACK was bound to libpthreadpool before this program was loaded; this file only takes
// their thread count.
struct LibraryPools {
  decltype(&pthreadpool_create) create = nullptr;
  decltype(&pthreadpool_destroy) destroy = nullptr;
  decltype(&pthreadpool_get_threads_count) threads_count = nullptr;
  using Parallelize1d = void (*)(pthreadpool_t, pthreadpool_task_1d_t, void*, size_t, uint32_t);
  Parallelize1d parallelize_1d = nullptr;

  static const LibraryPools& Get() {
    static const LibraryPools pools = [] {
      LibraryPools found;
      found.create = reinterpret_cast<decltype(&pthreadpool_create)>(dlsym(RTLD_NEXT, "pthreadpool_create"));
      found.destroy = reinterpret_cast<decltype(&pthreadpool_destroy)>(dlsym(RTLD_NEXT, "pthreadpool_destroy"));
      found.threads_count = reinterpret_cast<decltype(&pthreadpool_get_threads_count)>(
          dlsym(RTLD_NEXT, "pthreadpool_get_threads_count"));
      found.parallelize_1d =
          reinterpret_cast<Parallelize1d>(dlsym(RTLD_NEXT, "pthreadpool_parallelize_1d"));
      return found;
    }();
    return pools;
  }
  bool complete() const {
    return create != nullptr && destroy != nullptr && threads_count != nullptr && parallelize_1d != nullptr;
  }
};

size_t ThreadsOf(pthreadpool_t pool) { return pool == nullptr ? 1 : LibraryPools::Get().threads_count(pool); }

// Flushes denormal results and inputs to zero on the calling thread while alive.
class DenormalsDisabled {
 public:
  explicit DenormalsDisabled(bool active) : active_(active) {
#if defined(__x86_64__) || defined(__i386__)
    if (active_) {
      saved_ = _mm_getcsr();
      constexpr unsigned kFlushToZero = 0x8000, kDenormalsAreZero = 0x0040;
      _mm_setcsr(saved_ | kFlushToZero | kDenormalsAreZero);
    }
#endif
  }
  ~DenormalsDisabled() {
#if defined(__x86_64__) || defined(__i386__)
    if (active_) _mm_setcsr(saved_);
#endif
  }
  DenormalsDisabled(const DenormalsDisabled&) = delete;
  DenormalsDisabled& operator=(const DenormalsDisabled&) = delete;

 private:
  bool active_;
  unsigned saved_ = 0;
};

// One dimension of a loop's grid: indices [0, range) in tiles of `tile` (1: untiled).
struct Dimension {
  size_t range;
  size_t tile;
};

// Runs visit(start, size) for every tile of the grid, the last dimension varying fastest, each
// thread over a contiguous run of tiles.
template <size_t N, typename Visit>
void RunGrid(pthreadpool_t pool, uint32_t flags, const std::array<Dimension, N>& dimensions, const Visit& visit) {
  std::array<size_t, N> tiles{};
  int64_t items = 1;
  for (size_t d = 0; d < N; ++d) {
    tiles[d] = (dimensions[d].range + dimensions[d].tile - 1) / dimensions[d].tile;
    items *= static_cast<int64_t>(tiles[d]);
  }
  if (items == 0) return;
  loops_run.fetch_add(1, std::memory_order_relaxed);
  struct Loop {
    const std::array<Dimension, N>& dimensions;
    const std::array<size_t, N>& tiles;
    const Visit& visit;
    bool disable_denormals;

    static void Run(void* self, int64_t begin, int64_t end) {
      const Loop& loop = *static_cast<const Loop*>(self);
      const DenormalsDisabled denormals(loop.disable_denormals);
      std::array<size_t, N> index{};
      auto rest = static_cast<size_t>(begin);
      for (size_t d = N; d-- > 0;) {
        index[d] = rest % loop.tiles[d];
        rest /= loop.tiles[d];
      }
      std::array<size_t, N> start{}, size{};
      for (int64_t item = begin; item < end; ++item) {
        for (size_t d = 0; d < N; ++d) {
          start[d] = index[d] * loop.dimensions[d].tile;
          size[d] = std::min(loop.dimensions[d].tile, loop.dimensions[d].range - start[d]);
        }
        loop.visit(start, size);
        for (size_t d = N; d-- > 0;) {
          if (++index[d] < loop.tiles[d]) break;
          index[d] = 0;
        }
      }
    }
  };
  Loop loop{dimensions, tiles, visit, (flags & PTHREADPOOL_FLAG_DISABLE_DENORMALS) != 0};
  RunRangesOnOpenMpThreads(static_cast<int>(ThreadsOf(pool)), items, &Loop::Run, &loop);
}

}  // namespace

int64_t LoopsRunOnOpenMpThreads() { return loops_run.load(std::memory_order_relaxed); }

void ParkLibraryWorkers(pthreadpool_t pool) {
  const LibraryPools& pools = LibraryPools::Get();
  pools.parallelize_1d(
      pool, [](void*, size_t) {}, nullptr, pools.threads_count(pool), PTHREADPOOL_FLAG_YIELD_WORKERS);
}

}  // namespace collage::xnnpack

using collage::xnnpack::Dimension;
using collage::xnnpack::LibraryPools;
using collage::xnnpack::RunGrid;

extern "C" {

COLLAGE_EXPORTED pthreadpool_t pthreadpool_create(size_t threads_count) {
  const LibraryPools& pools = LibraryPools::Get();
  if (!pools.complete()) return nullptr;
  pthreadpool_t pool = pools.create(threads_count);
  // A new pool's workers poll for their first job (~20 ms).
  if (pool != nullptr) collage::xnnpack::ParkLibraryWorkers(pool);
  return pool;
}

COLLAGE_EXPORTED void pthreadpool_destroy(pthreadpool_t threadpool) {
  if (threadpool != nullptr) LibraryPools::Get().destroy(threadpool);
}

COLLAGE_EXPORTED size_t pthreadpool_get_threads_count(pthreadpool_t threadpool) {
  return collage::xnnpack::ThreadsOf(threadpool);
}

COLLAGE_EXPORTED void pthreadpool_parallelize_1d(pthreadpool_t threadpool, pthreadpool_task_1d_t function,
                                                 void* context, size_t range, uint32_t flags) {
  RunGrid<1>(threadpool, flags, {{{range, 1}}},
             [&](const auto& start, const auto&) { function(context, start[0]); });
}

COLLAGE_EXPORTED void pthreadpool_parallelize_1d_tile_1d(pthreadpool_t threadpool,
                                                         pthreadpool_task_1d_tile_1d_t function, void* context,
                                                         size_t range, size_t tile, uint32_t flags) {
  RunGrid<1>(threadpool, flags, {{{range, tile}}},
             [&](const auto& start, const auto& size) { function(context, start[0], size[0]); });
}

COLLAGE_EXPORTED void pthreadpool_parallelize_2d(pthreadpool_t threadpool, pthreadpool_task_2d_t function,
                                                 void* context, size_t range_i, size_t range_j, uint32_t flags) {
  RunGrid<2>(threadpool, flags, {{{range_i, 1}, {range_j, 1}}},
             [&](const auto& start, const auto&) { function(context, start[0], start[1]); });
}

COLLAGE_EXPORTED void pthreadpool_parallelize_2d_tile_1d(pthreadpool_t threadpool,
                                                         pthreadpool_task_2d_tile_1d_t function, void* context,
                                                         size_t range_i, size_t range_j, size_t tile_j,
                                                         uint32_t flags) {
  RunGrid<2>(threadpool, flags, {{{range_i, 1}, {range_j, tile_j}}},
             [&](const auto& start, const auto& size) { function(context, start[0], start[1], size[1]); });
}

COLLAGE_EXPORTED void pthreadpool_parallelize_2d_tile_2d(pthreadpool_t threadpool,
                                                         pthreadpool_task_2d_tile_2d_t function, void* context,
                                                         size_t range_i, size_t range_j, size_t tile_i,
                                                         size_t tile_j, uint32_t flags) {
  RunGrid<2>(threadpool, flags, {{{range_i, tile_i}, {range_j, tile_j}}}, [&](const auto& start, const auto& size) {
    function(context, start[0], start[1], size[0], size[1]);
  });
}

COLLAGE_EXPORTED void pthreadpool_parallelize_3d(pthreadpool_t threadpool, pthreadpool_task_3d_t function,
                                                 void* context, size_t range_i, size_t range_j, size_t range_k,
                                                 uint32_t flags) {
  RunGrid<3>(threadpool, flags, {{{range_i, 1}, {range_j, 1}, {range_k, 1}}},
             [&](const auto& start, const auto&) { function(context, start[0], start[1], start[2]); });
}

COLLAGE_EXPORTED void pthreadpool_parallelize_3d_tile_2d(pthreadpool_t threadpool,
                                                         pthreadpool_task_3d_tile_2d_t function, void* context,
                                                         size_t range_i, size_t range_j, size_t range_k,
                                                         size_t tile_j, size_t tile_k, uint32_t flags) {
  RunGrid<3>(threadpool, flags, {{{range_i, 1}, {range_j, tile_j}, {range_k, tile_k}}},
             [&](const auto& start, const auto& size) {
               function(context, start[0], start[1], start[2], size[1], size[2]);
             });
}

COLLAGE_EXPORTED void pthreadpool_parallelize_4d(pthreadpool_t threadpool, pthreadpool_task_4d_t function,
                                                 void* context, size_t range_i, size_t range_j, size_t range_k,
                                                 size_t range_l, uint32_t flags) {
  RunGrid<4>(threadpool, flags, {{{range_i, 1}, {range_j, 1}, {range_k, 1}, {range_l, 1}}},
             [&](const auto& start, const auto&) { function(context, start[0], start[1], start[2], start[3]); });
}

COLLAGE_EXPORTED void pthreadpool_parallelize_4d_tile_2d(pthreadpool_t threadpool,
                                                         pthreadpool_task_4d_tile_2d_t function, void* context,
                                                         size_t range_i, size_t range_j, size_t range_k,
                                                         size_t range_l, size_t tile_k, size_t tile_l,
                                                         uint32_t flags) {
  RunGrid<4>(threadpool, flags, {{{range_i, 1}, {range_j, 1}, {range_k, tile_k}, {range_l, tile_l}}},
             [&](const auto& start, const auto& size) {
               function(context, start[0], start[1], start[2], start[3], size[2], size[3]);
             });
}

COLLAGE_EXPORTED void pthreadpool_parallelize_5d(pthreadpool_t threadpool, pthreadpool_task_5d_t function,
                                                 void* context, size_t range_i, size_t range_j, size_t range_k,
                                                 size_t range_l, size_t range_m, uint32_t flags) {
  RunGrid<5>(threadpool, flags, {{{range_i, 1}, {range_j, 1}, {range_k, 1}, {range_l, 1}, {range_m, 1}}},
             [&](const auto& start, const auto&) {
               function(context, start[0], start[1], start[2], start[3], start[4]);
             });
}

COLLAGE_EXPORTED void pthreadpool_parallelize_5d_tile_2d(pthreadpool_t threadpool,
                                                         pthreadpool_task_5d_tile_2d_t function, void* context,
                                                         size_t range_i, size_t range_j, size_t range_k,
                                                         size_t range_l, size_t range_m, size_t tile_l,
                                                         size_t tile_m, uint32_t flags) {
  RunGrid<5>(threadpool, flags,
             {{{range_i, 1}, {range_j, 1}, {range_k, 1}, {range_l, tile_l}, {range_m, tile_m}}},
             [&](const auto& start, const auto& size) {
               function(context, start[0], start[1], start[2], start[3], start[4], size[3], size[4]);
             });
}

COLLAGE_EXPORTED void pthreadpool_parallelize_6d_tile_2d(pthreadpool_t threadpool,
                                                         pthreadpool_task_6d_tile_2d_t function, void* context,
                                                         size_t range_i, size_t range_j, size_t range_k,
                                                         size_t range_l, size_t range_m, size_t range_n,
                                                         size_t tile_m, size_t tile_n, uint32_t flags) {
  RunGrid<6>(threadpool, flags,
             {{{range_i, 1}, {range_j, 1}, {range_k, 1}, {range_l, 1}, {range_m, tile_m}, {range_n, tile_n}}},
             [&](const auto& start, const auto& size) {
               function(context, start[0], start[1], start[2], start[3], start[4], start[5], size[4], size[5]);
             });
}

}  // extern "C"
