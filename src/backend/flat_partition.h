// A partition function flattened for library backends: its body as a topologically ordered
// list of op calls over numbered tensor values (parameters, constants, call results), with
// calls to Composite functions inlined and tuples / projections of built tuples resolved.
// Library backends (onednn, openblas) lower this list to their primitives; fusion decisions
// are theirs, made over the flat list with the use counts kept here.
#pragma once

#include <string>
#include <vector>

#include "ir/expr.h"
#include "support/quantization.h"
#include "support/tensor.h"
#include "support/partition_layouts.h"
#include "support/tensor_format.h"

namespace collage {

struct FlatValue {
  enum class Source { kParameter, kConstant, kCall };
  Source source = Source::kCall;
  DType dtype = DType::kF32;
  Shape shape;
  int parameter_index = -1;  // kParameter
  Tensor constant;           // kConstant
  int call_index = -1;       // kCall: index into FlatPartition::calls
  int uses = 0;              // how many call inputs and partition outputs read it
};

struct FlatCall {
  const CallNode* call = nullptr;  // the op call (op() is non-null)
  std::string op;                  // its op name, e.g. "nn.conv2d"
  std::vector<int> inputs;         // value ids; a tuple argument contributes its fields
  int output = -1;                 // value id of its (tensor) result
};

struct FlatPartition {
  std::vector<FlatValue> values;
  std::vector<FlatCall> calls;  // topological order
  std::vector<int> outputs;     // value ids of the flattened result
  std::vector<int> parameters;  // value id of parameter i
  std::vector<std::vector<int>> consumers;  // per value: indices of the calls reading it
  PartitionLayouts boundary_layouts;  // of rank-4 parameters and outputs (boundary_layout.h)
  DType precision = DType::kF32;             // what its products compute in (precision.h)
  std::vector<ActivationRange> parameter_ranges;  // per parameter when precision is not f32

  const FlatValue& value(int id) const { return values.at(static_cast<size_t>(id)); }
  bool IsConstant(int id) const { return value(id).source == FlatValue::Source::kConstant; }
  bool IsOutput(int id) const;
  // The call whose result is `id` is used exactly once, by another call (not as an output).
  bool HasSingleCallUse(int id) const { return value(id).uses == 1 && !IsOutput(id); }
};

// Flattens a type-checked function (type-checks it when needed). Throws Error, prefixed with
// "<backend>: ", for tuple parameters, op calls with tuple results, nested non-Composite
// functions, projections of anything but a built tuple, a boundary layout not in `layouts`, a
// mixed boundary not in `mixed` and a precision other than f32 not in `precisions`.
FlatPartition FlattenPartition(const Function& function, const std::string& backend,
                               const std::vector<Layout>& layouts = {Layout::kPlain},
                               const std::vector<PartitionLayouts>& mixed = {},
                               const std::vector<DType>& precisions = {});

}  // namespace collage
