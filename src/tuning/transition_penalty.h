// The transition penalty of measured tuning (DESIGN §8): what handing tensors from one
// backend to another costs, beyond the partitions' own measured times.
//
// Each partition's measured time already includes its own layout conversions (a backend
// preferring NHWC converts at its edges inside its executable), so what is left is the
// hand-over itself: modelled as copying the value once, at the copy bandwidth measured on
// this machine. The search charges it on every dataflow edge from a partition of one backend
// to a partition of another (once per value and consuming partition); a projection passes on
// the backend of the partition that computed its tuple, and parameters and constants cost
// nothing.
#pragma once

#include <functional>
#include <string>

#include "collage/search.h"

namespace collage {

// Bytes per second of memcpy between two buffers larger than the last-level cache, the
// median of a few copies (reads and writes each byte once: bytes copied / time).
double MeasureCopyBandwidth();

// The bytes of node `value`'s tensor (summed over a tuple's fields); 0 for a constant.
double ValueBytes(const DataflowGraph& graph, size_t value);

// The search's penalty: ValueBytes / bytes_per_second, whatever the two specs.
decltype(SearchOptions::transition_penalty) CopyTransitionPenalty(double bytes_per_second);
// Its bound per value, which is the penalty itself.
decltype(SearchOptions::transition_penalty_bound) CopyTransitionPenaltyBound(double bytes_per_second);

}  // namespace collage
