// Describing a tensor of another shape in the layout of a given memory: a broadcast operand
// or a concatenation input read in the blocked layout its partner already has, which keeps
// oneDNN's binary and concat primitives on their optimized kernels (they take operands of one
// layout family; a blocked operand next to a plain one sends them to the reference kernel).
#pragma once

#include <optional>

#include <oneapi/dnnl/dnnl.hpp>

namespace collage::onednn {

// `dims` in the layout of `like` when that layout is one of oneDNN's format tags for its rank
// (plain, transposed or channels-last, or, from rank 3, channel-blocked by 4, 8 or 16); none
// otherwise.
std::optional<dnnl::memory::desc> LayoutLike(const dnnl::memory::desc& like, const dnnl::memory::dims& dims);

// The rank-4 channel-blocked format of oneDNN's jit kernels on this CPU: blocks of 16 channels
// with AVX-512, else 8.
dnnl::memory::format_tag JitChannelBlockTag();

}  // namespace collage::onednn
