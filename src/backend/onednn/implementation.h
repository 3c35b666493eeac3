// Which of oneDNN's implementations a primitive runs. oneDNN falls back to its reference
// implementations ("ref:any", "ref_..."), generic loops that are often 10-100x slower than its
// jit kernels, when no optimized kernel takes the layouts or attributes it was given; the
// backend never runs one silently: the builders try other layouts first, and a partition that
// still needs one is refused.
#pragma once

#include <string>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "backend/onednn/lowering.h"

namespace collage::onednn {

// The implementation's name as oneDNN's verbose mode prints it ("jit:avx2", "ref:any").
std::string ImplementationName(const dnnl::primitive_desc_base& description);
std::string ImplementationName(const dnnl::primitive& primitive);

// A reference implementation: its name starts with "ref".
bool IsReference(const std::string& implementation_name);
bool IsReference(const dnnl::primitive_desc_base& description);

// One of oneDNN's jit kernels: its name starts with "jit" (neither a reference nor a generic
// "simple" loop).
bool IsJit(const std::string& implementation_name);
bool IsJit(const dnnl::primitive_desc_base& description);

// The primitive's kind as oneDNN names it ("binary", "reorder").
std::string KindName(const dnnl::primitive& primitive);

// Throws Error ("onednn: slow path: ...") when a step from `first` on runs a reference
// implementation; `what` names what those steps compute ("multiply on (1, 8), (8)").
void RefuseReferenceImplementations(const std::vector<Step>& steps, size_t first, const std::string& what);

}  // namespace collage::onednn
