// XNNPACK's parallel loops, on the process's OpenMP threads.
//
// XNNPACK parallelizes through the pthreadpool C interface. This backend defines that
// interface's loops itself (openmp_thread_pool.cc): every loop XNNPACK hands to a pool runs on
// the OpenMP team that oneDNN's primitives and the native backend's kernels run on, split as
// backend/openmp_ranges.h splits theirs. With pthreadpool's own workers, each partition that
// followed an XNNPACK one paid to wake the OpenMP threads that had gone to sleep meanwhile, and
// XNNPACK woke its own on every run: 40-55 us measured per hand-over to oneDNN or the native
// backend on 2 threads, which kept the search from mixing XNNPACK with them.
//
// The definitions take the place of libpthreadpool's (which libXNNPACK names as a dependency)
// because the program or library linking this backend comes before libXNNPACK's dependencies in
// the dynamic linker's search order. Pools stay libpthreadpool's (created, counted and destroyed
// by its own functions), so that where XNNPACK was bound to that library before this program
// was loaded (a Python process that imported torch first), it still runs, on the library's
// workers. The yield flag has no effect on OpenMP threads (their wait policy is the process's,
// backend/openmp_wait_settings.h); the flag that disables denormals holds on every thread for
// the duration of the loop.
#pragma once

#include <pthreadpool.h>

#include <cstdint>

namespace collage::xnnpack {

// How many parallel loops pools of this process have run through the definitions above, for
// tests that check XNNPACK reaches them.
int64_t LoopsRunOnOpenMpThreads();

// Sends the library's own workers of `pool` (non-null) to sleep: they poll for the next job (a
// million pause instructions, ~20 ms here) unless the last job carried the yield flag. An empty
// job with the flag, spanning every thread, through libpthreadpool's own function (a call to
// pthreadpool_parallelize_1d from this program would reach the definitions above).
void ParkLibraryWorkers(pthreadpool_t pool);

}  // namespace collage::xnnpack
