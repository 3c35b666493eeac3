// Small graph builders for the xnnpack backend tests: seeded random constants and op calls
// with the attributes the tests vary, and the executable's step plan of a function.
#pragma once

#include <cstdint>
#include <vector>

#include "backend/xnnpack/partition_steps.h"
#include "ir/expr.h"
#include "ir/op_registry.h"
#include "support/tensor.h"

namespace collage::testing::xnnpack {

// A constant of random f32 values in [-1, 1).
Constant RandomConstant(Shape shape, uint64_t seed);

struct Conv2DParams {
  int64_t out_channels = 4;
  std::vector<int64_t> kernel = {3, 3};
  std::vector<int64_t> strides = {1, 1};
  std::vector<int64_t> padding = {0, 0, 0, 0};  // top, left, bottom, right
  std::vector<int64_t> dilation = {1, 1};
  int64_t groups = 1;
};

// nn.conv2d of `data` (channels from its type annotation `in_channels`) with a random weight.
Expr Conv2D(const Expr& data, int64_t in_channels, const Conv2DParams& params, uint64_t seed);

// The type-checked function of `params` and `body`.
Function TypedFunction(std::vector<Var> params, const Expr& body);

// The f32 tensor type of `shape`.
Type F32(Shape shape);

// The steps the XNNPACK executable would run `function` in (partition_steps.h).
::collage::xnnpack::PartitionSteps PlanStepsOf(const Function& function);

}  // namespace collage::testing::xnnpack
