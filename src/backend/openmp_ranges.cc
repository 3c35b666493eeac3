#include "backend/openmp_ranges.h"

#include <omp.h>

#include <algorithm>

namespace collage {

void RunRangesOnOpenMpThreads(int threads, int64_t items, RangeTask task, void* context) {
  if (items <= 0) return;
  if (threads <= 1 || items == 1 || omp_in_parallel()) {
    task(context, 0, items);
    return;
  }
  const int team = static_cast<int>(std::min<int64_t>(threads, items));
#pragma omp parallel num_threads(team)
  {
    const int64_t thread = omp_get_thread_num();
    const int64_t members = omp_get_num_threads();
    const int64_t begin = items * thread / members;
    const int64_t end = items * (thread + 1) / members;
    if (begin < end) task(context, begin, end);
  }
}

}  // namespace collage
