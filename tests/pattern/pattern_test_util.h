// Small graph and match helpers shared by the pattern tests.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "ir/expr.h"
#include "ir/op_registry.h"
#include "pattern/pattern_matcher.h"
#include "testing/graph_builders.h"

namespace collage::testing {

inline Var TensorVar(const std::string& name, Shape shape = {1, 8}) { return MakeVar(name, F32(std::move(shape))); }

inline Constant ConstantOf(Shape shape, float value = 0.5f) {
  Tensor tensor = Tensor::Zeros(DType::kF32, shape);
  for (int64_t i = 0; i < tensor.NumElements(); ++i) tensor.SetFromDouble(i, value);
  return MakeConstant(tensor);
}

// The number of matches rooted at `root`.
inline size_t CountRootedAt(const std::vector<PatternMatch>& matches, const Expr& root) {
  return static_cast<size_t>(
      std::count_if(matches.begin(), matches.end(), [&](const PatternMatch& match) { return match.root == root; }));
}

}  // namespace collage::testing
