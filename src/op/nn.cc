// nn.dropout: the identity at inference time (SimplifyInference removes it); kept as an op so
// imported graphs can say what they contained.
// nn.pad: pads (or, with negative widths, crops) every axis of a tensor. pad_width is in ONNX
// order [x1_begin, x2_begin, ..., x1_end, x2_end, ...]; new positions take pad_value
// ("constant"), the mirror image without repeating the border ("reflect") or the border
// value ("edge").
#include <algorithm>
#include <limits>

#include "op/all_ops.h"
#include "op/element_access.h"
#include "op/kernel_util.h"
#include "op/nn_common.h"
#include "ir/op_registry.h"
#include "op/type_relation_util.h"

namespace collage {
namespace {

const std::string& GetPadMode(const Attrs& attrs) { return GetChoice(attrs, "mode", {"constant", "reflect", "edge"}); }

Type PadRelation(const std::vector<Type>& arg_types, const Attrs& attrs) {
  const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
  const size_t rank = data.shape.size();
  const std::vector<int64_t> pad_width = GetIntList(attrs, "pad_width", 2 * rank, std::numeric_limits<int64_t>::min());
  const std::string& mode = GetPadMode(attrs);
  Shape out_shape = data.shape;
  for (size_t axis = 0; axis < rank; ++axis) {
    const int64_t extent = data.shape[axis];
    const int64_t begin = pad_width[axis];
    const int64_t end = pad_width[axis + rank];
    const std::string where = "dimension " + std::to_string(axis) + " (extent " + std::to_string(extent) + ")";
    out_shape[axis] = extent + begin + end;
    if (out_shape[axis] < 1) {
      throw TypeError(where + " padded by " + std::to_string(begin) + " and " + std::to_string(end) +
                      " would have extent " + std::to_string(out_shape[axis]) + ", expected at least 1");
    }
    if (mode == "reflect" && std::max(begin, end) > extent - 1) {
      throw TypeError(where + " can be reflect-padded by at most " + std::to_string(extent - 1) +
                      " on each side, got " + std::to_string(begin) + " and " + std::to_string(end));
    }
    if (mode == "edge" && extent < 1) throw TypeError(where + " is empty and cannot be edge-padded");
  }
  return TensorType(data.dtype, out_shape);
}

// The input position that output position `position` of one axis reads, or -1 for the pad value.
int64_t PadSourcePosition(int64_t position, int64_t begin, int64_t extent, const std::string& mode) {
  const int64_t source = position - begin;
  if (source >= 0 && source < extent) return source;
  if (mode == "edge") return source < 0 ? 0 : extent - 1;
  if (mode == "reflect") return source < 0 ? -source : 2 * (extent - 1) - source;
  return -1;
}

// Copies elements, so it works for every dtype; pad_value is stored as StoreDouble converts.
std::vector<Tensor> PadKernel(const std::vector<Tensor>& args, const Attrs& attrs, const Type& result_type) {
  const Tensor& data = args[0];
  Tensor result = AllocateResult(result_type);
  const Shape& in_shape = data.shape();
  const Shape& out_shape = result.shape();
  const std::vector<int64_t>& pad_width = attrs.GetInts("pad_width");
  const std::string& mode = GetPadMode(attrs);
  const double pad_value = attrs.GetFloat("pad_value");
  for (int64_t flat = 0; flat < result.NumElements(); ++flat) {
    std::vector<int64_t> index = UnravelIndex(flat, out_shape);
    bool padded = false;
    for (size_t axis = 0; axis < index.size(); ++axis) {
      index[axis] = PadSourcePosition(index[axis], pad_width[axis], in_shape[axis], mode);
      padded = padded || index[axis] < 0;
    }
    if (padded) {
      StoreDouble(result, flat, pad_value);
    } else {
      CopyElement(data, RavelIndex(index, in_shape), result, flat);
    }
  }
  return {result};
}

}  // namespace

void RegisterNNOps(OpRegistry& registry) {
  registry.Register("nn.dropout")
      .Describe("Dropout; the identity at inference time.")
      .Args({"data"})
      .Attr("rate", AttrKind::kFloat, 0.5)
      .Pattern(OpPatternKind::kElemWise)
      .Relation([](const std::vector<Type>& arg_types, const Attrs&) -> Type {
        const TensorTypeNode& data = ExpectTensorArg(arg_types, 0, "data");
        return TensorType(data.dtype, data.shape);
      })
      .Kernel([](const std::vector<Tensor>& args, const Attrs&, const Type&) {
        return std::vector<Tensor>{args[0].Clone()};
      });
  registry.Register("nn.pad")
      .Describe("pads or crops every axis; pad_width is [x1_begin, x2_begin, ..., x1_end, x2_end, ...]")
      .Args({"data"})
      .Attr("pad_width", AttrKind::kInts)
      .Attr("pad_value", AttrKind::kFloat, 0.0)
      .Attr("mode", AttrKind::kString, std::string("constant"))
      .Pattern(OpPatternKind::kInjective)
      .Relation(PadRelation)
      .Kernel(PadKernel);
}

}  // namespace collage
