// Static memory planning for activations: every tensor the executor allocates
// for one run gets an offset in a single arena, chosen from the tensors' lifetimes so that
// tensors alive at the same time never share bytes and tensors with disjoint lifetimes may.
//
// Lifetimes are inclusive step ranges: a tensor produced by step 3 and last read by step 7
// is live in [3, 7]. A step's outputs therefore never alias its inputs (both are live at the
// step). The planner is "greedy by size" (TFLite's arena planner): largest tensors first,
// each placed at the lowest aligned offset that fits between the tensors already placed
// whose lifetimes overlap its own.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace collage {

struct BufferLifetime {
  size_t bytes = 0;
  size_t first_step = 0;
  size_t last_step = 0;  // >= first_step
};

struct MemoryPlan {
  std::vector<size_t> offsets;  // one per buffer, multiples of the alignment
  size_t arena_bytes = 0;       // the arena's size: peak activation memory with reuse
  size_t total_bytes = 0;       // the sum of all buffer sizes: what no reuse would need
  size_t live_bytes_bound = 0;  // the largest sum of sizes live at one step: no plan needs less
};

// `alignment` must be a power of two; every buffer is rounded up to it (a zero-byte buffer
// takes one unit so that its address is distinct).
MemoryPlan PlanMemory(const std::vector<BufferLifetime>& buffers, size_t alignment = 64);

// Two buffers of `plan` alias when their lifetimes overlap and their byte ranges intersect;
// returns a description of the first such pair, or an empty string. For tests and checks.
std::string FindLiveOverlap(const std::vector<BufferLifetime>& buffers, const MemoryPlan& plan, size_t alignment = 64);

}  // namespace collage
