// Where native kernels' parallel loops (runtime/native_threads.h) run: on the host's OpenMP
// threads, split as backend/openmp_ranges.h splits them.
#pragma once

#include <cstdint>

#include "backend/native/runtime/native_threads.h"

namespace collage::native {

// Runs task(context, chunk) for every chunk in [0, chunks) on up to `threads` threads, the
// caller among them; thread t of n runs the t-th n-th of the chunks (RunRangesOnOpenMpThreads).
void RunChunksInParallel(int threads, int64_t chunks, ::native::ChunkTask task, void* context);

// The threads a kernel may use: at most `count` at once, through RunChunksInParallel.
::native::Threads KernelThreads(int count);

}  // namespace collage::native
