#include "runtime/memory_planner.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <string>

#include "support/error.h"

namespace collage {
namespace {

size_t RoundUp(size_t bytes, size_t alignment) {
  return (std::max<size_t>(bytes, 1) + alignment - 1) & ~(alignment - 1);
}

bool LifetimesOverlap(const BufferLifetime& a, const BufferLifetime& b) {
  return a.first_step <= b.last_step && b.first_step <= a.last_step;
}

}  // namespace

MemoryPlan PlanMemory(const std::vector<BufferLifetime>& buffers, size_t alignment) {
  Check(alignment != 0 && (alignment & (alignment - 1)) == 0, "PlanMemory: the alignment must be a power of two");
  MemoryPlan plan;
  plan.offsets.assign(buffers.size(), 0);
  std::vector<size_t> sizes(buffers.size());
  std::map<size_t, size_t> live_delta;  // step -> change of live bytes there
  for (size_t i = 0; i < buffers.size(); ++i) {
    Check(buffers[i].first_step <= buffers[i].last_step, "PlanMemory: a buffer's lifetime ends before it starts");
    sizes[i] = RoundUp(buffers[i].bytes, alignment);
    plan.total_bytes += sizes[i];
    live_delta[buffers[i].first_step] += sizes[i];
    live_delta[buffers[i].last_step + 1] -= sizes[i];
  }
  size_t live = 0;
  for (const auto& [step, delta] : live_delta) {
    live += delta;  // unsigned wrap-around cancels out: the running sum is never negative
    plan.live_bytes_bound = std::max(plan.live_bytes_bound, live);
  }

  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return sizes[a] > sizes[b]; });

  std::vector<size_t> placed;
  std::vector<std::pair<size_t, size_t>> taken;  // [begin, end) of placed buffers live with the current one
  for (size_t buffer : order) {
    taken.clear();
    for (size_t other : placed) {
      if (LifetimesOverlap(buffers[buffer], buffers[other])) {
        taken.emplace_back(plan.offsets[other], plan.offsets[other] + sizes[other]);
      }
    }
    std::sort(taken.begin(), taken.end());
    // The lowest gap that fits; offsets and sizes are multiples of the alignment.
    size_t offset = 0;
    for (const auto& [begin, end] : taken) {
      if (begin >= offset + sizes[buffer]) break;
      offset = std::max(offset, end);
    }
    plan.offsets[buffer] = offset;
    plan.arena_bytes = std::max(plan.arena_bytes, offset + sizes[buffer]);
    placed.push_back(buffer);
  }
  return plan;
}

std::string FindLiveOverlap(const std::vector<BufferLifetime>& buffers, const MemoryPlan& plan, size_t alignment) {
  for (size_t a = 0; a < buffers.size(); ++a) {
    for (size_t b = a + 1; b < buffers.size(); ++b) {
      if (!LifetimesOverlap(buffers[a], buffers[b])) continue;
      const size_t a_end = plan.offsets[a] + RoundUp(buffers[a].bytes, alignment);
      const size_t b_end = plan.offsets[b] + RoundUp(buffers[b].bytes, alignment);
      if (plan.offsets[a] < b_end && plan.offsets[b] < a_end) {
        return "buffers " + std::to_string(a) + " and " + std::to_string(b) + " are live together and share bytes";
      }
    }
  }
  return "";
}

}  // namespace collage
