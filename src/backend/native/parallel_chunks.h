// Where native kernels' parallel loops (runtime/native_threads.h) run: on the host's OpenMP
// runtime, the libgomp thread team that oneDNN's primitives also run on. When partitions of
// the two backends alternate, the next partition's loop goes to threads still polling after
// the last one instead of waking a second pool, and no idle pool polls on the cores the other
// needs. The workers poll briefly after a loop, then sleep (backend/openmp_wait_settings.h).
#pragma once

#include <cstdint>

#include "backend/native/runtime/native_threads.h"

namespace collage::native {

// Runs task(context, chunk) for every chunk in [0, chunks) on up to `threads` threads, the
// caller among them. Thread t of n runs the t-th n-th of the chunks, so consecutive loops over
// the same data leave each part on the same core, as oneDNN's static schedules do (handing out
// chunks first come, first served moved half the data between cores' caches on every loop:
// 2-thread layer norms ran 2.5 times slower than on one thread). A call made inside such a
// loop (nested) runs its chunks on the calling thread.
void RunChunksInParallel(int threads, int64_t chunks, ::native::ChunkTask task, void* context);

// The threads a kernel may use: at most `count` at once, through RunChunksInParallel.
::native::Threads KernelThreads(int count);

}  // namespace collage::native
