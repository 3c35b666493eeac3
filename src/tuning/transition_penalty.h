// The transition penalty of measured tuning (DESIGN §8): what handing tensors from one
// backend to another costs, beyond the partitions' own measured times.
//
// Each partition's measured time already includes its own layout conversions (a backend
// preferring NHWC converts at its edges inside its executable), so what is left is the
// hand-over itself: modelled as copying the candidate's non-constant inputs once, at the
// copy bandwidth measured on this machine. No penalty is charged for the first candidate,
// for staying on one backend, or after a host candidate (tuples, projections), whose
// values come from whichever partition produced them.
#pragma once

#include <functional>
#include <string>

#include "collage/search.h"

namespace collage {

// Bytes per second of memcpy between two buffers larger than the last-level cache, the
// median of a few copies (reads and writes each byte once: bytes copied / time).
double MeasureCopyBandwidth();

// The non-constant input bytes of `candidate`'s sub-graph.
double InputBytes(const DataflowGraph& graph, const CandidatePartition& candidate);

// The search's penalty: InputBytes / bytes_per_second when `to` follows another non-host spec.
decltype(SearchOptions::transition_penalty) CopyTransitionPenalty(double bytes_per_second, std::string host_spec);

}  // namespace collage
