// How generated kernels run loops in parallel: through the host's OpenMP threads, reached by a
// plain function pointer, so that every shared object uses the host's one thread team and
// carries no OpenMP runtime of its own. This header is included by the host
// (parallel_chunks.h) as well as by generated code.
#pragma once

#include <cstdint>

namespace native {

using ChunkTask = void (*)(void* context, int64_t chunk);

// Runs task(context, chunk) for every chunk in [0, chunks) on up to `threads` threads and
// returns when all are done.
using RunChunks = void (*)(void* pool, int threads, int64_t chunks, ChunkTask task, void* context);

// The threads a kernel may use: at most `count` at once, through `run` (null: serially).
struct Threads {
  int count = 1;
  RunChunks run = nullptr;
  void* pool = nullptr;
};

}  // namespace native
