// The layouts a partition reads its rank-4 inputs and writes its rank-4 outputs in: the same
// layout on both sides, or (for backends that declare the pair) one for the inputs and another
// for the outputs, e.g. a partition that reads plain tensors and leaves channel-blocked ones.
#pragma once

#include <compare>
#include <optional>
#include <string>

#include "support/dtype.h"
#include "support/tensor_format.h"

namespace collage {

// The layout of a partition's rank-4 parameters and of its rank-4 results.
struct PartitionLayouts {
  Layout parameters = Layout::kPlain;
  Layout results = Layout::kPlain;

  // Not an aggregate: {layout} must not silently mean {layout, plain}.
  PartitionLayouts() = default;
  PartitionLayouts(Layout parameters_layout, Layout results_layout)
      : parameters(parameters_layout), results(results_layout) {}

  static PartitionLayouts Uniform(Layout layout) { return {layout, layout}; }
  bool IsUniform() const { return parameters == results; }
  bool IsPlain() const { return parameters == Layout::kPlain && results == Layout::kPlain; }
  auto operator<=>(const PartitionLayouts& other) const = default;
};

// "nchw8c" for a uniform boundary, "plain>nchw8c" for a mixed one.
std::string PartitionLayoutsName(const PartitionLayouts& layouts);
std::optional<PartitionLayouts> ParsePartitionLayouts(const std::string& name);
// `name` followed by the boundary unless it is plain and the precision unless it is f32, in
// brackets: how listings name a backend's partition ("onednn", "onednn [plain>nchw8c]",
// "onednn [nchw8c i8]").
std::string WithLayoutsSuffix(const std::string& name, const PartitionLayouts& layouts,
                              DType precision = DType::kF32);

}  // namespace collage
