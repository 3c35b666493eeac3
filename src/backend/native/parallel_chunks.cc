#include "backend/native/parallel_chunks.h"

#include <omp.h>

#include <algorithm>

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
  const int team = static_cast<int>(std::min<int64_t>(threads, chunks));
#pragma omp parallel num_threads(team)
  {
    const int64_t thread = omp_get_thread_num();
    const int64_t members = omp_get_num_threads();
    const int64_t end = chunks * (thread + 1) / members;
    for (int64_t chunk = chunks * thread / members; chunk < end; ++chunk) task(context, chunk);
  }
}

::native::Threads KernelThreads(int count) { return ::native::Threads{count, &RunChunksForKernel, nullptr}; }

}  // namespace collage::native
