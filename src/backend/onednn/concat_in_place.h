// Concatenations along channels that copy nothing. A group of concatenations whose input lists
// are prefixes of its longest one shares one buffer of the longest one's shape: each input is
// computed straight into its channel slice of the buffer, and each concatenation is a view of
// the buffer's first channels. DenseNet's layers concatenate all earlier features of their block
// (one copy per layer of everything before it, a quarter of densenet121's run); Inception's
// blocks concatenate their branches.
//
// Only for a batch of one and a buffer layout whose channel slices are contiguous: plain, or
// channel-blocked with every slice starting on a block boundary and, but for the last, ending on
// one (a partial block would overlap the next slice). An input that is not computed in its slice
// (a parameter, a constant, a result in another layout, a value in two groups) is copied into it
// before the first concatenation that reads it; a slice's value is never overwritten in place.
#pragma once

#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "backend/flat_partition.h"

namespace collage::onednn {

struct ConcatGroup {
  std::vector<int> members;          // value ids: the longest concatenation's inputs, in order
  std::vector<int64_t> channels;     // channels of each member
  Shape shape;                       // the longest concatenation's result
};

// The groups of `partition`'s channel concatenations of batch 1, and for each call the group
// its concatenation belongs to (-1 for other calls and for concatenations left to copy: those
// of other axes or batches, repeating an input, or sharing an input with a group they are not a
// prefix of).
struct ConcatPlan {
  std::vector<ConcatGroup> groups;
  std::vector<int> group_of_call;
};

ConcatPlan PlanConcatsInPlace(const FlatPartition& partition);

// The channels per block of `desc`, a dense layout of a rank-4 shape, when its channel slices of
// batch 1 are contiguous: 1 for plain, 8 or 16 for channel-blocked; 0 otherwise.
int64_t ContiguousChannelBlock(const dnnl::memory::desc& desc);

}  // namespace collage::onednn
