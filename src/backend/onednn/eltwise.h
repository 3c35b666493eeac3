// The unary ops oneDNN computes as an eltwise algorithm, shared by the standalone eltwise
// primitive and the eltwise post-ops fused after convolutions and matrix products.
#pragma once

#include <optional>
#include <oneapi/dnnl/dnnl.hpp>

#include "backend/flat_partition.h"

namespace collage::onednn {

struct EltwiseSpec {
  dnnl::algorithm algorithm = dnnl::algorithm::eltwise_relu;
  float alpha = 0.0f;
  float beta = 0.0f;
};

// The eltwise algorithm computing the unary op call, or nullopt when there is none.
std::optional<EltwiseSpec> EltwiseOf(const FlatCall& call);

}  // namespace collage::onednn
