// Backends whose parallel loops run on the process's OpenMP threads (GNU libgomp: the team that
// oneDNN's primitives also run on) split their loops here. When partitions of such backends
// alternate, the next loop goes to threads still polling after the last one instead of waking
// a second pool, and no idle pool polls on the cores another backend needs
// (backend/openmp_wait_settings.h sets how long they poll).
#pragma once

#include <cstdint>

namespace collage {

// Runs task(context, begin, end) on consecutive ranges covering [0, items), one per thread of a
// team of up to `threads` threads, the caller among them. Thread t of n gets the t-th n-th of
// the items, so consecutive loops over the same data leave each part on the same core, as
// oneDNN's static schedules do (handing out items first come, first served moved half the data
// between cores' caches on every loop: 2-thread layer norms ran 2.5 times slower than on one
// thread). A call made inside such a loop (nested), or with one thread or one item, runs the
// whole range on the calling thread.
using RangeTask = void (*)(void* context, int64_t begin, int64_t end);
void RunRangesOnOpenMpThreads(int threads, int64_t items, RangeTask task, void* context);

}  // namespace collage
