#include "backend/native/parallel_chunks.h"

#include <omp.h>

#include <algorithm>
#include <atomic>

namespace collage::native {
namespace {

void RunChunksForKernel(void*, int threads, int64_t chunks, ::native::ChunkTask task, void* context) {
  RunChunksInParallel(threads, chunks, task, context);
}

}  // namespace

void RunChunksInParallel(int threads, int64_t chunks, ::native::ChunkTask task, void* context) {
  if (threads <= 1 || chunks <= 1 || omp_in_parallel()) {
    for (int64_t chunk = 0; chunk < chunks; ++chunk) task(context, chunk);
    return;
  }
  std::atomic<int64_t> next_chunk{0};
  const int team = static_cast<int>(std::min<int64_t>(threads, chunks));
#pragma omp parallel num_threads(team)
  for (int64_t chunk = next_chunk.fetch_add(1, std::memory_order_relaxed); chunk < chunks;
       chunk = next_chunk.fetch_add(1, std::memory_order_relaxed)) {
    task(context, chunk);
  }
}

::native::Threads KernelThreads(int count) { return ::native::Threads{count, &RunChunksForKernel, nullptr}; }

}  // namespace collage::native
