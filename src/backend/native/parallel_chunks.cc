#include "backend/native/parallel_chunks.h"

#include "backend/openmp_ranges.h"

namespace collage::native {
namespace {

struct ChunkRange {
  ::native::ChunkTask task;
  void* context;

  static void Run(void* self, int64_t begin, int64_t end) {
    const auto& range = *static_cast<const ChunkRange*>(self);
    for (int64_t chunk = begin; chunk < end; ++chunk) range.task(range.context, chunk);
  }
};

void RunChunksForKernel(void*, int threads, int64_t chunks, ::native::ChunkTask task, void* context) {
  RunChunksInParallel(threads, chunks, task, context);
}

}  // namespace

void RunChunksInParallel(int threads, int64_t chunks, ::native::ChunkTask task, void* context) {
  ChunkRange range{task, context};
  RunRangesOnOpenMpThreads(threads, chunks, &ChunkRange::Run, &range);
}

::native::Threads KernelThreads(int count) { return ::native::Threads{count, &RunChunksForKernel, nullptr}; }

}  // namespace collage::native
